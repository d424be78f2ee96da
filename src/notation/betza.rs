//! Betza notation: how a piece moves, as a set of leaps with ranges and directions.
//!
//! The subset: atoms `W F D N A H C Z G`, shorthands `K Q R B`, a range after the atom (`W3`,
//! `W0` unlimited) or a doubled atom (`NN`, a rider), and direction modifiers `f b l r s v` with
//! their pairs (`fl`, `rf`, `fs`, `lv`, `fh` ...) read in the moving side's frame. Everything
//! else (hoppers, lame leapers, multi-leg moves, brackets) is refused as "not supported".

use std::ops::Range;

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

/// The largest finite range; the biggest board has 16 files, so more steps are never useful.
pub const MAX_RANGE: u8 = 15;

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
    /// The atom or shorthand.
    pub atom: Atom,
    /// How far the leap repeats along its line.
    pub range: Reach,
    /// The bytes of the group in the parsed string.
    pub span: Range<usize>,
}

/// How many times a leap may be repeated in one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reach {
    /// Up to this many leaps (at least 1).
    Steps(u8),
    /// Any number, until blocked or off the board.
    Unlimited,
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

/// One kind of leap a piece has, in White's frame: `(file step, rank step)` and how far it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leg {
    /// The leap; positive file is towards h, positive rank is forward.
    pub step: (i8, i8),
    /// How many times the leap may repeat in a line.
    pub reach: Reach,
}

impl Leg {
    /// Whether the leap is a king step (orthogonal or diagonal, length 1).
    #[must_use]
    pub fn is_unit(self) -> bool {
        self.step.0.abs() <= 1 && self.step.1.abs() <= 1
    }
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
        Rule::unsupported_modifier => "a modifier",
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
    let mut atom_letter = None;
    let mut reach = Reach::Steps(1);
    for inner in pair.into_inner() {
        let at = inner.as_span().start()..inner.as_span().end();
        match inner.as_rule() {
            Rule::direction => letters.push((inner.as_str().chars().next().unwrap_or('f'), at)),
            Rule::unsupported_modifier => return Err(unsupported_modifier(inner.as_str(), at)),
            Rule::atom => atom_letter = Some(atom(inner)?),
            Rule::doubled => reach = Reach::Unlimited,
            Rule::range => reach = range(inner.as_str(), at)?,
            other => unreachable!("group: unexpected rule {other:?}"),
        }
    }
    let atom = atom_letter.ok_or_else(|| {
        ParseError::new(format!("missing atom, found {}", found_at(input, span.end)), span.clone())
    })?;
    Ok(Group { directions: directions(&letters)?, atom, range: reach, span })
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
fn range(digits: &str, at: Range<usize>) -> Result<Reach, ParseError> {
    match digits.parse::<u32>() {
        Ok(0) => Ok(Reach::Unlimited),
        Ok(n) if n <= u32::from(MAX_RANGE) => Ok(Reach::Steps(n as u8)),
        _ => Err(ParseError::new(
            format!("range {digits} is longer than any board (at most {MAX_RANGE})"),
            at,
        )
        .with_help("write 0, or double the atom (WW), for an unlimited range")),
    }
}

/// The error for a modifier kickoff does not interpret, naming what it means in XBetza.
fn unsupported_modifier(letter: &str, at: Range<usize>) -> ParseError {
    let what = match letter {
        "p" | "g" => "hopper modifier",
        "n" => "lame (non-jumping) modifier",
        "j" => "jumping modifier",
        "a" => "multi-leg modifier",
        "m" | "c" => "modality (football has no captures)",
        _ => "modifier",
    };
    ParseError::new(format!("{what} `{letter}` is not supported"), at)
        .with_help("kickoff reads the direction modifiers f b l r s v and their pairs")
}

/// Groups modifier letters into direction tokens: a pair where XBetza reads two letters as one
/// direction set (`fl`, `rf`, `fs`, `lv`, `fh`, `ff`), single letters otherwise.
fn directions(letters: &[(char, Range<usize>)]) -> Result<Vec<Direction>, ParseError> {
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

impl Direction {
    /// Whether the leap `(x, y)` (White's frame) is in this direction set.
    #[must_use]
    pub fn contains(self, x: i8, y: i8) -> bool {
        match self.second {
            None => single(self.first, x, y),
            Some('h') => half(self.first, x, y),
            Some(s) if s == self.first => single(s, x, y),
            Some('s') => pair(self.first, 'l', x, y) || pair(self.first, 'r', x, y),
            Some('v') => pair(self.first, 'f', x, y) || pair(self.first, 'b', x, y),
            Some(second) => pair(self.first, second, x, y),
        }
    }
}

/// `f b l r v s` alone: the moves mostly in that direction (both halves of a diagonal).
fn single(c: char, x: i8, y: i8) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    match c {
        'f' => y > 0 && ay >= ax,
        'b' => y < 0 && ay >= ax,
        'l' => x < 0 && ax >= ay,
        'r' => x > 0 && ax >= ay,
        'v' => y != 0 && ay >= ax,
        's' => x != 0 && ax >= ay,
        _ => false,
    }
}

/// `fh bh lh rh`: every move with a component in that direction.
fn half(c: char, x: i8, y: i8) -> bool {
    match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        _ => false,
    }
}

