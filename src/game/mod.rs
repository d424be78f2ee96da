//! A game: the start, the turns played with their names, how it ended, undo and redo, and its
//! record (PGN-style text, see [`record`]).

pub mod record;

use std::collections::HashMap;
use std::fmt;

use crate::movegen::{PlayError, Turn, play, play_unchecked};
use crate::position::{Outcome, Position};
use crate::rules::Rules;
use crate::setup::SetupNumber;
use crate::side::Side;
use crate::turn_text::names::{NotationError, name, resolve};

/// One turn played, with its canonical name ([`Game::position_at`] gives the positions).
#[derive(Clone, Debug)]
pub struct Ply {
    /// The turn.
    pub turn: Turn,
    /// Its canonical name in the position it was played in.
    pub name: String,
    /// Comments written after it in a record.
    pub comments: Vec<String>,
}

/// Every how many turns a game keeps its position: a position is large (a 16x16 board), and a
/// game may have millions of turns (a record of 8 MiB of null turns); the others are replayed.
const CHECKPOINT: usize = 32;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The ball reached a goal square.
    Goal {
        /// The side that scores.
        winner: Side,
        /// Whether the loser kicked it into its own goal.
        own_goal: bool,
    },
    /// The same position occurred `end.repetition` times.
    Repetition,
    /// `end.max_turns` turns were played.
    TurnLimit,
    /// `end.max_turns` turns of a match were played and `winner` had more goals: it wins the
    /// match without a goal to end it.
    OnGoals {
        /// The side with more goals.
        winner: Side,
    },
    /// The side to move has no legal turn, and `end.no_moves = "draw"`.
    NoMoves,
    /// A side resigned.
    Resignation {
        /// The side that resigned.
        loser: Side,
    },
    /// A side's clock ran out (a game with a time control).
    Time {
        /// The side whose time ran out.
        loser: Side,
    },
    /// Both sides agreed to a draw.
    Agreement,
    /// A draw adjudicated at a turn cap set for the game, not by its rules (a match's
    /// `--max-turns`, the server's cap): the game was still going.
    TurnCap,
    /// A result a record states for a reason kickoff does not check (a time forfeit, an
    /// adjudication ...) or for none: kept as the record gives it.
    Recorded {
        /// The stated result.
        result: GameResult,
    },
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
}

impl Ending {
    /// The result this ending gives.
    #[must_use]
    pub fn result(self) -> GameResult {
        match self {
            Ending::Goal { winner: Side::White, .. }
            | Ending::OnGoals { winner: Side::White }
            | Ending::Resignation { loser: Side::Black }
            | Ending::Time { loser: Side::Black } => GameResult::WhiteWins,
            Ending::Goal { winner: Side::Black, .. }
            | Ending::OnGoals { winner: Side::Black }
            | Ending::Resignation { loser: Side::White }
            | Ending::Time { loser: Side::White } => GameResult::BlackWins,
            Ending::Repetition
            | Ending::TurnLimit
            | Ending::NoMoves
            | Ending::Agreement
            | Ending::TurnCap => GameResult::Draw,
            Ending::Recorded { result } => result,
        }
    }

    /// The `Termination` tag of a record (empty for a recorded result: the record's own tag,
    /// if any, is kept instead).
    #[must_use]
    pub fn tag(self) -> &'static str {
        match self {
            Ending::Goal { own_goal: false, .. } => "goal",
            Ending::Goal { own_goal: true, .. } => "own goal",
            Ending::Repetition => "repetition",
            Ending::TurnLimit | Ending::OnGoals { .. } => "turn limit",
            Ending::NoMoves => "no moves",
            Ending::Resignation { .. } => "resignation",
            Ending::Time { .. } => "time forfeit",
            Ending::Agreement => "agreement",
            Ending::TurnCap => "turn cap",
            Ending::Recorded { .. } => "",
        }
    }
}

