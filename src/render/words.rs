//! Piece moves in plain English, from their compiled legs.

use crate::rules::{Leg, Modality, Reach};

/// A group of legs with the same leap length, reach and conditions: one phrase.
struct Family {
    /// The leap, normalised to `a >= b >= 0`.
    leap: (i8, i8),
    reach: Reach,
    /// The conditions of its legs (`m c i n e`), all plain for most pieces.
    conditions: Conditions,
    /// Every orientation present, in White's frame.
    steps: Vec<(i8, i8)>,
}

/// The Betza modalities of a leg, which group legs into families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Conditions {
    modality: Modality,
    initial: bool,
    lame: bool,
    en_passant: bool,
    hop: bool,
}

impl Conditions {
    fn of(leg: &Leg) -> Conditions {
        Conditions {
            modality: leg.modality,
            initial: leg.initial,
            lame: leg.lame,
            en_passant: leg.en_passant,
            hop: leg.hop,
        }
    }

    fn is_plain(self) -> bool {
        self == Conditions::of(&Leg::plain((1, 0), Reach::Steps(1)))
    }
}

/// What a capture-only move (`c`) does in a variant: capture, or also act on a carried ball.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CaptureWords {
    /// Pieces capture by replacement; the ball is kicked.
    #[default]
    Capture,
    /// The ball is carried: a move onto an occupied square captures, or takes, passes or
    /// steals the ball.
    CarriedBall,
}

/// Describes a set of legs: "one square in any direction", "any distance forward", ...
#[must_use]
pub fn describe_legs(legs: &[Leg]) -> String {
    describe_moves(legs, CaptureWords::Capture)
}

/// Describes a piece's moves, each group with its conditions (`m c i n e`) in parentheses:
/// "one square forward (only to an empty square)". Legs without conditions read as
/// [`describe_legs`] reads them.
#[must_use]
pub fn describe_moves(legs: &[Leg], captures: CaptureWords) -> String {
    let families = families(legs);
    if families.is_empty() {
        return "nothing".to_owned();
    }
    // A queen, rook or king reads better as one phrase than as its two families.
    if let [a, b] = families.as_slice()
        && a.conditions.is_plain()
        && b.conditions.is_plain()
        && a.leap == (1, 0)
        && b.leap == (1, 1)
        && a.reach == b.reach
        && is_full(a)
        && is_full(b)
    {
        return match a.reach {
            Reach::Unlimited => {
                "any distance in any direction, along ranks, files and diagonals (like a queen)"
                    .to_owned()
            }
            Reach::Steps(1) => "one square in any direction (like a king)".to_owned(),
            Reach::Steps(n) => {
                format!("up to {n} squares in any direction, along ranks, files and diagonals")
            }
        };
    }
    let phrases: Vec<String> = families.iter().map(|f| conditioned(f, captures)).collect();
    join_or(&phrases, "; or ")
}

/// A family's phrase with its conditions, if it has any.
fn conditioned(f: &Family, captures: CaptureWords) -> String {
    let c = f.conditions;
    if c.is_plain() {
        return family_phrase(f);
    }
    let base = if c.lame { lame_phrase(f) } else { family_phrase(f) };
    let mut notes: Vec<&str> = Vec::new();
    match c.modality {
        Modality::Both => {}
        Modality::MoveOnly => notes.push("only to an empty square"),
        Modality::CaptureOnly => notes.push(match captures {
            CaptureWords::Capture => "only to capture",
            CaptureWords::CarriedBall => {
                "only onto an occupied square: to capture, or to take, pass or steal the ball"
            }
        }),
    }
    if c.en_passant {
        notes.push("en passant too");
    }
    if c.initial {
        notes.push("only from its start squares");
    }
    if c.hop {
        notes.push("over one piece, its screen, landing beyond it");
    }
    if c.lame {
        let (a, b) = f.leap;
        notes.push(match (a.max(b), f.reach) {
            (2, Reach::Steps(1)) => "the square between must be empty",
            _ => "every square between must be empty",
        });
    }
    format!("{base} ({})", notes.join("; "))
}

/// A lame (`n`) straight leap: it does not jump, so it reads as a short slide.
fn lame_phrase(f: &Family) -> String {
    let (a, b) = f.leap;
    let dirs = direction_words(f);
    let count = match a {
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        n => n.to_string(),
    };
    match (b, f.reach) {
        (0, Reach::Steps(1)) => {
            format!("{count} squares {}", or_all(&dirs, "along a rank or file"))
        }
        (_, Reach::Steps(1)) if a == b => {
            format!("{count} squares {}", or_all(&dirs, "diagonally"))
        }
        _ => family_phrase(f),
    }
}

