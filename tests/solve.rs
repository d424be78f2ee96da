//! `kickoff solve` and the solver: known forced goals, proofs that check, proofs that do not,
//! and the solver's verdicts against a second, plain algorithm on random positions.

use kickoff::analysis::plain;
use kickoff::analysis::proof::first_turn;
use kickoff::analysis::{
    Attack, ProofError, SolveLimits, Solver, Unknown, Verdict, check, solve, solve_reply,
};
use kickoff::position::Placement;
use kickoff::search::random_turn;
use kickoff::turn_text::names::name;
use kickoff::{Position, Rules, load, play};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn rules(variant: &str) -> Rules {
    load(variant).unwrap().rules
}

fn setup_position<'r>(rules: &'r Rules, number: u128) -> Position<'r> {
    let random = rules.random_setup().unwrap();
    let number = kickoff::setup::SetupNumber { white: number, black: None };
    Position::from_placement(rules, &kickoff::setup::placement(rules, random, number).unwrap())
        .unwrap()
}

/// The verdict, the fewest turns and the first turn's name.
fn answer(pos: &Position<'_>, turns: u32) -> (Verdict, Option<u32>, Option<String>) {
    let s = solve(pos, turns, SolveLimits::default());
    let first = s.first.and_then(|c| first_turn(pos, &c)).map(|t| name(pos, &t));
    (s.verdict, s.turns, first)
}

#[test]
fn vchess_start_is_a_forced_goal_in_three_turns_and_not_in_two() {
    let rules = rules("vchess");
    let pos = Position::start(&rules);
    assert_eq!(answer(&pos, 2), (Verdict::NoWin, None, None));
    assert_eq!(answer(&pos, 3), (Verdict::Win, Some(3), Some("Qd4>c3".to_owned())));
}

#[test]
fn football_960_setup_1000_is_a_forced_goal_in_two() {
    let rules = rules("football-960");
    let pos = setup_position(&rules, 1000);
    assert_eq!(answer(&pos, 1).0, Verdict::NoWin);
    assert_eq!(answer(&pos, 3), (Verdict::Win, Some(2), Some("Qd8".to_owned())));
}

#[test]
fn proofs_check_and_a_missing_defence_is_caught() {
    let rules = rules("vchess");
    let pos = Position::start(&rules);
    let mut solver = Solver::new(&pos, pos.side(), SolveLimits::default());
    assert_eq!(solver.solve(&pos, 3).turns, Some(3));
    let proof = solver.proof(&pos, 3).unwrap();
    assert_eq!(proof.turn, "Qd4>c3");
    assert!(proof.depth() <= 3);
    let done = check(&pos, &proof, 3).unwrap();
    assert!(done.positions > 1 && done.turns > 100, "{done:?}");
    // Too few turns for the proof.
    assert!(check(&pos, &proof, 2).is_err());
    let mut cut = proof.clone();
    cut.defences.remove(0);
    let e = check(&pos, &cut, 3).unwrap_err().to_string();
    assert!(e.contains("has no answer"), "{e}");
    let mut wrong = proof;
    wrong.turn = "Qd2".to_owned();
    assert!(check(&pos, &wrong, 3).is_err());
}

#[test]
fn a_node_bound_gives_an_honest_unknown() {
    let vchess = rules("vchess");
    let pos = Position::start(&vchess);
    let s = solve(&pos, 3, SolveLimits { max_nodes: Some(50), deadline: None });
    assert_eq!(s.verdict, Verdict::Unknown);
    assert!(s.unknown.unwrap().to_string().contains("50 positions"));
    // Met while White's first turns are ordered by the replies each leaves Black (each count
    // costs a position; 180 positions refute two turns), the bound stops the search there too:
    // it ran on to 246 when the ordering let it pass.
    let football = rules("football-960");
    let pos = setup_position(&football, 0);
    let s = solve_reply(&pos, 3, SolveLimits { max_nodes: Some(190), deadline: None });
    assert_eq!(s.verdict, Verdict::Unknown);
    assert!(s.unknown.unwrap().to_string().contains("190 positions"));
    assert!(s.nodes <= 191, "{} positions", s.nodes);
}

