//! What a piece does from one square of an empty board, for the diagrams of a variant's pieces:
//! the squares it moves to, those it captures on, and those its kick sends the ball to; and the
//! squares of the board that some pieces are kept to or kept out of (their zones), shaded in
//! every diagram.

use crate::rules::{Modality, PieceKind, Reach as Range, Rules};
use crate::side::Side;
use crate::square::Square;
use crate::square_set::SquareSet;

/// A piece's reach from one square of an empty board, as White plays it (forward is up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The square it stands on: the square of its zone nearest the board's centre.
    pub from: Square,
    /// The squares it moves to (where it may stand).
    pub moves: Vec<Square>,
    /// The squares it reaches only by capturing, in a variant with captures.
    pub captures: Vec<Square>,
    /// The squares its kick pattern sends the ball to from `from`, where the ball may stop.
    pub kicks: Vec<Square>,
}

/// The reach of White's piece of type `kind` from the square of its zone nearest the centre,
/// on a board with nothing else on it; `None` when the piece may stand nowhere.
///
/// Moves and kicks are its legs repeated as far as they reach: a leg that only moves from the
/// squares its type starts on (Betza `i`) is left out, a line stops at a hole or the edge, and
/// passes over squares outside the piece's zone without stopping there. The ball's squares are
/// those its kick legs reach from the piece's own square, as if the ball stood there: where a
/// kick from that square sends it (its forbidden squares left out).
#[must_use]
pub fn reach(rules: &Rules, kind: PieceKind) -> Option<Reach> {
    let from = central_square(rules, kind)?;
    let piece = rules.piece(kind);
    let board = rules.board();
    let mut moves = Vec::new();
    let mut captures = Vec::new();
    for leg in piece.moves.iter().filter(|l| !l.initial) {
        for square in line(rules, from, leg.step, leg.reach) {
            if !rules.may_stand(Side::White, kind, square) {
                continue;
            }
            match leg.modality {
                Modality::MoveOnly | Modality::Both => moves.push(square),
                Modality::CaptureOnly if rules.has_captures() => captures.push(square),
                Modality::CaptureOnly => {}
            }
        }
    }
    let forbidden = rules.ball().forbidden;
    let kicks = piece
        .kicks
        .iter()
        .filter(|l| !l.initial)
        .flat_map(|leg| line(rules, from, leg.step, leg.reach))
        .filter(|&s| board.contains(s) && !forbidden.contains(s))
        .collect();
    let tidy = |mut squares: Vec<Square>| {
        squares.sort_by_key(|s| (s.file(), s.rank()));
        squares.dedup();
        squares
    };
    let moves = tidy(moves);
    let captures: Vec<Square> = tidy(captures).into_iter().filter(|s| !moves.contains(s)).collect();
    Some(Reach { from, moves, captures, kicks: tidy(kicks) })
}

/// The squares a leap of `step` repeated up to `range` times reaches from `from`, until the
/// edge or a hole.
fn line(rules: &Rules, from: Square, step: (i8, i8), range: Range) -> Vec<Square> {
    let board = rules.board();
    let most = match range {
        Range::Steps(n) => usize::from(n),
        Range::Unlimited => usize::from(board.files.max(board.ranks)),
    };
    board.ray(from, step, most)
}

/// The square where White's piece of type `kind` may stand that is nearest the board's centre
/// (of equals, the lowest rank, then the first file).
fn central_square(rules: &Rules, kind: PieceKind) -> Option<Square> {
    let board = rules.board();
    let (cf, cr) = (i32::from(board.files) - 1, i32::from(board.ranks) - 1);
    board.squares().filter(|&s| rules.may_stand(Side::White, kind, s)).min_by_key(|s| {
        let (df, dr) = (2 * i32::from(s.file()) - cf, 2 * i32::from(s.rank()) - cr);
        (df * df + dr * dr, s.rank(), s.file())
    })
}

