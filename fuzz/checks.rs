//! What the `positions` and `notation` fuzz targets check, shared with the regression test that
//! replays their inputs (`tests/fuzz_regressions.rs` includes this file by path), so that a kept
//! input goes through exactly the code it went through while fuzzing.
#![allow(dead_code)]

use kickoff::movegen::notation::{names, resolve};
use kickoff::movegen::{check_turn_count, count_turns, legal_turns, play};
use kickoff::position::Placement;
use kickoff::{PieceKind, Position, Rules, Side, Square};

/// The rules of every shipped variant, in the order of `shipped::names()`: the first byte of an
/// input picks one of them.
pub fn shipped_rules() -> Vec<Rules> {
    kickoff::definition::shipped::names()
        .map(|n| kickoff::definition::load_shipped(n).unwrap().rules)
        .collect()
}

/// Positions with more turns than this are not listed at all.
pub const MAX_LISTED: u64 = 20_000;

/// Reading a name back walks the whole list of turns, so reading back every name is quadratic
/// in the number of turns (18,000 turns took seconds): up to this many turns every name is read
/// back, above it only [`SAMPLE`] of them, evenly spread, so a run does at most about
/// `READ_ALL`² name comparisons whatever the position.
pub const READ_ALL: usize = 2_000;

/// How many names are read back in a position with more than [`READ_ALL`] turns.
pub const SAMPLE: usize = 200;

/// The position that the bytes of a `positions` input make: the variant (first byte), the ball's
/// square, the side to move, the turns played, then up to 40 square/piece pairs (a pair on a
/// square already taken is skipped). Scoring squares are never used. `None` for fewer than four
/// bytes.
pub fn position<'r>(all_rules: &'r [Rules], data: &[u8]) -> Option<Position<'r>> {
    let [variant, ball, side, turns, rest @ ..] = data else { return None };
    let rules = &all_rules[usize::from(*variant) % all_rules.len()];
    let board = rules.board();
    let squares: Vec<Square> = board.squares().filter(|&s| rules.scorer(s).is_none()).collect();
    let ball = squares[usize::from(*ball) % squares.len()];
    let mut taken = vec![ball];
    let mut pieces = Vec::new();
    for chunk in rest.chunks(2).take(40) {
        let [at, what] = chunk else { break };
        let square = squares[usize::from(*at) % squares.len()];
        if taken.contains(&square) {
            continue;
        }
        taken.push(square);
        let side = if what & 1 == 0 { Side::White } else { Side::Black };
        let kind = PieceKind((what >> 1) % rules.pieces().len() as u8);
        pieces.push((square, side, kind));
    }
    let side = if side & 1 == 0 { Side::White } else { Side::Black };
    let mut placement = Placement::new(pieces, ball, side);
    placement.turns = u32::from(*turns % 4);
    Some(Position::from_placement(rules, &placement))
}

/// The `positions` target: on the [`position`] the bytes make, counting, listing, naming,
/// reading names back and playing must not panic and must agree.
pub fn positions(all_rules: &[Rules], data: &[u8]) {
    let Some(pos) = position(all_rules, data) else { return };
    let Ok(count) = check_turn_count(&pos) else { return };
    if count > MAX_LISTED {
        return;
    }
    let turns = legal_turns(&pos);
    assert_eq!(count, turns.len() as u64, "counted and listed turns differ in {}", pos.fen());
    assert_eq!(count_turns(&pos), count, "the two counts differ in {}", pos.fen());
    let named = names(&pos, &turns);
    assert_eq!(named.len(), turns.len());
    // Which names are read back: all of them, or every `step`-th from an offset the input
    // chooses (the high bits of its turns byte, unused by `position`), so that inputs that make
    // the same large position check different turns of it.
    let step = if turns.len() <= READ_ALL { 1 } else { turns.len().div_ceil(SAMPLE) };
    let offset = usize::from(data[3] >> 2) % step;
    for (i, (t, name)) in turns.iter().zip(&named).enumerate() {
        if i % step == offset {
            assert_eq!(&resolve(&pos, name).unwrap(), t, "{name} in {}", pos.fen());
        }
        let next = play(&pos, t);
        assert_eq!(next.hash(), next.hash_from_scratch());
    }
}

/// The `notation` target: the first byte picks a shipped variant, the rest is text typed as a
/// turn in its start position; a turn read from it must be legal.
pub fn notation(all_rules: &[Rules], data: &[u8]) {
    let Some((&variant, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let rules = &all_rules[usize::from(variant) % all_rules.len()];
    let pos = Position::start(rules);
    if let Ok(turn) = resolve(&pos, text) {
        assert!(legal_turns(&pos).contains(&turn));
    }
}
