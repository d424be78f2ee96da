//! The games a server holds: each one a [`Game`] with its definition, who plays each side, the
//! keys of its links, and its record on disk.
//!
//! A game is saved as a record (`ID.txt`, with `HASH.toml` beside it for a definition that was
//! uploaded: HASH is the start of its text's SHA-256, so games of one definition share one file)
//! in the games folder after every change, atomically, so that a server restarted at any moment
//! finds every game as it was. The links' keys travel in the record's own tags
//! (`WhiteKey`, `BlackKey`) and are left out of a downloaded record.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::definition::{self, LoadError};
use crate::game::record::{self, save_atomically};
use crate::game::{Ending, Game};
use crate::notation::record::parse as parse_record;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::Player;
use crate::setup::SetupNumber;
use crate::side::{BySide, Side};
use crate::text_file::read_limited;
use crate::web::ApiError;
use crate::web::db::{ClockSpec, ClockState, GameRow, GameSave, Storage, now_ms};
use crate::web::limits::ServerLimits;
use crate::web::lobby::flags::Flags;
use crate::web::lobby::{Hall, clock};

self_cell::self_cell!(
    /// A game together with the rules its positions borrow.
    pub struct LiveGame {
        owner: Arc<Rules>,
        #[covariant]
        dependent: Game,
    }
);

/// A session shared between requests.
pub type Shared = Arc<Mutex<Session>>;

/// A game found for a link: its session, and the sides the link's key plays.
pub type Found = (Shared, Vec<Side>);

/// The keys of each side's link.
pub type Keys = BySide<Option<String>>;

/// The length of a game's id and of a seat's key, in hexadecimal digits.
pub const ID_LEN: usize = 24;
/// The length of a key: 128 random bits.
pub const KEY_LEN: usize = 32;
/// The largest record the server reads back from its folder (as for any record).
pub const MAX_RECORD: u64 = 8 << 20;

/// How the two sides of a game are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people at one browser.
    HotSeat,
    /// Two people, each at their own browser with their own link.
    Remote,
}

impl Mode {
    /// The name used in records and by the page.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::HotSeat => "hotseat",
            Mode::Remote => "remote",
        }
    }

    /// The mode of a name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::Engine, Mode::HotSeat, Mode::Remote].into_iter().find(|m| m.name() == name)
    }
}

/// One game held by the server.
pub struct Session {
    /// Its id: the name of its record in the games folder.
    pub id: String,
    live: LiveGame,
    /// The name a record gives the variant: a shipped name or `HASH.toml` (`ID.toml` in
    /// folders written before definitions were shared).
    variant: String,
    /// How the sides are played.
    pub mode: Mode,
    /// Who plays each side.
    pub players: BySide<Player>,
    /// The key of each side's link (none for the engine's side).
    keys: BySide<Option<String>>,
    /// A side's standing offer of a draw.
    pub draw_offer: Option<Side>,
    /// The side of the person who made the game (shown the invitation to the other).
    pub maker: Side,
    /// What outlives the session while pages follow the game or the engine thinks about it:
    /// its change counter and whether the engine is choosing a turn (see [`Store`]).
    beacon: Arc<Beacon>,
    /// Turns after which the game is a draw.
    turn_cap: usize,
    /// Where it is saved.
    backend: Backend,
    /// Its accounts and clocks, for a game of the lobby.
    pub lobby: Option<LobbyGame>,
}

/// Where a game is saved: a record in the games folder, or the database.
#[derive(Clone)]
enum Backend {
    Folder(PathBuf),
    Db { db: Arc<dyn Storage>, flags: Arc<Flags>, hall: Arc<Hall>, created: i64 },
}

/// What a game of the lobby has beside its turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyGame {
    /// The account that plays each side: its number and name.
    pub players: BySide<(i64, String)>,
    /// Its time control.
    pub clock: Option<ClockSpec>,
    /// Its clocks.
    pub clocks: Option<ClockState>,
    /// The game it is a rematch of.
    pub rematch_of: Option<String>,
}

/// What a new game is.
pub struct NewGame {
    /// The rules.
    pub definition: Arc<Rules>,
    /// Its shipped name, or `None` for an uploaded definition (saved beside the record, once
    /// for all the games of the same text).
    pub shipped: Option<String>,
    /// The uploaded definition's text.
    pub text: Option<String>,
    /// The random setup, if one was asked for.
    pub setup: Option<SetupNumber>,
    /// How it is played.
    pub mode: Mode,
    /// Who plays each side.
    pub players: BySide<Player>,
    /// The side of the person who made the game (who is shown the invitation of a game
    /// between two browsers).
    pub maker: Side,
}

