//! Legs: what a Betza string means as moves. A piece's moves (and kicks) compile into a list of
//! legs in White's frame; Black's are the same legs with ranks mirrored.

use crate::notation::betza::{Atom, Betza, Direction, Group, Problem, ProblemKind, Range};

/// How many times a leap may be repeated in one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reach {
    /// Up to this many leaps (at least 1).
    Steps(u8),
    /// Any number, until blocked or off the board.
    Unlimited,
}

/// What a leg may do when it lands on an occupied square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Modality {
    /// Move to an empty square, or capture (where the variant has captures).
    #[default]
    Both,
    /// Only move to an empty square (`m`).
    MoveOnly,
    /// Only capture (`c`).
    CaptureOnly,
}

/// One kind of leap a piece has, in White's frame: `(file step, rank step)`, how far it goes
/// and under which conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leg {
    /// The leap; positive file is towards the last file, positive rank is forward.
    pub step: (i8, i8),
    /// How many times the leap may repeat in a line.
    pub reach: Reach,
    /// Whether it moves, captures or both.
    pub modality: Modality,
    /// Only from the squares the piece's type holds in the start position (`i`).
    pub initial: bool,
    /// Cannot jump: every square between start and landing must be empty (`n`).
    pub lame: bool,
    /// May also capture en passant (`e`).
    pub en_passant: bool,
    /// A hopper (`p`): flies over exactly one occupied square, its screen, and lands beyond it
    /// (kick patterns only).
    pub hop: bool,
}

impl Leg {
    /// A plain leg: moves and captures, jumps, from anywhere.
    #[must_use]
    pub fn plain(step: (i8, i8), reach: Reach) -> Leg {
        Leg {
            step,
            reach,
            modality: Modality::Both,
            initial: false,
            lame: false,
            en_passant: false,
            hop: false,
        }
    }

    /// Whether the leap is a king step (orthogonal or diagonal, length 1).
    #[must_use]
    pub fn is_unit(self) -> bool {
        self.step.0.abs() <= 1 && self.step.1.abs() <= 1
    }

    /// Whether the leg has none of the modalities `m c i n e p`.
    #[must_use]
    pub fn is_plain(self) -> bool {
        self.modality == Modality::Both
            && !self.initial
            && !self.lame
            && !self.en_passant
            && !self.hop
    }

    /// Whether the leg can move to an empty square.
    #[must_use]
    pub fn moves(self) -> bool {
        self.modality != Modality::CaptureOnly
    }

    /// Whether the leg can land on an occupied square (capture, or a ball action).
    #[must_use]
    pub fn captures(self) -> bool {
        self.modality != Modality::MoveOnly
    }
}

/// Every leg of a parsed Betza string in White's frame, each (step, conditions) once with its
/// longest reach, sorted.
///
/// # Errors
/// A group whose modalities make no sense: `m` with `c`, `e` without a capture, `n` on a leap
/// that is not straight (kickoff reads `n` as "every square between must be empty").
pub fn legs(betza: &Betza) -> Result<Vec<Leg>, Problem> {
    let mut legs: Vec<Leg> = Vec::new();
    for group in &betza.groups {
        for leg in group_legs(group)? {
            let same = |l: &&mut Leg| Leg { reach: leg.reach, ..**l } == leg;
            match legs.iter_mut().find(same) {
                Some(known) => known.reach = known.reach.max(leg.reach),
                None => legs.push(leg),
            }
        }
    }
    legs.sort();
    Ok(legs)
}

