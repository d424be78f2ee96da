//! Turn notation against a position: the canonical name of every legal turn (`Nc3`, `Bf4>d6>b8`,
//! `N>h3#`, `Ng>e4`, `g5>e4`, `--`) and reading what a person typed back into a turn.
//!
//! A name says as little as needed: a piece move names its starting file, rank or square only
//! when another piece of the same letter can reach the same square; a kick names its kicker only
//! when another piece could send the ball to the same square at that point of the turn, and then
//! by the first of letter, letter + file, letter + rank, square that tells them apart.

use std::cell::OnceCell;

use crate::movegen::chains::Walker;
use crate::movegen::{
    Kick, PieceMove, TooManyTurns, Turn, check_turn_count, is_legal, legal_turns, pieces, play,
};
use crate::notation::ParseError;
use crate::notation::turn::{self, Kicker, MoveText, Start, TurnText};
use crate::position::Position;
use crate::square::Square;

/// Why a typed turn is not a legal turn of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a turn.
    #[error("`{text}` is not a turn: {error}")]
    Syntax {
        /// What was typed.
        text: String,
        /// The grammar's complaint.
        error: ParseError,
    },
    /// No legal turn matches.
    #[error("`{text}` is not legal here{}", alternatives_words(.alternatives))]
    Illegal {
        /// What was typed.
        text: String,
        /// The legal moves of that piece (or the kicks available now).
        alternatives: Vec<String>,
    },
    /// Several legal turns match.
    #[error("`{text}` is ambiguous: it could be {}", .candidates.join(", "))]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The canonical names of the matching turns.
        candidates: Vec<String>,
    },
    /// The ball is on a goal: nobody moves any more.
    #[error("the game is over")]
    Finished,
    /// The position has too many turns to read one.
    #[error(transparent)]
    TooManyTurns(#[from] TooManyTurns),
}

fn alternatives_words(alternatives: &[String]) -> String {
    match alternatives {
        [] => String::new(),
        list if list.len() > 24 => format!("; legal instead: {} ...", list[..24].join(" ")),
        list => format!("; legal instead: {}", list.join(" ")),
    }
}

/// What is known of the turns of a position for naming them: the piece moves. A kick's rivals
/// are found by following the turn, so that naming one turn never lists them all.
struct Namer<'p, 'r> {
    pos: &'p Position<'r>,
    /// The piece moves of the position (made when a move is first named).
    moves: OnceCell<Vec<(Square, Square)>>,
}

impl<'p, 'r> Namer<'p, 'r> {
    fn new(pos: &'p Position<'r>) -> Self {
        Namer { pos, moves: OnceCell::new() }
    }

    /// The squares of the pieces with `letter` that can move to `to`.
    fn movers(&self, letter: char, to: Square) -> Vec<Square> {
        let moves = self.moves.get_or_init(|| {
            let mut moves = Vec::new();
            pieces::piece_moves(self.pos, &mut moves);
            moves
        });
        let mut froms: Vec<Square> = moves
            .iter()
            .filter(|&&(from, dest)| dest == to && letter_at(self.pos, None, from) == Some(letter))
            .map(|&(from, _)| from)
            .collect();
        froms.dedup();
        froms
    }

    /// How each kick of `t` names its kicker: by as little as tells it from the pieces that
    /// could send the ball to the same square at that point of the turn.
    fn kickers(&self, t: &Turn) -> Vec<Kicker> {
        let mut walker = Walker::new(self.pos);
        if let Some(m) = t.piece_move {
            walker.shift(m.from, m.to);
        }
        let mut kickers = Vec::with_capacity(t.kicks.len());
        walker.follow_kicks(self.pos.ball(), &t.kicks, |i, rivals| {
            kickers.push(self.kicker(t.piece_move, rivals, t.kicks[i].kicker));
        });
        // Only for a turn that is not legal (never named): its square says the most.
        kickers.extend(t.kicks[kickers.len()..].iter().map(|k| Kicker::Square(name_of(k.kicker))));
        kickers
    }

