//! The server's database: accounts, their sessions and tokens, the games of the lobby (and games
//! by link imported into it) with their turns, chats, seeks and challenges, and the variants
//! accounts publish with their versions.
//!
//! Everything the server keeps goes through one interface, [`Storage`]; [`Sqlite`] is the one
//! kickoff ships: an embedded SQLite file in write-ahead-log mode, each change one transaction
//! committed to disk before the request that made it is answered, its schema migrated by the
//! binary itself. `docs/storage.md` says what another database would take.

mod sqlite;

use serde::{Deserialize, Serialize};

use crate::side::Side;

pub use sqlite::Sqlite;

/// Why the database did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// A name (of an account) that is taken.
    #[error("the name is taken")]
    Taken,
    /// The database failed (a full disk, a broken file ...).
    #[error("the database failed: {0}")]
    Failed(String),
}

impl From<DbError> for crate::web::ApiError {
    fn from(e: DbError) -> crate::web::ApiError {
        crate::web::ApiError::Internal(e.to_string())
    }
}

/// A result of the database.
pub type DbResult<T> = Result<T, DbError>;

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Its number.
    pub id: i64,
    /// Its name, as it was written when it was made.
    pub name: String,
    /// May delete chat messages, mute and ban.
    pub admin: bool,
    /// May not sign in, seek or play.
    pub banned: bool,
    /// May not chat.
    pub muted: bool,
    /// Where notices of a correspondence game are sent, if anywhere.
    pub email: Option<String>,
}

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClockSpec {
    /// A live game: `initial` seconds each, `increment` more after each turn.
    Live {
        /// Seconds each side starts with.
        initial: u32,
        /// Seconds added after each turn.
        increment: u32,
    },
    /// A correspondence game: `days` for each turn.
    Correspondence {
        /// Days each turn may take.
        days: u32,
    },
}

/// A side's colour as a seek asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The seeker plays White.
    White,
    /// The seeker plays Black.
    Black,
    /// Drawn when the seek is accepted.
    Random,
}

/// The id of a token whose secret hashes to `hash` (see [`TokenInfo::id`]).
#[must_use]
pub fn token_id(hash: &[u8]) -> String {
    crate::text::hex(&hash[..hash.len().min(8)])
}

/// A bearer token as its owner sees it: never its secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    /// The first 16 hexadecimal digits of the hash of its secret: enough to name it, nothing
    /// to use it by.
    pub id: String,
    /// What its owner said it is for.
    pub label: String,
    /// When it was made.
    pub created: i64,
}

/// An open seek, or a challenge to one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who made it.
    pub user: i64,
    /// The name of who made it.
    pub user_name: String,
    /// The one player who may accept it: a challenge.
    pub target: Option<(i64, String)>,
    /// The shipped variant's name, or a published version's (`HASH.toml`).
    pub variant: String,
    /// The setup asked for (`random`, `fair`, a number), where the variant has random setups.
    pub setup: Option<String>,
    /// The seeker's colour.
    pub color: Color,
    /// The time control.
    pub clock: ClockSpec,
    /// When it was made.
    pub created: i64,
    /// When it lapses, if it does.
    pub expires: Option<i64>,
    /// The game it offers a rematch of.
    pub rematch_of: Option<String>,
    /// The title of its variant when that is a published version (as published), read with
    /// the seek; none for a shipped variant.
    pub title: Option<String>,
}

/// The clocks of a game: what each side had left when the side to move started, and when it
/// started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Milliseconds left to White.
    pub white: i64,
    /// Milliseconds left to Black.
    pub black: i64,
    /// When the side to move started its turn.
    pub since: i64,
}

/// A game as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// The tags part of its record.
    pub head: String,
    /// The variant as its record names it.
    pub variant: String,
    /// The accounts that play it (none for a game by link).
    pub white: Option<(i64, String)>,
    /// See `white`.
    pub black: Option<(i64, String)>,
    /// Its time control.
    pub clock: Option<ClockSpec>,
    /// Its clocks now.
    pub clocks: Option<ClockState>,
    /// When the side to move runs out of time, in a game going with a clock.
    pub deadline: Option<i64>,
    /// `1-0`, `0-1` or `1/2-1/2` once it is over.
    pub result: Option<String>,
    /// Why it is over.
    pub termination: Option<String>,
    /// Turns played.
    pub plies: usize,
    /// The side to move.
    pub to_move: Side,
    /// When it was made.
    pub created: i64,
    /// When it last changed.
    pub updated: i64,
    /// The game it is a rematch of.
    pub rematch_of: Option<String>,
}

