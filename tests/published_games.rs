//! Exact agreement with data computed by other people's implementations of the published games
//! kickoff ships: Chessball (1957), Apo-Games' ChessBall and vchess.club's Ball
//! (`tests/data/reference/`). Every turn of every reference position, perft counts, and the goal
//! puzzles of Apo-Games.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{BufRead, BufReader};

use kickoff::movegen::{PerftOptions, legal_turns_unbounded, perft, play_unchecked};
use kickoff::search::{Limits, Searcher};
use kickoff::turn_text::names::{names, resolve};
use kickoff::{Position, Rules, load};
use serde_json::Value;

/// The lines of a reference file (gzipped or not).
fn lines(path: &str) -> Vec<Value> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let reader: Box<dyn std::io::Read> = if path.ends_with(".gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    BufReader::new(reader).lines().map(|l| serde_json::from_str(&l.unwrap()).unwrap()).collect()
}

/// Every turn of `fen`: their number, the results counted, and the turns that score.
fn our_turns(rules: &Rules, fen: &str) -> (usize, BTreeMap<String, u64>, usize) {
    let pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns_unbounded(&pos);
    let mut results = BTreeMap::new();
    let mut goals = 0;
    for t in &turns {
        let after = play_unchecked(&pos, t);
        goals += usize::from(after.is_goal());
        *results.entry(after.fen()).or_insert(0) += 1;
    }
    (turns.len(), results, goals)
}

/// Checks that every turn of `fen` has one name and that the name reads back to it.
fn names_read_back(rules: &Rules, fen: &str) -> usize {
    let pos = Position::from_fen(rules, fen).unwrap();
    let turns = legal_turns_unbounded(&pos);
    let named = names(&pos, &turns);
    let distinct: HashSet<&String> = named.iter().collect();
    assert_eq!(distinct.len(), named.len(), "two turns share a name in {fen}");
    for (turn, name) in turns.iter().zip(&named) {
        let back = resolve(&pos, name).unwrap_or_else(|e| panic!("{fen}: {name}: {e}"));
        assert_eq!(&back, turn, "{fen}: {name}");
    }
    turns.len()
}

fn results_of(line: &Value) -> BTreeMap<String, u64> {
    serde_json::from_value(line["results"].clone()).unwrap()
}

#[test]
fn chessball_turns_agree_with_the_reference() {
    let rules = load("chessball-1957").unwrap().rules;
    let data = lines("tests/data/reference/chessball-turns.jsonl.gz");
    assert_eq!(data.len(), 292);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (count, ours, goals) = our_turns(&rules, fen);
        let expected = line["turns"].as_u64().unwrap() as usize;
        let expected_goals = line["goals"].as_u64().unwrap() as usize;
        if count != expected || goals != expected_goals || ours != results_of(line) {
            report.push(format!(
                "{} {fen}: {count} turns ({goals} goals), expected {expected} ({expected_goals})",
                line["id"]
            ));
        }
        names_read_back(&rules, fen);
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The perft counts of a reference file at the depths `pick` selects, counted as the file does
/// (`exact`: a finished position has no turns).
fn perft_cases(path: &str, key: &str) -> Vec<(String, usize, u64)> {
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    let positions = data["positions"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| vec![serde_json::json!({ "fen": data["fen"], "perft": data["perft"] })]);
    for p in positions {
        let levels = p.get("perft").or_else(|| p.get("levels")).unwrap().as_array().unwrap();
        for level in levels {
            if let Some(n) = level[key].as_u64() {
                let depth = level["depth"].as_u64().unwrap() as usize;
                out.push((p["fen"].as_str().unwrap().to_owned(), depth, n));
            }
        }
    }
    out
}

/// Checks the perft counts up to `most` with `options`.
fn check_perft(variant: &str, cases: &[(String, usize, u64)], most: u64, options: PerftOptions) {
    let rules = load(variant).unwrap().rules;
    let mut checked = 0;
    for (fen, depth, expected) in cases.iter().filter(|c| c.2 <= most) {
        let pos = Position::from_fen(&rules, fen).unwrap();
        let ours = perft(&pos, *depth, &options, None).unwrap();
        assert_eq!(ours, *expected, "{variant} {fen} depth {depth}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked} counts checked");
}

const EXACT: PerftOptions =
    PerftOptions { threads: 1, table_mib: 64, exact: true, distinct: false };

#[test]
fn chessball_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/chessball-perft.json", "nodes");
    check_perft("chessball-1957", &cases, 2_000_000, EXACT);
}

#[test]
#[ignore = "depth 5 (58,754,938) takes a few seconds"]
fn chessball_deep_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/chessball-perft.json", "nodes");
    check_perft("chessball-1957", &cases, 100_000_000, EXACT);
}

/// Apo-Games counts a pass by its target square alone, kickoff by its kicker too (two pieces
/// that can send the ball to one square make two turns): the counts differ, the results do not.
fn check_apo_results(path: &str, expected_lines: usize, name_them: bool) {
    let rules = load("apo-chessball").unwrap().rules;
    let data = lines(path);
    assert_eq!(data.len(), expected_lines);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (_, ours, _) = our_turns(&rules, fen);
        let theirs: BTreeSet<String> = results_of(line).into_keys().collect();
        let ours: BTreeSet<String> = ours.into_keys().collect();
        if ours != theirs {
            let missing: Vec<_> = theirs.difference(&ours).take(3).collect();
            let extra: Vec<_> = ours.difference(&theirs).take(3).collect();
            report.push(format!("{} {fen}\n  missing {missing:?}\n  extra {extra:?}", line["id"]));
        }
        if name_them {
            names_read_back(&rules, fen);
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn apo_results_agree_with_the_reference() {
    check_apo_results("tests/data/reference/apo-turns.jsonl.gz", 200, true);
}

#[test]
fn apo_results_of_the_largest_positions_agree_with_the_reference() {
    check_apo_results("tests/data/reference/apo-turns-big.jsonl.gz", 13, false);
}

#[test]
fn apo_perft_of_distinct_results_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/apo-perft.json", "result_tree");
    let options = PerftOptions { distinct: true, ..EXACT };
    check_perft("apo-chessball", &cases, 400_000, options);
}

#[test]
#[ignore = "the deeper counts take a quarter of a minute"]
fn apo_deep_perft_of_distinct_results_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/apo-perft.json", "result_tree");
    let options = PerftOptions { distinct: true, ..EXACT };
    check_perft("apo-chessball", &cases, u64::MAX, options);
}

#[test]
fn every_apo_puzzle_is_solved_by_the_engine() {
    let rules = load("apo-chessball").unwrap().rules;
    let puzzles = lines("tests/data/reference/apo-puzzles.jsonl");
    assert_eq!(puzzles.len(), 25);
    for p in &puzzles {
        let pos = Position::from_fen(&rules, p["fen"].as_str().unwrap()).unwrap();
        let report = Searcher::new(&rules).search(&pos, &[], Limits::level(1)).unwrap();
        let result = report.result.unwrap().fen();
        let solutions: Vec<&str> =
            p["solutions"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        assert!(solutions.contains(&result.as_str()), "{}: {result}", p["id"]);
    }
}

#[test]
fn ball_moves_agree_with_the_reference() {
    let rules = load("vchess-ball").unwrap().rules;
    let data = lines("tests/data/reference/ball-moves.jsonl.gz");
    assert_eq!(data.len(), 217);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (count, ours, _) = our_turns(&rules, fen);
        let expected = line["moves"].as_u64().unwrap() as usize;
        if count != expected || ours != results_of(line) {
            report.push(format!("{} {fen}: {count} moves, expected {expected}", line["id"]));
        }
        names_read_back(&rules, fen);
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn ball_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/ball-perft.json", "nodes_stop_at_goal");
    check_perft("vchess-ball", &cases, 2_200_000, EXACT);
}

#[test]
#[ignore = "the deepest counts take a minute"]
fn ball_deep_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/ball-perft.json", "nodes_stop_at_goal");
    check_perft("vchess-ball", &cases, u64::MAX, EXACT);
}

