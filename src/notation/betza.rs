//! Betza notation: how a piece moves, as a set of leaps with ranges and directions.
//!
//! The subset: atoms `W F D N A H C Z G`, shorthands `K Q R B`, a range after the atom (`W3`,
//! `W0` unlimited) or a doubled atom (`NN`, a rider), direction modifiers `f b l r s v` with
//! their pairs (`fl`, `rf`, `fs`, `lv`, `fh` ...) read in the moving side's frame, and the
//! modalities `m c i n e`. Everything else (hoppers, multi-leg moves, brackets, spaces, modifiers
//! after their atom) is refused with a [`Problem`] of its own kind, whose message says what the
//! letter means in the dialects that have it. This module reads the text; what the groups mean
//! as moves is [`crate::rules::leg`]'s business.

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::{ParseError, found_at};

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
    /// `p`: a hopper, flying over exactly one piece (its screen) to land beyond it.
    pub hop: bool,
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
    /// Where the token starts in the parsed string.
    pub at: usize,
}

impl Direction {
    /// The bytes of the token in the parsed string.
    #[must_use]
    pub fn span(self) -> std::ops::Range<usize> {
        self.at..self.at + 1 + usize::from(self.second.is_some())
    }

    /// The token as written: `f`, `fl`.
    #[must_use]
    pub fn text(self) -> String {
        self.second.map_or_else(|| self.first.to_string(), |s| format!("{}{s}", self.first))
    }
}

/// The kinds of problem a Betza string may have, errors and warnings; each has its own
/// diagnostic code, so that a message can teach what the letter means elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Not Betza notation as kickoff reads it: empty, too long, a modifier with no atom, a range
    /// out of place or too long, a stray `h`, `m` with `c`.
    Malformed,
    /// A hopper: `p` or `g`.
    Hopper,
    /// `n` on a leap with no straight line of squares to block it.
    Lame,
    /// A move of several legs: `a`, or Betza's `t` ("then").
    MultiLeg,
    /// XBetza's jumping modifier `j`.
    Jump,
    /// A cylinder move `o`.
    Cylinder,
    /// A crooked (`z`) or circular (`q`) slide.
    Crooked,
    /// A letter or character kickoff does not read.
    Unknown,
    /// Modifiers written after their atom (`Nf`).
    ModifierAfterAtom,
    /// A bracket or an operator of extended Betza.
    Bracket,
    /// A space inside the string.
    Space,
    /// A warning: a group whose moves the other groups already give (`WWW`).
    RepeatedGroup,
    /// A warning: a direction whose moves the group's earlier directions already give (`fffR`).
    RepeatedDirection,
    /// A warning: directions that a shorter spelling says (`fbR` is `vR`).
    LongDirections,
    /// A warning: capturing moves (`c`, `e`) where nothing is ever captured.
    NeverCaptures,
    /// A warning: `m` where every move already goes to an empty square.
    IdleMoveOnly,
    /// A warning: a modality in a kick pattern, which reads directions and ranges only.
    KickModality,
}

/// A problem of a Betza string: its kind, what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct Problem {
    /// The kind, which gives the diagnostic its code.
    pub kind: ProblemKind,
    /// The message, the bytes at fault and the help.
    pub detail: ParseError,
}

impl Problem {
    /// A problem of `kind` at `span`, with its help.
    pub fn new(
        kind: ProblemKind,
        message: impl Into<String>,
        span: std::ops::Range<usize>,
        help: impl Into<String>,
    ) -> Self {
        Problem { kind, detail: ParseError::new(message, span).with_help(help) }
    }
}