/// A turn as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    /// Its name in the position it was played in.
    pub name: String,
    /// When it was played.
    pub at: i64,
    /// What the mover's clock had left after it, in a game with a clock.
    pub left: Option<i64>,
}

/// A game's state to save: its row (the `plies` first turns of `turns` are kept, those past
/// them added, any others dropped).
pub struct GameSave<'a> {
    /// The row.
    pub row: &'a GameRow,
    /// Its turns' names, all of them.
    pub turns: &'a [String],
    /// When the turns added now were played, and what their movers' clocks had left.
    pub at: i64,
    /// What the last turn's mover had left, for the turns added now.
    pub left: Option<i64>,
}

/// A chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chat {
    /// Its number.
    pub id: i64,
    /// Who wrote it.
    pub user: String,
    /// What it says.
    pub text: String,
    /// When.
    pub at: i64,
}

/// Who may see a published variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Its owner only.
    Private,
    /// Anyone with its link; not listed in the gallery.
    Unlisted,
    /// Anyone; listed in the gallery.
    Public,
}

impl Visibility {
    /// Its name, as the database and the API write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Unlisted => "unlisted",
            Visibility::Public => "public",
        }
    }

    /// The visibility of a name (private for a name it does not know).
    #[must_use]
    pub fn from_name(name: &str) -> Visibility {
        match name {
            "public" => Visibility::Public,
            "unlisted" => Visibility::Unlisted,
            _ => Visibility::Private,
        }
    }
}

/// What a published version's definition is, for the gallery's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VersionFacts {
    /// The definition's name in `definitions` (`HASH.toml`).
    pub version: String,
    /// The variant's title (`name` of its definition).
    pub title: String,
    /// The board's files.
    pub files: u8,
    /// The board's ranks.
    pub ranks: u8,
    /// `kicked` or `carried`.
    pub ball: String,
}

/// A version of a published variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VersionRow {
    /// What it is.
    #[serde(flatten)]
    pub facts: VersionFacts,
    /// When it was published.
    pub created: i64,
}

/// A published variant, with its newest version's facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantRow {
    /// Its number.
    pub id: i64,
    /// Its owner's account.
    pub owner: i64,
    /// Its owner's name.
    pub owner_name: String,
    /// Its name, unique among its owner's.
    pub name: String,
    /// Who may see it.
    pub visibility: Visibility,
    /// Hidden by an administrator.
    pub hidden: bool,
    /// When it was first published.
    pub created: i64,
    /// When its last version was published, or its visibility changed.
    pub updated: i64,
    /// Its newest version.
    pub latest: VersionFacts,
}

/// A new version to publish.
pub struct NewVersion<'a> {
    /// The account publishing it.
    pub owner: i64,
    /// The variant's name.
    pub name: &'a str,
    /// Who may see it.
    pub visibility: Visibility,
    /// The definition's text.
    pub text: &'a str,
    /// What the definition is.
    pub facts: VersionFacts,
    /// Its start position, drawn.
    pub svg: &'a str,
    /// Now.
    pub now: i64,
    /// The most variants an account has.
    pub most_variants: usize,
    /// The most versions an account publishes from `since` to now.
    pub most_versions: usize,
    /// See `most_versions`.
    pub since: i64,
}

/// What publishing did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Published {
    /// The variant, with the new version first (or the same version, published already).
    Done(VariantRow),
    /// The account has as many variants as it may.
    TooManyVariants,
    /// The account has published as many versions as it may since `since`; the first of them
    /// was published at this time.
    TooManyVersions(i64),
}

/// What the gallery is asked for.
#[derive(Clone, Debug, Default)]
pub struct GalleryQuery {
    /// Words found in the name or the title.
    pub text: Option<String>,
    /// The owner's name.
    pub author: Option<String>,
    /// The board's files.
    pub files: Option<u8>,
    /// The board's ranks.
    pub ranks: Option<u8>,
    /// `kicked` or `carried`.
    pub ball: Option<String>,
}

/// Which games to list.
#[derive(Clone, Copy, Debug)]
pub enum GameFilter {
    /// Games in progress between accounts, the most recently changed first.
    InProgress,
    /// A user's games, those in progress first, then the most recently changed.
    Of(i64),
}

