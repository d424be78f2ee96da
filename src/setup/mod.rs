//! 960-style random setups and their numbers.
//!
//! The arrangements of a `[setup.random]` are the strings of White's letters on its squares
//! (squares in board order: a1, b1, ... then rank 2 ...) that satisfy the colour constraints.
//! Arrangement N is the N-th of them in lexicographic byte order, from 0. Ranking and unranking
//! count completions of a prefix instead of listing arrangements, so large definitions answer at
//! once.

use crate::position::{Placement, Position};
use crate::rules::{PieceKind, RandomSetup, Rules};
use crate::side::Side;
use crate::square::Square;
use crate::text::excerpt;

/// The most squares a random setup may have (the count must fit in 128 bits).
pub const MAX_SQUARES: usize = 32;

/// An arrangement number out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("setup number {number} is out of range: this variant has setups 0 to {}", .count - 1)]
pub struct OutOfRange {
    /// The number asked for.
    pub number: u128,
    /// How many arrangements there are.
    pub count: u128,
}

/// What remains to be placed while counting completions of a prefix.
#[derive(Clone, Debug)]
struct Remaining {
    /// Copies left of each kind, indexed like `kinds`.
    copies: Vec<u32>,
    /// The distinct kinds in lexicographic order of their letters.
    kinds: Vec<PieceKind>,
    /// For each kind: whether it is colour-bound, and the colour of its placed copy if any.
    bound: Vec<Option<Option<bool>>>,
}

impl Remaining {
    fn new(rules: &Rules, random: &RandomSetup) -> Self {
        let mut kinds: Vec<PieceKind> = random.pieces.clone();
        kinds.sort_by_key(|&k| rules.piece(k).letter);
        kinds.dedup();
        let copies =
            kinds.iter().map(|k| random.pieces.iter().filter(|p| *p == k).count() as u32).collect();
        let bound =
            kinds.iter().map(|k| random.opposite_colors.contains(k).then_some(None)).collect();
        Remaining { copies, kinds, bound }
    }

    /// Places one copy of kind index `i` on a square of colour `dark`; false if that breaks a
    /// colour constraint.
    fn place(&mut self, i: usize, dark: bool) -> bool {
        self.copies[i] -= 1;
        match &mut self.bound[i] {
            Some(placed @ None) => {
                *placed = Some(dark);
                true
            }
            Some(Some(first)) => *first != dark,
            None => true,
        }
    }

    /// The number of ways to fill `dark` dark and `light` light squares with what remains.
    fn completions(&self, dark: u32, light: u32) -> u128 {
        let (mut need_dark, mut need_light) = (0u32, 0u32);
        let mut free: Vec<u32> = Vec::new();
        for (i, &n) in self.copies.iter().enumerate() {
            match (self.bound[i], n) {
                (_, 0) => {}
                // Both copies still to place: one dark square and one light square.
                (Some(None), 2) => {
                    need_dark += 1;
                    need_light += 1;
                }
                (Some(Some(first_dark)), 1) => {
                    if first_dark {
                        need_light += 1
                    } else {
                        need_dark += 1
                    }
                }
                (Some(_), _) => return 0,
                (None, n) => free.push(n),
            }
        }
        if need_dark > dark || need_light > light {
            return 0;
        }
        let rest = dark - need_dark + light - need_light;
        falling(dark, need_dark) * falling(light, need_light) * multinomial(rest, &free)
    }
}

/// `n * (n-1) * ... * (n-k+1)`.
fn falling(n: u32, k: u32) -> u128 {
    (0..k).map(|i| u128::from(n - i)).product()
}

/// `total! / (parts[0]! * parts[1]! * ...)`, computed as a product of binomials.
fn multinomial(total: u32, parts: &[u32]) -> u128 {
    if parts.iter().sum::<u32>() != total {
        return 0;
    }
    let mut left = total;
    let mut out = 1u128;
    for &k in parts {
        out *= binomial(left, k);
        left -= k;
    }
    out
}