/// Parses a Betza string.
///
/// # Errors
/// The first problem found, with the span of the bad letters: a letter or a character outside
/// kickoff's subset, each with a message of its own; a modifier after its atom; a space; a range
/// above [`MAX_RANGE`]. Brackets, spaces and unknown characters are reported before misplaced
/// modifiers, which they often explain.
pub fn parse(input: &str) -> Result<Betza, Problem> {
    let malformed = |message: String, span, help: &str| {
        Problem::new(ProblemKind::Malformed, message, span, help)
    };
    if input.len() > MAX_LEN {
        let message = format!("Betza string is {} bytes long; the limit is {MAX_LEN}", input.len());
        return Err(malformed(message, 0..input.len(), "a piece's moves take a few letters"));
    }
    if input.is_empty() {
        return Err(malformed("empty Betza string".into(), 0..0, "write an atom, e.g. \"K\""));
    }
    // The grammar has a rule for every character (`stray_character` for any other), so that
    // each mistake is reported by a message of its own: every string matches.
    let mut pairs = BetzaParser::parse(Rule::betza, input)
        .unwrap_or_else(|e| unreachable!("the Betza grammar matches every string: {e}"));
    let top = pairs.next().unwrap_or_else(|| unreachable!("a match holds its top rule"));
    let mut groups: Vec<Group> = Vec::new();
    let mut misplaced = None;
    for pair in top.into_inner() {
        let at = pair.as_span().start()..pair.as_span().end();
        let before = groups.last().filter(|g| g.span.end == at.start);
        match pair.as_rule() {
            Rule::group => groups.push(group(pair, input)?),
            Rule::dangling => {
                let found = dangling(pair, before, input)?;
                misplaced.get_or_insert(found);
            }
            Rule::stray_range => return Err(stray_range(&at, before, input)),
            Rule::operator => return Err(operator(&input[at.clone()], at)),
            Rule::blank => return Err(blank(at, input)),
            Rule::stray_character => return Err(stray_character(&input[at.clone()], at)),
            Rule::EOI => {}
            other => unreachable!("parse: unexpected rule {other:?}"),
        }
    }
    misplaced.map_or(Ok(Betza { groups }), Err)
}

/// The modality letters (`m c i n e`): what a move may do, where the other modifiers say
/// which way it goes.
pub(crate) const MODALITIES: &str = "mcinep";

/// A group as written, split into its modifier letters and the atom with its range.
pub(crate) fn split_modifiers(written: &str) -> (&str, &str) {
    written.split_at(written.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(0))
}

/// Modifiers with no atom after them: after an atom (`Nf`), they were meant before it.
fn dangling(pair: Pair<'_, Rule>, before: Option<&Group>, input: &str) -> Result<Problem, Problem> {
    let at = pair.as_span().start()..pair.as_span().end();
    for inner in pair.into_inner() {
        if inner.as_rule() == Rule::unsupported_modifier {
            let at = inner.as_span().start()..inner.as_span().end();
            return Err(unsupported_modifier(inner.as_str(), at));
        }
    }
    let letters = &input[at.clone()];
    Ok(match before {
        Some(group) => {
            let (modifiers, rest) = split_modifiers(&input[group.span.clone()]);
            let whole =
                replaced(input, group.span.start..at.end, &format!("{modifiers}{letters}{rest}"));
            Problem::new(
                ProblemKind::ModifierAfterAtom,
                format!("`{letters}` comes after its atom: modifiers go before the atom"),
                at,
                format!("write \"{whole}\""),
            )
        }
        None => Problem::new(
            ProblemKind::Malformed,
            format!("`{letters}` has no atom after it"),
            at,
            "modifiers go right before their atom, e.g. \"fW\"",
        ),
    })
}