    fn name(&self, t: &Turn) -> String {
        if t.is_null() {
            return "--".to_owned();
        }
        let kicks = self.kickers(t);
        let piece_move = t.piece_move.map(|m| {
            let mut from = self.start(m);
            // `Nc3g5>e4` would read as a knight move c3-g5: name the move's file as well.
            if from == Start::Unspecified && matches!(kicks.first(), Some(Kicker::Square(_))) {
                from = Start::File(m.from.file());
            }
            MoveText { letter: m.letter, from, to: name_of(m.to) }
        });
        let text = TurnText {
            piece_move,
            kicks: t
                .kicks
                .iter()
                .zip(kicks)
                .map(|(k, kicker)| turn::KickText { kicker, to: name_of(k.to) })
                .collect(),
            null: false,
            goal_mark: play(self.pos, t).is_goal(),
        };
        text.to_string()
    }

    /// As much of a moving piece's square as tells it from the others that can go there too.
    fn start(&self, m: PieceMove) -> Start {
        let others: Vec<Square> =
            self.movers(m.letter, m.to).into_iter().filter(|&s| s != m.from).collect();
        if others.is_empty() {
            Start::Unspecified
        } else if others.iter().all(|s| s.file() != m.from.file()) {
            Start::File(m.from.file())
        } else if others.iter().all(|s| s.rank() != m.from.rank()) {
            Start::Rank(m.from.rank())
        } else {
            Start::Square(name_of(m.from))
        }
    }

    /// The first of nothing, letter, letter + file, letter + rank, square that tells the kicker
    /// from the other candidates.
    fn kicker(&self, moved: Option<PieceMove>, candidates: &[Square], kicker: Square) -> Kicker {
        if candidates.len() <= 1 {
            return Kicker::Unspecified;
        }
        let letter = letter_at(self.pos, moved, kicker);
        let rivals: Vec<Square> = candidates
            .iter()
            .copied()
            .filter(|&s| s != kicker && letter_at(self.pos, moved, s) == letter)
            .collect();
        let letter = letter.unwrap_or('?');
        if rivals.is_empty() {
            Kicker::Letter(letter)
        } else if rivals.iter().all(|s| s.file() != kicker.file()) {
            Kicker::LetterFile(letter, kicker.file())
        } else if rivals.iter().all(|s| s.rank() != kicker.rank()) {
            Kicker::LetterRank(letter, kicker.rank())
        } else {
            Kicker::Square(name_of(kicker))
        }
    }
}

/// The letter of the piece on `square` once `moved` has been played (kicks move no piece).
fn letter_at(pos: &Position<'_>, moved: Option<PieceMove>, square: Square) -> Option<char> {
    match moved {
        Some(m) if m.to == square => Some(m.letter),
        Some(m) if m.from == square => None,
        _ => pos.piece_at(square).map(|(_, kind)| pos.rules().piece(kind).letter),
    }
}

fn name_of(s: Square) -> crate::notation::squares::SquareName {
    crate::notation::squares::SquareName { file: s.file(), rank: s.rank() }
}

/// The canonical names of `turns`, which must be the legal turns of `pos`.
#[must_use]
pub fn names(pos: &Position<'_>, turns: &[Turn]) -> Vec<String> {
    let namer = Namer::new(pos);
    turns.iter().map(|t| namer.name(t)).collect()
}

/// The canonical name of one legal turn of `pos`.
#[must_use]
pub fn name(pos: &Position<'_>, turn: &Turn) -> String {
    Namer::new(pos).name(turn)
}

/// Reads a turn as a person writes it: the canonical name, a longer form (`Nb1-c3`, a kicker
/// named more than needed), with or without `#`, with spaces anywhere.
///
/// # Errors
/// Not a turn, not legal here (with the legal alternatives of that piece), ambiguous (with the
/// candidates), or the game is over.
pub fn resolve(pos: &Position<'_>, text: &str) -> Result<Turn, NotationError> {
    if pos.is_goal() {
        return Err(NotationError::Finished);
    }
    check_turn_count(pos)?;
    // The turns that fit are found by following what was written; only a turn that is not
    // legal or is ambiguous lists every turn, for the message.
    if let Ok(written) = turn::parse(&text.split_whitespace().collect::<String>())
        && let [one] = fitting(pos, &written).as_slice()
    {
        return Ok(one.clone());
    }
    resolve_among(pos, &legal_turns(pos), text)
}