// MathiCasa's Chess Football, held to its rules text (variants/mathicasa.toml quotes it), one
// position at a time. No other implementation of it is public.

/// The results of the turns of `fen` whose long form starts with `prefix`, by long form.
fn turns_from(rules: &Rules, fen: &str, prefix: &str) -> BTreeMap<String, String> {
    let pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    legal_turns_unbounded(&pos)
        .iter()
        .map(|t| (t.to_string(), play_unchecked(&pos, t).fen()))
        .filter(|(long, _)| long.starts_with(prefix))
        .collect()
}

#[test]
fn mathicasa_a_piece_captures_the_ball_and_kicks_it_by_its_own_moves() {
    // "a bishop capturing the ball can send it to any square it could normally reach": the
    // bishop on c2 captures the ball on e4 and sends it along the diagonals of e4, back over
    // its own square too.
    let rules = load("mathicasa").unwrap().rules;
    let fen = "4k3/8/8/8/4o3/8/2B5/4K3 w 0";
    let kicks = turns_from(&rules, fen, "c2>");
    let to: BTreeSet<&str> = kicks.keys().map(|k| &k[3..]).collect();
    let expected = ["a8", "b1", "b7", "c2", "c6", "d3", "d5", "f3", "f5", "g2", "g6", "h1", "h7"];
    assert_eq!(to, expected.into_iter().collect());
    // The bishop stands where it captured the ball.
    assert_eq!(kicks["c2>h7"], "4k3/7o/8/8/4B3/8/8/4K3 b 1");
    // A piece that cannot reach the ball by a move does not kick it: the king on e1.
    assert!(turns_from(&rules, fen, "e1>").is_empty());
}

#[test]
fn mathicasa_a_pass_is_kicked_on_by_the_receiver_in_the_same_turn() {
    // "The receiving piece immediately takes control of the ball and continues to move it
    // according to its own movement pattern in same turn": the bishop's kick along e4-h7 stops
    // at the knight on g6, which sends it on by a knight's leap; the ball never stays on g6
    // and never flies past it.
    let rules = load("mathicasa").unwrap().rules;
    let fen = "4k3/8/6N1/8/4o3/8/2B5/4K3 w 0";
    let kicks = turns_from(&rules, fen, "c2>");
    let to: BTreeSet<&str> = kicks.keys().map(|k| &k[3..]).collect();
    let passes = ["g6 g6>e5", "g6 g6>e7", "g6 g6>f4", "g6 g6>f8", "g6 g6>h4", "g6 g6>h8"];
    let singles = ["a8", "b1", "b7", "c2", "c6", "d3", "d5", "f3", "f5", "g2", "h1"];
    assert_eq!(to, passes.into_iter().chain(singles).collect());
    // The knight kicks without moving; the bishop stands on e4.
    assert_eq!(kicks["c2>g6 g6>h8"], "4k2o/8/6N1/8/4B3/8/8/4K3 b 1");
    // The named turn reads back to the same turn.
    let pos = Position::from_fen(&rules, fen).unwrap();
    let turn = resolve(&pos, "Bxe4>g6>h8").or_else(|_| resolve(&pos, ">g6>h8")).unwrap();
    assert_eq!(turn.to_string(), "c2>g6 g6>h8");
}

#[test]
fn mathicasa_a_pass_goes_only_to_a_teammate_that_can_kick_on() {
    // Decided: the ball never stays with its receiver. The knight in the corner h8 has both its
    // leaps (f7, g6) blocked: the rook's kick up the h-file stops before it, on h5 to h7.
    let rules = load("mathicasa").unwrap().rules;
    let blocked = turns_from(&rules, "7N/5b2/6b1/8/7o/8/7R/k6K w 0", "h2>h");
    let up: BTreeSet<&str> = blocked.keys().map(|k| &k[3..]).filter(|k| k > &"h4").collect();
    assert_eq!(up, ["h5", "h6", "h7"].into_iter().collect());
    // With g6 free the pass to h8 is a turn, kicked on to g6.
    let open = turns_from(&rules, "7N/5b2/8/8/7o/8/7R/k6K w 0", "h2>h8");
    assert_eq!(open.keys().collect::<Vec<_>>(), ["h2>h8 h8>g6"]);
}

#[test]
fn mathicasa_the_ball_on_the_goal_square_wins_and_a_piece_there_guards_it() {
    // "White aims to move the ball to the square e8": the rook on e2 captures the ball on e4
    // and kicks it up the file onto e8, unless the black king stands there.
    let rules = load("mathicasa").unwrap().rules;
    let open = turns_from(&rules, "3k4/8/8/8/4o3/8/4R3/6K1 w 0", "e2>e8");
    let after = Position::from_fen(&rules, &open["e2>e8"]).unwrap();
    assert!(after.is_goal(), "{open:?}");
    assert!(turns_from(&rules, "4k3/8/8/8/4o3/8/4R3/6K1 w 0", "e2>e8").is_empty());
    // A pass that reaches a teammate standing on the goal is no goal: the receiver kicks on.
    let fen = "8/8/8/8/4o3/8/4R3/4K3 w 0";
    let with_keeper = "4N3/8/8/8/4o3/8/4R3/4K3 w 0";
    assert!(turns_from(&rules, fen, "e2>e8").len() == 1);
    let relayed = turns_from(&rules, with_keeper, "e2>e8");
    assert!(!relayed.is_empty() && relayed.keys().all(|k| k.starts_with("e2>e8 e8>")));
}

#[test]
fn mathicasa_pieces_capture_only_the_ball() {
    // The post speaks only of capturing the ball: a rook facing an enemy rook on an open file
    // cannot take it, and the first turn of the game kicks nothing (no piece reaches e4).
    let rules = load("mathicasa").unwrap().rules;
    let rooks = turns_from(&rules, "r3k3/8/8/8/4o3/8/8/R3K3 w 0", "Ra1-a8");
    assert!(rooks.is_empty(), "{rooks:?}");
    let start = Position::start(&rules);
    let turns = legal_turns_unbounded(&start);
    assert!(turns.iter().all(|t| !t.to_string().contains('>')));
    // Rooks 6 + 6, knights 3 + 3, bishops 7 + 7, the queen 13, the king 3: chess's moves on
    // an empty second rank.
    assert_eq!(turns.len(), 48);
}

// Ogneva's Football Chess (2014), held to its competition paper (variants/ogneva-2014.toml
// quotes it), one position at a time. No other implementation of it is public.