/// The legs one group gives, in White's frame.
pub(crate) fn group_legs(group: &Group) -> Result<Vec<Leg>, Problem> {
    let m = group.modalities;
    let bad = |message: &str, help: &str| {
        Problem::new(ProblemKind::Malformed, message, group.span.clone(), help)
    };
    if m.move_only && m.capture_only {
        return Err(bad("`m` and `c` together leave nothing", "write `m` or `c`, or neither"));
    }
    if m.en_passant && m.move_only {
        return Err(bad("`e` (en passant) is a capture, but `m` forbids captures", "drop `m`"));
    }
    if m.hop && m.lame {
        return Err(bad(
            "`p` (a hopper) flies over a piece, and `n` (lame) is stopped by one",
            "write `p` or `n`, not both",
        ));
    }
    let range = |r: Option<Range>| match r {
        Some(Range::Steps(n)) => Reach::Steps(n),
        Some(Range::Unlimited) => Reach::Unlimited,
        None => Reach::Steps(1),
    };
    let parts: Vec<(Atom, Reach)> = match parts(group.atom) {
        [] => vec![(group.atom, range(group.range))],
        // A range written on a shorthand (R4, K2) replaces its default reach.
        parts if group.range.is_some() => {
            parts.iter().map(|&(a, _)| (a, range(group.range))).collect()
        }
        parts => parts.to_vec(),
    };
    let modality = if m.move_only {
        Modality::MoveOnly
    } else if m.capture_only {
        Modality::CaptureOnly
    } else {
        Modality::Both
    };
    let mut legs = Vec::new();
    for (atom, reach) in parts {
        let (a, b) = leap(atom);
        if m.lame {
            check_lame(group, atom, (a, b))?;
        }
        if m.hop && reach == Reach::Steps(1) {
            let written = format!("{:?}", group.atom);
            return Err(Problem::new(
                ProblemKind::Hopper,
                format!(
                    "`p` (a hopper) on a single {written} leap: a hopper flies along a line over one piece, and one leap has no line"
                ),
                group.span.clone(),
                format!(
                    "write a line: \"p{written}0\" (unlimited), or a range such as \"p{written}4\""
                ),
            ));
        }
        for (x, y) in orientations((a, b)) {
            if group.directions.is_empty() || group.directions.iter().any(|&d| contains(d, x, y)) {
                legs.push(Leg {
                    step: (x, y),
                    reach,
                    modality,
                    initial: m.initial,
                    lame: m.lame,
                    en_passant: m.en_passant,
                    hop: m.hop,
                });
            }
        }
    }
    Ok(legs)
}

/// `n` (lame) means "every square between start and landing must be empty": only a straight
/// leap of two squares or more has such squares.
fn check_lame(group: &Group, atom: Atom, (a, b): (i8, i8)) -> Result<(), Problem> {
    let atom = if atom == group.atom {
        format!("{atom:?}")
    } else {
        format!("{atom:?} (in {:?})", group.atom)
    };
    let (message, help) = if a == 1 {
        (
            format!(
                "`n` (lame) means nothing on {atom}: a one-square step has no square between to block it"
            ),
            "drop `n`".to_owned(),
        )
    } else if b != 0 && b != a {
        (
            format!(
                "`n` (lame) is supported on straight leaps (D A H G), not on {atom}: its leap has no straight line of squares between"
            ),
            format!(
                "a lame {atom} blocked on its first step (as the xiangqi horse) is not supported: write {atom} for a leap that jumps, or a straight lame leap such as nD"
            ),
        )
    } else {
        return Ok(());
    };
    Err(Problem::new(ProblemKind::Lame, message, group.span.clone(), help))
}