/// The legal turns of `pos` that fit `written` (at most two: enough to tell one from many).
fn fitting(pos: &Position<'_>, written: &TurnText) -> Vec<Turn> {
    let mut found = Vec::new();
    if written.null || (written.piece_move.is_none() && written.kicks.is_empty()) {
        if is_legal(pos, &Turn::null()) {
            found.push(Turn::null());
        }
        return found;
    }
    let mut starts = vec![None];
    if let Some(w) = &written.piece_move {
        let mut moves = Vec::new();
        pieces::piece_moves(pos, &mut moves);
        starts = moves
            .into_iter()
            .filter_map(|(from, to)| {
                let letter = letter_at(pos, None, from)?;
                let m = PieceMove { letter, from, to };
                move_matches(w, m).then_some(Some(m))
            })
            .collect();
    }
    for piece_move in starts {
        let mut walker = Walker::new(pos);
        if let Some(m) = piece_move {
            walker.shift(m.from, m.to);
        }
        let mut fits = |k: Square, w: &turn::KickText| kicker_fits(pos, piece_move, w.kicker, k);
        let mut each = |kicks: &[Kick]| {
            found.push(Turn { piece_move, kicks: kicks.to_vec() });
            found.len() > 1
        };
        walker.each_fitting(pos.ball(), &written.kicks, &mut Vec::new(), &mut fits, &mut each);
        if found.len() > 1 {
            break;
        }
    }
    found
}

/// [`resolve`] among `turns`, the legal turns of `pos` already listed.
///
/// # Errors
/// As [`resolve`].
pub fn resolve_among(
    pos: &Position<'_>,
    turns: &[Turn],
    text: &str,
) -> Result<Turn, NotationError> {
    let compact: String = text.split_whitespace().collect();
    let written = turn::parse(&compact)
        .map_err(|error| NotationError::Syntax { text: text.trim().to_owned(), error })?;
    let matching: Vec<&Turn> = turns.iter().filter(|t| matches(pos, &written, t)).collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(NotationError::Illegal {
            text: text.trim().to_owned(),
            alternatives: alternatives(pos, turns, &written),
        }),
        many => {
            let namer = Namer::new(pos);
            Err(NotationError::Ambiguous {
                text: text.trim().to_owned(),
                candidates: many.iter().map(|t| namer.name(t)).collect(),
            })
        }
    }
}

/// Reads one step of a turn entered step by step: `partial` is what has been entered so far (a
/// piece move and kicks, or nothing), `text` the next part: at the start a move, kicks, or both
/// (`Nc3`, `>e6`, `Nc3>e6`); later one or more kicks (`>e6`, `N>e6`, or a bare square `e6`).
/// The result is the longer partial turn, which is itself a legal turn (a side may stop after
/// any action) unless it is empty.
///
/// # Errors
/// Not a turn, no legal turn continues this way (with the alternatives), or several do.
pub fn resolve_step(
    pos: &Position<'_>,
    turns: &[Turn],
    partial: &Turn,
    text: &str,
) -> Result<Turn, NotationError> {
    let mut compact: String = text.split_whitespace().collect();
    let started = partial.piece_move.is_some() || !partial.kicks.is_empty();
    if started && !compact.contains('>') {
        // A bare square continues the turn with a kick there.
        compact = format!(">{compact}");
    }
    let written = turn::parse(&compact)
        .map_err(|error| NotationError::Syntax { text: text.trim().to_owned(), error })?;
    let syntax_error = |message: &str| NotationError::Syntax {
        text: text.trim().to_owned(),
        error: ParseError::new(message, 0..compact.len()),
    };
    if started && (written.piece_move.is_some() || written.null) {
        return Err(syntax_error("the piece has moved already: kick the ball, or end the turn"));
    }
    let done = partial.kicks.len();
    let mut prefixes: Vec<Turn> = Vec::new();
    for t in turns {
        let Some(prefix) = step_prefix(pos, partial, &written, t) else { continue };
        if !prefixes.contains(&prefix) {
            prefixes.push(prefix);
        }
    }
    match prefixes.len() {
        1 => Ok(prefixes.remove(0)),
        0 => Err(NotationError::Illegal {
            text: text.trim().to_owned(),
            alternatives: if started {
                next_kicks(pos, turns, partial, done)
            } else {
                alternatives(pos, turns, &written)
            },
        }),
        _ => {
            let namer = Namer::new(pos);
            let mut candidates: Vec<String> = prefixes.iter().map(|p| namer.name(p)).collect();
            candidates.sort();
            Err(NotationError::Ambiguous { text: text.trim().to_owned(), candidates })
        }
    }
}