/// A two-letter direction such as `fl` or `lf`. Orthogonal atoms take both directions;
/// diagonal atoms take the one diagonal; oblique atoms take the one leap whose longer
/// component goes the second letter's way (`fr` on N is (2,1), `rf` is (1,2)).
fn pair(a: char, b: char, x: i8, y: i8) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    if x == 0 || y == 0 {
        return single(a, x, y) || single(b, x, y);
    }
    if !(half(a, x, y) && half(b, x, y)) {
        return false;
    }
    if ax == ay {
        return true;
    }
    let major_is_rank = ay > ax;
    matches!(b, 'f' | 'b') == major_is_rank
}

impl Atom {
    /// The basic leaps of a shorthand, each with its own default reach.
    fn parts(self) -> &'static [(Atom, Reach)] {
        const U: Reach = Reach::Unlimited;
        const ONE: Reach = Reach::Steps(1);
        match self {
            Atom::K => &[(Atom::W, ONE), (Atom::F, ONE)],
            Atom::Q => &[(Atom::W, U), (Atom::F, U)],
            Atom::R => &[(Atom::W, U)],
            Atom::B => &[(Atom::F, U)],
            _ => &[],
        }
    }

    /// The leap `(a, b)` with `a >= b >= 0` of a basic atom.
    fn leap(self) -> (i8, i8) {
        match self {
            Atom::W => (1, 0),
            Atom::F => (1, 1),
            Atom::D => (2, 0),
            Atom::N => (2, 1),
            Atom::A => (2, 2),
            Atom::H => (3, 0),
            Atom::C => (3, 1),
            Atom::Z => (3, 2),
            Atom::G => (3, 3),
            Atom::K | Atom::Q | Atom::R | Atom::B => (0, 0),
        }
    }
}