/// Digits that follow no atom, or follow a doubled one (`NN3`).
fn stray_range(at: &std::ops::Range<usize>, before: Option<&Group>, input: &str) -> Problem {
    let digits = &input[at.clone()];
    let (message, help) = match before {
        Some(group) => {
            let rider = &input[group.span.clone()];
            let single = &rider[..rider.len() - 1];
            let whole = |by: &str| replaced(input, group.span.start..at.end, by);
            let help = match digits.parse::<u8>() {
                Ok(0) => format!(
                    "write \"{}\" or \"{}\": both are unlimited",
                    whole(rider),
                    whole(&format!("{single}0"))
                ),
                Ok(n) if n <= MAX_RANGE => format!(
                    "write \"{}\" for at most {digits} leaps in a line",
                    whole(&format!("{single}{digits}"))
                ),
                _ => format!("write \"{}\": a range is at most {MAX_RANGE}", whole(rider)),
            };
            (format!("`{rider}` is already unlimited: a range goes on the single atom"), help)
        }
        None => (
            format!("range {digits} has no atom before it"),
            "a range goes right after its atom, e.g. \"W3\"".to_owned(),
        ),
    };
    Problem::new(ProblemKind::Malformed, message, at.clone(), help)
}

/// A bracket or an operator of extended Betza.
fn operator(symbol: &str, at: std::ops::Range<usize>) -> Problem {
    let what = if "[](){}".contains(symbol) { "a bracket" } else { "an operator" };
    Problem::new(
        ProblemKind::Bracket,
        format!("`{symbol}` ({what} of extended Betza, XBetza or Betza 2.0) is not supported"),
        at,
        "kickoff reads each move as one leap or one straight slide: join atoms instead, e.g. \"KN\"",
    )
}

/// `text` with the bytes `span` replaced `by`: a help that rewrites part of a string shows the
/// whole string, so that it can be copied as it is.
#[must_use]
pub(crate) fn replaced(text: &str, span: std::ops::Range<usize>, by: &str) -> String {
    format!("{}{by}{}", &text[..span.start], &text[span.end..])
}

/// Spaces inside the string, with the string written without them.
fn blank(at: std::ops::Range<usize>, input: &str) -> Problem {
    let joined: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    Problem::new(
        ProblemKind::Space,
        "no spaces inside a Betza string",
        at,
        format!("write the groups together: \"{joined}\""),
    )
}

/// A character that is no part of Betza notation.
fn stray_character(symbol: &str, at: std::ops::Range<usize>) -> Problem {
    let help = if matches!(symbol, "," | ";") {
        "groups are written one after another with nothing between: \"KN\", not \"K,N\""
    } else {
        "a Betza string is made of modifiers (lowercase), atoms (capitals) and ranges (digits)"
    };
    Problem::new(
        ProblemKind::Unknown,
        format!("{} is not part of Betza notation", found_at(symbol, 0)),
        at,
        help,
    )
}

/// One group: `modifier* atom (doubled | range)?`.
fn group(pair: Pair<'_, Rule>, input: &str) -> Result<Group, Problem> {
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
            Rule::atom => atom_letter = Some(atom(inner, input)?),
            Rule::doubled => reach = Some(Range::Unlimited),
            Rule::range => reach = Some(range(input, span.start, at)?),
            other => unreachable!("group: unexpected rule {other:?}"),
        }
    }
    let atom = atom_letter.ok_or_else(|| {
        let message = format!("missing atom, found {}", found_at(input, span.end));
        Problem::new(ProblemKind::Malformed, message, span.clone(), "e.g. \"fW\"")
    })?;
    Ok(Group { directions: directions(&letters)?, modalities, atom, range: reach, span })
}

/// Records one modality letter.
fn modality(m: &mut Modalities, letter: &str) {
    match letter {
        "m" => m.move_only = true,
        "c" => m.capture_only = true,
        "i" => m.initial = true,
        "p" => m.hop = true,
        "n" => m.lame = true,
        "e" => m.en_passant = true,
        other => unreachable!("modality: unexpected letter {other}"),
    }
}