/// A phrase for people: "White scores a goal", "Black resigns".
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::Goal { winner, own_goal: false } => {
                write!(f, "{} scores a goal", winner.name())
            }
            Ending::Goal { winner, own_goal: true } => {
                write!(f, "{} scores: an own goal by {}", winner.name(), (!winner).name())
            }
            Ending::Repetition => f.write_str("draw by repetition"),
            Ending::TurnLimit => f.write_str("draw: the turn limit is reached"),
            Ending::OnGoals { winner } => {
                write!(f, "{} wins the match on goals at the turn limit", winner.name())
            }
            Ending::NoMoves => f.write_str("draw: the side to move has no legal turn"),
            Ending::Resignation { loser } => write!(f, "{} resigns", loser.name()),
            Ending::Time { loser } => write!(f, "{} loses on time", loser.name()),
            Ending::Agreement => f.write_str("draw by agreement"),
            Ending::TurnCap => f.write_str("draw: the game reached its turn cap"),
            Ending::Recorded { result: GameResult::WhiteWins } => {
                f.write_str("White wins, as recorded")
            }
            Ending::Recorded { result: GameResult::BlackWins } => {
                f.write_str("Black wins, as recorded")
            }
            Ending::Recorded { result: GameResult::Draw } => f.write_str("a draw, as recorded"),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// Why a turn cannot be added to a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended.
    #[error("the game is over: {0}")]
    Over(Ending),
    /// The typed turn is not a legal turn.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The turn is not legal.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A draw by repetition was claimed where the position has not occurred often enough.
    #[error("the position has not occurred often enough to claim a draw by repetition")]
    NoClaim,
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game<'r> {
    rules: &'r Rules,
    variant: String,
    start: Position<'r>,
    setup_number: Option<SetupNumber>,
    plies: Vec<Ply>,
    undone: Vec<Ply>,
    /// The position after every [`CHECKPOINT`]-th turn, the start first.
    checkpoints: Vec<Position<'r>>,
    /// The current position.
    current: Position<'r>,
    /// The hash of every position, the start first.
    hashes: Vec<u64>,
    /// How often each position has occurred (only when repetitions end the game).
    seen: HashMap<u64, u32>,
    declared: Option<Ending>,
    /// Tags other than the ones the game writes itself, kept from a record.
    pub tags: Vec<(String, String)>,
    /// Comments before the first turn.
    pub leading_comments: Vec<String>,
    /// The hash of the definition played ([`record::definition_hash`]), written in records.
    pub variant_hash: Option<String>,
    /// The definition's text, when records carry it.
    pub definition: Option<String>,
}

impl<'r> Game<'r> {
    /// A new game of `variant` (its shipped name or path, written in records) from `start`.
    #[must_use]
    pub fn new(variant: &str, start: Position<'r>, setup_number: Option<SetupNumber>) -> Self {
        Game {
            rules: start.rules(),
            variant: variant.to_owned(),
            start,
            setup_number,
            plies: Vec::new(),
            undone: Vec::new(),
            checkpoints: vec![start],
            current: start,
            hashes: vec![start.hash()],
            seen: HashMap::new(),
            declared: None,
            tags: Vec::new(),
            leading_comments: Vec::new(),
            variant_hash: None,
            definition: None,
        }
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The variant as records name it.
    #[must_use]
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position<'r> {
        &self.start
    }

    /// Whether the game starts from its variant's start position (compared as positions:
    /// `setup.fen` may leave out what a written FEN spells out).
    #[must_use]
    pub fn from_variant_start(&self) -> bool {
        self.start == Position::start(self.rules)
    }

    /// The number of the random setup the game started from, if any.
    #[must_use]
    pub fn setup_number(&self) -> Option<SetupNumber> {
        self.setup_number
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position<'r> {
        &self.current
    }