fn families(legs: &[Leg]) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for leg in legs {
        let (x, y) = (leg.step.0.abs(), leg.step.1.abs());
        let leap = (x.max(y), x.min(y));
        let conditions = Conditions::of(leg);
        let same =
            |f: &&mut Family| f.leap == leap && f.reach == leg.reach && f.conditions == conditions;
        match out.iter_mut().find(same) {
            Some(f) => f.steps.push(leg.step),
            None => {
                out.push(Family { leap, reach: leg.reach, conditions, steps: vec![leg.step] });
            }
        }
    }
    out.sort_by_key(|f| (f.leap.0, f.leap.1, f.reach, f.conditions));
    out
}

/// Whether a family has every orientation of its leap.
fn is_full(f: &Family) -> bool {
    let (a, b) = f.leap;
    let count = if b == 0 || a == b { 4 } else { 8 };
    f.steps.len() == count
}

fn family_phrase(f: &Family) -> String {
    let (a, b) = f.leap;
    let dirs = direction_words(f);
    match (a, b, f.reach) {
        (1, 0, Reach::Unlimited) => {
            format!("any distance {} (like a rook)", or_all(&dirs, "along ranks and files"))
        }
        (1, 1, Reach::Unlimited) => {
            format!("any distance {} (like a bishop)", or_all(&dirs, "diagonally"))
        }
        (1, 0, Reach::Steps(1)) => format!("one square {}", or_all(&dirs, "orthogonally")),
        (1, 1, Reach::Steps(1)) => format!("one square {}", or_all(&dirs, "diagonally")),
        (1, 0, Reach::Steps(n)) => {
            format!("up to {n} squares {}", or_all(&dirs, "along ranks and files"))
        }
        (1, 1, Reach::Steps(n)) => format!("up to {n} squares {}", or_all(&dirs, "diagonally")),
        _ => {
            let name = leap_name(a, b);
            let where_ = if dirs.is_empty() { String::new() } else { format!(", {dirs}") };
            match f.reach {
                Reach::Steps(1) => format!("{name}, jumping over anything in between{where_}"),
                Reach::Unlimited => format!(
                    "{name} repeated in a straight line any number of times, each landing square \
                     empty{}{where_}",
                    if (a, b) == (2, 1) { " (a nightrider)" } else { "" }
                ),
                Reach::Steps(n) => format!(
                    "{name} repeated in a straight line up to {n} times, each landing square empty{where_}"
                ),
            }
        }
    }
}

/// "like a rook" vs "forward like a rook": the direction words, or the default for all.
fn or_all(dirs: &str, all: &str) -> String {
    if dirs.is_empty() { all.to_owned() } else { dirs.to_owned() }
}

fn leap_name(a: i8, b: i8) -> String {
    match (a, b) {
        (2, 1) => "a knight's leap".to_owned(),
        (2, 0) => "a leap of two squares along a rank or file".to_owned(),
        (2, 2) => "a leap of two squares diagonally".to_owned(),
        (3, 0) => "a leap of three squares along a rank or file".to_owned(),
        (3, 1) => "a camel's leap (3 squares one way, 1 the other)".to_owned(),
        (3, 2) => "a zebra's leap (3 squares one way, 2 the other)".to_owned(),
        (3, 3) => "a leap of three squares diagonally".to_owned(),
        _ => format!("a ({a},{b}) leap"),
    }
}

/// The directions of a family in words, or "" when it has all of them.
fn direction_words(f: &Family) -> String {
    if is_full(f) {
        return String::new();
    }
    let has = |pred: fn(i8, i8) -> bool| f.steps.iter().filter(|&&(x, y)| pred(x, y)).count();
    let total = f.steps.len();
    let forward = has(|_, y| y > 0);
    let backward = has(|_, y| y < 0);
    let (a, b) = f.leap;
    let is_orth = b == 0;
    // Orthogonal steps: name each of forward, backward, left, right.
    if is_orth {
        let mut names = Vec::new();
        for (step, name) in [
            ((0, 1), "forward"),
            ((0, -1), "backward"),
            ((-1, 0), "to the left"),
            ((1, 0), "to the right"),
        ] {
            if f.steps.iter().any(|&(x, y)| (x.signum(), y.signum()) == step) {
                names.push(name);
            }
        }
        if names.contains(&"to the left") && names.contains(&"to the right") {
            names.retain(|n| !n.starts_with("to the"));
            names.push("sideways");
        }
        return join_or(&names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(), " or ");
    }
    if a == b {
        return diagonal_words(f);
    }
    // Oblique leaps have four orientations on each side.
    if forward == total && total == 4 {
        "forward only".to_owned()
    } else if backward == total && total == 4 {
        "backward only".to_owned()
    } else {
        let mut list: Vec<String> =
            f.steps.iter().map(|&(x, y)| format!("({x:+},{y:+})")).collect();
        list.sort();
        format!(
            "in the directions {} (files, ranks; + is forward and to the right)",
            list.join(" ")
        )
    }
}

