//! The games a server holds: each one a [`Game`] with its definition, who plays each side, the
//! keys of its links, and its record on disk.
//!
//! A game is saved as a record (`ID.txt`, with `ID.toml` beside it for a definition that was
//! uploaded) in the games folder after every change, atomically, so that a server restarted at
//! any moment finds every game as it was. The links' keys travel in the record's own tags
//! (`WhiteKey`, `BlackKey`) and are left out of a downloaded record.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use crate::definition::{self, Definition, LoadError};
use crate::game::Game;
use crate::game::record::{self, save_atomically};
use crate::notation::record::parse as parse_record;
use crate::position::Position;
use crate::search::Player;
use crate::setup::SetupNumber;
use crate::side::{BySide, Side};
use crate::text_file::read_limited;
use crate::web::ApiError;

self_cell::self_cell!(
    /// A game together with the definition its positions borrow.
    pub struct LiveGame {
        owner: Arc<Definition>,
        #[covariant]
        dependent: Game,
    }
);

/// A session shared between requests.
pub type Shared = Arc<Mutex<Session>>;

/// The keys of each side's link.
pub type Keys = BySide<Option<String>>;

/// The length of a game's id and of a seat's key, in hexadecimal digits.
pub const ID_LEN: usize = 24;
/// The length of a key: 128 random bits.
pub const KEY_LEN: usize = 32;
/// The largest record the server reads back from its folder (as for any record).
pub const MAX_RECORD: u64 = 8 << 20;
/// Games kept in memory before idle ones are let go (they stay on disk).
const KEEP_IN_MEMORY: usize = 256;

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
    /// The name a record gives the variant: a shipped name or `ID.toml`.
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
    /// Whether the engine is choosing a turn.
    pub thinking: bool,
    /// Counts the changes, so that pages know when to fetch the game again.
    pub version: u64,
    notify: watch::Sender<u64>,
    record_path: PathBuf,
}

/// What a new game is.
pub struct NewGame {
    /// The definition.
    pub definition: Arc<Definition>,
    /// Its shipped name, or `None` for an uploaded definition (saved beside the record).
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

    /// The definition.
    pub fn definition(&self) -> &Arc<Definition> {
        self.live.borrow_owner()
    }