/// The prefix of legal turn `t` that `written` selects after `partial`, if `t` continues
/// `partial` that way.
fn step_prefix(pos: &Position<'_>, partial: &Turn, written: &TurnText, t: &Turn) -> Option<Turn> {
    let done = partial.kicks.len();
    let started = partial.piece_move.is_some() || done > 0;
    let move_fits = if started {
        t.piece_move == partial.piece_move && t.kicks.starts_with(&partial.kicks)
    } else {
        match (&written.piece_move, t.piece_move) {
            (None, None) => true,
            (Some(w), Some(m)) => move_matches(w, m),
            _ => false,
        }
    };
    let wanted = done + written.kicks.len();
    if written.null {
        return t.is_null().then(Turn::null);
    }
    let fits = move_fits
        && t.kicks.len() >= wanted
        && written.kicks.iter().zip(&t.kicks[done..]).all(|(w, k)| {
            square_is(w.to, k.to) && kicker_fits(pos, t.piece_move, w.kicker, k.kicker)
        });
    fits.then(|| Turn { piece_move: t.piece_move, kicks: t.kicks[..wanted].to_vec() })
}

/// The names of the kicks that may follow `partial` (as whole turns, for showing).
#[must_use]
pub fn next_kicks(pos: &Position<'_>, turns: &[Turn], partial: &Turn, done: usize) -> Vec<String> {
    let namer = Namer::new(pos);
    let mut out: Vec<String> = turns
        .iter()
        .filter(|t| {
            t.piece_move == partial.piece_move
                && t.kicks.len() == done + 1
                && t.kicks.starts_with(&partial.kicks)
        })
        .map(|t| namer.name(t))
        .collect();
    out.sort();
    out
}

/// Whether a legal turn continues `partial` with more kicks.
#[must_use]
pub fn can_continue(turns: &[Turn], partial: &Turn) -> bool {
    turns.iter().any(|t| {
        t.piece_move == partial.piece_move
            && t.kicks.len() > partial.kicks.len()
            && t.kicks.starts_with(&partial.kicks)
    })
}

fn move_matches(w: &MoveText, m: PieceMove) -> bool {
    w.letter == m.letter
        && square_is(w.to, m.to)
        && match w.from {
            Start::Unspecified => true,
            Start::File(f) => m.from.file() == f,
            Start::Rank(r) => m.from.rank() == r,
            Start::Square(s) => square_is(s, m.from),
        }
}

/// Whether the legal turn `t` fits what was written.
fn matches(pos: &Position<'_>, written: &TurnText, t: &Turn) -> bool {
    if written.null {
        return t.is_null();
    }
    let move_fits = match (&written.piece_move, t.piece_move) {
        (None, None) => true,
        (Some(w), Some(m)) => move_matches(w, m),
        _ => false,
    };
    move_fits
        && written.kicks.len() == t.kicks.len()
        && written.kicks.iter().zip(&t.kicks).all(|(w, k)| {
            square_is(w.to, k.to) && kicker_fits(pos, t.piece_move, w.kicker, k.kicker)
        })
}

fn square_is(name: crate::notation::squares::SquareName, s: Square) -> bool {
    name.file == s.file() && name.rank == s.rank()
}