/// Everything the server keeps, behind one interface: SQLite ([`Sqlite`]) today, a server
/// database when one machine is outgrown. Every method is one transaction.
pub trait Storage: Send + Sync {
    /// Makes an account; [`DbError::Taken`] when the name is (in any case).
    ///
    /// # Errors
    /// The name is taken, or the database failed.
    fn create_user(&self, name: &str, password: &str, now: i64) -> DbResult<User>;
    /// An account by name (in any case), with its password's hash.
    ///
    /// # Errors
    /// The database failed.
    fn user_by_name(&self, name: &str) -> DbResult<Option<(User, String)>>;
    /// Sets an account's flags; false when there is no such account.
    ///
    /// # Errors
    /// The database failed.
    fn set_flag(&self, name: &str, flag: Flag, on: bool) -> DbResult<bool>;
    /// Sets an account's e-mail address.
    ///
    /// # Errors
    /// The database failed.
    fn set_email(&self, user: i64, email: Option<&str>) -> DbResult<()>;

    /// Keeps a session (by the hash of its secret) until `expires`.
    ///
    /// # Errors
    /// The database failed.
    fn create_session(&self, hash: &[u8], user: i64, now: i64, expires: i64) -> DbResult<()>;
    /// The account of a session that has not expired.
    ///
    /// # Errors
    /// The database failed.
    fn session_user(&self, hash: &[u8], now: i64) -> DbResult<Option<User>>;
    /// Ends a session.
    ///
    /// # Errors
    /// The database failed.
    fn delete_session(&self, hash: &[u8]) -> DbResult<()>;
    /// Keeps a bearer token (by the hash of its secret).
    ///
    /// # Errors
    /// The database failed.
    fn create_token(&self, hash: &[u8], user: i64, label: &str, now: i64) -> DbResult<()>;
    /// The account of a bearer token.
    ///
    /// # Errors
    /// The database failed.
    fn token_user(&self, hash: &[u8]) -> DbResult<Option<User>>;
    /// How many tokens an account has.
    ///
    /// # Errors
    /// The database failed.
    fn token_count(&self, user: i64) -> DbResult<usize>;
    /// An account's tokens, oldest first.
    ///
    /// # Errors
    /// The database failed.
    fn tokens(&self, user: i64) -> DbResult<Vec<TokenInfo>>;
    /// Revokes an account's token by its [`TokenInfo::id`]; false when it has none of that id.
    ///
    /// # Errors
    /// The database failed.
    fn delete_token(&self, user: i64, id: &str) -> DbResult<bool>;
    /// Changes an account's password (its hash) and ends its sessions but the one of hash
    /// `keep`.
    ///
    /// # Errors
    /// The database failed.
    fn set_password(&self, user: i64, password: &str, keep: Option<&[u8]>) -> DbResult<()>;

    /// Keeps a definition's text under its name, unless one is kept already.
    ///
    /// # Errors
    /// The database failed.
    fn save_definition(&self, name: &str, text: &str) -> DbResult<()>;
    /// A definition's text by name.
    ///
    /// # Errors
    /// The database failed.
    fn definition(&self, name: &str) -> DbResult<Option<String>>;

