-- kickoff's database, version 2: variants published by accounts, each a list of versions, and
-- the start diagram of each version. A version is a definition of `definitions`, named by the
-- hash of its text (HASH.toml), so that a game keeps the version it started with.

CREATE TABLE variants (
    id INTEGER PRIMARY KEY,
    owner INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    -- `private`, `unlisted` or `public`.
    visibility TEXT NOT NULL,
    -- Hidden by an administrator: seen by its owner and administrators only.
    hidden INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    -- The newest version's name, title, board and ball, for the gallery's search.
    latest TEXT NOT NULL REFERENCES definitions(name),
    title TEXT NOT NULL,
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    ball TEXT NOT NULL,
    UNIQUE (owner, name)
);
CREATE INDEX variants_listed ON variants(visibility, hidden, updated);

CREATE TABLE versions (
    variant INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
    definition TEXT NOT NULL REFERENCES definitions(name),
    created INTEGER NOT NULL,
    title TEXT NOT NULL,
    files INTEGER NOT NULL,
    ranks INTEGER NOT NULL,
    ball TEXT NOT NULL,
    PRIMARY KEY (variant, definition)
) WITHOUT ROWID;
CREATE INDEX versions_definition ON versions(definition);
CREATE INDEX versions_created ON versions(created);

-- The start position of a published definition, drawn once.
CREATE TABLE diagrams (
    definition TEXT PRIMARY KEY REFERENCES definitions(name),
    svg TEXT NOT NULL
) WITHOUT ROWID;
