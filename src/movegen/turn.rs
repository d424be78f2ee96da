//! A turn: the actions of one side in order, each a piece move or a kick. In Boyer's family a
//! turn is an optional piece move, then kicks; other games interleave them or allow several
//! moves. Its long text form (`Nb1-c3 d4>f6 f5>f8`, `d4>f6`, `--`) is written and read here and
//! nowhere else.

use std::fmt;

use crate::notation::squares::{self, Item, ItemKind};
use crate::square::{MAX_FILES, MAX_RANKS, Square};

/// What a piece move does besides moving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// It moves to `to` (capturing what stands there, where the variant captures).
    #[default]
    Plain,
    /// It captures en passant: it moves to the skipped square `to` and removes the piece that
    /// skipped it.
    EnPassant,
    /// Nobody moves: a carried ball changes hands between the pieces on `from` and `to` (a
    /// pass, a take from a friend, or an in-place steal).
    InPlace,
}

/// A piece's move from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceMove {
    /// The piece's White (uppercase) letter.
    pub letter: char,
    /// Where it stands.
    pub from: Square,
    /// Where it goes (or, in place, the square of the other piece).
    pub to: Square,
    /// The White letter of the piece it becomes, when it promotes.
    pub promotion: Option<char>,
    /// What kind of move it is.
    pub kind: MoveKind,
}

impl PieceMove {
    /// A plain move.
    #[must_use]
    pub fn new(letter: char, from: Square, to: Square) -> PieceMove {
        PieceMove { letter, from, to, promotion: None, kind: MoveKind::Plain }
    }
}

/// One kick: the piece on `kicker` sends the ball to `to` (an entering kicker first steps onto
/// the ball's square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kick {
    /// The kicking piece's square.
    pub kicker: Square,
    /// The ball's destination.
    pub to: Square,
}

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves (or, with a carried ball, acts in place).
    Move(PieceMove),
    /// A piece kicks the ball.
    Kick(Kick),
}

/// One side's whole turn. With no action it is the null turn (or a forced pass).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The actions, in order.
    pub actions: Vec<Action>,
}

impl Turn {
    /// The null turn (also written for a forced pass).
    #[must_use]
    pub fn null() -> Turn {
        Turn::default()
    }

    /// A turn of Boyer's family: an optional piece move, then kicks.
    #[must_use]
    pub fn new(piece_move: Option<PieceMove>, kicks: &[Kick]) -> Turn {
        let actions = piece_move.map(Action::Move).into_iter();
        Turn { actions: actions.chain(kicks.iter().map(|&k| Action::Kick(k))).collect() }
    }

    /// Whether the turn does nothing.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.actions.is_empty()
    }

    /// The piece moves, in order.
    pub fn moves(&self) -> impl Iterator<Item = &PieceMove> {
        self.actions.iter().filter_map(|a| match a {
            Action::Move(m) => Some(m),
            Action::Kick(_) => None,
        })
    }

    /// The kicks, in order.
    pub fn kicks(&self) -> impl Iterator<Item = &Kick> {
        self.actions.iter().filter_map(|a| match a {
            Action::Kick(k) => Some(k),
            Action::Move(_) => None,
        })
    }

    /// The first piece move, if the turn has one.
    #[must_use]
    pub fn first_move(&self) -> Option<PieceMove> {
        self.moves().next().copied()
    }
}

/// The long form of a move: `Nb1-c3`, `Pe7-e8=Q`, `Pd5-e6ep`, `Nb1~c3` (in place).
impl fmt::Display for PieceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let link = if self.kind == MoveKind::InPlace { '~' } else { '-' };
        write!(f, "{}{}{link}{}", self.letter, self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "={p}")?;
        }
        if self.kind == MoveKind::EnPassant {
            f.write_str("ep")?;
        }
        Ok(())
    }
}

/// The long form: `Nb1-c3 d4>f6 f5>f8`; `--` for the null turn.
impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("--");
        }
        for (i, action) in self.actions.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            match action {
                Action::Move(m) => write!(f, "{m}")?,
                Action::Kick(k) => write!(f, "{}>{}", k.kicker, k.to)?,
            }
        }
        Ok(())
    }
}