impl Session {
    /// The game.
    pub fn game(&self) -> &Game<'_> {
        self.live.borrow_dependent()
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        self.live.borrow_owner()
    }

    /// Changes the game, then saves and announces it. A game still going at the server's turn
    /// cap is a draw.
    ///
    /// # Errors
    /// The record could not be saved.
    ///
    /// In a game with a clock, a side whose time has run out loses before anything changes
    /// (the change is refused); a turn played stops its side's clock and starts the other's.
    pub fn change<T>(&mut self, f: impl for<'a> FnOnce(&mut Game<'a>) -> T) -> Result<T, ApiError> {
        let now = now_ms();
        if let Some(loser) = self.flag(now)? {
            return Err(ApiError::Conflict(format!(
                "the game is over: {}",
                Ending::Time { loser }
            )));
        }
        let cap = self.turn_cap;
        let mover = self.game().position().side();
        let before = self.game().plies().len();
        let out = self.live.with_dependent_mut(|_, game| {
            let out = f(game);
            if game.ending().is_none() && game.plies().len() >= cap {
                game.declare(Ending::TurnCap);
            }
            out
        });
        let played = self.game().plies().len() > before;
        let over = self.game().ending().is_some();
        if let Some(LobbyGame { clock: Some(spec), clocks: Some(state), .. }) = &mut self.lobby {
            if played {
                *state = clock::after_turn(*spec, state, mover, now);
            } else if over {
                *state = clock::stopped(state, mover, now);
            }
        }
        self.draw_offer = None;
        self.touch()?;
        Ok(out)
    }

    /// In a game going with a clock whose side to move has run out of time at `now`: that
    /// side loses, the game is saved and announced, and the loser is returned.
    ///
    /// # Errors
    /// The game could not be saved.
    pub fn flag(&mut self, now: i64) -> Result<Option<Side>, ApiError> {
        let to_move = self.game().position().side();
        let Some(LobbyGame { clocks: Some(state), .. }) = &mut self.lobby else { return Ok(None) };
        if self.live.borrow_dependent().ending().is_some() || !clock::flagged(state, to_move, now) {
            return Ok(None);
        }
        *state = clock::stopped(state, to_move, now);
        self.live.with_dependent_mut(|_, game| game.declare(Ending::Time { loser: to_move }));
        self.draw_offer = None;
        self.touch()?;
        Ok(Some(to_move))
    }

    /// The milliseconds each side has left now, in a game with a clock.
    #[must_use]
    pub fn time_left(&self, now: i64) -> Option<BySide<i64>> {
        let state = self.lobby.as_ref()?.clocks?;
        let to_move = self.game().position().side();
        let running = self.game().ending().is_none();
        let at = |side| {
            if running {
                clock::left(&state, side, to_move, now).max(0)
            } else {
                clock::held(&state, side)
            }
        };
        Some(BySide { white: at(Side::White), black: at(Side::Black) })
    }

    /// Counts the changes, so that pages know when to fetch the game again.
    #[must_use]
    pub fn version(&self) -> u64 {
        *self.beacon.changes.borrow()
    }

    /// Whether the engine is choosing a turn, or weighing a draw.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.beacon.thinking.load(Ordering::Acquire)
    }

    /// The game's beacon, which a job away from the game holds to mark it thinking.
    #[must_use]
    pub fn beacon(&self) -> Arc<Beacon> {
        self.beacon.clone()
    }

    /// Saves and announces a change of the session itself (an offer, the engine starting).
    ///
    /// # Errors
    /// The record could not be saved.
    pub fn touch(&mut self) -> Result<(), ApiError> {
        let saved = self.save();
        self.announce();
        saved
    }

    /// Tells the pages watching the game that it changed, without saving (for what the record
    /// does not keep: the engine thinking).
    pub fn announce(&mut self) {
        self.beacon.changes.send_modify(|version| *version += 1);
    }

    /// The sides that `key` plays (both at a hot seat; none for a wrong key).
    #[must_use]
    pub fn sides_of(&self, key: &str) -> Vec<Side> {
        Side::ALL
            .into_iter()
            .filter(|&s| self.keys[s].as_deref().is_some_and(|k| same_key(k, key)))
            .collect()
    }

    /// The key of `side`'s link.
    #[must_use]
    pub fn key(&self, side: Side) -> Option<&str> {
        self.keys[side].as_deref()
    }

    /// The link of the other person in a game between two browsers, for the one who made it.
    #[must_use]
    pub fn invite_for(&self, key: &str) -> Option<String> {
        // A game of the lobby has no invitation: each player has a link of their own, which
        // the other must never be given.
        if self.mode != Mode::Remote || self.lobby.is_some() {
            return None;
        }
        let mine = self.sides_of(key);
        let other = Side::ALL.into_iter().find(|s| !mine.contains(s))?;
        // Only the side that made the game (White's key was handed out first) sees the invite.
        if !mine.contains(&self.maker) {
            return None;
        }
        Some(format!("/play/{}/{}", self.id, self.keys[other].as_deref()?))
    }

    /// Waits for changes.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.beacon.changes.subscribe()
    }

    /// The record, with the links' keys left out.
    #[must_use]
    pub fn public_record(&self) -> String {
        let mut game = self.game().clone();
        game.tags.retain(|(name, _)| !name.ends_with("Key") && name != "Maker");
        record::write(&game)
    }

    /// Writes the record (and leaves the definition file as it is), or the game's row and new
    /// turns in the database.
    fn save(&self) -> Result<(), ApiError> {
        let failed = |e: String| ApiError::Internal(format!("the game could not be saved: {e}"));
        match &self.backend {
            Backend::Folder(path) => save_atomically(path, &record::write(self.game()))
                .map_err(|e| failed(e.to_string())),
            Backend::Db { db, flags, hall, created } => {
                let row = self.row(*created);
                let turns: Vec<String> =
                    self.game().plies().iter().map(|ply| ply.name.clone()).collect();
                let to_move = self.game().position().side();
                let left = row.clocks.map(|c| clock::held(&c, !to_move));
                db.save_game(&GameSave { row: &row, turns: &turns, at: now_ms(), left })
                    .map_err(|e| failed(e.to_string()))?;
                if let Some(deadline) = row.deadline {
                    flags.watch(deadline, &self.id);
                }
                if self.lobby.is_some() {
                    // The lobby's lists show whose turn it is, and which games go on.
                    hall.announce();
                }
                Ok(())
            }
        }
    }

    /// The game's row in the database.
    fn row(&self, created: i64) -> GameRow {
        let game = self.game();
        let text = record::write(game);
        let head = text.split_once("\n\n").map_or(text.as_str(), |(head, _)| head).to_owned();
        let ending = game.ending();
        let lobby = self.lobby.as_ref();
        let clocks = lobby.and_then(|l| l.clocks);
        let to_move = game.position().side();
        GameRow {
            id: self.id.clone(),
            head,
            variant: self.variant.clone(),
            white: lobby.map(|l| l.players.white.clone()),
            black: lobby.map(|l| l.players.black.clone()),
            clock: lobby.and_then(|l| l.clock),
            clocks,
            deadline: clocks.filter(|_| ending.is_none()).map(|c| clock::deadline(&c, to_move)),
            result: ending.map(|e| e.result().to_string()),
            termination: ending.map(|e| e.tag().to_owned()).filter(|t| !t.is_empty()),
            plies: game.plies().len(),
            to_move,
            created,
            updated: now_ms(),
            rematch_of: lobby.and_then(|l| l.rematch_of.clone()),
        }
    }

    /// The engine's level when it is the engine's turn in a game still going.
    #[must_use]
    pub fn engine_to_move(&self) -> Option<u8> {
        let game = self.game();
        if game.ending().is_some() {
            return None;
        }
        match self.players[game.position().side()] {
            Player::Engine(level) => Some(level),
            _ => None,
        }
    }

    /// The variant as records name it.
    #[must_use]
    pub fn variant(&self) -> &str {
        &self.variant
    }
}