/// Whether the leap `(x, y)` (White's frame) is in the direction set `d`.
fn contains(d: Direction, x: i8, y: i8) -> bool {
    match d.second {
        None => single(d.first, x, y),
        Some('h') => half(d.first, x, y),
        Some(s) if s == d.first => single(s, x, y),
        Some('s') => pair(d.first, 'l', x, y) || pair(d.first, 'r', x, y),
        Some('v') => pair(d.first, 'f', x, y) || pair(d.first, 'b', x, y),
        Some(second) => pair(d.first, second, x, y),
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

/// The basic leaps of a shorthand, each with its own default reach.
fn parts(atom: Atom) -> &'static [(Atom, Reach)] {
    const U: Reach = Reach::Unlimited;
    const ONE: Reach = Reach::Steps(1);
    match atom {
        Atom::K => &[(Atom::W, ONE), (Atom::F, ONE)],
        Atom::Q => &[(Atom::W, U), (Atom::F, U)],
        Atom::R => &[(Atom::W, U)],
        Atom::B => &[(Atom::F, U)],
        _ => &[],
    }
}

/// The leap `(a, b)` with `a >= b >= 0` of a basic atom.
fn leap(atom: Atom) -> (i8, i8) {
    match atom {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::betza::parse;

    fn all(s: &str) -> Vec<Leg> {
        legs(&parse(s).unwrap()).unwrap()
    }

    fn steps(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = all(s).into_iter().map(|l| l.step).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn shorthands_expand() {
        assert_eq!(steps("K").len(), 8);
        assert_eq!(steps("Q"), steps("WWFF"));
        assert_eq!(steps("R"), steps("W0"));
        let q = all("Q");
        assert!(q.iter().all(|l| l.reach == Reach::Unlimited));
        let k = all("K");
        assert!(k.iter().all(|l| l.reach == Reach::Steps(1)));
        assert_eq!(steps("N").len(), 8);
        assert_eq!(steps("A"), vec![(-2, -2), (-2, 2), (2, -2), (2, 2)]);
    }

    #[test]
    fn ranges_and_riders() {
        let w3 = all("W3");
        assert!(w3.iter().all(|l| l.reach == Reach::Steps(3)));
        let nn = parse("NN").unwrap();
        assert_eq!(nn.groups.len(), 1);
        assert!(legs(&nn).unwrap().iter().all(|l| l.reach == Reach::Unlimited));
        let r4 = all("R4");
        assert!(r4.iter().all(|l| l.reach == Reach::Steps(4) && l.step.0 * l.step.1 == 0));
        // Two groups of the same atom: the longer reach wins.
        let wr = all("WR");
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
    fn modalities() {
        let pawn = all("fmWfcF");
        assert_eq!(pawn.len(), 3);
        assert!(pawn.iter().all(|l| (l.step == (0, 1)) == (l.modality == Modality::MoveOnly)));
        let double = all("ifmnD");
        assert_eq!(double.len(), 1);
        assert!(double[0].initial && double[0].lame && double[0].step == (0, 2));
        assert!(all("fceF").iter().all(|l| l.en_passant && l.captures() && !l.moves()));
        // A range of 1 written on a shorthand is a range, not the default.
        assert!(all("R1").iter().all(|l| l.reach == Reach::Steps(1)));
        assert!(all("R").iter().all(|l| l.reach == Reach::Unlimited));
    }

    #[test]
    fn hoppers_fly_along_lines() {
        let cannon = all("pR");
        assert_eq!(cannon.len(), 4);
        assert!(cannon.iter().all(|l| l.hop && l.reach == Reach::Unlimited && !l.is_plain()));
        assert!(all("pW3").iter().all(|l| l.hop && l.reach == Reach::Steps(3)));
        assert!(all("R").iter().all(|l| !l.hop));
        for s in ["pW", "pK", "pN", "pnR"] {
            let e = legs(&parse(s).unwrap()).unwrap_err();
            assert!(matches!(e.kind, ProblemKind::Hopper | ProblemKind::Malformed), "{s}");
        }
        assert_eq!(legs(&parse("pK").unwrap()).unwrap_err().kind, ProblemKind::Hopper);
    }

    #[test]
    fn meaningless_modalities_are_refused() {
        for s in ["mcW", "meF", "nN", "nW", "fnK"] {
            assert!(legs(&parse(s).unwrap()).is_err(), "{s}");
        }
        let e = legs(&parse("WnN").unwrap()).unwrap_err();
        assert_eq!((e.kind, e.detail.span), (ProblemKind::Lame, 1..3));
    }
}
