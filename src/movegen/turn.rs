//! A turn: an optional piece move, then the kicks in order. Its long text form
//! (`Nb1-c3 d4>f6 f5>f8`, `d4>f6`, `--`) is written and read here and nowhere else.

use std::fmt;

use crate::notation::squares::{self, Item, ItemKind};
use crate::square::{MAX_FILES, MAX_RANKS, Square};

/// A piece's move from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceMove {
    /// The piece's White (uppercase) letter.
    pub letter: char,
    /// Where it stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

/// One kick: the piece on `kicker` sends the ball to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kick {
    /// The kicking piece's square.
    pub kicker: Square,
    /// The ball's destination.
    pub to: Square,
}

/// One side's whole turn. With no move and no kick it is the null turn (or a forced pass).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The piece move, if the turn has one.
    pub piece_move: Option<PieceMove>,
    /// The kicks, in order.
    pub kicks: Vec<Kick>,
}

impl Turn {
    /// The null turn (also written for a forced pass).
    #[must_use]
    pub fn null() -> Turn {
        Turn::default()
    }

    /// Whether the turn does nothing.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.piece_move.is_none() && self.kicks.is_empty()
    }
}

/// The long form: `Nb1-c3 d4>f6 f5>f8`; `--` for the null turn.
impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("--");
        }
        let mut sep = "";
        if let Some(m) = self.piece_move {
            write!(f, "{}{}-{}", m.letter, m.from, m.to)?;
            sep = " ";
        }
        for k in &self.kicks {
            write!(f, "{sep}{}>{}", k.kicker, k.to)?;
            sep = " ";
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

/// Reads the long form written by `Display`: an optional `Xa1-b2` then `a1>b2` kicks, or `--`.
///
/// # Errors
/// An empty text or a word that is neither a piece move (first word only) nor a kick.
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
    if let Some(m) = words.peek().and_then(|w| piece_move(w)) {
        turn.piece_move = Some(m);
        words.next();
    }
    for w in words {
        let (from, to) = w.split_once('>').ok_or_else(|| bad(w, "a kick (`d4>f6`)"))?;
        match (square(from), square(to)) {
            (Some(kicker), Some(to)) => turn.kicks.push(Kick { kicker, to }),
            _ => return Err(bad(w, "a kick (`d4>f6`)")),
        }
    }
    Ok(turn)
}

fn bad(word: &str, expected: &'static str) -> ParseTurnError {
    ParseTurnError::Word { word: word.to_owned(), expected }
}

/// `Nb1-c3`.
fn piece_move(word: &str) -> Option<PieceMove> {
    let mut chars = word.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let (from, to) = chars.as_str().split_once('-')?;
    Some(PieceMove { letter, from: square(from)?, to: square(to)? })
}

/// `a1` .. `p16`, read by the squares grammar.
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
        for text in ["Nb1-c3 d4>f6 f5>f8", "d4>f6", "--", "Qd1-d2", "Bp16-a1 a2>a16"] {
            let turn = parse_long(text).unwrap();
            assert_eq!(turn.to_string(), text);
        }
        let t = parse_long("Nb1-c3 d4>f6").unwrap();
        assert_eq!(t.kicks.len(), 1);
        assert_eq!(t.piece_move.unwrap().to, Square::new(2, 2));
    }

    #[test]
    fn bad_long_forms() {
        for text in ["", "-- d4>f6", "d4>f6 Nb1-c3", "d4>q6", "d0>f6", "Nb1c3", "x", "a33>a1"] {
            assert!(parse_long(text).is_err(), "{text:?}");
        }
    }
}