/// The directions of a diagonal family with some orientations missing.
fn diagonal_words(f: &Family) -> String {
    let mut names = Vec::new();
    for (step, name) in [
        ((-1, 1), "forward-left"),
        ((1, 1), "forward-right"),
        ((-1, -1), "backward-left"),
        ((1, -1), "backward-right"),
    ] {
        if f.steps.iter().any(|&(x, y)| (x.signum(), y.signum()) == step) {
            names.push(name);
        }
    }
    match names.as_slice() {
        ["forward-left", "forward-right"] => "diagonally forward".to_owned(),
        ["backward-left", "backward-right"] => "diagonally backward".to_owned(),
        ["forward-left", "backward-left"] => "diagonally to the left".to_owned(),
        ["forward-right", "backward-right"] => "diagonally to the right".to_owned(),
        _ => format!(
            "diagonally {}",
            join_or(&names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(), " or ")
        ),
    }
}

/// "a", "a or b", "a, b or c" with a chosen last separator.
fn join_or(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        // Conditions in parentheses hold commas and semicolons of their own: the items then
        // part with semicolons, so that each condition reads with its own move.
        [init @ .., tail] => {
            let conditioned = last == "; or " && items.iter().any(|i| i.contains("(only"));
            format!("{}{last}{tail}", init.join(if conditioned { "; or " } else { ", " }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::betza::parse;

    fn words(betza: &str) -> String {
        describe_legs(&crate::rules::leg::legs(&parse(betza).unwrap()).unwrap())
    }

    #[test]
    fn orthodox_pieces() {
        assert_eq!(words("K"), "one square in any direction (like a king)");
        assert_eq!(
            words("Q"),
            "any distance in any direction, along ranks, files and diagonals (like a queen)"
        );
        assert_eq!(words("R"), "any distance along ranks and files (like a rook)");
        assert_eq!(words("B"), "any distance diagonally (like a bishop)");
        assert_eq!(words("N"), "a knight's leap, jumping over anything in between");
    }

    fn moves(betza: &str) -> String {
        let legs = crate::rules::leg::legs(&parse(betza).unwrap()).unwrap();
        describe_moves(&legs, CaptureWords::Capture)
    }

    #[test]
    fn modalities_read_in_parentheses() {
        assert_eq!(
            moves("fmWfcF"),
            "one square forward (only to an empty square); or one square diagonally forward \
             (only to capture)"
        );
        assert_eq!(
            moves("fmWfceFifmnD"),
            "one square forward (only to an empty square); or one square diagonally forward \
             (only to capture; en passant too); or two squares forward (only to an empty \
             square; only from its start squares; the square between must be empty)"
        );
        let legs = crate::rules::leg::legs(&parse("fcF").unwrap()).unwrap();
        assert_eq!(
            describe_moves(&legs, CaptureWords::CarriedBall),
            "one square diagonally forward (only onto an occupied square: to capture, or to \
             take, pass or steal the ball)"
        );
        assert_eq!(
            moves("mK"),
            "one square orthogonally (only to an empty square); or one square diagonally (only to an empty square)"
        );
        assert_eq!(moves("K"), words("K"), "plain legs read as before");
    }

    #[test]
    fn fairy_pieces() {
        assert_eq!(
            words("NN"),
            "a knight's leap repeated in a straight line any number of times, each landing square empty (a nightrider)"
        );
        assert_eq!(words("fR"), "any distance forward (like a rook)");
        assert_eq!(words("fsW"), "one square forward or sideways");
        assert_eq!(words("W3"), "up to 3 squares along ranks and files");
        assert_eq!(words("fF"), "one square diagonally forward");
        assert_eq!(
            words("fhQ"),
            "any distance forward (like a rook); or any distance diagonally forward (like a bishop)"
        );
        assert_eq!(words("fhN"), "a knight's leap, jumping over anything in between, forward only");
        assert_eq!(
            words("WD"),
            "one square orthogonally; or a leap of two squares along a rank or file, jumping over anything in between"
        );
        assert_eq!(
            words("frN"),
            "a knight's leap, jumping over anything in between, in the directions (+2,+1) (files, ranks; + is forward and to the right)"
        );
    }
}