/// A position from a random game of `variant`, thinned to a few pieces a side so that the plain
/// algorithm, which lists every turn of every position, finishes quickly.
fn random_sparse<'r>(rules: &'r Rules, rng: &mut ChaCha8Rng, keep: usize) -> Option<Position<'r>> {
    use rand::RngExt;
    let mut pos = match rules.random_setup() {
        Some(_) => setup_position(rules, rng.random_range(0..2880)),
        None => Position::start(rules),
    };
    for _ in 0..rng.random_range(0..12) {
        let turn = random_turn(&pos, rng)?;
        let next = play(&pos, &turn).expect("a random turn is legal");
        if next.outcome().is_some() {
            break;
        }
        pos = next;
    }
    let mut placement: Placement = pos.placement();
    let ball = placement.ball;
    let mut kept = [0, 0];
    let mut pieces = placement.pieces.clone();
    // Shuffle, then keep `keep` a side (the holder of a carried ball always).
    for i in (1..pieces.len()).rev() {
        pieces.swap(i, rng.random_range(0..=i));
    }
    pieces.retain(|&(s, side, _)| {
        let k = &mut kept[side.index()];
        *k += 1;
        *k <= keep || (placement.held && Some(s) == ball)
    });
    pieces.sort_by_key(|&(s, _, _)| s);
    placement.pieces = pieces;
    placement.en_passant = None;
    placement.steal = None;
    if rng.random_range(0..4) == 0 {
        placement.turns = 0;
    }
    near_the_end(rules, rng, &mut placement);
    let pos = Position::from_placement(rules, &placement).ok()?;
    (pos.outcome().is_none()).then_some(pos)
}

/// Where the rules end the game otherwise than by a goal, brings half the positions near that
/// end: a match's score drawn at random below its target, the turn count a few turns short of
/// the turn limit.
fn near_the_end(rules: &Rules, rng: &mut ChaCha8Rng, placement: &mut Placement) {
    use rand::RngExt;
    let end = rules.end();
    if rng.random_range(0..2) == 0 {
        return;
    }
    if end.keeps_score() {
        let below = u16::try_from(end.goals).unwrap_or(3).clamp(1, 3);
        placement.score = [rng.random_range(0..below), rng.random_range(0..below)];
    }
    if end.max_turns > 0 {
        placement.turns = end.max_turns.saturating_sub(rng.random_range(1..=5));
    }
}

/// The solver and the plain minimax agree on every position tried, for the side to move and
/// for the side moving second; every win's proof checks. Returns the verdicts and the wins.
fn agree_on(variant: &str, seed: u64, positions: usize, keep: usize, turns: u32) -> (usize, usize) {
    let rules = rules(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut tried, mut wins) = (0, 0);
    while tried < positions {
        let Some(pos) = random_sparse(&rules, &mut rng, keep) else { continue };
        tried += 1;
        for k in 1..=turns {
            let s = solve(&pos, k, SolveLimits::default());
            let expected = match plain::forced_goal(&pos, k) {
                Some(true) => Verdict::Win,
                Some(false) => Verdict::NoWin,
                None => Verdict::Unknown,
            };
            assert_eq!(s.verdict, expected, "{variant} {} within {k}", pos.fen());
            if s.verdict == Verdict::Win {
                wins += 1;
                let mut solver = Solver::new(&pos, pos.side(), SolveLimits::default());
                let proof = solver.proof(&pos, s.turns.unwrap()).unwrap();
                check(&pos, &proof, k).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
            }
            let reply = solve_reply(&pos, k, SolveLimits::default()).verdict;
            let expected =
                plain::forced_reply(&pos, k).map(|w| if w { Verdict::Win } else { Verdict::NoWin });
            assert_eq!(Some(reply), expected, "{variant} {} reply within {k}", pos.fen());
        }
    }
    (positions * turns as usize, wins)
}