    /// Changes the game, then saves and announces it.
    ///
    /// # Errors
    /// The record could not be saved.
    pub fn change<T>(&mut self, f: impl for<'a> FnOnce(&mut Game<'a>) -> T) -> Result<T, ApiError> {
        let out = self.live.with_dependent_mut(|_, game| f(game));
        self.draw_offer = None;
        self.touch()?;
        Ok(out)
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
        self.version += 1;
        self.notify.send_replace(self.version);
    }

    /// The sides that `key` plays (both at a hot seat; none for a wrong key).
    #[must_use]
    pub fn sides_of(&self, key: &str) -> Vec<Side> {
        Side::ALL
            .into_iter()
            .filter(|&s| self.keys[s].as_deref().is_some_and(|k| same_key(k, key)))
            .collect()
    }

    /// The link of the other person in a game between two browsers, for the one who made it.
    #[must_use]
    pub fn invite_for(&self, key: &str) -> Option<String> {
        if self.mode != Mode::Remote {
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
        self.notify.subscribe()
    }

    /// The record, with the links' keys left out.
    #[must_use]
    pub fn public_record(&self) -> String {
        let mut game = self.game().clone();
        game.tags.retain(|(name, _)| !name.ends_with("Key") && name != "Maker");
        record::write(&game)
    }

    /// Writes the record (and leaves the definition file as it is).
    fn save(&self) -> Result<(), ApiError> {
        save_atomically(&self.record_path, &record::write(self.game()))
            .map_err(|e| ApiError::Internal(format!("the game could not be saved: {e}")))
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
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// How a game is played and by whom.
struct Seating {
    mode: Mode,
    players: BySide<Player>,
    keys: BySide<Option<String>>,
    maker: Side,
}

/// Every game of a server: those in memory, and the folder where all of them are saved.
pub struct Store {
    folder: PathBuf,
    games: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
}

/// Locks a mutex, taking over one that a panicking thread left (the data is still whole: a
/// session changes only through complete steps).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Store {
    /// A store saving into `folder`, which must exist.
    #[must_use]
    pub fn new(folder: PathBuf) -> Store {
        Store { folder, games: Mutex::new(HashMap::new()) }
    }

    /// The games folder.
    #[must_use]
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Starts a game; returns its id and the keys of its sides.
    ///
    /// # Errors
    /// The definition or the record could not be saved.
    pub fn create(&self, new: NewGame) -> Result<(Shared, Keys), ApiError> {
        let id = random_hex(ID_LEN / 2)?;
        let variant = match &new.shipped {
            Some(name) => name.clone(),
            None => format!("{id}.toml"),
        };
        if let Some(text) = &new.text {
            save_atomically(&self.folder.join(&variant), text).map_err(|e| {
                ApiError::Internal(format!("the definition could not be saved: {e}"))
            })?;
        }
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
        let live = LiveGame::try_new(new.definition, |def| -> Result<Game<'_>, ApiError> {
            let rules = &def.rules;
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
            Ok(game)
        })?;
        let seating = Seating { mode: new.mode, players: new.players, keys: keys.clone(), maker };
        let session = self.insert(live, id, variant, seating);
        lock(&session).touch()?;
        Ok((session, keys))
    }

    fn insert(
        &self,
        live: LiveGame,
        id: String,
        variant: String,
        seating: Seating,
    ) -> Arc<Mutex<Session>> {
        let session = Arc::new(Mutex::new(Session {
            record_path: self.folder.join(format!("{id}.txt")),
            id: id.clone(),
            live,
            variant,
            mode: seating.mode,
            players: seating.players,
            keys: seating.keys,
            maker: seating.maker,
            draw_offer: None,
            thinking: false,
            version: 0,
            notify: watch::channel(0).0,
        }));
        let mut games = lock(&self.games);
        if games.len() >= KEEP_IN_MEMORY {
            // Nobody holds an idle game; it is saved and comes back from disk when asked for.
            games.retain(|_, s| Arc::strong_count(s) > 1 || lock(s).notify.receiver_count() > 0);
        }
        games.insert(id, session.clone());
        session
    }

    /// The game `id` when `key` is one of its keys: from memory, or read back from its record.
    ///
    /// # Errors
    /// No such game or a wrong key (the same answer, so that a key cannot be guessed game by
    /// game), or a record that cannot be read.
    pub fn get(&self, id: &str, key: &str) -> Result<(Arc<Mutex<Session>>, Vec<Side>), ApiError> {
        if !well_formed(id, ID_LEN) || !well_formed(key, KEY_LEN) {
            return Err(ApiError::NotFound);
        }
        let held = lock(&self.games).get(id).cloned();
        let session = match held {
            Some(s) => s,
            None => self.load(id)?,
        };
        let sides = lock(&session).sides_of(key);
        if sides.is_empty() {
            return Err(ApiError::NotFound);
        }
        Ok((session, sides))
    }

    /// Reads game `id` back from its record.
    fn load(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        let path = self.folder.join(format!("{id}.txt"));
        if !path.is_file() {
            return Err(ApiError::NotFound);
        }
        let text = read_limited(&path, MAX_RECORD, "records").map_err(ApiError::Internal)?;
        let parsed = parse_record(&text).map_err(|e| ApiError::Internal(e.to_string()))?;
        let variant = parsed.tag("Variant").unwrap_or("boyer-1951").to_owned();
        let definition = Arc::new(self.definition_of(&variant)?);
        let live = LiveGame::try_new(definition, |def| -> Result<Game<'_>, ApiError> {
            match record::read(&def.rules, &variant, &parsed) {
                Ok(game) => Ok(game),
                Err(broken) => broken
                    .game
                    .map(|g| *g)
                    .ok_or_else(|| ApiError::Internal(broken.error.to_string())),
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
        let games = lock(&self.games);
        // Another request may have loaded it meanwhile.
        if let Some(s) = games.get(id) {
            return Ok(s.clone());
        }
        drop(games);
        Ok(self.insert(live, id.to_owned(), variant, Seating { mode, players, keys, maker }))
    }

    /// The definition a saved record names: a shipped variant, or its own `ID.toml`.
    fn definition_of(&self, variant: &str) -> Result<Definition, ApiError> {
        let own = variant.strip_suffix(".toml").filter(|stem| well_formed(stem, ID_LEN));
        let loaded = match own {
            Some(_) => {
                let text = read_limited(
                    &self.folder.join(variant),
                    definition::MAX_FILE_SIZE,
                    "definitions",
                )
                .map_err(ApiError::Internal)?;
                definition::load_text(variant, &text)
            }
            None => definition::load_shipped(variant),
        };
        loaded.map_err(|e: LoadError| ApiError::Internal(e.to_string()))
    }
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
