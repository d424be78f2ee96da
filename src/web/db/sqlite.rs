//! [`Storage`] in an embedded SQLite file.
//!
//! One connection, taken in turn: SQLite writes one transaction at a time whatever the number
//! of connections, and each of kickoff's transactions is a few rows. The file is in
//! write-ahead-log mode with `synchronous = FULL`: a change is on disk when its transaction
//! returns, so a server killed at any moment keeps every change it acknowledged.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, Row, params};
use rusqlite_migration::{M, Migrations};

use super::{
    Chat, ClockSpec, ClockState, Color, DbError, DbResult, Flag, GalleryQuery, GameFilter, GameRow,
    GameSave, NewVersion, Published, Seek, Storage, TokenInfo, TurnRow, User, VariantRow,
    VersionFacts, VersionRow, Visibility, token_id,
};
use crate::side::Side;
use crate::web::session::lock;

/// The schema's versions, oldest first; a database is brought to the last when it is opened.
const MIGRATIONS: &[M<'static>] =
    &[M::up(include_str!("schema-1.sql")), M::up(include_str!("schema-2.sql"))];

/// kickoff's database in one SQLite file.
pub struct Sqlite {
    connection: Mutex<Connection>,
}

fn failed(e: impl std::fmt::Display) -> DbError {
    DbError::Failed(e.to_string())
}

impl Sqlite {
    /// Opens (or makes) the database at `path`, bringing its schema up to date.
    ///
    /// # Errors
    /// The file cannot be opened, is not a database, or is of a newer kickoff.
    pub fn open(path: &Path) -> DbResult<Sqlite> {
        let mut connection = Connection::open(path).map_err(failed)?;
        Self::prepare(&mut connection)?;
        Ok(Sqlite { connection: Mutex::new(connection) })
    }

    fn prepare(connection: &mut Connection) -> DbResult<()> {
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                 PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
            )
            .map_err(failed)?;
        let migrations = Migrations::from_slice(MIGRATIONS);
        migrations.to_latest(connection).map_err(|e| match e {
            rusqlite_migration::Error::MigrationDefinition(
                rusqlite_migration::MigrationDefinitionError::DatabaseTooFarAhead,
            ) => DbError::Failed(
                "the database was written by a newer kickoff: use that one, or another --data \
                 folder"
                    .to_owned(),
            ),
            other => failed(other),
        })
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> DbResult<T> {
        f(&mut lock(&self.connection)).map_err(failed)
    }
}

const USER_COLUMNS: &str = "id, name, admin, banned, muted, email";

fn user(row: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        id: row.get(0)?,
        name: row.get(1)?,
        admin: row.get(2)?,
        banned: row.get(3)?,
        muted: row.get(4)?,
        email: row.get(5)?,
    })
}

fn clock_text(clock: &ClockSpec) -> String {
    serde_json::to_string(clock).unwrap_or_default()
}

fn clock_of(text: Option<String>) -> Option<ClockSpec> {
    text.and_then(|t| serde_json::from_str(&t).ok())
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
        Color::Random => "random",
    }
}

const GAME_COLUMNS: &str = "g.id, g.head, g.variant, g.white, w.name, g.black, b.name, g.clock, \
     g.white_ms, g.black_ms, g.since, g.result, g.termination, g.plies, g.created, g.updated, \
     g.rematch_of, g.deadline, g.to_move";
const GAME_FROM: &str =
    "games g LEFT JOIN users w ON w.id = g.white LEFT JOIN users b ON b.id = g.black";