/// The atom letter, or an error naming the unsupported one.
fn atom(pair: Pair<'_, Rule>, input: &str) -> Result<Atom, Problem> {
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
            let renamed = |name: &str, letter: &str| {
                format!(
                    "{other} is another name of the {name}: write \"{}\"",
                    replaced(input, at.clone(), letter)
                )
            };
            let help = match other {
                "L" => renamed("camel", "C"),
                "J" => renamed("zebra", "Z"),
                "O" => "castling does not exist in football chess".to_owned(),
                "P" => "a pawn is written with modalities: \"fmWfcF\" is a chess pawn".to_owned(),
                _ => "the atoms are W F D N A H C Z G and the shorthands K Q R B".to_owned(),
            };
            let message = format!("atom `{other}` is not supported");
            return Err(Problem::new(ProblemKind::Unknown, message, at, help));
        }
    })
}

/// The range at bytes `at` of `input`, after the atom of the group starting at `group_start`:
/// 0 for unlimited, otherwise 1..=MAX_RANGE.
fn range(input: &str, group_start: usize, at: std::ops::Range<usize>) -> Result<Range, Problem> {
    let digits = &input[at.clone()];
    match digits.parse::<u32>() {
        Ok(0) => Ok(Range::Unlimited),
        Ok(n) if n <= u32::from(MAX_RANGE) => Ok(Range::Steps(n as u8)),
        _ => {
            let head = &input[group_start..at.start];
            let atom = &input[at.start - 1..at.start];
            let whole = |by: String| replaced(input, group_start..at.end, &by);
            let help = if matches!(atom, "Q" | "R" | "B") {
                format!("write \"{}\" for an unlimited range", whole(head.to_owned()))
            } else {
                format!(
                    "write \"{}\" or \"{}\" for an unlimited range",
                    whole(format!("{head}0")),
                    whole(format!("{head}{atom}"))
                )
            };
            let message = format!("range {digits} is longer than any board (at most {MAX_RANGE})");
            Err(Problem::new(ProblemKind::Malformed, message, at, help))
        }
    }
}

/// The error for a modifier kickoff does not interpret, saying what it means in the dialects
/// that have it.
fn unsupported_modifier(letter: &str, at: std::ops::Range<usize>) -> Problem {
    const HOP: &str = "kickoff's hoppers fly over one piece and land anywhere beyond it, as the \
                       cannon's kick (\"pR\"); an atom leaps over everything (\"D\")";
    const STRAIGHT: &str = "kickoff's slides go straight: write a rider (\"NN\") or single leaps";
    let (kind, what, help) = match letter {
        "g" => (ProblemKind::Hopper, "a grasshopper: over a piece to the square just beyond", HOP),
        "a" | "t" => (
            ProblemKind::MultiLeg,
            if letter == "a" {
                "a move of several legs, as in \"mafsW\""
            } else {
                "\"then\": a move in two parts, as in \"WtR\""
            },
            "a move of kickoff is one leap or one straight slide: describe where the piece \
             lands with atoms, e.g. \"N\", or \"nD\" for a two-square step that cannot jump",
        ),
        "j" => (
            ProblemKind::Jump,
            "a move that must jump over a piece, or a slide that skips its first square",
            "an atom already jumps over whatever stands between (\"D\"); a slide stops at the \
             first piece (\"R\")",
        ),
        "o" => (
            ProblemKind::Cylinder,
            "cylinder: off one edge of the board and back on at the other",
            "kickoff's boards have edges: a move ends where the board ends",
        ),
        "z" => {
            (ProblemKind::Crooked, "crooked: a slide that zigzags between two directions", STRAIGHT)
        }
        "q" => (
            ProblemKind::Crooked,
            "circular: a slide that turns round a circle, as the rose \"qN\"",
            STRAIGHT,
        ),
        _ => (
            ProblemKind::Unknown,
            "a modifier of XBetza, an extended Betza",
            "kickoff reads the directions f b l r s v h and the modalities m c i n e, written \
             before an atom; atoms are capitals (W F D N A H C Z G, K Q R B)",
        ),
    };
    Problem::new(kind, format!("`{letter}` ({what}) is not supported"), at, help)
}

