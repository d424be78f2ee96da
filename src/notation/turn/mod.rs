//! Turn notation as written, read here and nowhere else: [`parse`] reads it (`Nc3`, `Nb1-c3`,
//! `Nxe5`, `Pe8=Q`, `Bf4>d6>b8`, `>g6`, `N>h3#`, `Ng>e4`, `g5>e4`, `>e7Qe6>d1`, `N<e5`, `--`)
//! into its parts, a [`TurnText`], by the grammar of `grammar/notation.pest`; a `TurnText`
//! prints back as text. Neither knows anything of positions: the text of a turn against a
//! position, its long form and its names, is [`crate::turn_text`]'s.

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::squares::{SquareName, file_of, rank_of};
use crate::notation::{ParseError, from_pest};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/square.pest"]
    #[grammar = "../grammar/notation.pest"]
    pub(super) struct TurnParser;
}
use grammar::{Rule, TurnParser};

/// The longest turn token accepted.
pub const MAX_LEN: usize = 500;

/// A turn as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnText {
    /// The actions, in order; empty for the null turn.
    pub parts: Vec<Part>,
    /// Whether it was written `--` (the null turn).
    pub null: bool,
    /// Whether it ends with `#` (a scoring turn).
    pub goal_mark: bool,
}

/// One action as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A piece move.
    Move(MoveText),
    /// A kick, or the pass of a carried ball (`>`).
    Kick(KickText),
    /// A carried ball taken from the piece on `to` (`<`).
    Take(KickText),
    /// A piece of the hand placed on a square (`Q@d2`): its letter and the square.
    Drop(char, SquareName),
}

/// A piece move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The piece's letter (uppercase for both sides); `?` where a promotion left it out.
    pub letter: char,
    /// As much of the starting square as was written.
    pub from: Start,
    /// Whether `x` was written.
    pub capture: bool,
    /// The destination.
    pub to: SquareName,
    /// The letter of the piece it promotes to.
    pub promotion: Option<char>,
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

/// A kick (or a pass, or a take) as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickText {
    /// What is said of the kicker (the piece that acts).
    pub kicker: Kicker,
    /// Where the ball goes (for a take: where it comes from).
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
    let mut turn = TurnText { parts: Vec::new(), null: false, goal_mark: false };
    for pair in top.into_inner() {
        match pair.as_rule() {
            Rule::null => turn.null = true,
            Rule::piece_move => turn.parts.push(Part::Move(piece_move(pair))),
            Rule::kick => turn.parts.push(Part::Kick(kick(pair))),
            Rule::take => turn.parts.push(Part::Take(kick(pair))),
            Rule::drop => {
                let mut inner = pair.into_inner();
                let letter = inner.next().map_or('?', |p| first_char(&p));
                let to = inner
                    .next()
                    .map_or(SquareName { file: 0, rank: 0 }, |p| SquareName::matched(p.as_str()));
                turn.parts.push(Part::Drop(letter, to));
            }
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
        Rule::capture => "`x`",
        Rule::promotion => "a promotion (`=Q`)",
        Rule::kick => "a kick (`>e5`)",
        Rule::take => "a take (`<e5`)",
        Rule::drop => "a placement (`Q@d2`)",
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
    let mut m = MoveText {
        letter: '?',
        from: Start::Unspecified,
        capture: false,
        to: SquareName { file: 0, rank: 0 },
        promotion: None,
    };
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::piece => m.letter = first_char(&inner),
            Rule::from_square => m.from = Start::Square(SquareName::matched(inner.as_str())),
            Rule::from_file => m.from = Start::File(file_of(inner.as_str())),
            Rule::from_rank => m.from = Start::Rank(rank_of(inner.as_str())),
            Rule::capture => m.capture = true,
            Rule::square => m.to = SquareName::matched(inner.as_str()),
            Rule::promotion => {
                m.promotion = inner.into_inner().next().map(|p| first_char(&p));
            }
            other => unreachable!("piece_move: unexpected rule {other:?}"),
        }
    }
    m
}

fn kick(pair: Pair<'_, Rule>) -> KickText {
    let mut kicker = Kicker::Unspecified;
    let mut to = SquareName { file: 0, rank: 0 };
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::kicker_square => kicker = Kicker::Square(SquareName::matched(inner.as_str())),
            Rule::kicker_piece => kicker = kicker_piece(inner),
            Rule::square => to = SquareName::matched(inner.as_str()),
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
        Some(p) if p.as_rule() == Rule::file => Kicker::LetterFile(letter, file_of(p.as_str())),
        Some(p) => Kicker::LetterRank(letter, rank_of(p.as_str())),
        None => Kicker::Letter(letter),
    }
}

fn first_char(pair: &Pair<'_, Rule>) -> char {
    pair.as_str().chars().next().unwrap_or('?')
}