fn kicker_fits(
    pos: &Position<'_>,
    moved: Option<PieceMove>,
    written: Kicker,
    kicker: Square,
) -> bool {
    let letter = letter_at(pos, moved, kicker);
    match written {
        Kicker::Unspecified => true,
        Kicker::Letter(l) => letter == Some(l),
        Kicker::LetterFile(l, f) => letter == Some(l) && kicker.file() == f,
        Kicker::LetterRank(l, r) => letter == Some(l) && kicker.rank() == r,
        Kicker::Square(s) => square_is(s, kicker),
    }
}

/// What to suggest instead of an illegal turn: the moves of the pieces with that letter, or the
/// first kicks available.
fn alternatives(pos: &Position<'_>, turns: &[Turn], written: &TurnText) -> Vec<String> {
    let namer = Namer::new(pos);
    let mut out: Vec<String> = match &written.piece_move {
        Some(w) => turns
            .iter()
            .filter(|t| t.kicks.is_empty() && t.piece_move.is_some_and(|m| m.letter == w.letter))
            .map(|t| namer.name(t))
            .collect(),
        None => turns
            .iter()
            .filter(|t| t.piece_move.is_none() && t.kicks.len() == 1)
            .map(|t| namer.name(t))
            .collect(),
    };
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::movegen::legal_turns;

    #[test]
    fn boyer_start_names_are_unique_and_read_back() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules).unwrap();
        let turns = legal_turns(&pos);
        let names = names(&pos, &turns);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), turns.len());
        for (t, n) in turns.iter().zip(&names) {
            assert_eq!(&resolve(&pos, n).unwrap(), t, "{n}");
        }
        assert!(names.contains(&"Nc3".to_owned()), "{names:?}");
    }

    #[test]
    fn forgiving_input() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules).unwrap();
        let short = resolve(&pos, "Nc3").unwrap();
        assert_eq!(resolve(&pos, " Nb1-c3 ").unwrap(), short);
        assert_eq!(resolve(&pos, "Nb1c3").unwrap(), short);
        assert_eq!(resolve(&pos, "Nbc3").unwrap(), short);
    }

    #[test]
    fn turns_entered_step_by_step() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::from_fen(&rules, "9/9/3R5/9/3a5/3R5/9/9/9 w 0").unwrap();
        let turns = legal_turns(&pos);
        let moved = resolve_step(&pos, &turns, &Turn::null(), "Rc7").unwrap();
        assert!(moved.kicks.is_empty() && can_continue(&turns, &moved));
        let kicked = resolve_step(&pos, &turns, &moved, "d7").unwrap();
        assert_eq!(name(&pos, &kicked), "Rc7>d7");
        let passed = resolve_step(&pos, &turns, &kicked, ">f7").unwrap();
        assert_eq!(name(&pos, &passed), "Rc7>d7>f7");
        assert!(!can_continue(&turns, &passed));
        let e = resolve_step(&pos, &turns, &kicked, "d5").unwrap_err();
        assert!(
            matches!(&e, NotationError::Illegal { alternatives, .. } if alternatives.contains(&"Rc7>d7>e7".to_owned())),
            "{e}"
        );
        assert!(resolve_step(&pos, &turns, &moved, "Rd8").is_err(), "one piece move a turn");
        let whole = resolve_step(&pos, &turns, &Turn::null(), "Rc7>d7>e7").unwrap();
        assert_eq!(name(&pos, &whole), "Rc7>d7>e7");
    }

    #[test]
    fn errors_say_why() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules).unwrap();
        let e = resolve(&pos, "Nd3").unwrap_err();
        assert!(
            matches!(&e, NotationError::Illegal { alternatives, .. } if alternatives.contains(&"Nc3".to_owned())),
            "{e}"
        );
        let e = resolve(&pos, "N?3").unwrap_err();
        assert!(matches!(e, NotationError::Syntax { .. }), "{e}");
        let e = resolve(&pos, "--").unwrap_err();
        assert!(matches!(e, NotationError::Illegal { .. }), "{e}");
    }
}