/// The squares some piece is kept to or kept out of: those where the kinds of pieces that may
/// stand there are not those that may stand on most of the board, for either side. A goal
/// square is one of them only when some piece may stand on it (a keeper's goal): goals no piece
/// enters are drawn as goals alone. Empty for a variant without zones.
#[must_use]
pub fn zoned(rules: &Rules) -> SquareSet {
    let board = rules.board();
    let kinds: Vec<PieceKind> = rules.kinds().collect();
    let mut out = SquareSet::EMPTY;
    for side in Side::ALL {
        let allowed = |square: Square| -> Vec<bool> {
            kinds.iter().map(|&k| rules.may_stand(side, k, square)).collect()
        };
        let mut counts: Vec<(Vec<bool>, usize)> = Vec::new();
        for square in board.squares().filter(|&s| rules.scorer(s).is_none()) {
            let mask = allowed(square);
            match counts.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, n)) => *n += 1,
                None => counts.push((mask, 1)),
            }
        }
        let Some((usual, _)) = counts.iter().max_by_key(|(_, n)| *n) else { continue };
        for square in board.squares() {
            let mask = allowed(square);
            let goal = rules.scorer(square).is_some();
            if mask != *usual && (!goal || mask.contains(&true)) {
                out.insert(square);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;

    fn names(squares: &[Square]) -> Vec<String> {
        squares.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_rook_moves_along_its_file_and_rank_of_an_empty_board() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let rook = rules.kind_of('R').unwrap();
        let reach = reach(&rules, rook).unwrap();
        assert_eq!(reach.from.to_string(), "e5");
        // Every square of the e-file and the fifth rank but its own and the goals e1 and e9,
        // where no piece may stand.
        let mut expected: Vec<String> = ["a5", "b5", "c5", "d5", "f5", "g5", "h5", "i5"]
            .into_iter()
            .chain(["e2", "e3", "e4", "e6", "e7", "e8"])
            .map(str::to_owned)
            .collect();
        expected.sort_by_key(|s| (s.as_bytes()[0], s[1..].parse::<u8>().unwrap()));
        assert_eq!(names(&reach.moves), expected);
        assert!(reach.captures.is_empty());
        // Its kicks go the same way, and may stop on the goals.
        assert_eq!(reach.kicks.len(), 16);
        assert!(names(&reach.kicks).contains(&"e9".to_owned()));
    }

    #[test]
    fn a_knight_kicks_the_ball_a_knights_leap_away() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let knight = rules.kind_of('N').unwrap();
        let reach = reach(&rules, knight).unwrap();
        assert_eq!(names(&reach.kicks), ["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"]);
        assert_eq!(reach.moves, reach.kicks);
    }

    #[test]
    fn a_keeper_is_drawn_in_its_zone_and_the_zones_are_shaded() {
        let rules = load_shipped("chessball-1957").unwrap().rules;
        let shaded: Vec<String> = zoned(&rules).iter().map(|s| s.to_string()).collect();
        // The back ranks, which are the goals: the keepers' own, closed to every other piece.
        assert_eq!(shaded.len(), 10, "{shaded:?}");
        for square in &shaded {
            assert!(square.ends_with('1') || square.ends_with('8'), "{square}");
        }
        // Soccer chess: the two small areas, kept to the keepers and closed to the others; not
        // the goals beyond the end lines, which no piece enters.
        let soccer = load_shipped("soccer-chess-1998").unwrap().rules;
        let shaded: Vec<String> = zoned(&soccer).iter().map(|s| s.to_string()).collect();
        assert!(shaded.contains(&"d2".to_owned()) && shaded.contains(&"h18".to_owned()));
        assert!(!shaded.iter().any(|s| s == "f1" || s == "f19" || s == "a5"), "{shaded:?}");
        for kind in rules.kinds() {
            let reach = reach(&rules, kind).unwrap();
            for square in reach.moves.iter().chain([&reach.from]) {
                assert!(rules.may_stand(Side::White, kind, *square), "{square}");
            }
        }
        let boyer = load_shipped("boyer-1951").unwrap().rules;
        assert!(super::zoned(&boyer).is_empty());
    }
}