/// The sample must hold both answers, or it checks little.
fn assert_mixed(samples: &[(usize, usize)]) {
    let (all, wins) = samples.iter().fold((0, 0), |(a, w), s| (a + s.0, w + s.1));
    assert!(wins > 0 && wins < all, "{wins} wins of {all}");
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_boyer_positions() {
    assert_mixed(&[agree_on("boyer-1951", 1, 40, 3, 2)]);
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_vchess_positions() {
    assert_mixed(&[agree_on("vchess", 2, 40, 3, 2)]);
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_football_960_positions() {
    assert_mixed(&[agree_on("football-960", 3, 30, 3, 2)]);
}

#[test]
fn the_solver_agrees_with_plain_minimax_three_turns_deep() {
    assert_mixed(&[agree_on("mini", 4, 15, 2, 3), agree_on("vchess", 5, 10, 1, 3)]);
}

#[test]
fn the_solver_agrees_with_plain_minimax_beyond_boyers_family() {
    assert_mixed(&[agree_on("chessball-1957", 6, 10, 2, 2), agree_on("vchess-ball", 7, 10, 2, 2)]);
}

#[test]
fn repetitions_are_defences_exactly_as_plain_minimax_counts_them() {
    assert_mixed(&[
        agree_on("tests/data/solve/quick-repetition.toml", 8, 25, 2, 3),
        agree_on("tests/data/solve/quick-repetition.toml", 9, 40, 3, 2),
    ]);
}

/// The verdicts of a second implementation of the rules and of forced goals, written from the
/// rules text alone in another language (`scripts/independent/`): positions of random play
/// from Boyer's, vchess.club's and 960-style starts under both rule sets, and constructed
/// edge cases (no goal on the first turns, null-turn defences, own goals, forced passes),
/// solved with 1, 2 and 3 turns. kickoff must give the same verdict and the same fewest turns
/// on every line.
#[test]
fn verdicts_agree_with_an_independent_implementation() {
    let boyer = rules("boyer-1951");
    let vchess = rules("vchess");
    let text = std::fs::read_to_string("tests/data/solve/independent.jsonl").unwrap();
    let (mut checked, mut wins, mut deepest) = (0, 0, 0);
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let rules = match case["rules"].as_str().unwrap() {
            "boyer" => &boyer,
            "vchess" => &vchess,
            other => panic!("unknown rules {other}"),
        };
        let (id, fen) = (case["id"].as_str().unwrap(), case["fen"].as_str().unwrap());
        let turns = u32::try_from(case["turns"].as_u64().unwrap()).unwrap();
        let pos = Position::from_fen(rules, fen).unwrap();
        let found = solve(&pos, turns, SolveLimits::default());
        let expected = match case["verdict"].as_str().unwrap() {
            "win" => Verdict::Win,
            "no-win" => Verdict::NoWin,
            other => panic!("{id}: unknown verdict {other}"),
        };
        let k = case["k"].as_u64().map(|k| u32::try_from(k).unwrap());
        assert_eq!((found.verdict, found.turns), (expected, k), "{id}: {fen}, {turns} turns");
        checked += 1;
        wins += usize::from(expected == Verdict::Win);
        deepest = deepest.max(turns);
    }
    // The file holds wins and refutations, up to three turns.
    assert!(checked >= 300 && wins >= 60 && deepest == 3, "{checked} {wins} {deepest}");
}

#[test]
fn every_ending_rule_is_counted_exactly_as_plain_minimax_counts_it() {
    // Matches won on the turn limit, drawn at it, points that reset the board or bring the
    // ball back to its spot, royal pieces captured (a goal, or a point of a match), repetitions
    // that the side to move must claim (the plain algorithm lets only the side to move claim;
    // the solver counts every repetition a draw, which must give the same answers).
    assert_mixed(&[
        agree_on("tests/data/solve/match-turn-limit.toml", 10, 40, 2, 3),
        agree_on("tests/data/solve/match-ball-to-spot.toml", 11, 40, 2, 3),
        agree_on("tests/data/solve/royal-captures.toml", 12, 40, 2, 3),
        agree_on("tests/data/solve/royal-match.toml", 13, 40, 2, 3),
        agree_on("tests/data/solve/claim-repetition.toml", 14, 25, 2, 3),
        agree_on("tests/data/solve/boyer-match.toml", 15, 25, 2, 2),
    ]);
}

#[test]
fn a_match_won_on_the_turn_limit_is_no_goal() {
    let rules = rules("tests/data/solve/boyer-match.toml");
    // The last turn of a ten-turn match that White leads: no goal can be scored in one turn,
    // and the turn limit then gives White the match.
    let pos = Position::from_fen(&rules, "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 9 1-0").unwrap();
    assert_eq!(answer(&pos, 1), (Verdict::NoWin, None, None));
    assert_eq!(plain::forced_goal(&pos, 1), Some(false));
    // A proof that calls that last turn a goal is refused, with how the game really ended.
    let forged = Attack { turn: "Ra2".to_owned(), defences: Vec::new() };
    let e = check(&pos, &forged, 1).unwrap_err().to_string();
    assert!(e.contains("ends without the attacker's goal: the turn limit of 10 turns"), "{e}");
    // A goal on the last turn is a goal, though the limit then draws the match.
    let last = Position::from_fen(&rules, "k8/9/4a4/4R4/9/9/9/9/K8 w 9 0-1").unwrap();
    assert_eq!(answer(&last, 1).0, Verdict::Win);
    let mut solver = Solver::new(&last, last.side(), SolveLimits::default());
    assert_eq!(solver.solve(&last, 1).turns, Some(1));
    let proof = solver.proof(&last, 1).unwrap();
    assert!(check(&last, &proof, 1).is_ok());
}

#[test]
fn a_proof_is_refused_where_its_claims_are_not_so() {
    let rules = rules("vchess");
    let pos = Position::start(&rules);
    let mut solver = Solver::new(&pos, pos.side(), SolveLimits::default());
    assert_eq!(solver.solve(&pos, 3).turns, Some(3));
    let proof = solver.proof(&pos, 3).unwrap();
    // Within no turn at all, nothing is proved.
    assert_eq!(check(&pos, &proof, 0), Err(ProofError::NoTurns));
    // The first turn written as a goal (no defence after it): the game goes on.
    let claimed = Attack { turn: proof.turn.clone(), defences: Vec::new() };
    let e = check(&pos, &claimed, 3).unwrap_err().to_string();
    assert!(e.contains("is written as the attacker's goal"), "{e}");
    // A defence written as conceding (no answer after it) that concedes nothing.
    let mut conceded = proof.clone();
    let answered = conceded.defences.iter_mut().find(|d| d.answer.is_some()).unwrap();
    answered.answer = None;
    let e = check(&pos, &conceded, 3).unwrap_err().to_string();
    assert!(e.contains("is written as conceding a point"), "{e}");
    assert!(check(&pos, &proof, 3).is_ok());
}

/// Two turns after this variant's start, White's position has more than two million turns,
/// though few enough results to walk: the solver decided it once (a goal it found), and its
/// proof, which names turns and lists the defender's, could not follow. Such a position is now
/// unknown, quickly.
#[test]
fn a_position_with_more_turns_than_kickoff_lists_is_unknown() {
    let rules = rules("tests/data/solve/holes-sixteen-moves.toml");
    let four = "******4******/".repeat(11);
    let fen = format!(
        "{four}******1a2******/{}******3R******/******4******/******4******/******4******/\
         ******R1KR******/******4****** w 2 0-0",
        "******4******/".repeat(6)
    );
    let pos = Position::from_fen(&rules, &fen).unwrap();
    assert!(kickoff::movegen::count_turns(&pos).is_err());
    let found = solve(&pos, 1, SolveLimits::default());
    assert_eq!(found.verdict, Verdict::Unknown);
    let why = found.unknown.unwrap().to_string();
    assert!(why.contains("has more than 2000000 turns"), "{why}");
    assert!(found.time.as_secs() < 5, "{:?}", found.time);
}

/// A defence that brings back a position the game has had draws where the rules draw at once;
/// where the draw must be claimed, the side to move after it, the attacker, plays on, and a
/// proof that answers it holds.
#[test]
fn a_defence_that_repeats_draws_only_where_the_rules_draw_at_once() {
    for (variant, holds) in [
        ("tests/data/solve/claim-repetition.toml", true),
        ("tests/data/solve/quick-repetition.toml", false),
    ] {
        let rules = rules(variant);
        // White's rook kicks the ball into e9 whenever it likes; it waits a turn first.
        let pos = Position::from_fen(&rules, "k8/4a4/4R4/9/9/9/9/9/K8 w 2").unwrap();
        let wait = kickoff::Turn::null();
        let after = play(&pos, &wait).unwrap();
        let mut seen = std::collections::HashSet::new();
        let defences = kickoff::legal_turns(&after)
            .unwrap()
            .into_iter()
            .filter(|t| seen.insert(play(&after, t).unwrap().hash()))
            .map(|t| kickoff::analysis::Defence {
                turn: name(&after, &t),
                answer: Some(Attack { turn: ">e9".to_owned(), defences: Vec::new() }),
            })
            .collect();
        let proof = Attack { turn: name(&pos, &wait), defences };
        let checked = check(&pos, &proof, 2);
        assert_eq!(checked.is_ok(), holds, "{variant}: {checked:?}");
        if !holds {
            assert!(checked.unwrap_err().to_string().contains("repeats a position"));
        }
    }
}

/// The solver hears its clock inside the walk of a position's turns: at the start of
/// `nightriders16.toml`, whose turns number millions (0.7 s to find that out), it stops at its
/// deadline instead of walking to the end of the walk's steps.
#[test]
fn the_solver_hears_the_clock_inside_a_walk() {
    let path = std::path::Path::new("tests/data/hostile/nightriders16.toml");
    let def = kickoff::definition::load_path(path).unwrap();
    let pos = Position::start(&def.rules);
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(50);
    let limits = SolveLimits { deadline: Some(deadline), ..SolveLimits::default() };
    let solution = solve(&pos, 1, limits);
    assert_eq!(solution.unknown, Some(Unknown::Time));
    let unbounded = solve(&pos, 1, SolveLimits::default());
    assert!(
        matches!(unbounded.unknown, Some(Unknown::TooManyTurns { .. })),
        "{:?}",
        unbounded.unknown
    );
}