/// Where a new change counter starts: above every counter started before it (in this run or an
/// earlier one), so that a page that saw a game before its counter was let go never mistakes a
/// change for an old state. A thousand counts a millisecond, within the 2^53 that a page's
/// numbers hold exactly.
fn first_version() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(0).saturating_mul(1000))
}

/// Compares two keys in a time that does not depend on where they differ.
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `text` is a well-formed id or key of `len` hexadecimal digits: nothing else from a
/// request ever reaches a file name.
#[must_use]
pub fn well_formed(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `bytes` random bytes from the operating system, as hexadecimal digits.
///
/// # Errors
/// The operating system gave no randomness.
pub fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(crate::text::hex(&buf))
}

/// How a game is played and by whom.
struct Seating {
    mode: Mode,
    players: BySide<Player>,
    keys: BySide<Option<String>>,
    maker: Side,
}

/// What the store keeps of a game apart from the game itself, so that a game can be let go
/// from memory and read back while pages follow it or the engine thinks about it.
pub struct Beacon {
    /// Counts the changes: pages follow it.
    changes: watch::Sender<u64>,
    /// Whether the engine is choosing a turn, or weighing a draw.
    thinking: AtomicBool,
}

impl Beacon {
    fn new() -> Beacon {
        Beacon { changes: watch::channel(first_version()).0, thinking: AtomicBool::new(false) }
    }

    /// Marks the engine thinking, or done; false when it was already in that state.
    pub fn set_thinking(&self, thinking: bool) -> bool {
        self.thinking.swap(thinking, Ordering::AcqRel) != thinking
    }

    /// Tells the pages following the game that it changed.
    pub fn announce(&self) {
        self.changes.send_modify(|version| *version += 1);
    }
}

/// Every game of a server: those in memory, and the folder where all of them are saved.
///
/// Games are held in memory up to a count and an estimate of their bytes (their rules' tables,
/// counted once for all the games that share them, and their turns), then the least recently
/// used that no request holds is let go: it is saved after every change, and is read back from
/// its record when asked for. Pages following a game, and the engine's job waiting to choose its
/// turn, hold only its [`Beacon`], which the store keeps apart from the game.
pub struct Store {
    folder: PathBuf,
    db: Arc<dyn Storage>,
    flags: Arc<Flags>,
    /// The lobby, told when a game of the lobby changes.
    hall: Arc<Hall>,
    games: Mutex<Held>,
    beacons: Mutex<HashMap<String, Arc<Beacon>>>,
    /// Compiled rules by the name records give them: shipped ones, and uploaded definitions
    /// while a game of theirs is alive.
    shipped: Vec<(&'static str, Arc<Rules>)>,
    uploaded: Mutex<HashMap<String, Weak<Rules>>>,
    keep: usize,
    bytes: usize,
    turn_cap: usize,
    /// The longest a game takes to be read back from its record.
    read_back_time: Duration,
    /// The longest light work spends reading a game back.
    light_read_back: Duration,
    /// The games that took longer than that: read back on the work queue at once.
    slow: Mutex<HashSet<String>>,
    warn: fn(&str),
}

/// The games in memory, each with the time it was last asked for and its estimated bytes.
#[derive(Default)]
struct Held {
    games: HashMap<String, Entry>,
    clock: u64,
    /// Bytes of the games and of the rules they hold (each rules once).
    bytes: usize,
    /// The rules held, by address: how many games hold each, and its bytes.
    rules: HashMap<usize, (usize, usize)>,
}

struct Entry {
    session: Shared,
    used: u64,
    /// The game's own bytes (its rules counted apart).
    bytes: usize,
    /// Its rules' address.
    rules: usize,
}

/// The bytes a game takes beside its rules: a fixed part, and its turns.
fn game_bytes(plies: usize) -> usize {
    (64 << 10) + plies * 256
}

impl Held {
    fn insert(&mut self, id: String, session: Shared, rules: &Arc<Rules>, plies: usize) {
        let address = Arc::as_ptr(rules) as usize;
        let held = self.rules.entry(address).or_insert((0, rules.memory()));
        if held.0 == 0 {
            self.bytes += held.1;
        }
        held.0 += 1;
        let bytes = game_bytes(plies);
        self.bytes += bytes;
        self.clock += 1;
        self.games.insert(id, Entry { session, used: self.clock, bytes, rules: address });
    }

