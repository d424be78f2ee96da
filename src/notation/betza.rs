//! Betza notation: how a piece moves, as a set of leaps with ranges and directions.
//!
//! The subset: atoms `W F D N A H C Z G`, shorthands `K Q R B`, a range after the atom (`W3`,
//! `W0` unlimited) or a doubled atom (`NN`, a rider), direction modifiers `f b l r s v` with
//! their pairs (`fl`, `rf`, `fs`, `lv`, `fh` ...) read in the moving side's frame, and the
//! modalities `m c i n e`. Everything else (hoppers, multi-leg moves, brackets) is refused as
//! "not supported". This module reads the text; what the groups mean as moves is
//! [`crate::rules::leg`]'s business.

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::{ParseError, found_at, from_pest};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/betza.pest"]
    pub(super) struct BetzaParser;
}
use grammar::{BetzaParser, Rule};

/// The longest Betza string accepted (generous: Betza strings are short).
pub const MAX_LEN: usize = 200;

/// The largest finite range; no line of a board is longer, so more steps are never useful.
pub const MAX_RANGE: u8 = crate::square::MAX_RANKS - 1;

/// A parsed Betza string: the move groups in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Betza {
    /// The groups, e.g. `fR` and `N` in `fRN`.
    pub groups: Vec<Group>,
}

/// One atom with its modifiers and range, e.g. `fsN` or `W3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The direction tokens, each a single modifier or a pair (`f`, `fs`, `rf`).
    pub directions: Vec<Direction>,
    /// The modalities written before the atom.
    pub modalities: Modalities,
    /// The atom or shorthand.
    pub atom: Atom,
    /// How far the leap repeats along its line, when written (`W3`, `W0`, `WW`).
    pub range: Option<Range>,
    /// The bytes of the group in the parsed string.
    pub span: std::ops::Range<usize>,
}

/// A range written after an atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Range {
    /// At most this many leaps (`W3`).
    Steps(u8),
    /// Any number (`W0`, `WW`).
    Unlimited,
}

/// The modality letters of a group (`m c i n e`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modalities {
    /// `m`: moves only, never captures.
    pub move_only: bool,
    /// `c`: captures only.
    pub capture_only: bool,
    /// `i`: only from the piece's squares in the start position.
    pub initial: bool,
    /// `n`: lame, cannot jump over what stands between.
    pub lame: bool,
    /// `e`: may also capture en passant.
    pub en_passant: bool,
}

/// The letters of atoms and shorthands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// Wazir: (1,0).
    W,
    /// Ferz: (1,1).
    F,
    /// Dabbaba: (2,0).
    D,
    /// Knight: (2,1).
    N,
    /// Alfil: (2,2).
    A,
    /// Threeleaper: (3,0).
    H,
    /// Camel: (3,1).
    C,
    /// Zebra: (3,2).
    Z,
    /// Tripper: (3,3).
    G,
    /// King: W and F.
    K,
    /// Queen: WW and FF.
    Q,
    /// Rook: WW.
    R,
    /// Bishop: FF.
    B,
}

/// A direction token: one modifier letter, or a pair read as one direction set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction {
    /// The first letter (`f b l r s v`).
    pub first: char,
    /// The second letter of a pair (`fl`, `rf`, `fs`, `lv`, `fh`, `ff`), if any.
    pub second: Option<char>,
}

