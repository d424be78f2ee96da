//! What the `positions` and `notation` fuzz targets check, shared with the regression test that
//! replays their inputs (`tests/fuzz_regressions.rs` includes this file by path), so that a kept
//! input goes through exactly the code it went through while fuzzing.
#![allow(dead_code)]

use std::time::Duration;

use kickoff::movegen::{
    PerftOptions, count_turns, count_turns_unbounded, is_legal, legal_turns_unbounded, nth_turn,
    perft, perft_divide, play_unchecked,
};
use kickoff::position::Placement;
use kickoff::search::{Limits, Searcher};
use kickoff::turn_text::names::{name, names, resolve};
use kickoff::{Position, Rules, Side, Square};

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
        let kind =
            rules.kinds().nth(usize::from(what >> 1) % rules.pieces().len()).expect("a kind");
        pieces.push((square, side, kind));
    }
    let side = if side & 1 == 0 { Side::White } else { Side::Black };
    let mut placement = Placement::new(pieces, rules.has_ball().then_some(ball), side);
    placement.turns = u32::from(*turns % 4);
    Position::from_placement(rules, &placement).ok()
}

/// The `positions` target: on the [`position`] the bytes make, counting, listing, naming,
/// reading names back and playing must not panic and must agree.
pub fn positions(all_rules: &[Rules], data: &[u8]) {
    let Some(pos) = position(all_rules, data) else { return };
    let Ok(count) = count_turns(&pos) else { return };
    if count > MAX_LISTED {
        return;
    }
    let turns = legal_turns_unbounded(&pos);
    assert_eq!(count, turns.len() as u64, "counted and listed turns differ in {}", pos.fen());
    assert_eq!(count_turns_unbounded(&pos), count, "the two counts differ in {}", pos.fen());
    let named = names(&pos, &turns);
    assert_eq!(named.len(), turns.len());
    // Which names are read back: all of them, or every `step`-th from an offset the input
    // chooses (the high bits of its turns byte, unused by `position`), so that inputs that make
    // the same large position check different turns of it.
    let step = if turns.len() <= READ_ALL { 1 } else { turns.len().div_ceil(SAMPLE) };
    let offset = usize::from(data[3] >> 2) % step;
    for (i, (t, name)) in turns.iter().zip(&named).enumerate() {
        if i % step == offset {
            // Following one turn agrees with the list.
            assert_eq!(&resolve(&pos, name).unwrap(), t, "{name} in {}", pos.fen());
            assert!(is_legal(&pos, t), "{name} in {}", pos.fen());
            assert_eq!(nth_turn(&pos, i as u64).as_ref(), Some(t), "{name} in {}", pos.fen());
        }
        let next = play_unchecked(&pos, t);
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
        assert!(legal_turns_unbounded(&pos).contains(&turn));
    }
}

/// Definitions whose kick chains multiply (several kicks a piece, kicks over the kicker, far
/// kicks, crowded boards): the `line` and `perft` targets also run on them.
pub const HOSTILE: [&str; 3] = [
    "extends = \"boyer-1951\"\n[kick]\nper_piece = 3\ndirection = \"line\"\n[turn]\nnull = \"always\"\n",
    "extends = \"stadium\"\n[kick]\nper_piece = 2\ndirection = \"line\"\n",
    "extends = \"mini\"\n[pieces.N]\nkick = \"NN\"\n[kick]\nper_piece = 5\ndirection = \"line\"\n",
];

/// The shipped variants' rules, then those of [`HOSTILE`].
pub fn all_rules() -> Vec<Rules> {
    let mut all = shipped_rules();
    all.extend(
        HOSTILE.iter().map(|text| kickoff::definition::load_text("h.toml", text).unwrap().rules),
    );
    all
}

/// The `line` target: on the [`position`] the bytes make (of [`all_rules`]), a short search
/// answers in time with a legal turn, and every turn of its expected line is legal where it
/// stands and is named so that it reads back.
pub fn line(all_rules: &[Rules], data: &[u8]) {
    let Some(pos) = position(all_rules, data) else { return };
    if pos.is_goal() || count_turns(&pos).is_err() {
        return;
    }
    let limits = Limits {
        depth: Some(2),
        movetime: Some(Duration::from_millis(20)),
        min_depth: 2,
        cap: None,
        exact: 2,
    };
    let start = std::time::Instant::now();
    let report = Searcher::with_table_bits(pos.rules(), 12).search(&pos, &[], limits).unwrap();
    // Twice the time, the root's count and the turn to the chosen result (each at most two
    // million walk steps), with room for a loaded machine: seconds, not minutes.
    assert!(start.elapsed() < Duration::from_secs(5), "{:?} in {}", start.elapsed(), pos.fen());
    let turn = report.turn.expect("a position in play has a turn");
    assert_eq!(report.line.first(), Some(&turn));
    assert_eq!(play_unchecked(&pos, &turn), report.result.unwrap());
    let mut at = pos;
    for t in &report.line {
        assert!(is_legal(&at, t), "{t} in {}", at.fen());
        let written = name(&at, t);
        if count_turns(&at).is_ok() {
            assert_eq!(&resolve(&at, &written).unwrap(), t, "{written} in {}", at.fen());
        }
        at = play_unchecked(&at, t);
    }
}