fn game_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    let account = |id: usize, name: usize| -> rusqlite::Result<Option<(i64, String)>> {
        let id: Option<i64> = row.get(id)?;
        let name: Option<String> = row.get(name)?;
        Ok(id.zip(name))
    };
    let white_ms: Option<i64> = row.get(8)?;
    let black_ms: Option<i64> = row.get(9)?;
    let since: Option<i64> = row.get(10)?;
    let plies: i64 = row.get(13)?;
    Ok(GameRow {
        id: row.get(0)?,
        head: row.get(1)?,
        variant: row.get(2)?,
        white: account(3, 4)?,
        black: account(5, 6)?,
        clock: clock_of(row.get(7)?),
        clocks: match (white_ms, black_ms, since) {
            (Some(white), Some(black), Some(since)) => Some(ClockState { white, black, since }),
            _ => None,
        },
        result: row.get(11)?,
        termination: row.get(12)?,
        plies: usize::try_from(plies).unwrap_or(0),
        created: row.get(14)?,
        updated: row.get(15)?,
        rematch_of: row.get(16)?,
        deadline: row.get(17)?,
        to_move: if row.get::<_, String>(18)? == "black" { Side::Black } else { Side::White },
    })
}

const SEEK_COLUMNS: &str = "s.id, s.user, u.name, s.target, t.name, s.variant, s.setup, s.color, \
     s.clock, s.created, s.expires, s.rematch_of, \
     (SELECT title FROM versions WHERE definition = s.variant ORDER BY created LIMIT 1)";
const SEEK_FROM: &str =
    "seeks s JOIN users u ON u.id = s.user LEFT JOIN users t ON t.id = s.target";

fn seek_row(row: &Row<'_>) -> rusqlite::Result<Seek> {
    let target: Option<i64> = row.get(3)?;
    let target_name: Option<String> = row.get(4)?;
    let color: String = row.get(7)?;
    let clock: String = row.get(8)?;
    Ok(Seek {
        id: row.get(0)?,
        user: row.get(1)?,
        user_name: row.get(2)?,
        target: target.zip(target_name),
        variant: row.get(5)?,
        setup: row.get(6)?,
        color: match color.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ => Color::Random,
        },
        clock: clock_of(Some(clock)).unwrap_or(ClockSpec::Correspondence { days: 3 }),
        created: row.get(9)?,
        expires: row.get(10)?,
        rematch_of: row.get(11)?,
        title: row.get(12)?,
    })
}

const VARIANT_COLUMNS: &str = "v.id, v.owner, u.name, v.name, v.visibility, v.hidden, \
     v.created, v.updated, v.latest, v.title, v.files, v.ranks, v.ball";
const VARIANT_FROM: &str = "variants v JOIN users u ON u.id = v.owner";

fn variant_row(row: &Row<'_>) -> rusqlite::Result<VariantRow> {
    let visibility: String = row.get(4)?;
    Ok(VariantRow {
        id: row.get(0)?,
        owner: row.get(1)?,
        owner_name: row.get(2)?,
        name: row.get(3)?,
        visibility: Visibility::from_name(&visibility),
        hidden: row.get(5)?,
        created: row.get(6)?,
        updated: row.get(7)?,
        latest: VersionFacts {
            version: row.get(8)?,
            title: row.get(9)?,
            files: row.get(10)?,
            ranks: row.get(11)?,
            ball: row.get(12)?,
        },
    })
}