/// Parses a Betza string.
///
/// # Errors
/// The first problem found, with the span of the bad letters: a syntax error, an unsupported
/// letter, a range above [`MAX_RANGE`], a stray `h`.
pub fn parse(input: &str) -> Result<Betza, ParseError> {
    if input.len() > MAX_LEN {
        return Err(ParseError::new(
            format!("Betza string is {} bytes long; the limit is {MAX_LEN}", input.len()),
            0..input.len(),
        ));
    }
    let mut pairs =
        BetzaParser::parse(Rule::betza, input).map_err(|e| from_pest(&e, input, rule_name))?;
    let top = pairs.next().ok_or_else(|| ParseError::new("empty Betza string", 0..0))?;
    let mut groups = Vec::new();
    for pair in top.into_inner() {
        let at = pair.as_span().start()..pair.as_span().end();
        match pair.as_rule() {
            Rule::group => groups.push(group(pair, input)?),
            Rule::unsupported_symbol => {
                return Err(ParseError::new(format!("`{}` is not supported", pair.as_str()), at)
                    .with_help(
                        "brackets and operators of extended Betza (multi-leg moves) are not \
                         supported; kickoff reads atoms, ranges and direction modifiers",
                    ));
            }
            Rule::EOI => {}
            other => unreachable!("parse: unexpected rule {other:?}"),
        }
    }
    Ok(Betza { groups })
}

/// A readable name for every rule, used in "expected ..." messages.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end",
        Rule::betza => "a Betza string",
        Rule::group => "a modifier or an atom",
        Rule::unsupported_symbol => "a symbol",
        Rule::direction => "a direction modifier (f b l r s v)",
        Rule::unsupported_modifier | Rule::modality => "a modifier",
        Rule::atom | Rule::unsupported_atom => "an atom (W F D N A H C Z G K Q R B)",
        Rule::doubled => "the same atom again",
        Rule::range => "a range (digits)",
        Rule::modifier => "a modifier",
    }
}

/// One group: `modifier* atom (doubled | range)?`.
fn group(pair: Pair<'_, Rule>, input: &str) -> Result<Group, ParseError> {
    let span = pair.as_span().start()..pair.as_span().end();
    let mut letters = Vec::new();
    let mut modalities = Modalities::default();
    let mut atom_letter = None;
    let mut reach = None;
    for inner in pair.into_inner() {
        let at = inner.as_span().start()..inner.as_span().end();
        match inner.as_rule() {
            Rule::direction => letters.push((inner.as_str().chars().next().unwrap_or('f'), at)),
            Rule::modality => modality(&mut modalities, inner.as_str()),
            Rule::unsupported_modifier => return Err(unsupported_modifier(inner.as_str(), at)),
            Rule::atom => atom_letter = Some(atom(inner)?),
            Rule::doubled => reach = Some(Range::Unlimited),
            Rule::range => reach = Some(range(inner.as_str(), at)?),
            other => unreachable!("group: unexpected rule {other:?}"),
        }
    }
    let atom = atom_letter.ok_or_else(|| {
        ParseError::new(format!("missing atom, found {}", found_at(input, span.end)), span.clone())
    })?;
    Ok(Group { directions: directions(&letters)?, modalities, atom, range: reach, span })
}

/// Records one modality letter.
fn modality(m: &mut Modalities, letter: &str) {
    match letter {
        "m" => m.move_only = true,
        "c" => m.capture_only = true,
        "i" => m.initial = true,
        "n" => m.lame = true,
        "e" => m.en_passant = true,
        other => unreachable!("modality: unexpected letter {other}"),
    }
}

/// The atom letter, or an error naming the unsupported one.
fn atom(pair: Pair<'_, Rule>) -> Result<Atom, ParseError> {
    let at = pair.as_span().start()..pair.as_span().end();
    Ok(match pair.as_str() {
        "W" => Atom::W,
        "F" => Atom::F,
        "D" => Atom::D,
        "N" => Atom::N,
        "A" => Atom::A,
        "H" => Atom::H,
        "C" => Atom::C,
        "Z" => Atom::Z,
        "G" => Atom::G,
        "K" => Atom::K,
        "Q" => Atom::Q,
        "R" => Atom::R,
        "B" => Atom::B,
        other => {
            let help = match other {
                "L" => "L is an old name of the camel: write C",
                "J" => "J is an old name of the zebra: write Z",
                "O" => "castling does not exist in football chess",
                _ => "the atoms are W F D N A H C Z G and the shorthands K Q R B",
            };
            return Err(
                ParseError::new(format!("atom `{other}` is not supported"), at).with_help(help)
            );
        }
    })
}