    fn remove(&mut self, id: &str) {
        let Some(entry) = self.games.remove(id) else { return };
        self.bytes -= entry.bytes;
        if let Some(held) = self.rules.get_mut(&entry.rules) {
            held.0 -= 1;
            if held.0 == 0 {
                self.bytes -= held.1;
                self.rules.remove(&entry.rules);
            }
        }
    }

    /// Lets go of the least recently used games that no request holds, down to `keep` games
    /// and `bytes` bytes.
    fn trim(&mut self, keep: usize, bytes: usize) {
        while self.games.len() > keep || self.bytes > bytes {
            let idle = self
                .games
                .iter()
                .filter(|(_, entry)| Arc::strong_count(&entry.session) == 1)
                .min_by_key(|(_, entry)| entry.used)
                .map(|(id, _)| id.clone());
            match idle {
                Some(id) => self.remove(&id),
                None => return,
            }
        }
    }

    fn get(&mut self, id: &str) -> Option<Shared> {
        self.clock += 1;
        let clock = self.clock;
        self.games.get_mut(id).map(|entry| {
            entry.used = clock;
            entry.session.clone()
        })
    }
}

/// The name a definition sent as text is kept by, in the games folder and the database, and
/// that records give its games' variant: `HASH.toml`, HASH the start of its text's SHA-256 (as
/// long as a game's id), so that games and versions of the same text share one definition.
#[must_use]
pub fn definition_name(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!("{}.toml", crate::text::hex(&digest[..ID_LEN / 2]))
}

/// Whether `name` is one [`definition_name`] gives.
#[must_use]
pub fn is_definition_name(name: &str) -> bool {
    name.strip_suffix(".toml").is_some_and(|stem| well_formed(stem, ID_LEN))
}

/// Locks a mutex, taking over one that a panicking thread left (the data is still whole: a
/// session changes only through complete steps).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Store {
    /// A store saving into `folder`, which must exist, holding the games `limits` allow in
    /// memory; the shipped variants' rules are shared by their games; problems no request is
    /// waiting for (a record that cannot be read) go to `warn`.
    #[must_use]
    pub fn new(
        folder: PathBuf,
        db: Arc<dyn Storage>,
        shipped: Vec<(&'static str, Arc<Rules>)>,
        limits: &ServerLimits,
        warn: fn(&str),
    ) -> Store {
        Store {
            folder,
            db,
            flags: Arc::new(Flags::default()),
            hall: Arc::new(Hall::default()),
            games: Mutex::new(Held::default()),
            beacons: Mutex::new(HashMap::new()),
            shipped,
            uploaded: Mutex::new(HashMap::new()),
            keep: limits.games_in_memory.max(1),
            bytes: limits.games_memory,
            turn_cap: limits.turn_cap.max(1),
            read_back_time: limits.read_back_time,
            light_read_back: limits.light_read_back,
            slow: Mutex::new(HashSet::new()),
            warn,
        }
    }

    /// The games folder.
    #[must_use]
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The games held in memory now, and their estimated bytes.
    #[must_use]
    pub fn held(&self) -> (usize, usize) {
        let games = lock(&self.games);
        (games.games.len(), games.bytes)
    }

    /// The database.
    #[must_use]
    pub fn db(&self) -> &Arc<dyn Storage> {
        &self.db
    }

    /// The clocks' deadlines that the server watches.
    #[must_use]
    pub fn flags(&self) -> &Arc<Flags> {
        &self.flags
    }

    /// The lobby: its change counter, who follows each game, its chats' marks.
    #[must_use]
    pub fn hall(&self) -> &Arc<Hall> {
        &self.hall
    }

    /// Starts a game by link, saved in the games folder; returns it and the keys of its sides.
    ///
    /// # Errors
    /// The definition or the record could not be saved.
    pub fn create(&self, new: NewGame) -> Result<(Shared, Keys), ApiError> {
        let backend = Backend::Folder(PathBuf::new());
        self.make(new, backend, None)
    }

    /// Starts a game of the lobby between two accounts, saved in the database; returns it and
    /// the keys of its sides.
    ///
    /// # Errors
    /// The definition or the game could not be saved.
    pub fn create_lobby(&self, new: NewGame, lobby: LobbyGame) -> Result<(Shared, Keys), ApiError> {
        let backend = Backend::Db {
            db: self.db.clone(),
            flags: self.flags.clone(),
            hall: self.hall.clone(),
            created: now_ms(),
        };
        self.make(new, backend, Some(lobby))
    }

    fn make(
        &self,
        new: NewGame,
        backend: Backend,
        lobby: Option<LobbyGame>,
    ) -> Result<(Shared, Keys), ApiError> {
        let id = random_hex(ID_LEN / 2)?;
        let in_db = matches!(backend, Backend::Db { .. });
        let variant = match (&new.shipped, &new.text) {
            (Some(name), _) => name.clone(),
            (None, Some(text)) => self.save_definition(text, in_db)?,
            (None, None) => {
                return Err(ApiError::Internal("a game with no definition".to_owned()));
            }
        };
        let keys = match new.mode {
            Mode::HotSeat => {
                let key = random_hex(KEY_LEN / 2)?;
                BySide { white: Some(key.clone()), black: Some(key) }
            }
            _ => BySide {
                white: human_key(new.players.white)?,
                black: human_key(new.players.black)?,
            },
        };
        let maker = new.maker;
        let rules = match new.shipped {
            Some(_) => new.definition,
            None => self.share(&variant, new.definition),
        };
        let live = LiveGame::try_new(rules, |rules| -> Result<Game<'_>, ApiError> {
            let start = match new.setup.zip(rules.random_setup()) {
                Some((n, random)) => crate::setup::placement(rules, random, n)
                    .map_err(|e| ApiError::BadRequest(e.to_string()))
                    .and_then(|p| {
                        Position::from_placement(rules, &p)
                            .map_err(|e| ApiError::BadRequest(e.to_string()))
                    })?,
                None => Position::start(rules),
            };
            let mut game = Game::new(&variant, start, new.setup);
            game.tags = tags(&new.players, &keys, new.mode, maker);
            if let Some(lobby) = &lobby {
                // A lobby game's record names its accounts.
                for (name, value) in &mut game.tags {
                    match name.as_str() {
                        "White" => value.clone_from(&lobby.players.white.1),
                        "Black" => value.clone_from(&lobby.players.black.1),
                        _ => {}
                    }
                }
            }
            Ok(game)
        })?;
        let seating = Seating { mode: new.mode, players: new.players, keys: keys.clone(), maker };
        let backend = match backend {
            Backend::Folder(_) => Backend::Folder(self.folder.join(format!("{id}.txt"))),
            db => db,
        };
        let session = self.insert(live, id, variant, seating, backend, lobby);
        lock(&session).touch()?;
        Ok((session, keys))
    }