    /// The position after `turns` turns (the start at 0, the current position at the number of
    /// plies; clamped to it).
    #[must_use]
    pub fn position_at(&self, turns: usize) -> Position<'r> {
        let turns = turns.min(self.plies.len());
        let mut pos = self.checkpoints[turns / CHECKPOINT];
        for ply in &self.plies[turns / CHECKPOINT * CHECKPOINT..turns] {
            pos = play_unchecked(&pos, &ply.turn);
        }
        pos
    }

    /// The turns played.
    #[must_use]
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The hashes of every position of the game, oldest first (for repetition).
    #[must_use]
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Adds a turn already checked, with the position after it.
    fn push(&mut self, ply: Ply, after: Position<'r>) {
        self.plies.push(ply);
        self.current = after;
        self.hashes.push(after.hash());
        if self.plies.len().is_multiple_of(CHECKPOINT) {
            self.checkpoints.push(after);
        }
        if self.rules.end().repetition > 0 {
            *self.seen.entry(after.hash()).or_insert(0) += 1;
        }
    }

    /// Takes back the last turn.
    fn pop(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        if let Some(h) = self.hashes.pop()
            && let Some(n) = self.seen.get_mut(&h)
        {
            *n -= 1;
        }
        self.checkpoints.truncate(self.plies.len() / CHECKPOINT + 1);
        self.current = self.position_at(self.plies.len());
        Some(ply)
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        if let Some(ending) = self.declared {
            return Some(ending);
        }
        match self.position().outcome() {
            Some(Outcome::Goal { winner, own_goal }) => Some(Ending::Goal { winner, own_goal }),
            Some(Outcome::RoyalCaptured { winner } | Outcome::Match { winner }) => {
                Some(Ending::Goal { winner, own_goal: false })
            }
            Some(Outcome::MostGoals { winner }) => Some(Ending::OnGoals { winner }),
            Some(Outcome::TurnLimit) => Some(Ending::TurnLimit),
            Some(Outcome::Repetition) => Some(Ending::Repetition),
            None if self.repeated() && !self.repetition_is_claimed() => Some(Ending::Repetition),
            None => (self.rules.end().no_moves_draws()
                && crate::movegen::has_no_turn(self.position()))
            .then_some(Ending::NoMoves),
        }
    }

    /// Whether a repetition only lets the side to move claim a draw.
    fn repetition_is_claimed(&self) -> bool {
        self.rules.end().repetition_claimed()
    }

    /// Whether the side to move may claim a draw by repetition: the game's rules make a
    /// repetition a claim (`end.repetition_draw = "claim"`), the game goes on, and the current
    /// position has occurred `end.repetition` times.
    #[must_use]
    pub fn may_claim_repetition(&self) -> bool {
        self.repetition_is_claimed() && self.ending().is_none() && self.repeated()
    }

    /// Claims the draw by repetition for the side to move.
    ///
    /// # Errors
    /// The game is over, or the position may not be claimed a draw.
    pub fn claim_repetition(&mut self) -> Result<(), GameError> {
        if let Some(ending) = self.ending() {
            return Err(GameError::Over(ending));
        }
        if !self.may_claim_repetition() {
            return Err(GameError::NoClaim);
        }
        self.declared = Some(Ending::Repetition);
        Ok(())
    }

    /// Whether the current position has occurred `end.repetition` times.
    fn repeated(&self) -> bool {
        let needed = self.rules.end().repetition;
        // The start is counted here rather than in `seen`.
        let at_start = u32::from(self.current.hash() == self.start.hash());
        let seen = self.seen.get(&self.current.hash()).copied().unwrap_or(0);
        needed > 0 && seen + at_start >= needed
    }

    /// Plays a legal turn.
    ///
    /// # Errors
    /// The game is over, or the turn is not legal.
    pub fn play(&mut self, turn: Turn) -> Result<(), GameError> {
        if let Some(ending) = self.ending() {
            return Err(GameError::Over(ending));
        }
        let pos = *self.position();
        let after = play(&pos, &turn)?;
        let name = name(&pos, &turn);
        self.push(Ply { turn, name, comments: Vec::new() }, after);
        self.undone.clear();
        Ok(())
    }

    /// Plays a turn typed by a person (canonical name or a longer form).
    ///
    /// # Errors
    /// The game is over, or the text is not a legal turn (with why).
    pub fn play_text(&mut self, text: &str) -> Result<Turn, GameError> {
        if let Some(ending) = self.ending() {
            return Err(GameError::Over(ending));
        }
        let turn = resolve(self.position(), text)?;
        self.play(turn.clone())?;
        Ok(turn)
    }

    /// Takes back the last turn (or a resignation or agreed draw); false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.declared.take().is_some() {
            return true;
        }
        match self.pop() {
            Some(ply) => {
                self.undone.push(ply);
                true
            }
            None => false,
        }
    }

    /// Plays again the last turn taken back; false if there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some(ply) if self.ending().is_none() => {
                let after = play_unchecked(&self.current, &ply.turn);
                self.push(ply, after);
                true
            }
            Some(ply) => {
                self.undone.push(ply);
                false
            }
            None => false,
        }
    }

    /// Ends the game by resignation, agreement or adjudication.
    pub fn declare(&mut self, ending: Ending) {
        if self.ending().is_none() {
            self.declared = Some(ending);
        }
    }

    /// The label of the turn played from position index `i` (0 = the start): `12.` or `12...`.
    #[must_use]
    pub fn label(&self, i: usize) -> String {
        let turns = self.start.turns().saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        label_of(turns, self.side_at(i))
    }

    /// The side to move at position index `i` (0 = the start).
    #[must_use]
    pub fn side_at(&self, i: usize) -> Side {
        if i.is_multiple_of(2) { self.start.side() } else { !self.start.side() }
    }
}