fn binomial(n: u32, k: u32) -> u128 {
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// The colours of the squares, dark = true, in board order.
fn colours(rules: &Rules, random: &RandomSetup) -> Vec<bool> {
    random.squares.iter().map(|&s| rules.board().is_dark(s)).collect()
}

fn remaining_colours(colours: &[bool]) -> (u32, u32) {
    let dark = colours.iter().filter(|&&d| d).count() as u32;
    (dark, colours.len() as u32 - dark)
}

/// How many setups there are: the arrangements of White's pieces, times the ball's squares.
#[must_use]
pub fn count(rules: &Rules, random: &RandomSetup) -> u128 {
    arrangements(rules, random) * balls(random)
}

/// How many arrangements White's pieces have.
fn arrangements(rules: &Rules, random: &RandomSetup) -> u128 {
    let (dark, light) = remaining_colours(&colours(rules, random));
    Remaining::new(rules, random).completions(dark, light)
}

/// How many squares the ball may start on (1: where `setup.fen` puts it).
fn balls(random: &RandomSetup) -> u128 {
    random.balls.len().max(1) as u128
}

/// Arrangement `number`: the kinds on White's squares, in board order.
///
/// # Errors
/// A number not below [`count`].
pub fn arrangement(
    rules: &Rules,
    random: &RandomSetup,
    mut number: u128,
) -> Result<Vec<PieceKind>, OutOfRange> {
    let total = arrangements(rules, random);
    if number >= total {
        return Err(OutOfRange { number, count: total });
    }
    let colours = colours(rules, random);
    let mut left = Remaining::new(rules, random);
    let mut out = Vec::with_capacity(colours.len());
    for (i, &dark) in colours.iter().enumerate() {
        let (d, l) = remaining_colours(&colours[i + 1..]);
        for k in 0..left.kinds.len() {
            if left.copies[k] == 0 {
                continue;
            }
            let mut next = left.clone();
            let n = if next.place(k, dark) { next.completions(d, l) } else { 0 };
            if number < n {
                out.push(left.kinds[k]);
                left = next;
                break;
            }
            number -= n;
        }
    }
    Ok(out)
}

/// The number of an arrangement, or `None` if it is not one (wrong pieces or colours).
#[must_use]
pub fn number(rules: &Rules, random: &RandomSetup, kinds: &[PieceKind]) -> Option<u128> {
    let colours = colours(rules, random);
    if kinds.len() != colours.len() {
        return None;
    }
    let mut left = Remaining::new(rules, random);
    let mut rank = 0u128;
    for (i, (&kind, &dark)) in kinds.iter().zip(&colours).enumerate() {
        let (d, l) = remaining_colours(&colours[i + 1..]);
        let chosen = left.kinds.iter().position(|&k| k == kind)?;
        for k in 0..chosen {
            if left.copies[k] > 0 {
                let mut next = left.clone();
                if next.place(k, dark) {
                    rank += next.completions(d, l);
                }
            }
        }
        if left.copies[chosen] == 0 || !left.place(chosen, dark) {
            return None;
        }
    }
    Some(rank)
}

/// The number of the variant's own start position (`setup.fen`) among its setups, if it is one.
#[must_use]
pub fn start_number(rules: &Rules, random: &RandomSetup) -> Option<SetupNumber> {
    let start = rules.start();
    let board = rules.board();
    let kinds_on = |side: Side, mirror: bool| -> Option<Vec<PieceKind>> {
        let squares = random.squares.iter().map(|&s| if mirror { board.mirror(s) } else { s });
        let kind_at = |square| start.pieces.iter().find(|p| p.0 == square && p.1 == side);
        squares.map(|square| kind_at(square).map(|p| p.2)).collect()
    };
    // A setup's number is its arrangement's, times the ball's squares, plus the ball's.
    let ball = match random.balls.iter().position(|&b| Some(b) == start.ball) {
        Some(i) => i as u128,
        None if random.balls.is_empty() => 0,
        None => return None,
    };
    let n = balls(random);
    let white = number(rules, random, &kinds_on(Side::White, false)?)? * n + ball;
    let black = number(rules, random, &kinds_on(Side::Black, true)?)? * n + ball;
    let independent = random.black_independent();
    let found = SetupNumber { white, black: (independent || black != white).then_some(black) };
    // The squares outside the random ones, the side to move and the rest must match too.
    (placement(rules, random, found).ok()? == *start).then_some(found)
}

/// The start position of setup `number`: [`placement`] as a position of `rules`.
///
/// # Errors
/// An arrangement number beyond [`count`].
pub fn position<'r>(
    rules: &'r Rules,
    random: &RandomSetup,
    number: SetupNumber,
) -> Result<Position<'r>, OutOfRange> {
    Ok(Position::from_checked(rules, &placement(rules, random, number)?))
}