    /// Saves an uploaded definition under a name drawn from its text (`HASH.toml`, as long as
    /// a game's id), so that games of the same definition share one file; returns the name.
    ///
    /// # Errors
    /// The file could not be written.
    fn save_definition(&self, text: &str, in_db: bool) -> Result<String, ApiError> {
        let name = definition_name(text);
        if in_db {
            self.db.save_definition(&name, text).map_err(|e| {
                ApiError::Internal(format!("the definition could not be saved: {e}"))
            })?;
            return Ok(name);
        }
        let path = self.folder.join(&name);
        if !path.is_file() {
            save_atomically(&path, text).map_err(|e| {
                ApiError::Internal(format!("the definition could not be saved: {e}"))
            })?;
        }
        Ok(name)
    }

    /// Holds a game in memory (letting go of others past the bounds); another request may have
    /// read it back meanwhile, and then that one is kept.
    fn insert(
        &self,
        live: LiveGame,
        id: String,
        variant: String,
        seating: Seating,
        backend: Backend,
        lobby: Option<LobbyGame>,
    ) -> Shared {
        let beacon = self.beacon(&id);
        let rules = live.borrow_owner().clone();
        let plies = live.borrow_dependent().plies().len();
        let session = Arc::new(Mutex::new(Session {
            backend,
            lobby,
            id: id.clone(),
            live,
            variant,
            mode: seating.mode,
            players: seating.players,
            keys: seating.keys,
            maker: seating.maker,
            draw_offer: None,
            beacon,
            turn_cap: self.turn_cap,
        }));
        let mut games = lock(&self.games);
        if let Some(held) = games.get(&id) {
            return held;
        }
        games.insert(id, session.clone(), &rules, plies);
        games.trim(self.keep, self.bytes);
        session
    }

    /// The beacon of game `id`, shared by every session of it read back while pages follow it
    /// or the engine thinks about it.
    fn beacon(&self, id: &str) -> Arc<Beacon> {
        let mut beacons = lock(&self.beacons);
        if beacons.len() > 2 * self.keep {
            // Beacons nobody follows or holds are let go (a game read back starts a new one).
            beacons.retain(|_, b| b.changes.receiver_count() > 0 || Arc::strong_count(b) > 1);
        }
        beacons.entry(id.to_owned()).or_insert_with(|| Arc::new(Beacon::new())).clone()
    }

    /// The game `id` when `key` is one of its keys, if it is in memory: `None` when it is not
    /// (then [`Store::get`] reads it back, which is work for the queue). Cheap: no record is
    /// read.
    ///
    /// # Errors
    /// A malformed id or key, or a wrong key: the answer of a game that does not exist.
    pub fn in_memory(&self, id: &str, key: &str) -> Result<Option<Found>, ApiError> {
        if !well_formed(id, ID_LEN) || !well_formed(key, KEY_LEN) {
            return Err(ApiError::NotFound);
        }
        let Some(session) = lock(&self.games).get(id) else { return Ok(None) };
        let sides = lock(&session).sides_of(key);
        if sides.is_empty() {
            return Err(ApiError::NotFound);
        }
        Ok(Some((session, sides)))
    }