#[test]
fn ogneva_the_arrangement_stage_moves_each_piece_once_within_its_half() {
    // "the players take turns to move until seven moves have been completed - one move by each
    // piece. Capturing is forbidden at this stage. Pieces can move to any unoccupied square on
    // their own side of the board together with the centre squares."
    let rules = load("ogneva-2014").unwrap().rules;
    let start = Position::start(&rules);
    assert!(start.arranging());
    let own_half = |s: &str| {
        let rank: u32 = s[1..].parse().unwrap();
        rank <= 4 || s == "d5" || s == "e5"
    };
    for turn in legal_turns_unbounded(&start) {
        let long = turn.to_string();
        assert!(!long.contains('x') && !long.contains('>'), "{long}");
        assert!(own_half(&long[long.len() - 2..]), "{long}");
    }
    // The queen goes to d5, a centre square on Black's side; Black answers on its own half.
    let q = resolve(&start, "Qd5").unwrap();
    let after = play_unchecked(&start, &q);
    assert_eq!(after.fen(), "rnbq1bnr/8/8/3Q4/4a3/8/8/RNB2BNR b 1 - - a1b1c1f1g1h1a8b8c8d8f8g8h8");
    // Black may not take the queen on d5 during the stage, nor go beyond its half.
    let black: Vec<String> = legal_turns_unbounded(&after).iter().map(|t| t.to_string()).collect();
    assert!(black.iter().all(|t| !t.contains('x')), "{black:?}");
    assert!(black.iter().any(|t| t == "Qd8-d6") && !black.iter().any(|t| t.ends_with("d3")));
    // The queen has made its move: White's next turn moves another piece.
    let after = play_unchecked(&after, &resolve(&after, "Nc6").unwrap());
    let white: Vec<String> = legal_turns_unbounded(&after).iter().map(|t| t.to_string()).collect();
    assert!(white.iter().all(|t| !t.starts_with("Qd5")), "{white:?}");
}

#[test]
fn ogneva_play_begins_after_seven_moves_each() {
    let rules = load("ogneva-2014").unwrap().rules;
    let mut pos = Position::start(&rules);
    // Each side moves its seven pieces once.
    let script = [
        "Nc3", "Nc6", "Nf3", "Nf6", "Ba3", "Ba6", "Bh3", "Bh6", "Qd3", "Qd6", "Rab1", "Rab8",
        "Rhg1", "Rhg8",
    ];
    for name in script {
        assert!(pos.arranging(), "{name}: the stage ended early");
        let turn = resolve(&pos, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        pos = play_unchecked(&pos, &turn);
    }
    assert!(!pos.arranging());
    assert!(pos.fen().ends_with(" w 14 - - -"), "{}", pos.fen());
    // "After the Arrangement Stage, capturing capability is restored": the queen on d3 takes
    // the queen on d6.
    assert!(resolve(&pos, "Qxd6").is_ok());
    // "To move the ball, it is necessary to occupy the same square as the ball": the knight
    // on c3 takes it on e4 and holds it (written with its holder letter).
    let took = play_unchecked(&pos, &resolve(&pos, "Ne4").unwrap());
    assert!(
        took.ball_held() && took.ball().is_some_and(|b| b.to_string() == "e4"),
        "{}",
        took.fen()
    );
    assert!(took.fen().contains("4O3"), "{}", took.fen());
}

#[test]
fn ogneva_the_holder_is_captured_for_the_ball_and_scores_in_the_goal_area() {
    let rules = load("ogneva-2014").unwrap().rules;
    // "To obtain the ball, the opponent must capture the controlling piece which is then
    // removed from the board": Black's rook on e8 takes White's holder on e4 and holds it.
    let fen = "4r3/8/8/8/4O3/8/8/3R4 b 20 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Rxe4").unwrap());
    assert_eq!(after.fen(), "8/8/8/8/4u3/8/8/3R4 w 21 - - -");
    // The ball stays with its holder: no pass to a friend.
    let fen = "8/8/8/8/4O3/8/4R3/8 w 20 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    assert!(legal_turns_unbounded(&pos).iter().all(|t| !t.to_string().contains("e4e2")));
    // "Scoring a goal is achieved by moving the ball into the goal area. It does not matter if
    // the opponent's pieces are occupying the goal area - they are captured": White's holder
    // on e6 takes Black's rook on e8 and wins at once (a golden goal).
    let fen = "4r3/8/4U3/8/8/8/8/8 w 20 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let goal = play_unchecked(&pos, &resolve(&pos, "Rxe8").unwrap());
    assert!(goal.is_goal(), "{}", goal.fen());
    assert_eq!(goal.outcome().and_then(|o| o.winner()), Some(kickoff::Side::White));
    // Into White's own goal area it scores nothing.
    let fen = "8/8/8/8/8/4U3/8/8 w 20 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let back = play_unchecked(&pos, &resolve(&pos, "Re1").unwrap());
    assert!(!back.is_goal());
}

#[test]
fn ogneva_each_game_puts_the_ball_on_another_centre_square() {
    // "The ball ... is located on one of the centre (e4, d4, e5, d5) squares. Each time the
    // game is played the ball must be placed on a different centre square": four setups.
    let rules = load("ogneva-2014").unwrap().rules;
    let random = rules.random_setup().unwrap();
    assert_eq!(kickoff::setup::count(&rules, random), 4);
    let balls: Vec<String> = (0..4)
        .map(|n| {
            let number = kickoff::setup::SetupNumber { white: n, black: None };
            let pos = kickoff::setup::position(&rules, random, number).unwrap();
            assert!(pos.arranging(), "every setup begins with the arrangement stage");
            assert_eq!(pos.placement().pieces, rules.start().pieces);
            pos.ball().map(|b| b.to_string()).unwrap_or_default()
        })
        .collect();
    assert_eq!(balls, ["d4", "e4", "d5", "e5"]);
    // The paper's diagram, the ball on e4, is setup 1.
    let start = kickoff::setup::start_number(&rules, random).unwrap();
    assert_eq!(start.to_string(), "1");
}

// Orsi's Chess Football, held to the description of its app (variants/orsi-chess-football.toml
// quotes it), one position at a time. No other implementation of it is public.

#[test]
fn orsi_each_side_drafts_three_pieces_of_thirteen_and_places_them() {
    // "Each player has 6 pieces, the King, 2 pawns and three pieces chosen from the other 13
    // available": the start holds the king and the pawns, the hands the other thirteen.
    let rules = load("orsi-chess-football").unwrap().rules;
    let start = Position::start(&rules);
    assert!(start.placing());
    assert_eq!(start.to_place(kickoff::Side::White), 3);
    assert_eq!(start.hand(kickoff::Side::Black).len(), 13);
    assert_eq!(start.fen(), "4k3/3pp3/8/8/4a3/8/3PP3/4K3 w 0 - - QRRBBNNPPPPPPqrrbbnnpppppp");
    // Each of the five kinds of the hand on each of the 13 empty squares of the first two ranks.
    let turns = legal_turns_unbounded(&start);
    assert_eq!(turns.len(), 5 * 13);
    let all: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
    assert!(
        all.iter().all(|t| t.contains('@') && (t.ends_with('1') || t.ends_with('2'))),
        "{all:?}"
    );
    // White drafts a queen, a rook and a knight; Black two bishops and a pawn.
    let mut pos = start;
    let mut left = Vec::new();
    for name in ["Q@d1", "B@c8", "R@a1", "B@f8", "N@g1", "P@c7"] {
        assert!(pos.placing(), "{name}: the draft ended early");
        pos = play_unchecked(&pos, &resolve(&pos, name).unwrap_or_else(|e| panic!("{name}: {e}")));
        left.push(kickoff::Side::ALL.map(|side| pos.to_place(side)));
    }
    // What each side still places after each placement: White has placed all of its three
    // while Black still places its last.
    assert_eq!(left, [[2, 3], [2, 2], [1, 2], [1, 1], [0, 1], [0, 0]]);
    // The draft is over: the ten pieces left in each hand stay out of the game, and White
    // plays first.
    assert!(!pos.placing());
    assert_eq!(pos.fen(), "2b1kb2/2ppp3/8/8/4a3/8/3PP3/R2QK1N1 w 6 - - -");
    assert!(resolve(&pos, "Nf3").is_ok() && resolve(&pos, "R@b1").is_err());
}