/// Groups modifier letters into direction tokens: a pair where XBetza reads two letters as one
/// direction set (`fl`, `rf`, `fs`, `lv`, `fh`, `ff`), single letters otherwise.
fn directions(letters: &[(char, std::ops::Range<usize>)]) -> Result<Vec<Direction>, Problem> {
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
                out.push(Direction { first, second: Some(second), at: at.start });
                i += 2;
            }
            _ if first == 'h' => {
                return Err(Problem::new(
                    ProblemKind::Malformed,
                    "`h` (half) needs a direction before it",
                    at.clone(),
                    "write fh, bh, lh or rh",
                ));
            }
            _ => {
                out.push(Direction { first, second: None, at: at.start });
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Reads modifier letters (`"fb"`, `"vs"`) as direction tokens, as they would be read before an
/// atom; `None` when they do not read (a stray `h`). Used to compare spellings.
#[must_use]
pub(crate) fn read_directions(letters: &str) -> Option<Vec<Direction>> {
    let letters: Vec<_> = letters.char_indices().map(|(i, c)| (c, i..i + 1)).collect();
    directions(&letters).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (String, std::ops::Range<usize>) {
        let e = parse(s).unwrap_err();
        (e.detail.message, e.detail.span)
    }

    fn kind(s: &str) -> ProblemKind {
        parse(s).unwrap_err().kind
    }

    #[test]
    fn unsupported_is_refused_with_position() {
        let (m, at) = err("gR");
        assert!(m.contains("grasshopper") && m.contains("not supported"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("jR");
        assert!(m.contains("not supported"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("WaF");
        assert!(m.contains("several legs"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("NO");
        assert!(m.contains("`O` is not supported"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("N[W]");
        assert!(m.contains("`[` (a bracket"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("Q(");
        assert!(m.contains("not supported"), "{m}");
        assert_eq!(at, 1..2);
        let (m, at) = err("Q?");
        assert!(m.contains("`?` is not part of Betza"), "{m}");
        assert_eq!(at, 1..2);
    }

    #[test]
    fn each_unsupported_letter_has_its_kind() {
        use ProblemKind::*;
        let cases = [
            ("gQ", Hopper),
            ("mafsW", MultiLeg),
            ("WtR", MultiLeg),
            ("jR", Jump),
            ("oR", Cylinder),
            ("zB", Crooked),
            ("qN", Crooked),
            ("xW", Unknown),
            ("dK", Unknown),
            ("KM", Unknown),
            ("Ké", Unknown),
            ("Nf", ModifierAfterAtom),
            ("fNbl", ModifierAfterAtom),
            ("N[W]", Bracket),
            ("W-F", Bracket),
            ("K N", Space),
            ("K\tN", Space),
            ("f", Malformed),
            ("3W", Malformed),
            ("", Malformed),
        ];
        for (text, expected) in cases {
            assert_eq!(kind(text), expected, "{text}");
        }
    }

    #[test]
    fn a_modifier_after_its_atom_is_moved_before_it() {
        let e = parse("WNf").unwrap_err();
        assert_eq!(e.detail.span, 2..3);
        assert_eq!(e.detail.help.as_deref(), Some("write \"WfN\""));
        let e = parse("fN3vs").unwrap_err();
        assert_eq!(e.detail.span, 3..5);
        assert_eq!(e.detail.help.as_deref(), Some("write \"fvsN3\""));
        // A bracket explains more than the modifier left before it.
        assert_eq!(kind("Nf[W]"), ProblemKind::Bracket);
    }

    #[test]
    fn spaces_are_pointed_at_and_left_out_of_the_help() {
        let e = parse("fR  N").unwrap_err();
        assert_eq!(e.detail.span, 2..4);
        assert_eq!(e.detail.help.as_deref(), Some("write the groups together: \"fRN\""));
    }

    #[test]
    fn no_message_speaks_of_the_grammar() {
        let inputs = ["", "f", "3W", "NN3", "Q?", "K N", "hW", "Nf", "N[", "gR", "xW", "W999", "é"];
        for text in inputs {
            let e = parse(text).unwrap_err().detail;
            let all = format!("{} {}", e.message, e.help.unwrap_or_default());
            for jargon in ["expected", "EOI", "symbol", "rule", "found"] {
                assert!(!all.contains(jargon), "{text:?}: {all}");
            }
        }
    }

    /// The strings written in a help after "write", between quotes.
    fn suggestions(help: &str) -> Vec<&str> {
        help.split_once("write ")
            .map(|(_, after)| after.split('"').skip(1).step_by(2).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_rewrite_is_the_whole_corrected_string() {
        let helps = |s: &str| parse(s).unwrap_err().detail.help.unwrap_or_default();
        assert_eq!(helps("sWfFs"), "write \"sWfsF\"");
        assert_eq!(helps("NN0"), "write \"NN\" or \"N0\": both are unlimited");
        assert_eq!(helps("KfNN3"), "write \"KfN3\" for at most 3 leaps in a line");
        assert_eq!(helps("fNN99"), format!("write \"fNN\": a range is at most {MAX_RANGE}"));
        assert_eq!(helps("KfW25"), "write \"KfW0\" or \"KfWW\" for an unlimited range");
        assert_eq!(helps("R25N"), "write \"RN\" for an unlimited range");
        assert_eq!(helps("fLK"), "L is another name of the camel: write \"fCK\"");
        assert_eq!(helps("JR"), "J is another name of the zebra: write \"ZR\"");
        // Letters of chess pieces Betza spells otherwise say how.
        assert_eq!(helps("NO"), "castling does not exist in football chess");
        assert_eq!(helps("P"), "a pawn is written with modalities: \"fmWfcF\" is a chess pawn");
    }

    /// Every bad string of these tests whose help suggests a string: each suggestion reads.
    #[test]
    fn every_suggested_string_reads() {
        let bad = [
            "gR", "jR", "WaF", "NO", "N[W]", "Q(", "Q?", "gQ", "mafsW", "WtR", "oR", "zB", "qN",
            "xW", "dK", "KM", "Ké", "Nf", "fNbl", "W-F", "K N", "K\tN", "f", "3W", "", "WNf",
            "fN3vs", "Nf[W]", "fR  N", "NN3", "hW", "N[", "W999", "é", "K Q", "sWfFs", "NN0",
            "KfNN3", "fNN99", "KfW25", "R25N", "fLK", "J", "L",
        ];
        let mut checked = 0;
        for text in bad {
            let help = parse(text).unwrap_err().detail.help.unwrap_or_default();
            for fixed in suggestions(&help) {
                assert!(parse(fixed).is_ok(), "{text:?}: {help} does not read: {:?}", parse(fixed));
                checked += 1;
            }
        }
        assert!(checked >= 15, "only {checked} suggestions");
    }

    /// The grammar has a rule for every character, so that parse never meets a grammar error.
    #[test]
    fn every_string_of_two_characters_gets_a_result() {
        let chars: Vec<char> = (' '..='~').chain(['\t', '\n', 'é', '\u{a0}', '→']).collect();
        for &a in &chars {
            for &b in &chars {
                let _ = parse(&format!("{a}{b}"));
            }
        }
    }

    #[test]
    fn malformed_strings() {
        let (m, at) = err("");
        assert!(m.contains("empty"), "{m}");
        assert_eq!(at, 0..0);
        let (m, at) = err("f");
        assert!(m.contains("no atom after it"), "{m}");
        assert_eq!(at, 0..1);
        let (m, at) = err("W999");
        assert!(m.contains("range 999"), "{m}");
        assert_eq!(at, 1..4);
        let (m, at) = err("NN3");
        assert!(m.contains("`NN` is already unlimited"), "{m}");
        assert_eq!(at, 2..3);
        let (m, _) = err("hW");
        assert!(m.contains("half"), "{m}");
        let (_, at) = err("K Q");
        assert_eq!(at, 1..2);
        assert!(parse(&"W".repeat(MAX_LEN + 1)).is_err());
    }
}
