-- kickoff's database, version 1: accounts, their sessions and tokens, games and their turns,
-- chats, seeks and challenges. Times are milliseconds since 1970 (UTC).

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    created INTEGER NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    banned INTEGER NOT NULL DEFAULT 0,
    muted INTEGER NOT NULL DEFAULT 0,
    email TEXT
);

-- Browser sessions and bearer tokens, each kept as the SHA-256 of its secret.
CREATE TABLE sessions (
    hash BLOB PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions(user);

CREATE TABLE tokens (
    hash BLOB PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    created INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_user ON tokens(user);

-- Definitions sent by clients, by the name their games' records give them (HASH.toml).
CREATE TABLE definitions (
    name TEXT PRIMARY KEY,
    text TEXT NOT NULL
) WITHOUT ROWID;

-- Every game the database holds: games of the lobby (their players are accounts) and games by
-- link imported from a games folder. `head` is the tags part of its record; its turns are
-- rows of `turns`.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    head TEXT NOT NULL,
    variant TEXT NOT NULL,
    white INTEGER REFERENCES users(id),
    black INTEGER REFERENCES users(id),
    clock TEXT,
    white_ms INTEGER,
    black_ms INTEGER,
    since INTEGER,
    deadline INTEGER,
    result TEXT,
    termination TEXT,
    plies INTEGER NOT NULL DEFAULT 0,
    to_move TEXT NOT NULL DEFAULT 'white',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    rematch_of TEXT
) WITHOUT ROWID;
CREATE INDEX games_white ON games(white, result);
CREATE INDEX games_black ON games(black, result);
CREATE INDEX games_going ON games(result, updated);
CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;

CREATE TABLE turns (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    name TEXT NOT NULL,
    at INTEGER NOT NULL,
    left_ms INTEGER,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;

CREATE TABLE chats (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user INTEGER NOT NULL REFERENCES users(id),
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chats_game ON chats(game, id);

-- Whose chat each user does not want to read.
CREATE TABLE mutes (
    user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    muted INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (user, muted)
) WITHOUT ROWID;

-- Open seeks (`target` null) and challenges to one player.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    target INTEGER REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    setup TEXT,
    color TEXT NOT NULL,
    clock TEXT NOT NULL,
    created INTEGER NOT NULL,
    expires INTEGER,
    rematch_of TEXT
) WITHOUT ROWID;
CREATE INDEX seeks_user ON seeks(user);