#[test]
fn orsi_only_the_holder_is_captured_and_its_capturer_takes_the_ball() {
    // "It is only possible to capture pieces that have possession of the ball, and in this case
    // you gain possession of the ball with your own piece in the square previously occupied by
    // the opponent."
    let rules = load("orsi-chess-football").unwrap().rules;
    // White's knight on c3 may not take Black's rook on d5, which does not hold the ball ...
    let fen = "4k3/8/8/3r4/8/2N5/8/4K1a1 w 10 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    assert!(resolve(&pos, "Nxd5").is_err());
    assert!(resolve(&pos, "Nd5").is_err(), "a piece never moves onto another");
    // ... but takes it when it holds the ball, and holds the ball on d5.
    let fen = "4k3/8/8/3u4/8/2N5/8/4K3 w 10 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Nxd5").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/3O4/8/8/8/4K3 b 11 - - -");
}

#[test]
fn orsi_pieces_pass_by_their_moves_and_pawns_diagonally_forward() {
    // "It is possible to pass the ball according to the possibility of movement of the piece";
    // "the pawn can pass the ball on the squares located immediately in front of them
    // diagonally".
    let rules = load("orsi-chess-football").unwrap().rules;
    // The pawn on d4 holds the ball: it passes to the bishop on e5 (diagonally in front), not
    // to the rook on d5 (straight ahead) nor to the knight on c3 (behind).
    let fen = "4k3/8/8/3RB3/3S4/2N5/8/4K3 w 10 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let passes: Vec<String> = legal_turns_unbounded(&pos)
        .iter()
        .map(|t| t.to_string())
        .filter(|t| t.starts_with("Pd4~"))
        .collect();
    assert_eq!(passes, ["Pd4~e5"]);
    // The rook on d5 holding the ball passes along its lines to the bishop on e5 beside it.
    let fen = "4k3/8/8/3UB3/8/8/8/4K3 w 10 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, ">e5").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/3RC3/8/8/8/4K3 b 11 - - -");
}

#[test]
fn orsi_the_holder_on_the_four_square_goal_wins() {
    // "The aim of the game is to score in a goal of 4 squares defended by the King": White's
    // holder on c7 steps onto c8 and wins; Black's king defends f8, and may stand in it.
    let rules = load("orsi-chess-football").unwrap().rules;
    let fen = "5k2/2U5/8/8/8/8/8/4K3 w 10 - - -";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let goal = play_unchecked(&pos, &resolve(&pos, "Rc8").unwrap());
    assert_eq!(goal.outcome().and_then(|o| o.winner()), Some(kickoff::Side::White));
    // b8 is not part of the goal.
    let wide = play_unchecked(&pos, &resolve(&pos, "Rb7").unwrap());
    assert!(!wide.is_goal());
}

#[test]
fn correa_perft_agrees_with_the_games_own_engine() {
    // Counted by the game's own rule engine (tests/data/reference/correa-perft.json says how):
    // the start, and positions where goals, resets and the end of the match come within three
    // turns.
    let cases = perft_cases("tests/data/reference/correa-perft.json", "nodes");
    assert_eq!(cases.len(), 12);
    // A sequence that ends the match ends there and counts one (the default, not `exact`).
    check_perft("footballchess-correa", &cases, 2_000_000, PerftOptions::default());
}

#[test]
fn correa_a_piece_that_ends_its_move_on_the_goal_scores_and_the_board_resets() {
    // "A goal is scored when any piece ends its move on a goal square of the opponent. All
    // pieces can score goals": a defender steps from d11 onto d12. "After each goal the board is
    // reset to the starting position and the player who conceded moves first."
    let rules = load("footballchess-correa").unwrap().rules;
    let fen = "cdd2ddc/2mDmm2/2f2f2/8/8/8/8/8/8/2F2F2/2MMMM2/CDD2D1C w 6 0-0";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Dd12#").unwrap());
    assert_eq!(after.score(), [1, 0]);
    assert_eq!(after.placement().pieces, rules.start().pieces);
    assert_eq!(after.side(), kickoff::Side::Black);
    assert_eq!(after.ball(), None, "there is no ball");
    // Stepping onto e12 scores as well; onto e11 (a capture) it does not.
    assert_eq!(play_unchecked(&pos, &resolve(&pos, "De12#").unwrap()).score(), [1, 0]);
    assert_eq!(play_unchecked(&pos, &resolve(&pos, "Dxe11").unwrap()).score(), [0, 0]);
}

#[test]
fn correa_no_piece_ends_its_move_on_its_own_goal_but_may_cross_it() {
    // "You cannot end your move inside your own goal": the forward on a1 slides along rank 1
    // over d1 and e1 to f1, g1 and h1, but stops on neither; Black's forward likewise on rank 12.
    let rules = load("footballchess-correa").unwrap().rules;
    let along = |side: &str, rank: &str| -> Vec<String> {
        let fen = format!("f7/8/8/8/8/8/8/8/8/8/8/F7 {side} 0 0-0");
        let pos = Position::from_fen(&rules, &fen).unwrap();
        let mut all = names(&pos, &legal_turns_unbounded(&pos));
        all.retain(|t| t[2..] == *rank);
        all.sort();
        all
    };
    assert_eq!(along("w", "1"), ["Fb1", "Fc1", "Ff1", "Fg1", "Fh1"]);
    assert_eq!(along("b", "12"), ["Fb12", "Fc12", "Ff12", "Fg12", "Fh12"]);
}

#[test]
fn correa_a_piece_captures_by_replacement() {
    // The game's own test "captures opponent piece": a forward on d6 takes the defender on d8.
    let rules = load("footballchess-correa").unwrap().rules;
    let pos = Position::from_fen(&rules, "8/8/8/8/3d4/8/3F4/8/8/8/8/8 w 0 0-0").unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Fxd8").unwrap());
    assert_eq!(after.fen(), "8/8/8/8/3F4/8/8/8/8/8/8/8 b 1 0-0");
}

#[test]
fn correa_the_third_goal_wins_the_match() {
    // "You win the game when you reach the number of goals chosen" (3 by default).
    let rules = load("footballchess-correa").unwrap().rules;
    let fen = "cdd2ddc/2m1mm2/3F1f2/8/8/8/8/8/8/2f2F2/2MM1M2/CDD2DDC w 10 2-1";
    let pos = Position::from_fen(&rules, fen).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Fd12#").unwrap());
    assert_eq!(after.score(), [3, 1]);
    assert_eq!(after.outcome().and_then(|o| o.winner()), Some(kickoff::Side::White));
    assert!(legal_turns_unbounded(&after).is_empty(), "the match is over");
}

#[test]
fn skunne_perft_agrees_with_the_games_own_engine() {
    // Counted by the game's canonical engine (tests/data/reference/skunne-perft.json says how):
    // the start to depth 4, and 232 positions of random games at depth 3, 151 of them just
    // after a tackle (whose answer is barred).
    let cases = perft_cases("tests/data/reference/skunne-perft.json", "nodes");
    assert_eq!(cases.len(), 237);
    check_perft("skunne-chessball", &cases, 2_000_000, PerftOptions::default());
}

#[test]
#[ignore = "depth 5 (10,191,338) takes a second"]
fn skunne_deep_perft_agrees_with_the_games_own_engine() {
    let cases = perft_cases("tests/data/reference/skunne-perft.json", "nodes");
    check_perft("skunne-chessball", &cases, 100_000_000, PerftOptions::default());
}