impl std::fmt::Display for Kicker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Kicker::Unspecified => Ok(()),
            Kicker::Letter(l) => write!(f, "{l}"),
            Kicker::LetterFile(l, file) => write!(f, "{l}{}", char::from(b'a' + file)),
            Kicker::LetterRank(l, rank) => write!(f, "{l}{}", u32::from(rank) + 1),
            Kicker::Square(s) => write!(f, "{s}"),
        }
    }
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::Move(m) => {
                write!(f, "{}", m.letter)?;
                match m.from {
                    Start::Unspecified => {}
                    Start::File(file) => write!(f, "{}", char::from(b'a' + file))?,
                    Start::Rank(rank) => write!(f, "{}", u32::from(rank) + 1)?,
                    Start::Square(s) => write!(f, "{s}")?,
                }
                if m.capture {
                    f.write_str("x")?;
                }
                write!(f, "{}", m.to)?;
                if let Some(p) = m.promotion {
                    write!(f, "={p}")?;
                }
                Ok(())
            }
            Part::Kick(k) => write!(f, "{}>{}", k.kicker, k.to),
            Part::Take(k) => write!(f, "{}<{}", k.kicker, k.to),
            Part::Drop(letter, to) => write!(f, "{letter}@{to}"),
        }
    }
}

impl std::fmt::Display for TurnText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.null {
            f.write_str("--")?;
        }
        for part in &self.parts {
            write!(f, "{part}")?;
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
        SquareName::matched(name)
    }

    fn moved(text: &str) -> MoveText {
        match parse(text).unwrap().parts[0] {
            Part::Move(m) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn kicks(text: &str) -> Vec<KickText> {
        parse(text)
            .unwrap()
            .parts
            .into_iter()
            .filter_map(|p| match p {
                Part::Kick(k) => Some(k),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn moves() {
        let m = moved("Nc3");
        assert_eq!((m.letter, m.from, m.to, m.capture), ('N', Start::Unspecified, sq("c3"), false));
        assert_eq!(parse("Nc3").unwrap().parts.len(), 1);
        assert_eq!(moved("Nbc3").from, Start::File(1));
        assert_eq!(moved("N1c3").from, Start::Rank(0));
        assert_eq!(moved("Nb1c3").from, Start::Square(sq("b1")));
        assert_eq!(moved("Nb1-c3").from, Start::Square(sq("b1")));
        assert_eq!(moved("Rp16").to, sq("p16"));
        assert_eq!(moved("R12a16").from, Start::Rank(11));
        assert!(moved("Nxe5").capture && moved("Nbxe5").capture && moved("Nb1xe5").capture);
        assert_eq!(moved("Pe14=Q").promotion, Some('Q'));
        assert_eq!(moved("Pdxe9=H").from, Start::File(3));
    }

    #[test]
    fn kicks_and_takes() {
        let t = parse("Bf4>d6>b8").unwrap();
        assert_eq!(t.parts.len(), 3);
        assert_eq!(kicks("Bf4>d6>b8")[1], KickText { kicker: Kicker::Unspecified, to: sq("b8") });
        assert_eq!(kicks(">g6")[0].to, sq("g6"));
        let t = parse("N>h3#").unwrap();
        assert!(t.goal_mark);
        assert_eq!(kicks("N>h3#")[0].kicker, Kicker::Letter('N'));
        assert_eq!(kicks("Ng>e4")[0].kicker, Kicker::LetterFile('N', 6));
        assert_eq!(kicks("N5>e4")[0].kicker, Kicker::LetterRank('N', 4));
        assert_eq!(kicks("g5>e4")[0].kicker, Kicker::Square(sq("g5")));
        // Never letter + square: a knight move to h2, then a kick.
        assert_eq!(moved("Nh2>h3").to, sq("h2"));
        assert_eq!(kicks("Nh2>h3")[0].kicker, Kicker::Unspecified);
        // A full move, then a kicker named by its square.
        assert_eq!(moved("Nb1c3g5>e4").to, sq("c3"));
        assert_eq!(kicks("Nb1c3g5>e4")[0].kicker, Kicker::Square(sq("g5")));
        // Kicks before and after a move.
        let t = parse(">e7Qe6>d1").unwrap();
        assert!(matches!(t.parts[..], [Part::Kick(_), Part::Move(_), Part::Kick(_)]));
        assert_eq!(
            parse("N<e5").unwrap().parts[0],
            Part::Take(KickText { kicker: Kicker::Letter('N'), to: sq("e5") })
        );
    }

    #[test]
    fn placements() {
        let t = parse("Q@d2").unwrap();
        assert_eq!(t.parts, vec![Part::Drop('Q', sq("d2"))]);
        assert_eq!(t.to_string(), "Q@d2");
        assert!(parse("@d2").is_err() && parse("Q@").is_err() && parse("q@d2").is_err());
    }

    #[test]
    fn null_and_spaces() {
        let t = parse("  -- ").unwrap();
        assert!(t.null && t.parts.is_empty());
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
            "Nxe5",
            "Pe14=Q",
            ">e7Qe6>d1#",
            "Nd<e5",
            "Sc3Sd4>e5",
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
            ("Pe8=", 4..4),
        ] {
            let e = parse(input).unwrap_err();
            assert_eq!(e.span, at, "{input:?}: {}", e.message);
        }
    }
}