/// `N.` for White's turn and `N...` for Black's, N counting from 1 as in chess.
#[must_use]
pub fn move_label(before: &Position<'_>) -> String {
    label_of(before.turns(), before.side())
}

/// The label of the turn played by `side` after `turns` turns.
fn label_of(turns: u32, side: Side) -> String {
    let number = turns / 2 + 1;
    match side {
        Side::White => format!("{number}."),
        Side::Black => format!("{number}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;

    #[test]
    fn a_match_won_at_the_turn_limit_is_won_on_goals_not_by_one() {
        let def = crate::definition::load("tests/data/solve/boyer-match.toml").unwrap();
        let fen = "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 9 1-0";
        let start = Position::from_fen(&def.rules, fen).unwrap();
        let mut game = Game::new("boyer-match", start, None);
        game.play_text("Ra2").unwrap();
        let ending = game.ending().unwrap();
        assert_eq!(ending, Ending::OnGoals { winner: Side::White });
        assert_eq!(ending.result(), GameResult::WhiteWins);
        assert_eq!(ending.tag(), "turn limit");
        assert_eq!(ending.to_string(), "White wins the match on goals at the turn limit");
    }

    #[test]
    fn play_undo_redo_and_endings() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let mut game = Game::new("boyer-1951", Position::start(&rules), None);
        game.play_text("Nc3").unwrap();
        game.play_text("Nc7").unwrap();
        assert_eq!(game.plies().len(), 2);
        assert_eq!(game.label(1), "1...");
        assert!(game.undo());
        assert_eq!(game.plies().len(), 1);
        assert!(game.redo());
        assert_eq!(game.plies()[1].name, "Nc7");
        assert!(!game.redo());
        game.declare(Ending::Resignation { loser: Side::White });
        assert_eq!(game.ending().map(Ending::result), Some(GameResult::BlackWins));
        assert!(matches!(game.play_text("Nb1"), Err(GameError::Over(_))));
        assert!(game.undo(), "a resignation can be taken back");
        assert_eq!(game.ending(), None);
    }

    #[test]
    fn knights_dancing_draw_by_repetition() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let mut game = Game::new("boyer-1951", Position::start(&rules), None);
        for _ in 0..2 {
            for t in ["Nc3", "Nc7", "Nb1", "Nb9"] {
                assert_eq!(game.ending(), None);
                game.play_text(t).unwrap();
            }
        }
        assert_eq!(game.ending(), Some(Ending::Repetition));
        assert_eq!(Ending::Repetition.result(), GameResult::Draw);
    }

    /// A game of `n` turns of Boyer's game, each chosen among the legal ones by a fixed rule that
    /// avoids goals (so the game runs long), with the position after every turn.
    fn long_game(n: usize) -> (Game<'static>, Vec<Position<'static>>) {
        let rules: &'static Rules = Box::leak(Box::new(load_shipped("boyer-1951").unwrap().rules));
        let mut game = Game::new("boyer-1951", Position::start(rules), None);
        let mut positions = vec![*game.position()];
        for i in 0..n {
            let pos = *game.position();
            let turns = crate::movegen::legal_turns(&pos).unwrap();
            let quiet: Vec<&Turn> =
                turns.iter().filter(|t| play_unchecked(&pos, t).outcome().is_none()).collect();
            let turn = quiet[(i * 7 + 3) % quiet.len()].clone();
            game.play(turn).unwrap();
            positions.push(*game.position());
        }
        (game, positions)
    }

    #[test]
    fn positions_of_a_long_game_are_found_through_its_checkpoints() {
        let n = 3 * CHECKPOINT + 5;
        let (mut game, positions) = long_game(n);
        assert_eq!(game.plies().len(), n, "the game ended early");
        assert_eq!(game.hashes().len(), n + 1);
        for (i, pos) in positions.iter().enumerate() {
            assert_eq!(game.position_at(i), *pos, "position after {i} turns");
            assert_eq!(game.hashes()[i], pos.hash(), "hash after {i} turns");
        }
        assert_eq!(game.position_at(n + 10), positions[n], "clamped to the current position");
        // Taking back every turn, across checkpoints, finds each earlier position again; playing
        // them again finds the later ones.
        for i in (0..n).rev() {
            assert!(game.undo());
            assert_eq!(*game.position(), positions[i], "after taking back to {i} turns");
            assert_eq!(game.hashes().len(), i + 1);
            assert_eq!(game.position_at(i), positions[i]);
        }
        assert!(!game.undo());
        for (i, pos) in positions.iter().enumerate().skip(1) {
            assert!(game.redo());
            assert_eq!(*game.position(), *pos, "after playing again to {i} turns");
            assert_eq!(game.position_at(i - 1), positions[i - 1]);
        }
        assert!(!game.redo());
    }

    #[test]
    fn turns_taken_back_no_longer_count_towards_a_repetition() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let mut game = Game::new("boyer-1951", Position::start(&rules), None);
        let dance = ["Nc3", "Nc7", "Nb1", "Nb9"];
        // Dance once and take it back, twice over: those positions occurred, then did not.
        for _ in 0..2 {
            for t in dance {
                game.play_text(t).unwrap();
            }
            for _ in dance {
                assert!(game.undo());
            }
        }
        assert!(game.plies().is_empty());
        // Each position of the dance now occurs a second time, then a third: only the third
        // ends the game.
        for round in 0..2 {
            for (i, t) in dance.iter().enumerate() {
                assert_eq!(game.ending(), None, "round {round}, before {t}");
                game.play_text(t).unwrap();
                if round == 0 || i < 3 {
                    assert_eq!(game.ending(), None, "round {round}, after {t}");
                }
            }
        }
        assert_eq!(game.ending(), Some(Ending::Repetition));
        // Taking back the repeating turn resumes the game; playing it again ends it again.
        assert!(game.undo());
        assert_eq!(game.ending(), None);
        assert!(game.redo());
        assert_eq!(game.ending(), Some(Ending::Repetition));
    }

    #[test]
    fn a_side_without_a_turn_draws_where_the_rules_say_so() {
        let rules = load_shipped("vchess-ball").unwrap().rules;
        // White has no piece left: no legal turn, a draw in vchess.club's Ball.
        let stuck = "rb4rnn/p1p2ppp1/p1h4p1/9/3ps1b2/9/9/9/8q w 52 - -";
        let game = Game::new("vchess-ball", Position::from_fen(&rules, stuck).unwrap(), None);
        assert_eq!(game.ending(), Some(Ending::NoMoves));
        assert_eq!(Ending::NoMoves.result(), GameResult::Draw);
        assert_eq!(Ending::NoMoves.tag(), "no moves");
        // Black, to move there, has turns: the game goes on.
        let black = stuck.replace(" w ", " b ");
        let game = Game::new("vchess-ball", Position::from_fen(&rules, &black).unwrap(), None);
        assert_eq!(game.ending(), None);
    }

    #[test]
    fn a_goal_ends_the_game() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::from_fen(&rules, "9/4a4/4R4/9/9/9/9/9/9 w 4").unwrap();
        let mut game = Game::new("boyer-1951", pos, None);
        game.play_text(">e9").unwrap();
        assert_eq!(game.plies()[0].name, ">e9#");
        assert_eq!(game.ending(), Some(Ending::Goal { winner: Side::White, own_goal: false }));
        assert_eq!(game.ending().unwrap().to_string(), "White scores a goal");
    }
}