/// The names of the turns of the piece on `square` in `fen`, sorted.
fn skunne_turns_of(fen: &str, square: &str) -> Vec<String> {
    let rules = load("skunne-chessball").unwrap().rules;
    let pos = Position::from_fen(&rules, fen).unwrap();
    let turns = legal_turns_unbounded(&pos);
    let from = |t: &kickoff::movegen::Turn| match t.actions.first() {
        Some(kickoff::movegen::Action::Move(m)) => m.from.to_string(),
        Some(kickoff::movegen::Action::Kick(k)) => k.kicker.to_string(),
        None => String::new(),
    };
    let mut out: Vec<String> = turns
        .iter()
        .zip(names(&pos, &turns))
        .filter(|(t, _)| from(t) == square)
        .map(|(t, name)| format!("{name} {}", play_unchecked(&pos, t).fen()))
        .collect();
    out.sort();
    out
}

#[test]
fn skunne_a_push_moves_the_pusher_onto_the_ball_and_the_ball_one_square_on() {
    // "the piece moves into the ball's previous square; the ball moves one square farther in
    // the same direction", not into a touch zone (a2-a5, g2-g5) and not onto a piece.
    let start = "1d1d1d1/2a1a2/7/3o3/2A1A2/1D1D1D1 w 0 -";
    let c2 = skunne_turns_of(start, "c2");
    let pushes: Vec<&String> = c2.iter().filter(|t| t.starts_with('>')).collect();
    assert_eq!(pushes, [">e4 1d1d1d1/2a1a2/4o2/3A3/4A2/1D1D1D1 b 1 -"], "{c2:?}");
    // The ball on b3: a push west from c3 would put it in the touch zone a3.
    let side = skunne_turns_of("7/7/7/1oA4/7/7 w 0 -", "c3");
    assert!(side.iter().all(|t| !t.contains(">a3")), "{side:?}");
    assert!(side.iter().all(|t| !t.starts_with('>')), "no other push lines up: {side:?}");
    // An own goal counts: White pushes the ball onto its own goal line and Black wins.
    let rules = load("skunne-chessball").unwrap().rules;
    let pos = Position::from_fen(&rules, "7/7/7/7/3A3/3o3 w 0 -").unwrap();
    assert!(pos.is_goal(), "the ball already on rank 1 is a goal for Black");
    let pos = Position::from_fen(&rules, "7/7/7/3A3/3o3/7 w 0 -").unwrap();
    let own = play_unchecked(&pos, &resolve(&pos, ">d1").unwrap());
    assert_eq!(own.outcome().and_then(|o| o.winner()), Some(kickoff::Side::Black));
}

#[test]
fn skunne_a_defender_tackles_and_its_victim_may_not_answer_at_once() {
    // "the defender moves into the opponent piece's square; the opponent piece is pushed one
    // square farther in the same direction; the ball does not move".
    let tackled = skunne_turns_of("7/7/5o1/3a3/3D3/7 w 0 -", "d2");
    assert!(tackled.contains(&"Dxd3 7/7/3a1o1/3D3/7/7 b 1 d3d4".to_owned()), "{tackled:?}");
    // "the tackled attacker may not immediately jump back over that defender".
    let attacker = skunne_turns_of("7/7/3a1o1/3D3/7/7 b 1 d3d4", "d4");
    assert!(attacker.iter().all(|t| !t.starts_with("Ad2")), "{attacker:?}");
    assert!(skunne_turns_of("7/7/3a1o1/3D3/7/7 b 1 -", "d4").iter().any(|t| t.starts_with("Ad2")));
    // "the tackled defender may not immediately tackle back through that defender".
    let defender = skunne_turns_of("7/7/3d1o1/3D3/7/7 b 1 d3d4", "d4");
    assert!(defender.iter().all(|t| !t.starts_with("Dxd3")), "{defender:?}");
    let free = skunne_turns_of("7/7/3d1o1/3D3/7/7 b 1 -", "d4");
    assert!(free.contains(&"Dxd3 7/7/5o1/3d3/3D3/7 w 2 d3d2".to_owned()), "{free:?}");
    // No tackle where the square beyond is taken (here by the ball), and attackers never tackle.
    assert!(skunne_turns_of("7/7/3o3/3a3/3D3/7 w 0 -", "d2").iter().all(|t| !t.contains('x')));
    assert!(skunne_turns_of("7/5o1/7/3a3/3A3/7 w 0 -", "d2").iter().all(|t| !t.contains('x')));
}

#[test]
fn skunne_an_attacker_jumps_over_a_piece_or_the_ball() {
    // "the adjacent square is occupied by either a piece or the ball; the landing square is
    // empty": the attacker on c2 jumps over the ball on d3 to e4 (its own defender on c1 has
    // no square beyond it), over an enemy too; a defender never jumps.
    let a = skunne_turns_of("7/7/7/3o3/2A4/2D4 w 0 -", "c2");
    assert!(a.contains(&"Ae4 7/7/4A2/3o3/7/2D4 b 1 -".to_owned()), "{a:?}");
    let d = skunne_turns_of("7/7/7/3o3/2D4/2A4 w 0 -", "c2");
    assert!(d.iter().all(|t| !t.starts_with("De4")), "{d:?}");
    let over_enemy = skunne_turns_of("7/7/7/2a1o2/2A4/7 w 0 -", "c2");
    assert!(over_enemy.iter().any(|t| t.starts_with("Ac4 ")), "{over_enemy:?}");
}

/// The pieces of `defaults` (square, letter) with those of `pieces` added or removed
/// (`"f8=U d11=p"`: a letter, or `.` for none).
fn placed(defaults: &[(&str, char)], pieces: &str) -> BTreeMap<String, char> {
    let mut at: BTreeMap<String, char> = defaults.iter().map(|&(s, c)| (s.to_owned(), c)).collect();
    for item in pieces.split_whitespace() {
        let (square, letter) = item.split_once('=').unwrap();
        match letter.chars().next().unwrap() {
            '.' => at.remove(square),
            c => at.insert(square.to_owned(), c),
        };
    }
    at
}

