//! Squares and lists in words, for `explain`: "e9", "d9, e9 and f9", "ranks 2 to 7",
//! "a1 to c1 and g1 to i1".

use crate::rules::Board;
use crate::square::Square;
use crate::square_set::SquareSet;
use crate::text::join;

/// Squares as a readable list: "e9", "e9 and f9", "d9, e9 and f9".
#[must_use]
pub fn square_list(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(ToString::to_string).collect();
    if names.is_empty() { "nowhere".to_owned() } else { join(&names, "and") }
}

/// A set of squares, short: whole ranks as "rank 1" or "ranks 2 to 7", runs of three squares
/// or more along a rank as "a1 to c1", other squares by name.
#[must_use]
pub fn squares_words(set: SquareSet, board: Board) -> String {
    let mut items = Vec::new();
    let mut full_ranks: Vec<u8> = Vec::new();
    for rank in 0..board.ranks {
        let on_board: Vec<Square> =
            (0..board.files).map(|f| Square::at(f, rank)).filter(|&s| board.contains(s)).collect();
        let held: Vec<Square> = on_board.iter().copied().filter(|&s| set.contains(s)).collect();
        if held.is_empty() {
            continue;
        }
        if held.len() == on_board.len() && held.len() >= 3 {
            full_ranks.push(rank);
            continue;
        }
        flush_ranks(&mut full_ranks, &mut items);
        items.extend(runs(&held));
    }
    flush_ranks(&mut full_ranks, &mut items);
    if items.is_empty() { "nowhere".to_owned() } else { join(&items, "and") }
}

/// A set of squares in as few items as [`squares_words`] or blocks ("the rectangle d2 to h3")
/// allow, whichever needs fewer; the number of items comes back too.
#[must_use]
pub fn fewest_words(set: SquareSet, board: Board) -> (String, usize) {
    let by_ranks = squares_words(set, board);
    let blocks = rectangles(set, board);
    let ranks_items = by_ranks.matches(", ").count() + by_ranks.matches(" and ").count() + 1;
    if blocks.len() < ranks_items {
        (join(&blocks, "and"), blocks.len())
    } else {
        (by_ranks, ranks_items)
    }
}

/// The set cut into rectangles, greedily from a1: each grows along its rank, then up the
/// ranks while the whole row is in the set.
fn rectangles(set: SquareSet, board: Board) -> Vec<String> {
    let mut left = set;
    let mut items = Vec::new();
    for rank in 0..board.ranks {
        for file in 0..board.files {
            let corner = Square::at(file, rank);
            if !left.contains(corner) {
                continue;
            }
            let mut last_file = file;
            while last_file + 1 < board.files && left.contains(Square::at(last_file + 1, rank)) {
                last_file += 1;
            }
            let row = |r: u8| (file..=last_file).all(|f| left.contains(Square::at(f, r)));
            let mut last_rank = rank;
            while last_rank + 1 < board.ranks && row(last_rank + 1) {
                last_rank += 1;
            }
            for r in rank..=last_rank {
                for f in file..=last_file {
                    left.remove(Square::at(f, r));
                }
            }
            let far = Square::at(last_file, last_rank);
            items.push(match (far == corner, last_rank == rank) {
                (true, _) => corner.to_string(),
                (false, true) => format!("{corner} to {far}"),
                (false, false) => format!("the rectangle {corner} to {far}"),
            });
        }
    }
    items
}

/// Whole ranks gathered so far, written as one item per run of consecutive ranks.
fn flush_ranks(ranks: &mut Vec<u8>, items: &mut Vec<String>) {
    let mut i = 0;
    while i < ranks.len() {
        let mut j = i;
        while j + 1 < ranks.len() && ranks[j + 1] == ranks[j] + 1 {
            j += 1;
        }
        items.push(if i == j {
            format!("rank {}", ranks[i] + 1)
        } else {
            format!("ranks {} to {}", ranks[i] + 1, ranks[j] + 1)
        });
        i = j + 1;
    }
    ranks.clear();
}

/// The squares of one rank, sorted by file, as runs: "a1 to c1", or names.
fn runs(squares: &[Square]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < squares.len() {
        let mut j = i;
        while j + 1 < squares.len() && squares[j + 1].file() == squares[j].file() + 1 {
            j += 1;
        }
        if j - i >= 2 {
            out.push(format!("{} to {}", squares[i], squares[j]));
        } else {
            out.extend(squares[i..=j].iter().map(ToString::to_string));
        }
        i = j + 1;
    }
    out
}

/// The set mirrored for Black (same file, mirrored rank).
#[must_use]
pub fn mirrored(set: SquareSet, board: Board) -> SquareSet {
    set.iter().map(|s| board.mirror(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        let holes: SquareSet = [Square::at(0, 0), Square::at(8, 0)].into_iter().collect();
        Board { files: 9, ranks: 9, a1_dark: true, holes }
    }

    fn set(names: &[(u8, u8)]) -> SquareSet {
        names.iter().map(|&(f, r)| Square::at(f, r)).collect()
    }

    #[test]
    fn ranks_runs_and_names() {
        let b = board();
        let ranks: SquareSet = (0..9).flat_map(|f| [Square::at(f, 1), Square::at(f, 2)]).collect();
        assert_eq!(squares_words(ranks, b), "ranks 2 to 3");
        // Rank 1 without its holes is whole.
        let first: SquareSet = (1..8).map(|f| Square::at(f, 0)).collect();
        assert_eq!(squares_words(first, b), "rank 1");
        assert_eq!(
            squares_words(set(&[(0, 4), (1, 4), (2, 4), (4, 4), (5, 4)]), b),
            "a5 to c5, e5 and f5"
        );
        assert_eq!(squares_words(SquareSet::EMPTY, b), "nowhere");
        assert_eq!(join(&["a".into(), "b".into(), "c".into()], "or"), "a, b or c");
    }

    #[test]
    fn blocks_when_they_are_fewer() {
        let b = board();
        let block: SquareSet = (3..8).flat_map(|f| [Square::at(f, 1), Square::at(f, 2)]).collect();
        assert_eq!(fewest_words(block, b), ("the rectangle d2 to h3".to_owned(), 1));
        let run = set(&[(0, 4), (1, 4), (2, 4)]);
        assert_eq!(fewest_words(run, b), ("a5 to c5".to_owned(), 1));
    }
}