    /// The game `id`, if it is in memory. Cheap: no record is read.
    ///
    /// # Errors
    /// A malformed id: the answer of a game that does not exist.
    pub fn held_by_id(&self, id: &str) -> Result<Option<Shared>, ApiError> {
        if !well_formed(id, ID_LEN) {
            return Err(ApiError::NotFound);
        }
        Ok(lock(&self.games).get(id))
    }

    /// The game `id` when `key` is one of its keys: from memory, or read back at once when that
    /// is light work: its rules compiled already (a shipped variant, or the definition of a game
    /// in memory), its record short, and its turns replayed within the light read-back time. `None` when it must be
    /// read back on the work queue ([`Store::get`]): a game whose turns took longer is
    /// remembered, and not tried here again.
    ///
    /// # Errors
    /// As [`Store::get`].
    pub fn get_light(&self, id: &str, key: &str) -> Result<Option<Found>, ApiError> {
        if let Some(found) = self.in_memory(id, key)? {
            return Ok(Some(found));
        }
        let Some(session) = self.read_back_light(id, Some(key))? else { return Ok(None) };
        let sides = lock(&session).sides_of(key);
        if sides.is_empty() {
            return Err(ApiError::NotFound);
        }
        Ok(Some((session, sides)))
    }

    /// The game `id`: from memory, or read back at once when that is light work, as
    /// [`Store::get_light`] says.
    ///
    /// # Errors
    /// As [`Store::by_id`].
    pub fn by_id_light(&self, id: &str) -> Result<Option<Shared>, ApiError> {
        match self.held_by_id(id)? {
            Some(session) => Ok(Some(session)),
            None => self.read_back_light(id, None),
        }
    }

    /// Reads game `id` back if that is light work (see [`Store::get_light`]).
    fn read_back_light(&self, id: &str, key: Option<&str>) -> Result<Option<Shared>, ApiError> {
        if lock(&self.slow).contains(id) {
            return Ok(None);
        }
        let light =
            Reading { deadline: Some(Instant::now() + self.light_read_back), compile: false };
        match self.load(id, key, light) {
            Ok(session) => Ok(Some(session)),
            Err(Unread::Heavy) => Ok(None),
            Err(Unread::Late) => {
                let mut slow = lock(&self.slow);
                if slow.len() >= SLOW_REMEMBERED {
                    slow.clear();
                }
                slow.insert(id.to_owned());
                Ok(None)
            }
            Err(other) => Err(self.unread(id, other)),
        }
    }

    /// The game `id` when `key` is one of its keys: from memory, or read back from its record
    /// (CPU-heavy work, for the work queue: its turns are replayed and its definition compiled,
    /// within the read-back time). The key is checked on the record's tags before anything is
    /// replayed, so that a wrong key costs little.
    ///
    /// # Errors
    /// No such game, a wrong key, or a record that cannot be read: all the same answer, so
    /// that a key cannot be guessed game by game nor a game told apart by its state (a record
    /// that cannot be read is told to the server's `warn`). A game that takes longer than the
    /// read-back time to read back is refused as the server being busy.
    pub fn get(&self, id: &str, key: &str) -> Result<Found, ApiError> {
        let session = match self.in_memory(id, key)? {
            Some(found) => return Ok(found),
            None => self.read_back(id, Some(key))?,
        };
        let sides = lock(&session).sides_of(key);
        if sides.is_empty() {
            return Err(ApiError::NotFound);
        }
        Ok((session, sides))
    }

    /// The game `id`, for the server's own work on it (the engine's turn): from memory, or
    /// read back from its record (work for the queue, as for [`Store::get`]).
    ///
    /// # Errors
    /// No such game, a record that cannot be read (told to `warn`), or one that takes longer
    /// than the read-back time.
    pub fn by_id(&self, id: &str) -> Result<Shared, ApiError> {
        match self.held_by_id(id)? {
            Some(session) => Ok(session),
            None => self.read_back(id, None),
        }
    }

    /// Reads game `id` back (when `key`, if given, is one of its keys) within the read-back
    /// time.
    fn read_back(&self, id: &str, key: Option<&str>) -> Result<Shared, ApiError> {
        let heavy = Reading { deadline: Some(Instant::now() + self.read_back_time), compile: true };
        self.load(id, key, heavy).map_err(|e| self.unread(id, e))
    }

    /// The answer to a game that could not be read back.
    fn unread(&self, id: &str, why: Unread) -> ApiError {
        match why {
            Unread::Missing | Unread::WrongKey => ApiError::NotFound,
            Unread::Late | Unread::Heavy => ApiError::Busy(format!(
                "the game could not be read back from its record within {} s: try again in a \
                 moment",
                self.read_back_time.as_secs()
            )),
            Unread::Broken(problem) => {
                (self.warn)(&format!("game {id} cannot be read back: {problem}"));
                ApiError::NotFound
            }
        }
    }