/// Every orientation of the leap `(a, b)`: 4 for orthogonal and diagonal leaps, 8 otherwise.
fn orientations((a, b): (i8, i8)) -> Vec<(i8, i8)> {
    let mut out = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

impl Group {
    /// The legs this group gives, in White's frame.
    #[must_use]
    pub fn legs(&self) -> Vec<Leg> {
        let parts: Vec<(Atom, Reach)> = match self.atom.parts() {
            [] => vec![(self.atom, self.range)],
            // A range written on a shorthand (R4, K2) replaces its default reach.
            parts if self.range != Reach::Steps(1) => {
                parts.iter().map(|&(a, _)| (a, self.range)).collect()
            }
            parts => parts.to_vec(),
        };
        let mut legs = Vec::new();
        for (atom, reach) in parts {
            for (x, y) in orientations(atom.leap()) {
                if self.directions.is_empty() || self.directions.iter().any(|d| d.contains(x, y)) {
                    legs.push(Leg { step: (x, y), reach });
                }
            }
        }
        legs
    }
}

impl Betza {
    /// Every leg of the piece in White's frame, each step once with its longest reach, sorted.
    #[must_use]
    pub fn legs(&self) -> Vec<Leg> {
        let mut legs: Vec<Leg> = Vec::new();
        for leg in self.groups.iter().flat_map(Group::legs) {
            match legs.iter_mut().find(|l| l.step == leg.step) {
                Some(known) => known.reach = known.reach.max(leg.reach),
                None => legs.push(leg),
            }
        }
        legs.sort();
        legs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(s).unwrap().legs().into_iter().map(|l| l.step).collect();
        v.sort_unstable();
        v
    }

    fn err(s: &str) -> (String, Range<usize>) {
        let e = parse(s).unwrap_err();
        (e.message, e.span)
    }

    #[test]
    fn shorthands_expand() {
        assert_eq!(steps("K").len(), 8);
        assert_eq!(steps("Q"), steps("WWFF"));
        assert_eq!(steps("R"), steps("W0"));
        let q = parse("Q").unwrap().legs();
        assert!(q.iter().all(|l| l.reach == Reach::Unlimited));
        let k = parse("K").unwrap().legs();
        assert!(k.iter().all(|l| l.reach == Reach::Steps(1)));
        assert_eq!(steps("N").len(), 8);
        assert_eq!(steps("A"), vec![(-2, -2), (-2, 2), (2, -2), (2, 2)]);
    }

    #[test]
    fn ranges_and_riders() {
        let w3 = parse("W3").unwrap().legs();
        assert!(w3.iter().all(|l| l.reach == Reach::Steps(3)));
        let nn = parse("NN").unwrap();
        assert_eq!(nn.groups.len(), 1);
        assert!(nn.legs().iter().all(|l| l.reach == Reach::Unlimited));
        let r4 = parse("R4").unwrap().legs();
        assert!(r4.iter().all(|l| l.reach == Reach::Steps(4) && l.step.0 * l.step.1 == 0));
        // Two groups of the same atom: the longer reach wins.
        let wr = parse("WR").unwrap().legs();
        assert_eq!(wr.len(), 4);
        assert!(wr.iter().all(|l| l.reach == Reach::Unlimited));
    }

    #[test]
    fn orthogonal_directions() {
        assert_eq!(steps("fW"), vec![(0, 1)]);
        assert_eq!(steps("fR"), vec![(0, 1)]);
        assert_eq!(steps("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(steps("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(steps("flW"), vec![(-1, 0), (0, 1)]);
        assert_eq!(steps("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
    }

    #[test]
    fn diagonal_directions() {
        assert_eq!(steps("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(steps("frF"), vec![(1, 1)]);
        assert_eq!(steps("rfF"), vec![(1, 1)]);
        assert_eq!(steps("lB"), vec![(-1, -1), (-1, 1)]);
        assert_eq!(steps("vF").len(), 4);
    }

    #[test]
    fn oblique_directions() {
        assert_eq!(steps("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(steps("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(steps("frN"), vec![(2, 1)]);
        assert_eq!(steps("rfN"), vec![(1, 2)]);
        assert_eq!(steps("sN"), vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]);
        assert_eq!(steps("lvN"), vec![(-1, -2), (-1, 2)]);
        assert_eq!(steps("fbN"), steps("vN"));
    }

    #[test]
    fn unsupported_is_refused_with_position() {
        let (m, at) = err("pR");
        assert!(m.contains("hopper") && m.contains("not supported"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("KnN");
        assert!(m.contains("lame") && m.contains("not supported"), "{m}");
        assert_eq!(at, 1..2);
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