/// The start position of setup `number`; every square outside the random squares comes from
/// `setup.fen`.
///
/// # Errors
/// A number out of range.
pub fn placement(
    rules: &Rules,
    random: &RandomSetup,
    number: SetupNumber,
) -> Result<Placement, OutOfRange> {
    let mut base = rules.start().clone();
    let n = balls(random);
    if number.white >= count(rules, random) {
        return Err(OutOfRange { number: number.white, count: count(rules, random) });
    }
    let white = arrangement(rules, random, number.white / n)?;
    let black = arrangement(rules, random, number.black() / n)
        .map_err(|e| OutOfRange { number: number.black(), count: e.count * n })?;
    if let Some(&ball) = random.balls.get((number.white % n) as usize) {
        base.ball = Some(ball);
        base.held = false;
    }
    let board = rules.board();
    let mirrored: Vec<Square> = random.squares.iter().map(|&s| board.mirror(s)).collect();
    let mut pieces: Vec<(Square, Side, PieceKind)> = base
        .pieces
        .into_iter()
        .filter(|(s, _, _)| !random.squares.contains(s) && !mirrored.contains(s))
        .collect();
    pieces.extend(random.squares.iter().zip(&white).map(|(&s, &k)| (s, Side::White, k)));
    pieces.extend(mirrored.iter().zip(&black).map(|(&s, &k)| (s, Side::Black, k)));
    pieces.sort_by_key(|&(s, _, _)| s);
    // Every piece of the setup makes its arrangement move, wherever it was put.
    let arranging = if base.arranging.is_empty() {
        base.arranging
    } else {
        pieces.iter().map(|p| p.0).collect()
    };
    Ok(Placement { pieces, arranging, ..base })
}

/// A setup's number: White's arrangement, and Black's when it is drawn independently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetupNumber {
    /// White's arrangement.
    pub white: u128,
    /// Black's arrangement; `None` when Black mirrors White.
    pub black: Option<u128>,
}

impl SetupNumber {
    /// Black's arrangement.
    #[must_use]
    pub fn black(self) -> u128 {
        self.black.unwrap_or(self.white)
    }

    /// A number drawn uniformly among `count` arrangements: White's, then Black's when it is
    /// drawn independently.
    pub fn draw(count: u128, independent: bool, rng: &mut impl rand::Rng) -> SetupNumber {
        let white = rand::RngExt::random_range(rng, 0..count);
        let black = independent.then(|| rand::RngExt::random_range(rng, 0..count));
        SetupNumber { white, black }
    }

    /// Reads `N` (Black mirrors White) or `N/M` (Black drawn independently).
    ///
    /// # Errors
    /// Text that is not a number or a pair, or a single number when Black is independent.
    pub fn parse(text: &str, independent: bool) -> Result<Self, BadSetupNumber> {
        // The text may come from a record: its message shows an excerpt.
        let shown = || excerpt(text).into_owned();
        let number = |s: &str| s.trim().parse::<u128>().map_err(|_| BadSetupNumber(shown()));
        match text.split_once('/') {
            Some((w, b)) => Ok(SetupNumber { white: number(w)?, black: Some(number(b)?) }),
            None if independent => Err(BadSetupNumber(format!(
                "{} (Black is drawn independently here, so a setup is numbered N/M)",
                shown()
            ))),
            None => Ok(SetupNumber { white: number(text)?, black: None }),
        }
    }
}

impl std::fmt::Display for SetupNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.black {
            Some(black) => write!(f, "{}/{black}", self.white),
            None => write!(f, "{}", self.white),
        }
    }
}

/// A setup number that cannot be read: its text (an excerpt of what was written) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad setup number {0}: write N, or N/M when Black is drawn independently")]
pub struct BadSetupNumber(pub String);

/// The letters of an arrangement, e.g. "RNBQKNBR".
#[must_use]
pub fn letters(rules: &Rules, kinds: &[PieceKind]) -> String {
    kinds.iter().map(|&k| rules.piece(k).letter).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;

    fn football_960() -> Rules {
        load_shipped("football-960").unwrap().rules
    }

    #[test]
    fn the_start_of_football_960_is_setup_2502() {
        let rules = football_960();
        let random = rules.random_setup().unwrap();
        let number = start_number(&rules, random).unwrap();
        assert_eq!(number, SetupNumber { white: 2502, black: None });
        assert_eq!(position(&rules, random, number).unwrap().fen(), Position::start(&rules).fen());
    }

    #[test]
    fn football_960_has_2880_setups() {
        let rules = football_960();
        let random = rules.random_setup().unwrap();
        assert_eq!(count(&rules, random), 2880);
    }

    #[test]
    fn rank_and_unrank_agree_on_every_setup() {
        let rules = football_960();
        let random = rules.random_setup().unwrap();
        let mut previous = String::new();
        for n in 0..2880 {
            let kinds = arrangement(&rules, random, n).unwrap();
            let text = letters(&rules, &kinds);
            assert!(text > previous, "{n}: {text} after {previous}");
            assert_eq!(number(&rules, random, &kinds), Some(n));
            previous = text;
        }
        assert!(arrangement(&rules, random, 2880).is_err());
    }

    #[test]
    fn bishops_on_the_same_colour_have_no_number() {
        let rules = football_960();
        let random = rules.random_setup().unwrap();
        let kind = |c| rules.kind_of(c).unwrap();
        // a1 and c1 are both dark.
        let same: Vec<PieceKind> = "BNBQKNRR".chars().map(kind).collect();
        assert_eq!(number(&rules, random, &same), None);
    }
}