    /// Reads game `id` back from its record, when `key` (if given) is one of the keys its tags
    /// give, as `reading` allows.
    fn load(&self, id: &str, key: Option<&str>, reading: Reading) -> Result<Shared, Unread> {
        let path = self.folder.join(format!("{id}.txt"));
        if !path.is_file() {
            return self.load_from_db(id, key, reading);
        }
        let text = read_limited(&path, MAX_RECORD, "records").map_err(Unread::Broken)?;
        let head = text.split_once("\n\n").map_or(text.as_str(), |(head, _)| head);
        check_key(head, key)?;
        self.load_text(id, &text, Backend::Folder(path), None, reading)
    }

    /// Copies game `id` of the games folder, with its definition, into the database (where
    /// its links keep working); false when the database has it already.
    ///
    /// # Errors
    /// The record cannot be read, or the database failed.
    pub fn import(&self, id: &str) -> Result<bool, String> {
        if !well_formed(id, ID_LEN) {
            return Err(format!("`{id}` is not the id of a game"));
        }
        if self.db.game(id).map_err(|e| e.to_string())?.is_some() {
            return Ok(false);
        }
        let whole = Reading { deadline: None, compile: true };
        let session = self.load(id, None, whole).map_err(|e| match e {
            Unread::Broken(problem) => problem,
            _ => "no such record".to_owned(),
        })?;
        let mut s = lock(&session);
        let variant = s.variant.clone();
        if variant.ends_with(".toml") {
            let path = self.folder.join(&variant);
            let text = read_limited(&path, definition::MAX_FILE_SIZE, "definitions")?;
            self.db.save_definition(&variant, &text).map_err(|e| e.to_string())?;
        }
        s.backend = Backend::Db {
            db: self.db.clone(),
            flags: self.flags.clone(),
            hall: self.hall.clone(),
            created: now_ms(),
        };
        s.save().map_err(|e| e.to_string())?;
        drop(s);
        lock(&self.games).remove(id);
        Ok(true)
    }

    /// Reads game `id` back from the database, its key checked on its head first.
    fn load_from_db(
        &self,
        id: &str,
        key: Option<&str>,
        reading: Reading,
    ) -> Result<Shared, Unread> {
        let row = self.db.game(id).map_err(broken)?.ok_or(Unread::Missing)?;
        check_key(&row.head, key)?;
        let turns = self.db.turns(id).map_err(broken)?;
        let mut text = row.head.clone();
        text.push_str("\n\n");
        for turn in &turns {
            text.push_str(&turn.name);
            text.push(' ');
        }
        text.push_str(row.result.as_deref().unwrap_or("*"));
        text.push('\n');
        let lobby = match (&row.white, &row.black) {
            (Some(white), Some(black)) => Some(LobbyGame {
                players: BySide { white: white.clone(), black: black.clone() },
                clock: row.clock,
                clocks: row.clocks,
                rematch_of: row.rematch_of.clone(),
            }),
            _ => None,
        };
        let backend = Backend::Db {
            db: self.db.clone(),
            flags: self.flags.clone(),
            hall: self.hall.clone(),
            created: row.created,
        };
        self.load_text(id, &text, backend, lobby, reading)
    }

