//! The long form of a turn: every action written out in full, with nothing left to the
//! position (`Nb1-c3 d4>f6 f5>f8`, `d4>f6`, `Pe7-e8=Q`, `Pd5-e6ep`, `Nb1~c3`, `--`). It is
//! [`Turn`]'s `Display` and [`parse_long`] reads it back, so a turn round-trips without a
//! position; the short names people type are in [`super::names`].

use std::fmt;

use crate::movegen::{Action, Kick, MoveKind, PieceMove, Turn};
use crate::notation::squares::{self, Item, ItemKind};
use crate::square::{MAX_FILES, MAX_RANKS, Square};

/// The long form of a move: `Nb1-c3`, `Pe7-e8=Q`, `Pd5-e6ep`, `Nb1~c3` (in place), `Q@d2`
/// (placed from the hand).
impl fmt::Display for PieceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == MoveKind::Drop {
            return write!(f, "{}@{}", self.letter, self.to);
        }
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

/// `Nb1-c3`, `Pe7-e8=Q`, `Pd5-e6ep`, `Nb1~c3`, `Q@d2`.
fn piece_move(word: &str) -> Option<PieceMove> {
    let mut chars = word.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let mut rest = chars.as_str();
    if let Some(to) = rest.strip_prefix('@') {
        return Some(PieceMove::drop(letter, square(to)?));
    }
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
            "Q@d2",
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
        for text in [
            "",
            "-- d4>f6",
            "d4>q6",
            "d0>f6",
            "Nb1c3",
            "x",
            "a33>a1",
            "Pe7-e8=",
            "Pe7-e8=QQ",
            "Q@",
            "@d2",
        ] {
            assert!(parse_long(text).is_err(), "{text:?}");
        }
    }
}