/// Positions with more turns than this are not counted by the `perft` target: a result with
/// nearly two million turns costs a walk of as many steps, and a run must stay short.
pub const MAX_PERFT_ROOT: u64 = 32;

/// The `perft` target: on the [`position`] the bytes make (of [`all_rules`]), with at most
/// [`MAX_PERFT_ROOT`] turns, perft 2 and its division agree with counting each turn's result; a
/// refusal means that some result has more turns than kickoff lists.
pub fn perft_below(all_rules: &[Rules], data: &[u8]) {
    let Some(pos) = position(all_rules, data) else { return };
    let Ok(count) = count_turns(&pos) else { return };
    if count > MAX_PERFT_ROOT {
        return;
    }
    let options = PerftOptions { threads: 1, table_mib: 1, ..PerftOptions::default() };
    let turns = legal_turns_unbounded(&pos);
    let children: Vec<_> = turns.iter().map(|t| play_unchecked(&pos, t)).collect();
    let start = std::time::Instant::now();
    let counted = perft(&pos, 2, &options, None);
    // Results of a million turns each make a long count: it is checked again only when short.
    if start.elapsed() > Duration::from_millis(500) {
        return;
    }
    match counted {
        Ok(two) => {
            let divided = perft_divide(&pos, 2, &options, None).unwrap();
            assert_eq!(divided.iter().sum::<u64>(), two, "{}", pos.fen());
            if children.iter().all(|c| count_turns(c).is_ok()) {
                // Each turn's count, in the order of the list of turns.
                let each: Vec<u64> = children
                    .iter()
                    .map(|c| if c.is_goal() { 1 } else { count_turns_unbounded(c) })
                    .collect();
                assert_eq!(each, divided, "{}", pos.fen());
            }
        }
        Err(_) => {
            assert!(perft_divide(&pos, 2, &options, None).is_err(), "{}", pos.fen());
            assert!(children.iter().any(|c| count_turns(c).is_err()), "{}", pos.fen());
        }
    }
}

/// The pieces' kicks the `lint` target chooses from.
const KICKS: [&str; 8] = ["K", "Q", "N", "NN", "W3", "Q15", "fR", "WD"];

/// The text of the definition that the bytes of a `lint` input describe (a shipped parent, the
/// kick rules, one piece's kick, a turn limit), with `fen` as its start if given. `None` for
/// fewer than four bytes.
pub fn lint_definition(data: &[u8], fen: Option<&str>) -> Option<String> {
    let [parent, kick, piece, rules, ..] = data else { return None };
    let names: Vec<&str> = kickoff::definition::shipped::names().collect();
    let parent = names[usize::from(*parent) % names.len()];
    let letter = ["K", "Q", "N", "B", "R"][usize::from(*piece) % 5];
    let mut text = format!("extends = \"{parent}\"\n[end]\nmax_turns = 4\n[kick]\n");
    text += &format!("per_piece = {}\n", 1 + rules % 8);
    text += if rules & 8 == 0 { "direction = \"away\"\n" } else { "direction = \"line\"\n" };
    text += &format!(
        "[turn]\nnull = \"{}\"\n",
        ["never", "always", "when-adjacent"][usize::from(rules >> 4) % 3]
    );
    text += &format!("[pieces.{letter}]\nkick = \"{}\"\n", KICKS[usize::from(*kick) % KICKS.len()]);
    if let Some(fen) = fen {
        text += &format!("[setup]\nfen = \"{fen}\"\n");
    }
    Some(text)
}

/// The `lint` target: a definition from the bytes (see [`lint_definition`]) whose start is the
/// [`position`] the remaining bytes make; its lint warns of a start with too many turns exactly
/// when there is one, and a simulated game abandoned at such a position yields no conclusion.
pub fn lint(data: &[u8]) {
    let Some(text) = lint_definition(data, None) else { return };
    let Ok(base) = kickoff::definition::load_text("lint.toml", &text) else { return };
    let rules = [base.rules];
    let Some(start) = position(
        &rules,
        &[0, data.get(4).copied().unwrap_or(0), 0, 0]
            .iter()
            .chain(data.get(5..).unwrap_or(&[]))
            .copied()
            .collect::<Vec<u8>>(),
    ) else {
        return;
    };
    let fen = start.fen();
    let Some(text) = lint_definition(data, Some(&fen)) else { return };
    let def = match kickoff::definition::load_text("lint.toml", &text) {
        Ok(def) => def,
        Err(kickoff::LoadError::Invalid { .. }) => return,
        Err(e) => panic!("{e}"),
    };
    let warnings = kickoff::lint::lint(&def);
    let pos = Position::from_fen(&def.rules, def.rules.setup_fen()).unwrap();
    let too_many = warnings.iter().any(|d| d.message.contains("more than 2000000 turns"));
    assert_eq!(too_many, count_turns(&pos).is_err(), "{text}");
    let simulated = kickoff::lint::simulate(&def, "lint.toml", 1, 7, None);
    if simulated.iter().any(|d| d.message.contains("abandoned")) {
        for d in &simulated {
            assert!(
                !d.message.contains("never kicked") && !d.message.contains("no goal on"),
                "{}: {text}",
                d.message
            );
        }
    }
}