/// The range after an atom: 0 for unlimited, otherwise 1..=MAX_RANGE.
fn range(digits: &str, at: std::ops::Range<usize>) -> Result<Range, ParseError> {
    match digits.parse::<u32>() {
        Ok(0) => Ok(Range::Unlimited),
        Ok(n) if n <= u32::from(MAX_RANGE) => Ok(Range::Steps(n as u8)),
        _ => Err(ParseError::new(
            format!("range {digits} is longer than any board (at most {MAX_RANGE})"),
            at,
        )
        .with_help("write 0, or double the atom (WW), for an unlimited range")),
    }
}

/// The error for a modifier kickoff does not interpret, naming what it means in XBetza.
fn unsupported_modifier(letter: &str, at: std::ops::Range<usize>) -> ParseError {
    let what = match letter {
        "p" | "g" => "hopper modifier",
        "j" => "jumping modifier",
        "a" => "multi-leg modifier",
        _ => "modifier",
    };
    ParseError::new(format!("{what} `{letter}` is not supported"), at).with_help(
        "kickoff reads the direction modifiers f b l r s v and their pairs, and the modalities \
         m c i n e",
    )
}

/// Groups modifier letters into direction tokens: a pair where XBetza reads two letters as one
/// direction set (`fl`, `rf`, `fs`, `lv`, `fh`, `ff`), single letters otherwise.
fn directions(letters: &[(char, std::ops::Range<usize>)]) -> Result<Vec<Direction>, ParseError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let (first, ref at) = letters[i];
        let next = letters.get(i + 1).map(|(c, _)| *c);
        let pairs_with = |second: char| match first {
            'f' | 'b' => matches!(second, 'l' | 'r' | 's' | 'h') || second == first,
            'l' | 'r' => matches!(second, 'f' | 'b' | 'v' | 'h') || second == first,
            _ => false,
        };
        match next {
            Some(second) if pairs_with(second) => {
                out.push(Direction { first, second: Some(second) });
                i += 2;
            }
            _ if first == 'h' => {
                return Err(ParseError::new("`h` (half) needs a direction before it", at.clone())
                    .with_help("write fh, bh, lh or rh"));
            }
            _ => {
                out.push(Direction { first, second: None });
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (String, std::ops::Range<usize>) {
        let e = parse(s).unwrap_err();
        (e.message, e.span)
    }

    #[test]
    fn unsupported_is_refused_with_position() {
        let (m, at) = err("pR");
        assert!(m.contains("hopper") && m.contains("not supported"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("jR");
        assert!(m.contains("not supported"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("WaF");
        assert!(m.contains("multi-leg"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("NO");
        assert!(m.contains("`O` is not supported"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("N[W]");
        assert!(m.contains("`[` is not supported"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("Q(");
        assert!(m.contains("not supported"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("Q?");
        assert!(m.starts_with("expected"), "{m}");
        assert_eq!(at, 1..2);
    }

    #[test]
    fn malformed_strings() {
        let (m, at) = err("");
        assert!(m.contains("expected"), "{m}");
        assert_eq!(at, 0..0);
        let (m, at) = err("f");
        assert!(m.contains("expected") && m.contains("atom"), "{m}");
        assert_eq!(at, 1..1);
        let (m, at) = err("W999");
        assert!(m.contains("range 999"), "{m}");
        assert_eq!(at, 1..4);
        let (_, at) = err("NN3");
        assert_eq!(at, 2..3);
        let (m, _) = err("hW");
        assert!(m.contains("half"), "{m}");
        let (_, at) = err("K Q");
        assert_eq!(at, 1..2);
        assert!(parse(&"W".repeat(MAX_LEN + 1)).is_err());
    }
}
