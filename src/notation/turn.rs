//! Turn notation as written: `Nc3`, `Nb1-c3`, `Bf4>d6>b8`, `>g6`, `N>h3#`, `Ng>e4`, `g5>e4`, `--`.
//!
//! This module reads the text into its parts; matching them against the legal turns of a
//! position (and printing the canonical form) belongs to the engine.

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::squares::SquareName;
use crate::notation::{ParseError, from_pest};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/notation.pest"]
    pub(super) struct TurnParser;
}
use grammar::{Rule, TurnParser};

/// The longest turn token accepted.
pub const MAX_LEN: usize = 500;

/// A turn as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnText {
    /// The piece move, if any.
    pub piece_move: Option<MoveText>,
    /// The kicks in order; empty for a move alone or the null turn.
    pub kicks: Vec<KickText>,
    /// Whether it was written `--` (the null turn).
    pub null: bool,
    /// Whether it ends with `#` (a scoring turn).
    pub goal_mark: bool,
}

/// A piece move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The piece's letter (uppercase for both sides).
    pub letter: char,
    /// As much of the starting square as was written.
    pub from: Start,
    /// The destination.
    pub to: SquareName,
}

/// What is said of where a moving piece starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Nothing: the letter and destination are enough.
    Unspecified,
    /// Its file (`Nbc3`).
    File(u8),
    /// Its rank, from 0 (`N1c3`).
    Rank(u8),
    /// Its square (`Nb1c3`, `Nb1-c3`).
    Square(SquareName),
}

/// A kick as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickText {
    /// What is said of the kicker.
    pub kicker: Kicker,
    /// Where the ball goes.
    pub to: SquareName,
}

/// What is said of a kicker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kicker {
    /// Nothing: only one piece can make this kick.
    Unspecified,
    /// Its letter (`N>`).
    Letter(char),
    /// Its letter and file (`Ng>`).
    LetterFile(char, u8),
    /// Its letter and rank, from 0 (`N5>`).
    LetterRank(char, u8),
    /// Its square (`g5>`).
    Square(SquareName),
}

/// Parses one turn token.
///
/// # Errors
/// A syntax error with its position.
pub fn parse(input: &str) -> Result<TurnText, ParseError> {
    if input.len() > MAX_LEN {
        return Err(ParseError::new(
            format!("a turn of {} bytes; the limit is {MAX_LEN}", input.len()),
            0..input.len(),
        ));
    }
    let top = TurnParser::parse(Rule::turn, input)
        .map_err(|e| from_pest(&e, input, rule_name))?
        .next()
        .ok_or_else(|| ParseError::new("empty turn", 0..0))?;
    let mut turn = TurnText { piece_move: None, kicks: Vec::new(), null: false, goal_mark: false };
    for pair in top.into_inner() {
        match pair.as_rule() {
            Rule::null => turn.null = true,
            Rule::piece_move => turn.piece_move = Some(piece_move(pair)),
            Rule::kick => turn.kicks.push(kick(pair)),
            Rule::goal_mark => turn.goal_mark = true,
            Rule::EOI => {}
            other => unreachable!("parse: unexpected rule {other:?}"),
        }
    }
    Ok(turn)
}

/// A readable name for every rule, used in "expected ..." messages.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end",
        Rule::turn => "a turn",
        Rule::null => "`--`",
        Rule::action => "a move or a kick",
        Rule::piece_move => "a piece move (`Nc3`)",
        Rule::from | Rule::from_square | Rule::from_file | Rule::from_rank => "a starting square",
        Rule::kick => "a kick (`>e5`)",
        Rule::kicker | Rule::kicker_piece | Rule::kicker_square => "a kicker",
        Rule::goal_mark => "`#`",
        Rule::arrow => "`>`",
        Rule::piece => "a piece letter",
        Rule::square => "a square",
        Rule::file => "a file letter",
        Rule::rank => "a rank number",
        Rule::space => "a space",
    }
}

fn piece_move(pair: Pair<'_, Rule>) -> MoveText {
    let mut letter = '?';
    let mut from = Start::Unspecified;
    let mut to = SquareName { file: 0, rank: 0 };
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::piece => letter = first_char(&inner),
            Rule::from_square => from = Start::Square(square(inner.as_str())),
            Rule::from_file => from = Start::File(file(inner.as_str())),
            Rule::from_rank => from = Start::Rank(rank(inner.as_str())),
            Rule::square => to = square(inner.as_str()),
            other => unreachable!("piece_move: unexpected rule {other:?}"),
        }
    }
    MoveText { letter, from, to }
}

fn kick(pair: Pair<'_, Rule>) -> KickText {
    let mut kicker = Kicker::Unspecified;
    let mut to = SquareName { file: 0, rank: 0 };
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::kicker_square => kicker = Kicker::Square(square(inner.as_str())),
            Rule::kicker_piece => kicker = kicker_piece(inner),
            Rule::square => to = square(inner.as_str()),
            Rule::arrow => {}
            other => unreachable!("kick: unexpected rule {other:?}"),
        }
    }
    KickText { kicker, to }
}

fn kicker_piece(pair: Pair<'_, Rule>) -> Kicker {
    let mut parts = pair.into_inner();
    let letter = parts.next().map_or('?', |p| first_char(&p));
    match parts.next() {
        Some(p) if p.as_rule() == Rule::file => Kicker::LetterFile(letter, file(p.as_str())),
        Some(p) => Kicker::LetterRank(letter, rank(p.as_str())),
        None => Kicker::Letter(letter),
    }
}