    fn load_text(
        &self,
        id: &str,
        text: &str,
        backend: Backend,
        lobby: Option<LobbyGame>,
        reading: Reading,
    ) -> Result<Shared, Unread> {
        if !reading.compile && text.len() > LIGHT_RECORD {
            return Err(Unread::Heavy);
        }
        let parsed = parse_record(text).map_err(|e| Unread::Broken(e.to_string()))?;
        let variant = parsed.tag("Variant").unwrap_or("boyer-1951").to_owned();
        let rules = match self.compiled(&variant) {
            Some(rules) => rules,
            None if reading.compile => self.rules_of(&variant).map_err(Unread::Broken)?,
            None => return Err(Unread::Heavy),
        };
        let late = || reading.deadline.is_some_and(|d| Instant::now() >= d);
        if late() {
            return Err(Unread::Late);
        }
        let live = LiveGame::try_new(rules, |rules| -> Result<Game<'_>, Unread> {
            let on_time = |_: &Game<'_>| {
                if late() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            };
            match record::read_while(rules, &variant, &parsed, on_time) {
                Ok((_, Some(()))) => Err(Unread::Late),
                Ok((game, None)) => Ok(game),
                Err(broken) => {
                    broken.game.map(|g| *g).ok_or_else(|| Unread::Broken(broken.error.to_string()))
                }
            }
        })?;
        let tag = |name: &str| {
            live.borrow_dependent().tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
        };
        let player = |name: &str| tag(name).and_then(|p| p.parse().ok()).unwrap_or(Player::Human);
        let players = BySide { white: player("White"), black: player("Black") };
        let keys = BySide {
            white: tag("WhiteKey").filter(|k| well_formed(k, KEY_LEN)),
            black: tag("BlackKey").filter(|k| well_formed(k, KEY_LEN)),
        };
        let mode = tag("Mode").and_then(|m| Mode::from_name(&m)).unwrap_or(Mode::HotSeat);
        let maker =
            if tag("Maker").as_deref() == Some("black") { Side::Black } else { Side::White };
        let seating = Seating { mode, players, keys, maker };
        Ok(self.insert(live, id.to_owned(), variant, seating, backend, lobby))
    }

    /// The rules of the definition a saved record names: a shipped variant, or a definition of
    /// the folder (`HASH.toml`, or `ID.toml` as older servers saved them), compiled once while
    /// a game of it is alive.
    ///
    /// # Errors
    /// Why the definition cannot be read or compiled.
    pub fn rules_of(&self, variant: &str) -> Result<Arc<Rules>, String> {
        if let Some(rules) = self.compiled(variant) {
            return Ok(rules);
        }
        let own = variant.strip_suffix(".toml").filter(|stem| well_formed(stem, ID_LEN));
        if own.is_none() {
            return definition::load_shipped(variant)
                .map(|def| Arc::new(def.rules))
                .map_err(|e: LoadError| e.to_string());
        }
        let text = self
            .stored_definition(variant)?
            .ok_or_else(|| format!("its definition {variant} is missing"))?;
        let rules = definition::load_text(variant, &text)
            .map(|def| Arc::new(def.rules))
            .map_err(|e: LoadError| e.to_string())?;
        let mut uploaded = lock(&self.uploaded);
        uploaded.retain(|_, weak| weak.strong_count() > 0);
        uploaded.insert(variant.to_owned(), Arc::downgrade(&rules));
        Ok(rules)
    }

    /// The text of a stored definition by the name its games' records give it (`HASH.toml`,
    /// HASH as long as a game's id): from the games folder, else from the database; `None`
    /// when neither holds it, or when the name is not of that form (nothing else reaches a
    /// file name).
    ///
    /// # Errors
    /// The file or the database could not be read.
    pub fn stored_definition(&self, name: &str) -> Result<Option<String>, String> {
        if name.strip_suffix(".toml").is_none_or(|stem| !well_formed(stem, ID_LEN)) {
            return Ok(None);
        }
        let path = self.folder.join(name);
        if path.is_file() {
            return read_limited(&path, definition::MAX_FILE_SIZE, "definitions").map(Some);
        }
        self.db.definition(name).map_err(|e| e.to_string())
    }

    /// The compiled rules of a stored definition while a game of it holds them.
    #[must_use]
    pub fn compiled_definition(&self, name: &str) -> Option<Arc<Rules>> {
        self.compiled(name)
    }

    /// The rules a saved record names, if they need no compiling: a shipped variant's, or an
    /// uploaded definition's while a game of it is alive.
    fn compiled(&self, variant: &str) -> Option<Arc<Rules>> {
        if let Some((_, rules)) = self.shipped.iter().find(|(name, _)| *name == variant) {
            return Some(rules.clone());
        }
        lock(&self.uploaded).get(variant).and_then(Weak::upgrade)
    }

    /// The rules of an uploaded definition, shared with the games of the same text already in
    /// memory.
    pub fn share(&self, name: &str, rules: Arc<Rules>) -> Arc<Rules> {
        let mut uploaded = lock(&self.uploaded);
        if let Some(alive) = uploaded.get(name).and_then(Weak::upgrade) {
            return alive;
        }
        uploaded.retain(|_, weak| weak.strong_count() > 0);
        uploaded.insert(name.to_owned(), Arc::downgrade(&rules));
        rules
    }
}

/// Why a game could not be read back.
enum Unread {
    /// No record of it.
    Missing,
    /// The key asked for is none of its keys.
    WrongKey,
    /// Its turns took longer than the read-back time to replay.
    Late,
    /// Its definition must be compiled, or its record is long: not for light work.
    Heavy,
    /// Its record, or its definition, cannot be read: why.
    Broken(String),
}

/// How a game is read back: until when, and whether its definition may be compiled.
#[derive(Clone, Copy)]
struct Reading {
    deadline: Option<Instant>,
    compile: bool,
}

/// The games whose reading back took longer than light work may, remembered at most.
const SLOW_REMEMBERED: usize = 4096;

/// The longest record light work reads back (parsing it is not interrupted by the clock).
const LIGHT_RECORD: usize = 256 << 10;

fn broken(e: impl ToString) -> Unread {
    Unread::Broken(e.to_string())
}

/// Whether `key`, if given, is one of the keys of the record whose head (its tags) is `head`,
/// read without parsing the record: the server writes each tag on a line of its own.
fn check_key(head: &str, key: Option<&str>) -> Result<(), Unread> {
    let Some(key) = key else { return Ok(()) };
    let keys = head.lines().filter_map(|line| {
        let line = line.trim();
        let value = line.strip_prefix("[WhiteKey \"").or_else(|| line.strip_prefix("[BlackKey \""));
        value?.strip_suffix("\"]")
    });
    let mut found = false;
    for k in keys {
        found |= well_formed(k, KEY_LEN) && same_key(k, key);
    }
    if found { Ok(()) } else { Err(Unread::WrongKey) }
}

/// A fresh key for a person's seat; none for a computer's.
fn human_key(player: Player) -> Result<Option<String>, ApiError> {
    match player {
        Player::Human => random_hex(KEY_LEN / 2).map(Some),
        _ => Ok(None),
    }
}

/// The tags a server's game carries: the players, the mode and the keys of the links.
fn tags(
    players: &BySide<Player>,
    keys: &BySide<Option<String>>,
    mode: Mode,
    maker: Side,
) -> Vec<(String, String)> {
    let mut out = vec![
        ("White".to_owned(), players.white.to_string()),
        ("Black".to_owned(), players.black.to_string()),
        ("Mode".to_owned(), mode.name().to_owned()),
        ("Maker".to_owned(), maker.name().to_ascii_lowercase()),
    ];
    for side in Side::ALL {
        if let Some(key) = &keys[side] {
            out.push((format!("{}Key", side.name()), key.clone()));
        }
    }
    out
}