    /// Saves a game: its row, and its turns as [`GameSave`] says.
    ///
    /// # Errors
    /// The database failed.
    fn save_game(&self, save: &GameSave<'_>) -> DbResult<()>;
    /// A game's row.
    ///
    /// # Errors
    /// The database failed.
    fn game(&self, id: &str) -> DbResult<Option<GameRow>>;
    /// A game's turns.
    ///
    /// # Errors
    /// The database failed.
    fn turns(&self, id: &str) -> DbResult<Vec<TurnRow>>;
    /// Up to `limit` games.
    ///
    /// # Errors
    /// The database failed.
    fn games(&self, filter: GameFilter, limit: usize) -> DbResult<Vec<GameRow>>;
    /// How many games an account is playing.
    ///
    /// # Errors
    /// The database failed.
    fn games_going(&self, user: i64) -> DbResult<usize>;
    /// The games still going with a clock, and when their side to move runs out of time.
    ///
    /// # Errors
    /// The database failed.
    fn deadlines(&self) -> DbResult<Vec<(String, i64)>>;

    /// Keeps a seek or challenge.
    ///
    /// # Errors
    /// The database failed.
    fn create_seek(&self, seek: &Seek) -> DbResult<()>;
    /// The seeks open now (lapsed ones dropped) that `user` may see: open seeks, and
    /// challenges from or to them.
    ///
    /// # Errors
    /// The database failed.
    fn seeks(&self, user: Option<i64>, now: i64) -> DbResult<Vec<Seek>>;
    /// A seek by id.
    ///
    /// # Errors
    /// The database failed.
    fn seek(&self, id: &str) -> DbResult<Option<Seek>>;
    /// Removes a seek; false when it was gone (taken by someone else).
    ///
    /// # Errors
    /// The database failed.
    fn delete_seek(&self, id: &str) -> DbResult<bool>;
    /// How many seeks a user has open.
    ///
    /// # Errors
    /// The database failed.
    fn seek_count(&self, user: i64) -> DbResult<usize>;

    /// Adds a chat message; returns its number.
    ///
    /// # Errors
    /// The database failed.
    fn add_chat(&self, game: &str, user: i64, text: &str, now: i64) -> DbResult<i64>;
    /// A game's chat as `reader` sees it (without what they muted), the last `limit`
    /// messages.
    ///
    /// # Errors
    /// The database failed.
    fn chat(&self, game: &str, reader: Option<i64>, limit: usize) -> DbResult<Vec<Chat>>;
    /// Deletes a chat message; false when there was none.
    ///
    /// # Errors
    /// The database failed.
    fn delete_chat(&self, game: &str, id: i64) -> DbResult<bool>;
    /// `user` mutes (or hears again) `muted`.
    ///
    /// # Errors
    /// The database failed.
    fn mute(&self, user: i64, muted: i64, on: bool) -> DbResult<()>;

    /// Publishes a version of an account's variant (made when the account has none of that
    /// name, in any case), its definition kept in `definitions` and its diagram in `diagrams`,
    /// within the account's limits; the variant takes the visibility asked for.
    ///
    /// # Errors
    /// The database failed.
    fn publish(&self, new: &NewVersion<'_>) -> DbResult<Published>;
    /// A published variant by its owner's name and its name (in any case).
    ///
    /// # Errors
    /// The database failed.
    fn variant(&self, owner: &str, name: &str) -> DbResult<Option<VariantRow>>;
    /// A variant's versions, newest first.
    ///
    /// # Errors
    /// The database failed.
    fn versions(&self, variant: i64) -> DbResult<Vec<VersionRow>>;
    /// The variants that hold a version (a definition's name), and so whom it may be shown to.
    ///
    /// # Errors
    /// The database failed.
    fn holders(&self, version: &str) -> DbResult<Vec<VariantRow>>;
    /// An account's variants, the most recently changed first.
    ///
    /// # Errors
    /// The database failed.
    fn variants_of(&self, owner: i64) -> DbResult<Vec<VariantRow>>;
    /// Public variants not hidden that match `query`, the most recently changed first: `limit`
    /// of them from the `offset`th, and how many match in all.
    ///
    /// # Errors
    /// The database failed.
    fn gallery(
        &self,
        query: &GalleryQuery,
        offset: usize,
        limit: usize,
    ) -> DbResult<(Vec<VariantRow>, usize)>;
    /// Sets a variant's visibility.
    ///
    /// # Errors
    /// The database failed.
    fn set_visibility(&self, variant: i64, visibility: Visibility, now: i64) -> DbResult<()>;
    /// Hides a variant from everyone but its owner and administrators, or shows it again.
    ///
    /// # Errors
    /// The database failed.
    fn set_hidden(&self, variant: i64, hidden: bool) -> DbResult<()>;
    /// The start diagram of a published version.
    ///
    /// # Errors
    /// The database failed.
    fn diagram(&self, version: &str) -> DbResult<Option<String>>;

    /// Copies the whole database, consistent, to a new file while it is in use.
    ///
    /// # Errors
    /// The copy could not be written.
    fn backup(&self, to: &std::path::Path) -> DbResult<()>;
}

/// A flag of an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// An administrator.
    Admin,
    /// Banned.
    Banned,
    /// Muted in every chat.
    Muted,
}

/// Milliseconds since 1970.
#[must_use]
pub fn now_ms() -> i64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |t| i64::try_from(t.as_millis()).unwrap_or(i64::MAX))
}