fn first_char(pair: &Pair<'_, Rule>) -> char {
    pair.as_str().chars().next().unwrap_or('?')
}

/// A square name checked by the grammar: a file letter then a rank number.
fn square(text: &str) -> SquareName {
    SquareName { file: file(&text[..1]), rank: rank(&text[1..]) }
}

fn file(text: &str) -> u8 {
    text.as_bytes()[0] - b'a'
}

/// A rank number (1 to 16 by the grammar), from 0.
fn rank(text: &str) -> u8 {
    text.parse::<u8>().map_or(0, |r| r - 1)
}

impl std::fmt::Display for TurnText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.null {
            f.write_str("--")?;
        }
        if let Some(m) = &self.piece_move {
            write!(f, "{}", m.letter)?;
            match m.from {
                Start::Unspecified => {}
                Start::File(file) => write!(f, "{}", char::from(b'a' + file))?,
                Start::Rank(rank) => write!(f, "{}", u32::from(rank) + 1)?,
                Start::Square(s) => write!(f, "{s}")?,
            }
            write!(f, "{}", m.to)?;
        }
        for k in &self.kicks {
            match k.kicker {
                Kicker::Unspecified => {}
                Kicker::Letter(l) => write!(f, "{l}")?,
                Kicker::LetterFile(l, file) => write!(f, "{l}{}", char::from(b'a' + file))?,
                Kicker::LetterRank(l, rank) => write!(f, "{l}{}", u32::from(rank) + 1)?,
                Kicker::Square(s) => write!(f, "{s}")?,
            }
            write!(f, ">{}", k.to)?;
        }
        if self.goal_mark {
            f.write_str("#")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> SquareName {
        square(name)
    }

    #[test]
    fn moves() {
        let t = parse("Nc3").unwrap();
        assert_eq!(
            t.piece_move,
            Some(MoveText { letter: 'N', from: Start::Unspecified, to: sq("c3") })
        );
        assert!(t.kicks.is_empty());
        assert_eq!(parse("Nbc3").unwrap().piece_move.unwrap().from, Start::File(1));
        assert_eq!(parse("N1c3").unwrap().piece_move.unwrap().from, Start::Rank(0));
        assert_eq!(parse("Nb1c3").unwrap().piece_move.unwrap().from, Start::Square(sq("b1")));
        assert_eq!(parse("Nb1-c3").unwrap().piece_move.unwrap().from, Start::Square(sq("b1")));
        assert_eq!(parse("Rp16").unwrap().piece_move.unwrap().to, sq("p16"));
        assert_eq!(parse("R12a16").unwrap().piece_move.unwrap().from, Start::Rank(11));
    }

    #[test]
    fn kicks() {
        let t = parse("Bf4>d6>b8").unwrap();
        assert_eq!(t.piece_move.unwrap().to, sq("f4"));
        assert_eq!(t.kicks.len(), 2);
        assert_eq!(t.kicks[1], KickText { kicker: Kicker::Unspecified, to: sq("b8") });
        assert_eq!(parse(">g6").unwrap().kicks[0].to, sq("g6"));
        let t = parse("N>h3#").unwrap();
        assert!(t.goal_mark && t.piece_move.is_none());
        assert_eq!(t.kicks[0].kicker, Kicker::Letter('N'));
        assert_eq!(parse("Ng>e4").unwrap().kicks[0].kicker, Kicker::LetterFile('N', 6));
        assert_eq!(parse("N5>e4").unwrap().kicks[0].kicker, Kicker::LetterRank('N', 4));
        assert_eq!(parse("g5>e4").unwrap().kicks[0].kicker, Kicker::Square(sq("g5")));
        // Never letter + square: a knight move to h2, then a kick.
        let t = parse("Nh2>h3").unwrap();
        assert_eq!(t.piece_move.unwrap().to, sq("h2"));
        assert_eq!(t.kicks[0].kicker, Kicker::Unspecified);
        // A full move, then a kicker named by its square.
        let t = parse("Nb1c3g5>e4").unwrap();
        assert_eq!(t.piece_move.unwrap().to, sq("c3"));
        assert_eq!(t.kicks[0].kicker, Kicker::Square(sq("g5")));
    }

    #[test]
    fn null_and_spaces() {
        let t = parse("  -- ").unwrap();
        assert!(t.null && t.piece_move.is_none() && t.kicks.is_empty());
        assert!(parse(" Nc3>d5# ").unwrap().goal_mark);
    }

    #[test]
    fn printing_round_trips() {
        for text in [
            "Nc3",
            "Nbc3",
            "N1c3",
            "Nb1c3",
            "Bf4>d6>b8",
            ">g6",
            "N>h3#",
            "Ng>e4",
            "N5>e4",
            "g5>e4",
            "--",
            "Nb1c3g5>e4",
            "Qd1d4Rh>h5N3>g6#",
        ] {
            assert_eq!(parse(text).unwrap().to_string(), text);
        }
        assert_eq!(parse("Nb1-c3").unwrap().to_string(), "Nb1c3");
    }

    #[test]
    fn malformed_turns() {
        for (input, at) in [
            ("", 0..0),
            ("N", 1..1),
            ("Nc", 2..2),
            ("c3", 2..2),
            (">", 1..1),
            ("Nc3>", 4..4),
            ("Nc3 >d4", 4..5),
            ("--Nc3", 2..3),
            ("nc3", 1..2),
            ("Nc3##", 4..5),
        ] {
            let e = parse(input).unwrap_err();
            assert_eq!(e.span, at, "{input:?}: {}", e.message);
        }
    }
}
