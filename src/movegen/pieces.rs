//! Piece moves: every piece of the side to move, to every empty square its Betza legs reach.

use crate::position::Position;
use crate::rules::cell::{EMPTY, code_kind};
use crate::rules::tables::{DIRS, Tables};
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// Appends every piece move of the side to move to `out`, as (from, to).
pub(crate) fn piece_moves(pos: &Position<'_>, out: &mut Vec<(Square, Square)>) {
    let t = pos.rules.tables();
    for from in pos.men[pos.side.index()].iter() {
        let code = pos.board[from.index()];
        let key = t.piece_key(pos.side, code_kind(code));
        let before = out.len();
        moves_from(t, &pos.board, from, key, out);
        if out.len() == before && t.jump_dirs[key] != 0 && t.corners.contains(from) {
            corner_jumps(t, &pos.board, from, t.jump_dirs[key], out);
        }
    }
}

/// The normal moves of the piece `key` on `from`: sliders stop at the first occupied square,
/// and no move ends on a goal square (but may pass over one).
#[inline]
fn moves_from(
    t: &Tables,
    board: &[u8; SQUARES],
    from: Square,
    key: usize,
    out: &mut Vec<(Square, Square)>,
) {
    let table = &t.moves;
    let (mut i, end) = table.span(key * SQUARES + from.index());
    let mut seen = SquareSet::EMPTY;
    let dedupe = t.move_overlap[key];
    while i < end {
        let s = table.square(i);
        if board[s.index()] != EMPTY {
            i = table.next_ray(i);
            continue;
        }
        if !t.goals.contains(s) && (!dedupe || seen.insert(s)) {
            out.push((from, s));
        }
        i += 1;
    }
}

/// A cornered piece with no move jumps over its occupied neighbour along a slide line.
pub(crate) fn corner_jumps(
    t: &Tables,
    board: &[u8; SQUARES],
    from: Square,
    dirs: u8,
    out: &mut Vec<(Square, Square)>,
) {
    for d in (0..DIRS.len()).filter(|d| dirs >> d & 1 != 0) {
        if let [over, onto, ..] = *t.lines.slice(from.index() * 8 + d)
            && board[over.index()] != EMPTY
            && board[onto.index()] == EMPTY
            && !t.goals.contains(onto)
        {
            out.push((from, onto));
        }
    }
}