/// The board field of a position: the letters of `at` on a board of `files` by `ranks`, with
/// holes where `hole(file index, rank)` says.
fn board_text(
    at: &BTreeMap<String, char>,
    files: &str,
    ranks: u32,
    hole: impl Fn(usize, u32) -> bool,
) -> String {
    let mut rows = Vec::new();
    for rank in (1..=ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for (i, file) in files.chars().enumerate() {
            let piece =
                if hole(i, rank) { Some('*') } else { at.get(&format!("{file}{rank}")).copied() };
            if let Some(c) = piece {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// A position of tulaanh's ChessFootball from its pieces (`"f8=U d11=p"`: White upper case,
/// a holder by its holder letter, `.` for none), the goalkeepers on f2 and f14 unless said
/// otherwise, White to move.
fn tulaanh(pieces: &str) -> String {
    let at = placed(&[("f2", 'K'), ("f14", 'k')], pieces);
    let hole = |i: usize, rank: u32| (rank == 1 || rank == 15) && !(4..=6).contains(&i);
    format!("{} w 0 0-0 - -", board_text(&at, "abcdefghijk", 15, hole))
}

/// Every turn of `fen` in tulaanh's ChessFootball, by long form, with the position it leads to.
fn tulaanh_turns(fen: &str) -> BTreeMap<String, String> {
    let rules = load("tulaanh-chessfootball").unwrap().rules;
    let pos = Position::from_fen(&rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns_unbounded(&pos);
    turns.iter().map(|t| (t.to_string(), play_unchecked(&pos, t).fen())).collect()
}

/// The squares the holder on `from` shoots to in `fen` (turns of one shot).
fn tulaanh_shots(fen: &str, from: &str) -> Vec<String> {
    let prefix = format!("{from}>");
    let shots: BTreeSet<String> = tulaanh_turns(fen)
        .into_keys()
        .filter(|t| t.starts_with(&prefix) && !t.contains(' '))
        .map(|t| t[prefix.len()..].to_owned())
        .collect();
    shots.into_iter().collect()
}

#[test]
fn tulaanh_the_pitch_the_line_ups_and_the_ball_on_the_centre_spot() {
    // The engine's 11x13 pitch with its three-square goals beyond each end, eleven a side in
    // a 4-4-2, the ball on the centre spot, White first.
    let rules = load("tulaanh-chessfootball").unwrap().rules;
    let start = Position::start(&rules);
    assert_eq!(
        start.fen(),
        "****3****/5k5/11/1p1p3p1p1/11/1c2b1b2r1/4n1q4/5a5/4N1Q4/1R2B1B2R1/11/1P1P3P1P1/11/5K5/****3**** w 0 0-0 - -"
    );
    // The goal squares lie beyond the end line, and nothing else does: the goalkeeper on e2
    // steps into its goal on e1 or f1, never to d1.
    let keeper = tulaanh_turns(&tulaanh("f2=. e2=K i8=a"));
    let steps: BTreeSet<&str> =
        keeper.keys().filter(|t| t.starts_with("Ke2-")).map(|t| &t[4..6]).collect();
    assert_eq!(steps, ["d2", "d3", "e1", "e3", "f1", "f2", "f3"].into_iter().collect());
}

#[test]
fn tulaanh_two_action_points_to_move_or_shoot() {
    // "2 AP a turn: move or shoot"; "both points for the same piece, or one each for two".
    let rules = load("tulaanh-chessfootball").unwrap().rules;
    let start = Position::start(&rules);
    let play = |names: &str| {
        resolve(&start, names).map(|t| play_unchecked(&start, &t).fen()).map_err(|e| e.to_string())
    };
    // The queen takes the ball on f8 and shoots it up the file as far as f13, before Black's
    // goalkeeper; or takes it and steps on with it; a third action never comes.
    assert_eq!(
        play("Qf8>f13").unwrap(),
        "****3****/5k5/5a5/1p1p3p1p1/11/1c2b1b2r1/4n1q4/5Q5/4N6/1R2B1B2R1/11/1P1P3P1P1/11/5K5/****3**** b 1 0-0 - -"
    );
    assert!(play("Qf8>f14").is_err(), "the ball stops before the goalkeeper");
    assert!(play("Qf8Qe8").is_ok(), "the same piece acts twice");
    assert!(play("Qf8Qe8>e5").is_err(), "a third action");
    assert!(play("Nd5Qh8").is_ok(), "two pieces, one action each");
    // Every turn is one action or two: 168 of the start's begin by the queen's take.
    let turns = tulaanh_turns(&start.fen());
    assert_eq!(turns.keys().filter(|t| t.starts_with("Qg7-f8")).count(), 168);
    assert!(turns.keys().all(|t| t.split(' ').count() <= 2), "at most two actions");
}

#[test]
fn tulaanh_each_piece_shoots_by_its_own_pattern() {
    // "Rook: shoots straight and long": the holder on d8 shoots along its rank and file, up to
    // the pawn on d11, and passes to its pawn on h8.
    let rook = tulaanh_shots(&tulaanh("d8=U d11=p h8=P"), "d8");
    let expected = ["a8", "b8", "c8", "d10", "d2", "d3", "d4", "d5", "d6", "d7", "d9", "e8", "f8"];
    assert_eq!(rook, expected.iter().chain(&["g8", "h8"]).copied().collect::<Vec<_>>());
    // "Bishop: shoots diagonally".
    let bishop = tulaanh_shots(&tulaanh("f8=V"), "f8");
    assert_eq!(bishop.len(), 5 + 5 + 5 + 5, "{bishop:?}");
    assert!(bishop.iter().all(|s| {
        let file = i32::from(s.as_bytes()[0]) - i32::from(b'f');
        let rank = s[1..].parse::<i32>().unwrap() - 8;
        file.abs() == rank.abs()
    }));
    // "Knight: lobs the ball over the wall": over the eight pieces around it, to every empty
    // square within a radius of three.
    let walled = tulaanh("f8=O e7=b f7=p g7=b e8=p g8=p e9=p f9=p g9=p");
    let knight = tulaanh_shots(&walled, "f8");
    assert_eq!(knight.len(), 28, "{knight:?}");
    assert!(["f11", "i9", "h10", "c7", "f5"].iter().all(|s| knight.contains(&(*s).to_owned())));
    // "Cannon: fires over one piece as a screen": over the pawn on f10 up to f13, over its
    // friend on h8 to i8-k8, over the enemy on d8 to a8-c8; nowhere without a screen.
    let cannon = tulaanh_shots(&tulaanh("f8=D f10=p h8=P d8=p"), "f8");
    assert_eq!(cannon, ["a8", "b8", "c8", "f11", "f12", "f13", "i8", "j8", "k8"]);
    // "Queen: shoots in all 8 directions".
    let queen = tulaanh_shots(&tulaanh("f8=T"), "f8");
    assert!(
        ["b4", "f13", "a8", "j12", "k8", "f3"].iter().all(|s| queen.contains(&(*s).to_owned()))
    );
}

#[test]
fn tulaanh_a_tackle_steals_the_ball_and_pushes_the_holder_back() {
    // "Tackle: move into the opponent's square to steal the ball and push the opponent back 1
    // square": the knight on e7 tackles the holder on f9, which goes on to g10.
    let turns = tulaanh_turns(&tulaanh("e7=N f9=u"));
    let after = tulaanh("f9=O g10=r").replace(" w 0 ", " b 1 ");
    assert_eq!(turns.get("Ne7-f9"), Some(&after));
    // Where the square behind is taken, no tackle; a piece that does not hold the ball is
    // never tackled, and nothing is ever captured.
    assert!(!tulaanh_turns(&tulaanh("e7=N f9=u g10=p")).contains_key("Ne7-f9"));
    assert!(!tulaanh_turns(&tulaanh("e7=N f9=r f8=a")).contains_key("Ne7-f9"));
}

#[test]
fn tulaanh_a_goal_resets_the_pitch_and_two_goals_win() {
    // "Score: shoot the ball into the 3-square goal": the rook holding the ball on f11 steps to
    // e11 and shoots into e15. After a goal the line-ups come back and "the team that conceded
    // kicks off"; "the first team to score 2 goals wins".
    let rules = load("tulaanh-chessfootball").unwrap().rules;
    let pos = Position::from_fen(&rules, &tulaanh("f11=U")).unwrap();
    let after = play_unchecked(&pos, &resolve(&pos, "Re11>e15").unwrap());
    let start = Position::start(&rules).fen();
    assert_eq!(after.fen(), start.replace(" w 0 0-0", " b 1 1-0"));
    assert!(after.finished().is_none());
    let pos = Position::from_fen(&rules, &tulaanh("f11=U").replace(" 0-0 ", " 1-0 ")).unwrap();
    let won = play_unchecked(&pos, &resolve(&pos, "Re11>e15").unwrap());
    assert!(won.finished().is_some(), "{}", won.fen());
    // A holder that walks into the goal scores too; a shot into its own goal is not a shot.
    let walk = tulaanh_turns(&tulaanh("e13=U"));
    assert_eq!(walk.get("Re13-e15"), Some(&start.replace(" w 0 0-0", " b 1 1-0")));
    assert!(tulaanh_shots(&tulaanh("f4=U"), "f4").iter().all(|s| s != "f1"));
    assert!(tulaanh_shots(&tulaanh("f4=U"), "f4").contains(&"f3".to_owned()));
}

/// A position of Scriptonita's Chess.Football from its pieces (`"d10=u c8=N"`: White upper
/// case, a holder by its holder letter, `.` for none), the kings on e2 and e11 unless said
/// otherwise, White to move, then `fields` (the score, en passant, the steal, the keepers).
fn cf(pieces: &str, fields: &str) -> String {
    let at = placed(&[("e2", 'K'), ("e11", 'k')], pieces);
    format!("{} w 0 {fields}", board_text(&at, "abcdefghi", 12, |_, _| false))
}

/// The position after the turn named `names` in the shipped `variant`'s `fen`, or why it is
/// refused.
fn play_named(variant: &str, fen: &str, names: &str) -> Result<String, String> {
    let rules = load(variant).unwrap().rules;
    let pos = Position::from_fen(&rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    resolve(&pos, names).map(|t| play_unchecked(&pos, &t).fen()).map_err(|e| e.to_string())
}

/// The position after the turn named `names` in Chess.Football's `fen`, or why it is refused.
fn cf_play(fen: &str, names: &str) -> Result<String, String> {
    play_named("chess-football-2025", fen, names)
}

#[test]
fn chess_football_the_start_the_areas_and_the_kings() {
    // The engine's start: White's queen holds the ball on e6 and serves.
    let rules = load("chess-football-2025").unwrap().rules;
    let start = Position::start(&rules);
    let fen = start.fen();
    assert_eq!(fen, "9/r3k3r/3b1n3/9/2n3b2/4q4/4T4/2N3B2/9/3B1N3/R3K3R/9 w 0 0-0 - - -");
    // "The king can only move within its own area" (c1-g2): from e2, to d1, e1, f1, d2, f2.
    for (to, ok) in [("d1", true), ("e1", true), ("f2", true), ("e3", false)] {
        assert_eq!(cf_play(&fen, &format!("K{to}")).is_ok(), ok, "Ke2-{to}");
    }
    // "No other piece of the same team can enter its own area", but a slide passes through it
    // (the engine's code): the rook on a2 reaches h2 over c2-g2, not d2; the king on e1.
    let open = cf("e2=. e1=K a2=R i5=a", "0-0 - - -");
    assert!(cf_play(&open, "Rh2").is_ok());
    assert!(cf_play(&open, "Rd2").is_err() && cf_play(&open, "Rb2").is_ok());
    // "The king is untouchable": a rook may not move onto it, even holding the ball.
    let king = cf("e11=j e5=R", "0-0 - - -");
    assert!(cf_play(&king, "Rxe11").is_err() && cf_play(&king, "Re10").is_ok());
}

#[test]
fn chess_football_passes_interceptions_and_goals() {
    // "A pass aimed beyond the king in a straight line is also a goal": the queen on e6 passes
    // up the file over her own knight on e8; the black king on e11 is the first rival. After
    // the goal the board is reset and the conceding side's queen serves.
    let goal = cf("e6=T e8=N", "0-0 - - -");
    assert_eq!(
        cf_play(&goal, ">e11#").unwrap(),
        "9/r3k3r/3b1n3/9/2n3b2/4t4/4Q4/2N3B2/9/3B1N3/R3K3R/9 b 1 1-0 - - -"
    );
    // "The rival piece closest to the passer intercepts the ball" and the turn ends at once.
    let cut = cf("e6=T e9=b", "0-0 - - -");
    let after = cf_play(&cut, ">e9").unwrap();
    assert!(after.contains("/4d4/") && after.contains(" b 1 "), "{after}");
    assert!(cf_play(&cut, ">e9Ke1").is_err(), "nothing after an interception");
    // "Knight passes cannot be intercepted": the knight on e6 passes over the bishop on e7 to
    // its teammate on f8.
    let leap = cf("e6=O e7=b f8=R", "0-0 - - -");
    assert!(cf_play(&leap, ">f8").unwrap().contains("5U3"), "the rook on f8 holds the ball");
    // Five action points: five pieces move once each, and nothing more.
    let start = Position::start(&load("chess-football-2025").unwrap().rules).fen();
    assert!(cf_play(&start, "Qd5Ra3Ri3Bc4Nh4").is_ok());
    assert!(cf_play(&start, "Qd5Ra3Ri3Bc4Nh4Nd7").is_err(), "a sixth action");
    assert!(cf_play(&start, "Qd5Qd4").is_err(), "a piece moves once a turn");
}

#[test]
fn chess_football_tackles_sweeps_and_offside() {
    // "Tackle": the rook on b5 moves onto the holder on e5, which is displaced right, left,
    // up, then down: to f5; with f5 taken, to d5.
    let tackle = cf("b5=R e5=u", "0-0 - - -");
    assert!(cf_play(&tackle, "Rxe5").unwrap().contains("/4Ur3/"), "pushed right to f5");
    let left = cf("b5=R e5=u f5=n", "0-0 - - -");
    assert!(cf_play(&left, "Rxe5").unwrap().contains("/3rUn3/"), "then left to d5");
    // Decided: a holder is not pushed into its own area. The knight on c8 tackles the rook on
    // d10 whose right, left and lower squares are taken: the engine's code pushes it up to
    // d11, in Black's area; kickoff refuses the tackle.
    let area = cf("c8=N d10=u e10=b c10=n d9=n", "0-0 - - -");
    assert_eq!(area, "9/4k4/2nub4/3n5/2N6/9/9/9/9/9/4K4/9 w 0 0-0 - - -", "docs/rules.md's");
    assert!(cf_play(&area, "Nxd10").is_err());
    // With d9 free the holder goes down there.
    let down = cf("c8=N d10=u e10=b c10=n", "0-0 - - -");
    assert!(cf_play(&down, "Nxd10").unwrap().contains("/2nOb4/3r5/"));
    // "Path capture": the rook on a4 rides over the loose ball on d4 to g4 and holds it there.
    let sweep = cf("a4=R d4=a", "0-0 - - -");
    assert!(cf_play(&sweep, "Rg4").unwrap().contains("/6U2/"), "the rook holds the ball on g4");
    // Offside: the rook that ends its turn with the ball in Black's area (c11-g12) loses it to
    // the black king; leaving the area before the turn ends keeps it.
    let offside = cf("d7=U", "0-0 - - -");
    let after = cf_play(&offside, "Rd12").unwrap();
    assert!(after.starts_with("3R5/4j4/"), "{after}");
    assert!(cf_play(&offside, "Rd12Kd1").unwrap().starts_with("3R5/4j4/"));
}

#[test]
fn chess_football_the_king_keeps_the_ball_one_turn() {
    // "If the king ends the turn holding the ball, the flag king must release is set" (`R`).
    let hold = cf("e2=J", "0-0 - - -");
    assert!(cf_play(&hold, "Kd2").unwrap().ends_with(" R"));
    // On the next turn, a move that leaves one action point ends it: the ball is released
    // beside the king, up first (d3), and its teammates may not pass it back (`P`).
    let bound = cf("e2=J a5=R i5=R c5=N", "0-0 - - R");
    let released = cf_play(&bound, "Ra6Ri6Nb7Kd2").unwrap();
    assert!(released.contains("/3a5/3K5/") && released.ends_with(" P"), "{released}");
    assert!(cf_play(&bound, "Ra6Ri6Nb7Kd2>d3").is_err(), "the last point is the release");
    // A pass by the king clears the flag, and blocks a pass back to it.
    let passed = cf_play(&bound, ">e3").unwrap();
    assert!(passed.ends_with(" P"), "{passed}");
    let back = cf("e2=K e4=T", "0-0 - - P");
    assert!(cf_play(&back, ">e2").is_err() && cf_play(&back, ">e3").is_ok());
}

/// A position of xfutebol from its pieces (`"e4=B d5=d"`: White upper case, a holder by its
/// holder letter, `.` for none), the goalkeepers on d1 and d8 unless said otherwise, White to
/// move; the ball must be placed (free `o`, or held).
fn xf(pieces: &str) -> String {
    let at = placed(&[("d1", 'G'), ("d8", 'g')], pieces);
    format!("{} w 0 0-0", board_text(&at, "abcdefgh", 8, |_, _| false))
}

/// The position after the turn named `names` in xfutebol's `fen`, or why it is refused.
fn xf_play(fen: &str, names: &str) -> Result<String, String> {
    play_named("xfutebol", fen, names)
}

#[test]
fn xfutebol_the_start_and_each_role_s_movement() {
    // "The standard initial arrangement of the pieces and the ball".
    let rules = load("xfutebol").unwrap().rules;
    let start = Position::start(&rules).fen();
    assert_eq!(start, "3g4/2d1d1d1/3m2m1/4oa2/4A3/3M2M1/2D1D1D1/3G4 w 0 0-0 - -");
    // Each role moves by its own pattern (two moves make a turn, so each is followed by the
    // goalkeeper's step aside).
    let roles = [
        // "Defenders move 1 square forward, 1 to the sides, and 2 squares backward."
        ("D", &["d5", "c4", "e4", "d3", "d2"][..], &["d6", "c5", "b4", "f4"][..]),
        // "Midfielders can move 2 squares to the sides, 1 forward, and 1 backward."
        ("M", &["d5", "d3", "c4", "b4", "e4", "f4"], &["d6", "d2", "a4", "c5"]),
        // "Attackers can move 2 squares forward, 1 backward, and 1 to the sides."
        ("A", &["d5", "d6", "d3", "c4", "e4"], &["d2", "b4", "c5"]),
    ];
    for (letter, yes, no) in roles {
        let fen = xf(&format!("d4={letter} h5=o"));
        for to in yes {
            assert!(xf_play(&fen, &format!("{letter}{to}Gc1")).is_ok(), "{letter}d4-{to}");
        }
        for to in no {
            assert!(xf_play(&fen, &format!("{letter}{to}Gc1")).is_err(), "{letter}d4-{to}");
        }
    }
    // "Attackers ... can sprint up to 4 squares in the direction of the opponent's goal area":
    // d7, beyond its moves; not d8, a goal tile, without the ball.
    let sprint = xf("d4=A h5=o");
    assert!(xf_play(&sprint, "Ad7Gc1").is_ok());
    assert!(xf_play(&sprint, "Ad8Gc1").is_err());
    // "Only Goalkeepers are allowed to be positioned on the goal tiles": the goalkeeper steps
    // onto e1, a defender without the ball never onto e8.
    assert!(xf_play(&start, "Ge1").is_ok());
    assert!(xf_play(&xf("e7=D h5=o"), "De8").is_err());
}

#[test]
fn xfutebol_two_actions_at_least_one_a_move() {
    // The attacker holds the ball on e4: a move, or two, or a move and a pass, in either order;
    // a pass alone, or a sprint alone, is no turn.
    let fen = xf("e4=B");
    assert!(xf_play(&fen, "Ae5").is_ok());
    assert!(xf_play(&fen, "Ae5Ae6").is_ok());
    assert!(xf_play(&fen, "Ae5>e6").is_ok());
    assert!(xf_play(&fen, ">e6Ae5").is_ok());
    assert!(xf_play(&fen, ">e6").is_err(), "a pass alone");
    assert!(xf_play(&fen, "Ae7").is_err(), "a sprint alone");
    assert!(xf_play(&fen, "Ae7Ae8#").is_ok(), "a sprint, then a move into the goal");
    // "Two Movements per Turn": never three.
    assert!(xf_play(&fen, "Ae5Ae6Ae7").is_err());
}

#[test]
fn xfutebol_passes_interceptions_and_steals() {
    // "If it encounters a piece from the same team, a completed pass occurs": the attacker on
    // d4 passes forward to the defender on d5, not beyond it to d6.
    let pass = xf("d4=B d5=D h5=a");
    let after = xf_play(&pass, ">d5Gc1").unwrap();
    assert!(after.contains("/3F3a/"), "the defender holds the ball: {after}");
    assert!(xf_play(&pass, ">d6Gc1").is_err());
    // "If the ball encounters an opponent's piece, an interception occurs": Black's defender on
    // d5 takes the ball and White's turn is over.
    let cut = xf("d4=B d5=d");
    let after = xf_play(&cut, ">d5").unwrap();
    assert!(after.contains("/3f4/") && after.contains(" b 1 "), "{after}");
    assert!(xf_play(&cut, ">d5Gc1").is_err(), "nothing after an interception");
    // The midfielder's long pass, "uninterceptable", flies over the enemy on c4 and the friend
    // on d4 to f4, where the ball lies free.
    let long = xf("b4=N c4=d d4=D h5=a");
    let after = xf_play(&long, ">f4Gc1").unwrap();
    assert!(after.contains("/1MdD1o2/"), "the ball over both to f4: {after}");
    // "Pieces can intercept the ball by moving to a tile with an opponent's piece holding the
    // ball": the defender on e4 takes it from the attacker on e5 in place. That is its move of
    // the turn but no MOVE action, so another piece moves.
    let steal = xf("e4=D e5=b");
    assert!(xf_play(&steal, "<e5").is_err(), "the steal alone");
    assert!(xf_play(&steal, "<e5Dd4").is_err(), "the defender has made its move");
    let after = xf_play(&steal, "<e5Gc1").unwrap();
    assert!(after.contains("/4a3/4F3/"), "{after}");
    // No own goal: the defender holding the ball on c2 may not pass back into c1.
    assert!(xf_play(&xf("c2=F h5=a"), ">c1Gc1").is_err());
}

#[test]
fn xfutebol_a_dribble_and_the_goaler() {
    // The attacker holding the ball on e6, the defender on e7 in its way, dribbles over it onto
    // the goal tile e8: a goal. "A piece is promoted to a Goaler immediately after it
    // successfully scores", and the board is reset with the Goaler on the attacker's square.
    let fen = xf("e6=B e7=d");
    assert_eq!(
        xf_play(&fen, "Ae8#").unwrap(),
        "3g4/2d1d1d1/3m2m1/4oa2/4S3/3M2M1/2D1D1D1/3G4 b 1 1-0 - -"
    );
    // A defender that carries the ball in becomes the defender goaler, on the first defender's
    // square (c2) after the reset; it now moves two squares sideways and sprints.
    let fen = xf("f7=F h5=a");
    let after = xf_play(&fen, "Df8#").unwrap();
    assert_eq!(after, "3g4/2d1d1d1/3m2m1/4oa2/4A3/3M2M1/2E1D1D1/3G4 b 1 1-0 - -");
    let goaler = xf("d4=E h5=o");
    assert!(xf_play(&goaler, "Eb4Gc1").is_ok(), "two squares to the side");
    assert!(xf_play(&goaler, "Ed7Gc1").is_ok(), "a sprint");
    // The dribble is an action, not a move: alone it is no turn.
    assert!(xf_play(&xf("d4=B d5=d h5=a"), "Ad6").is_err());
    assert!(xf_play(&xf("d4=B d5=d h5=a"), "Ad6Ad7").is_ok());
}