/// Why a turn's long form could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseTurnError {
    /// A word that is neither a piece move nor a kick where one was expected.
    #[error("`{word}` is not {expected}")]
    Word {
        /// The word.
        word: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// Nothing at all.
    #[error("empty turn (write `--` for the null turn)")]
    Empty,
}

/// Reads the long form written by `Display`: piece moves (`Xa1-b2`) and kicks (`a1>b2`) in
/// any order, or `--`.
///
/// # Errors
/// An empty text or a word that is neither a piece move nor a kick.
pub fn parse_long(text: &str) -> Result<Turn, ParseTurnError> {
    let mut words = text.split_whitespace().peekable();
    match words.peek() {
        None => return Err(ParseTurnError::Empty),
        Some(&"--") => {
            words.next();
            return match words.next() {
                None => Ok(Turn::null()),
                Some(w) => Err(bad(w, "the end of a null turn")),
            };
        }
        Some(_) => {}
    }
    let mut turn = Turn::null();
    for w in words {
        if let Some(m) = piece_move(w) {
            turn.actions.push(Action::Move(m));
            continue;
        }
        let (from, to) = w
            .split_once('>')
            .ok_or_else(|| bad(w, "a piece move (`Nb1-c3`) or a kick (`d4>f6`)"))?;
        match (square(from), square(to)) {
            (Some(kicker), Some(to)) => turn.actions.push(Action::Kick(Kick { kicker, to })),
            _ => return Err(bad(w, "a kick (`d4>f6`)")),
        }
    }
    Ok(turn)
}

fn bad(word: &str, expected: &'static str) -> ParseTurnError {
    ParseTurnError::Word { word: word.to_owned(), expected }
}

/// `Nb1-c3`, `Pe7-e8=Q`, `Pd5-e6ep`, `Nb1~c3`.
fn piece_move(word: &str) -> Option<PieceMove> {
    let mut chars = word.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let mut rest = chars.as_str();
    let mut kind = MoveKind::Plain;
    if let Some(r) = rest.strip_suffix("ep") {
        (rest, kind) = (r, MoveKind::EnPassant);
    }
    let mut promotion = None;
    if let Some((r, p)) = rest.split_once('=') {
        let mut p = p.chars();
        promotion = Some(p.next().filter(char::is_ascii_uppercase)?);
        if p.next().is_some() {
            return None;
        }
        rest = r;
    }
    let (from, to) = match rest.split_once('-') {
        Some(pair) => pair,
        None if kind == MoveKind::Plain => {
            kind = MoveKind::InPlace;
            rest.split_once('~')?
        }
        None => return None,
    };
    Some(PieceMove { letter, from: square(from)?, to: square(to)?, promotion, kind })
}

/// `a1` .. `p24`, read by the squares grammar.
fn square(text: &str) -> Option<Square> {
    match squares::parse(text).ok()?.as_slice() {
        [Item { kind: ItemKind::Square(name), .. }] => name.on_board(MAX_FILES, MAX_RANKS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_form_round_trip() {
        for text in [
            "Nb1-c3 d4>f6 f5>f8",
            "d4>f6",
            "--",
            "Qd1-d2",
            "Bp16-a1 a2>a16",
            "e8>e9 Qd4-d5 d5>d9",
            "Pe7-e8=Q",
            "Pd5-e6ep",
            "Nb1~c3",
            "Sd3-c4 Sb3-a4",
        ] {
            let turn = parse_long(text).unwrap();
            assert_eq!(turn.to_string(), text);
        }
        let t = parse_long("Nb1-c3 d4>f6").unwrap();
        assert_eq!(t.kicks().count(), 1);
        assert_eq!(t.first_move().unwrap().to, Square::at(2, 2));
    }

    #[test]
    fn bad_long_forms() {
        for text in
            ["", "-- d4>f6", "d4>q6", "d0>f6", "Nb1c3", "x", "a33>a1", "Pe7-e8=", "Pe7-e8=QQ"]
        {
            assert!(parse_long(text).is_err(), "{text:?}");
        }
    }
}