/// `text` as a pattern of `LIKE ... ESCAPE '\'` that matches it anywhere.
fn like_anywhere(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

impl Storage for Sqlite {
    fn create_user(&self, name: &str, password: &str, now: i64) -> DbResult<User> {
        let c = lock(&self.connection);
        let done = c.execute(
            "INSERT INTO users (name, password, created) VALUES (?1, ?2, ?3)",
            params![name, password, now],
        );
        match done {
            Ok(_) => {}
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                return Err(DbError::Taken);
            }
            Err(e) => return Err(failed(e)),
        }
        let id = c.last_insert_rowid();
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1");
        c.query_row(&sql, [id], user).map_err(failed)
    }

    fn set_password(&self, user: i64, password: &str, keep: Option<&[u8]>) -> DbResult<()> {
        self.with(|c| {
            let t = c.transaction()?;
            t.execute("UPDATE users SET password = ?2 WHERE id = ?1", params![user, password])?;
            t.execute(
                "DELETE FROM sessions WHERE user = ?1 AND hash IS NOT ?2",
                params![user, keep],
            )?;
            t.commit()
        })
    }

    fn user_by_name(&self, name: &str) -> DbResult<Option<(User, String)>> {
        let sql = format!("SELECT {USER_COLUMNS}, password FROM users WHERE name = ?1");
        self.with(|c| c.query_row(&sql, [name], |row| Ok((user(row)?, row.get(6)?))).optional())
    }

    fn set_flag(&self, name: &str, flag: Flag, on: bool) -> DbResult<bool> {
        let column = match flag {
            Flag::Admin => "admin",
            Flag::Banned => "banned",
            Flag::Muted => "muted",
        };
        self.with(|c| {
            let tx = c.transaction()?;
            let changed = tx.execute(
                &format!("UPDATE users SET {column} = ?1 WHERE name = ?2"),
                params![on, name],
            )?;
            if flag == Flag::Banned && on {
                // A banned account's sessions end, and its seeks go.
                tx.execute(
                    "DELETE FROM sessions WHERE user IN (SELECT id FROM users WHERE name = ?1)",
                    [name],
                )?;
                tx.execute(
                    "DELETE FROM seeks WHERE user IN (SELECT id FROM users WHERE name = ?1)",
                    [name],
                )?;
            }
            tx.commit()?;
            Ok(changed > 0)
        })
    }

    fn set_email(&self, user: i64, email: Option<&str>) -> DbResult<()> {
        self.with(|c| {
            c.execute("UPDATE users SET email = ?1 WHERE id = ?2", params![email, user]).map(drop)
        })
    }

    fn create_session(&self, hash: &[u8], user: i64, now: i64, expires: i64) -> DbResult<()> {
        self.with(|c| {
            let tx = c.transaction()?;
            // Sessions that have lapsed go when new ones come.
            tx.execute("DELETE FROM sessions WHERE expires < ?1", [now])?;
            tx.execute(
                "INSERT INTO sessions (hash, user, created, expires) VALUES (?1, ?2, ?3, ?4)",
                params![hash, user, now, expires],
            )?;
            tx.commit()
        })
    }

    fn session_user(&self, hash: &[u8], now: i64) -> DbResult<Option<User>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id = \
             (SELECT user FROM sessions WHERE hash = ?1 AND expires >= ?2)"
        );
        self.with(|c| c.query_row(&sql, params![hash, now], user).optional())
    }

    fn delete_session(&self, hash: &[u8]) -> DbResult<()> {
        self.with(|c| c.execute("DELETE FROM sessions WHERE hash = ?1", [hash]).map(drop))
    }

    fn create_token(&self, hash: &[u8], user: i64, label: &str, now: i64) -> DbResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO tokens (hash, user, label, created) VALUES (?1, ?2, ?3, ?4)",
                params![hash, user, label, now],
            )
            .map(drop)
        })
    }

    fn token_user(&self, hash: &[u8]) -> DbResult<Option<User>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id = (SELECT user FROM tokens WHERE hash = ?1)"
        );
        self.with(|c| c.query_row(&sql, [hash], user).optional())
    }

    fn tokens(&self, user: i64) -> DbResult<Vec<TokenInfo>> {
        self.with(|c| {
            let mut statement = c.prepare_cached(
                "SELECT hash, label, created FROM tokens WHERE user = ?1 ORDER BY created, hash",
            )?;
            let rows = statement.query_map([user], |r| {
                let hash: Vec<u8> = r.get(0)?;
                Ok(TokenInfo { id: token_id(&hash), label: r.get(1)?, created: r.get(2)? })
            })?;
            rows.collect()
        })
    }

    fn delete_token(&self, user: i64, id: &str) -> DbResult<bool> {
        // An account has a few tokens: each is named by its id as the list gives it.
        self.with(|c| {
            let t = c.transaction()?;
            let hashes: Vec<Vec<u8>> = t
                .prepare_cached("SELECT hash FROM tokens WHERE user = ?1")?
                .query_map([user], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let Some(hash) = hashes.iter().find(|h| token_id(h).eq_ignore_ascii_case(id)) else {
                return Ok(false);
            };
            t.execute("DELETE FROM tokens WHERE hash = ?1", [hash])?;
            t.commit()?;
            Ok(true)
        })
    }

    fn token_count(&self, user: i64) -> DbResult<usize> {
        self.with(|c| {
            c.query_row("SELECT COUNT(*) FROM tokens WHERE user = ?1", [user], |r| {
                r.get::<_, i64>(0)
            })
        })
        .map(|n| usize::try_from(n).unwrap_or(0))
    }

    fn save_definition(&self, name: &str, text: &str) -> DbResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO definitions (name, text) VALUES (?1, ?2)",
                params![name, text],
            )
            .map(drop)
        })
    }

    fn definition(&self, name: &str) -> DbResult<Option<String>> {
        self.with(|c| {
            c.query_row("SELECT text FROM definitions WHERE name = ?1", [name], |r| r.get(0))
                .optional()
        })
    }

    fn save_game(&self, save: &GameSave<'_>) -> DbResult<()> {
        let row = save.row;
        let plies = i64::try_from(save.turns.len()).unwrap_or(i64::MAX);
        self.with(|c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO games (id, head, variant, white, black, clock, white_ms, black_ms, \
                 since, result, termination, plies, created, updated, rematch_of, deadline, \
                 to_move) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
                 ?17) \
                 ON CONFLICT (id) DO UPDATE SET head = excluded.head, \
                 white_ms = excluded.white_ms, black_ms = excluded.black_ms, \
                 since = excluded.since, deadline = excluded.deadline, \
                 result = excluded.result, \
                 termination = excluded.termination, plies = excluded.plies, \
                 to_move = excluded.to_move, \
                 updated = excluded.updated",
                params![
                    row.id,
                    row.head,
                    row.variant,
                    row.white.as_ref().map(|w| w.0),
                    row.black.as_ref().map(|b| b.0),
                    row.clock.as_ref().map(clock_text),
                    row.clocks.map(|c| c.white),
                    row.clocks.map(|c| c.black),
                    row.clocks.map(|c| c.since),
                    row.result,
                    row.termination,
                    plies,
                    row.created,
                    row.updated,
                    row.rematch_of,
                    row.deadline,
                    if row.to_move == Side::Black { "black" } else { "white" },
                ],
            )?;
            let kept: i64 =
                tx.query_row("SELECT COUNT(*) FROM turns WHERE game = ?1", [&row.id], |r| {
                    r.get(0)
                })?;
            if kept > plies {
                tx.execute(
                    "DELETE FROM turns WHERE game = ?1 AND ply >= ?2",
                    params![row.id, plies],
                )?;
            }
            let mut insert = tx.prepare(
                "INSERT INTO turns (game, ply, name, at, left_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            let first = usize::try_from(kept).unwrap_or(0);
            for (ply, name) in save.turns.iter().enumerate().skip(first) {
                let last = ply + 1 == save.turns.len();
                insert.execute(params![
                    row.id,
                    i64::try_from(ply).unwrap_or(i64::MAX),
                    name,
                    save.at,
                    if last { save.left } else { None }
                ])?;
            }
            drop(insert);
            tx.commit()
        })
    }

    fn game(&self, id: &str) -> DbResult<Option<GameRow>> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM {GAME_FROM} WHERE g.id = ?1");
        self.with(|c| c.query_row(&sql, [id], game_row).optional())
    }

    fn turns(&self, id: &str) -> DbResult<Vec<TurnRow>> {
        self.with(|c| {
            let mut select =
                c.prepare("SELECT name, at, left_ms FROM turns WHERE game = ?1 ORDER BY ply")?;
            let rows = select.query_map([id], |r| {
                Ok(TurnRow { name: r.get(0)?, at: r.get(1)?, left: r.get(2)? })
            })?;
            rows.collect()
        })
    }

    fn games(&self, filter: GameFilter, limit: usize) -> DbResult<Vec<GameRow>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with(|c| match filter {
            GameFilter::InProgress => {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM {GAME_FROM} WHERE g.result IS NULL \
                     AND g.white IS NOT NULL AND g.black IS NOT NULL \
                     ORDER BY g.updated DESC LIMIT ?1"
                );
                let mut select = c.prepare(&sql)?;
                select.query_map([limit], game_row)?.collect()
            }
            GameFilter::Of(user) => {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM {GAME_FROM} WHERE g.white = ?1 OR g.black = ?1 \
                     ORDER BY g.result IS NOT NULL, g.updated DESC LIMIT ?2"
                );
                let mut select = c.prepare(&sql)?;
                select.query_map(params![user, limit], game_row)?.collect()
            }
        })
    }

    fn games_going(&self, user: i64) -> DbResult<usize> {
        self.with(|c| {
            c.query_row(
                "SELECT (SELECT COUNT(*) FROM games WHERE white = ?1 AND result IS NULL) + \
                 (SELECT COUNT(*) FROM games WHERE black = ?1 AND result IS NULL)",
                [user],
                |r| r.get::<_, i64>(0),
            )
        })
        .map(|n| usize::try_from(n).unwrap_or(0))
    }

    fn deadlines(&self) -> DbResult<Vec<(String, i64)>> {
        self.with(|c| {
            let mut select = c.prepare(
                "SELECT id, deadline FROM games WHERE deadline IS NOT NULL AND result IS NULL",
            )?;
            select.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
        })
    }

    fn create_seek(&self, seek: &Seek) -> DbResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO seeks (id, user, target, variant, setup, color, clock, created, \
                 expires, rematch_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    seek.id,
                    seek.user,
                    seek.target.as_ref().map(|t| t.0),
                    seek.variant,
                    seek.setup,
                    color_name(seek.color),
                    clock_text(&seek.clock),
                    seek.created,
                    seek.expires,
                    seek.rematch_of,
                ],
            )
            .map(drop)
        })
    }

    fn seeks(&self, user: Option<i64>, now: i64) -> DbResult<Vec<Seek>> {
        let sql = format!(
            "SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE s.target IS NULL \
             OR s.user = ?1 OR s.target = ?1 ORDER BY s.created"
        );
        self.with(|c| {
            c.execute("DELETE FROM seeks WHERE expires IS NOT NULL AND expires < ?1", [now])?;
            let mut select = c.prepare(&sql)?;
            select.query_map([user.unwrap_or(-1)], seek_row)?.collect()
        })
    }

    fn seek(&self, id: &str) -> DbResult<Option<Seek>> {
        let sql = format!("SELECT {SEEK_COLUMNS} FROM {SEEK_FROM} WHERE s.id = ?1");
        self.with(|c| c.query_row(&sql, [id], seek_row).optional())
    }

    fn delete_seek(&self, id: &str) -> DbResult<bool> {
        self.with(|c| c.execute("DELETE FROM seeks WHERE id = ?1", [id]).map(|n| n > 0))
    }

    fn seek_count(&self, user: i64) -> DbResult<usize> {
        self.with(|c| {
            c.query_row("SELECT COUNT(*) FROM seeks WHERE user = ?1", [user], |r| {
                r.get::<_, i64>(0)
            })
        })
        .map(|n| usize::try_from(n).unwrap_or(0))
    }

    fn add_chat(&self, game: &str, user: i64, text: &str, now: i64) -> DbResult<i64> {
        self.with(|c| {
            c.execute(
                "INSERT INTO chats (game, user, text, at) VALUES (?1, ?2, ?3, ?4)",
                params![game, user, text, now],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    fn chat(&self, game: &str, reader: Option<i64>, limit: usize) -> DbResult<Vec<Chat>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with(|c| {
            let mut select = c.prepare(
                "SELECT id, name, text, at FROM (SELECT m.id, u.name, m.text, m.at FROM chats m \
                 JOIN users u ON u.id = m.user WHERE m.game = ?1 AND m.deleted = 0 \
                 AND m.user NOT IN (SELECT muted FROM mutes WHERE user = ?2) \
                 ORDER BY m.id DESC LIMIT ?3) ORDER BY id",
            )?;
            let rows = select.query_map(params![game, reader.unwrap_or(-1), limit], |r| {
                Ok(Chat { id: r.get(0)?, user: r.get(1)?, text: r.get(2)?, at: r.get(3)? })
            })?;
            rows.collect()
        })
    }

    fn delete_chat(&self, game: &str, id: i64) -> DbResult<bool> {
        self.with(|c| {
            c.execute(
                "UPDATE chats SET deleted = 1 WHERE game = ?1 AND id = ?2 AND deleted = 0",
                params![game, id],
            )
            .map(|n| n > 0)
        })
    }

    fn mute(&self, user: i64, muted: i64, on: bool) -> DbResult<()> {
        self.with(|c| {
            if on {
                c.execute(
                    "INSERT OR IGNORE INTO mutes (user, muted) VALUES (?1, ?2)",
                    [user, muted],
                )
            } else {
                c.execute("DELETE FROM mutes WHERE user = ?1 AND muted = ?2", [user, muted])
            }
            .map(drop)
        })
    }

    fn publish(&self, new: &NewVersion<'_>) -> DbResult<Published> {
        let count = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
        self.with(|c| {
            let tx = c.transaction()?;
            let recent: i64 = tx.query_row(
                "SELECT COUNT(*) FROM versions s JOIN variants v ON v.id = s.variant \
                 WHERE v.owner = ?1 AND s.created >= ?2",
                params![new.owner, new.since],
                |r| r.get(0),
            )?;
            let existing: Option<i64> = tx
                .query_row(
                    "SELECT id FROM variants WHERE owner = ?1 AND name = ?2",
                    params![new.owner, new.name],
                    |r| r.get(0),
                )
                .optional()?;
            let facts = &new.facts;
            let known: bool = match existing {
                Some(id) => tx.query_row(
                    "SELECT EXISTS (SELECT 1 FROM versions WHERE variant = ?1 AND definition = ?2)",
                    params![id, facts.version],
                    |r| r.get(0),
                )?,
                None => false,
            };
            if !known && count(recent) >= new.most_versions {
                let first: i64 = tx.query_row(
                    "SELECT MIN(s.created) FROM versions s JOIN variants v ON v.id = s.variant \
                     WHERE v.owner = ?1 AND s.created >= ?2",
                    params![new.owner, new.since],
                    |r| r.get(0),
                )?;
                return Ok(Published::TooManyVersions(first));
            }
            tx.execute(
                "INSERT OR IGNORE INTO definitions (name, text) VALUES (?1, ?2)",
                params![facts.version, new.text],
            )?;
            tx.execute(
                "INSERT OR IGNORE INTO diagrams (definition, svg) VALUES (?1, ?2)",
                params![facts.version, new.svg],
            )?;
            let id = match existing {
                Some(id) => {
                    tx.execute(
                        "UPDATE variants SET visibility = ?2, updated = ?3, latest = ?4, \
                         title = ?5, files = ?6, ranks = ?7, ball = ?8 WHERE id = ?1",
                        params![
                            id,
                            new.visibility.name(),
                            new.now,
                            facts.version,
                            facts.title,
                            facts.files,
                            facts.ranks,
                            facts.ball
                        ],
                    )?;
                    id
                }
                None => {
                    let owned: i64 = tx.query_row(
                        "SELECT COUNT(*) FROM variants WHERE owner = ?1",
                        [new.owner],
                        |r| r.get(0),
                    )?;
                    if count(owned) >= new.most_variants {
                        return Ok(Published::TooManyVariants);
                    }
                    tx.execute(
                        "INSERT INTO variants (owner, name, visibility, created, updated, latest, \
                         title, files, ranks, ball) \
                         VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7, ?8, ?9)",
                        params![
                            new.owner,
                            new.name,
                            new.visibility.name(),
                            new.now,
                            facts.version,
                            facts.title,
                            facts.files,
                            facts.ranks,
                            facts.ball
                        ],
                    )?;
                    tx.last_insert_rowid()
                }
            };
            // A version published again becomes the newest.
            tx.execute(
                "INSERT INTO versions (variant, definition, created, title, files, ranks, ball) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT (variant, definition) DO UPDATE SET created = excluded.created",
                params![
                    id,
                    facts.version,
                    new.now,
                    facts.title,
                    facts.files,
                    facts.ranks,
                    facts.ball
                ],
            )?;
            let sql = format!("SELECT {VARIANT_COLUMNS} FROM {VARIANT_FROM} WHERE v.id = ?1");
            let row = tx.query_row(&sql, [id], variant_row)?;
            tx.commit()?;
            Ok(Published::Done(row))
        })
    }

    fn variant(&self, owner: &str, name: &str) -> DbResult<Option<VariantRow>> {
        let sql = format!(
            "SELECT {VARIANT_COLUMNS} FROM {VARIANT_FROM} WHERE u.name = ?1 AND v.name = ?2"
        );
        self.with(|c| c.query_row(&sql, params![owner, name], variant_row).optional())
    }

    fn versions(&self, variant: i64) -> DbResult<Vec<VersionRow>> {
        self.with(|c| {
            let mut select = c.prepare(
                "SELECT definition, title, files, ranks, ball, created FROM versions \
                 WHERE variant = ?1 ORDER BY created DESC, definition",
            )?;
            let rows = select.query_map([variant], |r| {
                Ok(VersionRow {
                    facts: VersionFacts {
                        version: r.get(0)?,
                        title: r.get(1)?,
                        files: r.get(2)?,
                        ranks: r.get(3)?,
                        ball: r.get(4)?,
                    },
                    created: r.get(5)?,
                })
            })?;
            rows.collect()
        })
    }

    fn holders(&self, version: &str) -> DbResult<Vec<VariantRow>> {
        let sql = format!(
            "SELECT {VARIANT_COLUMNS} FROM {VARIANT_FROM} \
             WHERE v.id IN (SELECT variant FROM versions WHERE definition = ?1) ORDER BY v.id"
        );
        self.with(|c| c.prepare(&sql)?.query_map([version], variant_row)?.collect())
    }

    fn variants_of(&self, owner: i64) -> DbResult<Vec<VariantRow>> {
        let sql = format!(
            "SELECT {VARIANT_COLUMNS} FROM {VARIANT_FROM} WHERE v.owner = ?1 \
             ORDER BY v.updated DESC, v.id DESC"
        );
        self.with(|c| c.prepare(&sql)?.query_map([owner], variant_row)?.collect())
    }

    fn gallery(
        &self,
        query: &GalleryQuery,
        offset: usize,
        limit: usize,
    ) -> DbResult<(Vec<VariantRow>, usize)> {
        let wanted = "v.visibility = 'public' AND v.hidden = 0 \
             AND (?1 IS NULL OR v.name LIKE ?1 ESCAPE '\\' OR v.title LIKE ?1 ESCAPE '\\') \
             AND (?2 IS NULL OR u.name = ?2) AND (?3 IS NULL OR v.files = ?3) \
             AND (?4 IS NULL OR v.ranks = ?4) AND (?5 IS NULL OR v.ball = ?5)";
        let text = query.text.as_deref().map(like_anywhere);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with(|c| {
            let filters = params![text, query.author, query.files, query.ranks, query.ball];
            let total: i64 = c.query_row(
                &format!("SELECT COUNT(*) FROM {VARIANT_FROM} WHERE {wanted}"),
                filters,
                |r| r.get(0),
            )?;
            let sql = format!(
                "SELECT {VARIANT_COLUMNS} FROM {VARIANT_FROM} WHERE {wanted} \
                 ORDER BY v.updated DESC, v.id DESC LIMIT ?6 OFFSET ?7"
            );
            let rows = c
                .prepare(&sql)?
                .query_map(
                    params![
                        text,
                        query.author,
                        query.files,
                        query.ranks,
                        query.ball,
                        limit,
                        offset
                    ],
                    variant_row,
                )?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((rows, usize::try_from(total).unwrap_or(0)))
        })
    }

    fn set_visibility(&self, variant: i64, visibility: Visibility, now: i64) -> DbResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE variants SET visibility = ?2, updated = ?3 WHERE id = ?1",
                params![variant, visibility.name(), now],
            )
            .map(drop)
        })
    }

    fn set_hidden(&self, variant: i64, hidden: bool) -> DbResult<()> {
        self.with(|c| {
            c.execute("UPDATE variants SET hidden = ?2 WHERE id = ?1", params![variant, hidden])
                .map(drop)
        })
    }

    fn diagram(&self, version: &str) -> DbResult<Option<String>> {
        self.with(|c| {
            c.query_row("SELECT svg FROM diagrams WHERE definition = ?1", [version], |r| r.get(0))
                .optional()
        })
    }

    fn backup(&self, to: &Path) -> DbResult<()> {
        if to.exists() {
            return Err(DbError::Failed(format!(
                "{} exists: a backup is written to a new file",
                to.display()
            )));
        }
        let c = lock(&self.connection);
        c.backup(rusqlite::MAIN_DB, to, None).map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> (tempfile::TempDir, Sqlite) {
        let dir = tempfile::tempdir().unwrap();
        let db = Sqlite::open(&dir.path().join("kickoff.db")).unwrap();
        (dir, db)
    }

    #[test]
    fn names_are_unique_in_any_case() {
        let (_dir, db) = scratch();
        let made = db.create_user("Alice", "hash", 1).unwrap();
        assert_eq!(made.name, "Alice");
        assert!(matches!(db.create_user("alice", "hash", 2), Err(DbError::Taken)));
        let (found, hash) = db.user_by_name("ALICE").unwrap().unwrap();
        assert_eq!((found.id, hash.as_str()), (made.id, "hash"));
    }

    #[test]
    fn turns_are_added_and_taken_back() {
        let (_dir, db) = scratch();
        let row = GameRow {
            id: "g".into(),
            head: "[Variant \"boyer-1951\"]".into(),
            variant: "boyer-1951".into(),
            white: None,
            black: None,
            clock: None,
            clocks: None,
            deadline: None,
            result: None,
            termination: None,
            plies: 0,
            to_move: Side::White,
            created: 1,
            updated: 1,
            rematch_of: None,
        };
        let names: Vec<String> = ["Nc3", "Nf7", "Nd5"].map(String::from).to_vec();
        db.save_game(&GameSave { row: &row, turns: &names, at: 5, left: Some(9) }).unwrap();
        let turns = db.turns("g").unwrap();
        assert_eq!(turns.len(), 3);
        assert_eq!((turns[2].at, turns[2].left, turns[1].left), (5, Some(9), None));
        db.save_game(&GameSave { row: &row, turns: &names[..1], at: 6, left: None }).unwrap();
        assert_eq!(db.turns("g").unwrap().len(), 1);
        assert_eq!(db.game("g").unwrap().unwrap().plies, 1);
    }

    #[test]
    fn a_reopened_database_keeps_its_schema_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kickoff.db");
        Sqlite::open(&path).unwrap().create_user("bob", "h", 1).unwrap();
        let again = Sqlite::open(&path).unwrap();
        assert!(again.user_by_name("bob").unwrap().is_some());
    }
}
