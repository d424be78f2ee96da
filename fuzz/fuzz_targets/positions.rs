//! Turn generation on arbitrary positions of every shipped variant: counting, listing, naming,
//! reading names back and playing never panic, and agree with each other.
#![no_main]

use std::sync::LazyLock;

use kickoff::movegen::notation::{names, resolve_among};
use kickoff::movegen::{check_turn_count, legal_turns, play};
use kickoff::position::Placement;
use kickoff::{PieceKind, Position, Rules, Side, Square};
use libfuzzer_sys::fuzz_target;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(|| {
    kickoff::definition::shipped::names()
        .map(|n| kickoff::definition::load_shipped(n).unwrap().rules)
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let [variant, ball, side, turns, rest @ ..] = data else { return };
    let rules = &RULES[usize::from(*variant) % RULES.len()];
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
    let placement = Placement { pieces, ball, side, turns: u32::from(*turns % 4) };
    let pos = Position::from_placement(rules, &placement);
    let Ok(count) = check_turn_count(&pos) else { return };
    if count > 20_000 {
        return;
    }
    let turns = legal_turns(&pos);
    let named = names(&pos, &turns);
    for (t, name) in turns.iter().zip(&named) {
        assert_eq!(&resolve_among(&pos, &turns, name).unwrap(), t, "{name} in {}", pos.fen());
        let next = play(&pos, t);
        assert_eq!(next.hash(), next.hash_from_scratch());
    }
});
