//! The commands on the games beyond Boyer's family: `show` draws holes, the score and a holder,
//! `validate` accepts the shipped files, and `play` takes each game's notation from standard
//! input (captures, enter kicks, interleaved moves and kicks, promotions, takes and steals),
//! writes a record that `replay` follows to the same position.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

/// Runs `cmd` with `input` on its standard input.
fn run(cmd: &mut Command, input: &str) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The line of `out` that starts with `prefix`, without it.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in:\n{out}"))
}

/// Plays `script` (one turn a line, both sides human) from `fen` or the start, then checks that
/// every turn was taken, that the record replays to the same final position, and returns the
/// record.
fn play_and_replay(variant: &str, fen: Option<&str>, script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    let mut cmd = kickoff();
    cmd.args(["play", variant, "--black", "human", "--record"]).arg(&record);
    if let Some(fen) = fen {
        cmd.args(["--fen", fen]);
    }
    let out = run(&mut cmd, script);
    let text = String::from_utf8(out.stdout).unwrap();
    let errors = String::from_utf8(out.stderr).unwrap();
    assert!(!errors.contains("error"), "{variant}: {errors}");
    let played = line_after(&text, "final position: ").to_owned();
    let mut replay = kickoff();
    replay.arg("replay").arg(&record);
    if variant.ends_with(".toml") {
        // A test's definition file, outside the record's folder.
        replay.arg("--allow-outside");
    }
    let replay = replay.output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let replayed = String::from_utf8(replay.stdout).unwrap();
    assert_eq!(line_after(&replayed, "final position: "), played, "{variant}");
    assert_eq!(line_after(&replayed, "turns: "), script.lines().count().to_string());
    let saved = std::fs::read_to_string(&record).unwrap();
    // The date changes every day, the hash with the definition's text (tests/records.rs).
    let kept = |l: &&str| !l.starts_with("[Date") && !l.starts_with("[VariantHash");
    saved.lines().filter(kept).collect::<Vec<_>>().join("\n")
}

#[test]
fn chessball_enter_kicks_in_the_terminal() {
    // An attacker steps onto the ball and kicks it; Black's goalkeeper answers along its rank.
    let record = play_and_replay("chessball-1957", None, "Sc>d4\nGb8\nSd>e4\n");
    insta::assert_snapshot!(record);
}

#[test]
fn apo_interleaves_kicks_and_a_capture() {
    // 2.: a pass to a11, the rook captures on b12, then kicks again from its new square.
    let record = play_and_replay("apo-chessball", None, "Bd8>a4\nNfe9\n>a11Rxb12>a12\nNxb12\n");
    insta::assert_snapshot!(record);
}

#[test]
fn apo_promotion_and_a_royal_capture_score() {
    // `e14=Q` (the letter left out, as chess writes it), then the king is captured: a point,
    // and the position returns to the start; the record says the score.
    let fen = "***1k1***/9/4P4/9/9/9/9/4a4/9/9/9/9/9/9/***1K1*** w 0 1-2";
    let record = play_and_replay("apo-chessball", Some(fen), "e14=Q\nKd15\nQxd15\n");
    assert!(record.contains("Qxd15# {score 2-2}"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn mathicasa_a_relay_in_a_record() {
    // The bishop captures the ball on e4 and passes to the knight on g6, which kicks it on to
    // h8; the record names both kicks and replays to the same position.
    let fen = "4k3/8/6N1/8/4o3/8/2B5/4K3 w 0";
    let record = play_and_replay("mathicasa", Some(fen), ">g6>h8\nKd8\n");
    assert!(record.contains("1. >g6>h8 Kd8"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn ogneva_the_arrangement_stage_in_a_record() {
    // Two arrangement moves each, then a record that replays with the stage under way.
    let record = play_and_replay("ogneva-2014", None, "Qd5\nNc6\nNc3\nQd6\n");
    assert!(record.contains("1. Qd5 Nc6 2. Nc3 Qd6"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn correa_a_goal_without_a_ball_in_a_record() {
    // The forward on d10 runs into the goal d12 (no ball: the piece scores); the board is set
    // up again, Black (who conceded) moves, and the record replays to the same score.
    let fen = "cdd2ddc/2m1mm2/3F1f2/8/8/8/8/8/8/2f2F2/2MM1M2/CDD2DDC w 10 1-1";
    let record = play_and_replay("footballchess-correa", Some(fen), "Fd12#\nFc8\n");
    assert!(record.contains("Fd12# {score 2-1} Fc8"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn skunne_a_tackle_and_a_push_in_a_record() {
    // The defender on d2 tackles the attacker on d3 back to d4 (the position keeps the tackle);
    // the attacker steps away; the defender pushes the ball on from e4 to f5.
    let fen = "7/7/4o2/3a3/3D3/7 w 0 -";
    let record = play_and_replay("skunne-chessball", Some(fen), "Dxd3\nAc5\n>f5\n");
    assert!(record.contains("1. Dxd3 Ac5 2. >f5"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn orsi_the_draft_in_a_record() {
    // The whole draft, three placements a side, then a move of play: the record replays it, the
    // draft part of the game.
    let script = "Q@d1\nB@c8\nR@a1\nB@f8\nN@g1\nP@c7\nNf3\n";
    let record = play_and_replay("orsi-chess-football", None, script);
    assert!(record.contains("1. Q@d1 B@c8 2. R@a1 B@f8 3. N@g1 P@c7 4. Nf3"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn tulaanh_two_actions_a_shot_and_a_tackle_in_a_record() {
    // White's queen takes the ball and shoots it to f13; Black's goalkeeper takes it and shoots
    // it to f11; the queen runs onto it (a turn of one action); the bishop on e10 tackles the
    // queen, pushed on to g12, and holds the ball: the record replays it all.
    let script = "Qf8>f13\nKf13>f11\nQf11\nBexf11\n";
    let record = play_and_replay("tulaanh-chessfootball", None, script);
    assert!(record.contains("1. Qf8>f13 Kf13>f11 2. Qf11 Bexf11"), "{record}");
    insta::assert_snapshot!(record);
}

#[test]
fn an_interception_and_a_goal_on_the_king_in_a_record() {
    // White's rook shoots up the b-file over its knight; Black's knight on b6 intercepts, and
    // its shot onto the white king on c4 is a goal, which wins this one-goal match.
    let fen = "3k1/1n3/5/1NK2/5/1U3/5 w 0 0-0 - -";
    let record = play_and_replay("tests/data/rules/intercept.toml", Some(fen), ">b6\n>c4#\n");
    assert!(record.contains("1. >b6 >c4# {score 0-1}"), "{record}");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
}

#[test]
fn a_keeper_s_release_and_an_offside_in_records() {
    // White's king keeps the ball through one turn, and at the end of the next it is released
    // beside it: the record keeps the keepers' state and replays to the same position.
    let fen = "3k1/5/5/5/5/5/1J3 w 0 0-0 - - -";
    let record = play_and_replay("tests/data/rules/keeper.toml", Some(fen), "Kc2\nKd6\nKd2\n");
    assert!(record.contains("1. Kc2 Kd6 2. Kd2"), "{record}");
    // A rook that ends its turn on the offside squares hands the ball to the black king, who
    // passes it on.
    let fen = "3k1/5/5/5/2U2/5/K4 w 0 0-0 - -";
    let record = play_and_replay("tests/data/rules/offside.toml", Some(fen), "Rc6\n>d6\n");
    assert!(record.contains("1. Rc6 >d6"), "{record}");
}

#[test]
fn the_engine_scores_on_a_goal_piece() {
    // In the game whose kings are the goals, the engine beats a random player by goals.
    let out = kickoff()
        .args(["match", "tests/data/rules/intercept.toml", "--games", "2", "--white", "engine:1"])
        .args(["--black", "random", "--max-turns", "200"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("endings: goal 2"), "{text}");
    assert!(text.contains("score 100.0%"), "{text}");
}

#[test]
fn soccer_chess_moves_several_pieces_and_enters_the_ball() {
    // Five moves; two; then a move, an attacker running onto the ball and kicking, a move.
    let script = "Bg10Bf9Ge2Se9Sg9\nSe12Sg12\nBf11Se>b14Gf2\n";
    let record = play_and_replay("soccer-chess-1998", None, script);
    insta::assert_snapshot!(record);
}

#[test]
fn ball_takes_steals_and_takes_from_a_friend() {
    // 2. the d-pawn takes the free ball; 2... Black steals it in place (`P<e5`); 3... a Black
    // piece takes the ball from its friend (`<f6`).
    let fen = "hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 - -";
    let record = play_and_replay("vchess-ball", Some(fen), "Pd4\nPf6\nPxe5\nP<e5\nNd3\n<f6\n");
    insta::assert_snapshot!(record);
}

#[test]
fn the_engine_answers_on_every_new_game() {
    for (variant, first) in [
        ("chessball-1957", "Sc>d4\n"),
        ("apo-chessball", "Bd8>a4\n"),
        ("soccer-chess-1998", "Bg10Bf9Ge2Se9Sg9\n"),
        ("vchess-ball", "Pd4\n"),
        ("mathicasa", "Nf3\n"),
        ("ogneva-2014", "Qd5\n"),
        ("footballchess-correa", "Fc5\n"),
        ("skunne-chessball", ">e4\n"),
        ("orsi-chess-football", "Q@d1\n"),
        ("tulaanh-chessfootball", "Qf8>f13\n"),
        ("chess-football-2025", "Qd5\n"),
        ("xfutebol", "Ae5Ae6\n"),
    ] {
        let mut cmd = kickoff();
        cmd.args(["play", variant, "--black", "engine:1"]);
        if variant == "vchess-ball" {
            cmd.args(["--setup", "0"]);
        }
        let out = run(&mut cmd, first);
        let text = String::from_utf8(out.stdout).unwrap();
        // The engine's reply is numbered `1...`.
        assert!(text.lines().any(|l| l.starts_with("1... ")), "{variant}:\n{text}");
    }
}

#[test]
fn show_draws_holes_the_score_and_a_holder() {
    assert_cmd_snapshot!(kickoff().args([
        "show",
        "apo-chessball",
        "--fen",
        "***1k1***/9/9/9/9/9/9/4a4/9/9/9/9/9/9/***1K1*** w 10 2-1"
    ]));
    assert_cmd_snapshot!(kickoff().args([
        "show",
        "vchess-ball",
        "--fen",
        "9/9/9/9/4S4/9/9/9/9 w 4 - -"
    ]));
}

#[test]
fn validate_the_shipped_games_beyond_boyers_family() {
    assert_cmd_snapshot!(kickoff().args([
        "validate",
        "variants/chessball-1957.toml",
        "variants/apo-chessball.toml",
        "variants/soccer-chess-1998.toml",
        "variants/vchess-ball.toml",
        "variants/mathicasa.toml",
        "variants/ogneva-2014.toml",
        "variants/footballchess-correa.toml",
        "variants/skunne-chessball.toml",
        "variants/orsi-chess-football.toml",
        "variants/tulaanh-chessfootball.toml",
        "variants/chess-football-2025.toml",
        "variants/xfutebol.toml",
        "tests/data/bad/royal-without-captures.toml",
    ]));
}

/// Boyer's board with Apo's free kicks and a goalkeeper zone, mixed in a few lines: it validates
/// clean, its rules read in words, and two random players finish a game whose record replays.
#[test]
fn a_mixed_example_validates_and_plays() {
    let path = "examples/free-kick-keepers.toml";
    let out = kickoff().args(["validate", path]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{path}: valid\n"));
    let explained = String::from_utf8(kickoff().args(["explain", path]).output().unwrap().stdout);
    let explained = explained.unwrap();
    assert!(explained.contains("stands: only on"), "{explained}");
    assert!(explained.contains("the side at most 3 times in all"), "{explained}");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    let out = run(
        kickoff()
            .args(["play", path, "--white", "random", "--black", "random", "--seed", "3"])
            .arg("--record")
            .arg(&record),
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played = String::from_utf8(out.stdout).unwrap();
    // The record names the variant by the path given to `play`, which `replay` would read
    // from the record's folder: the variant is named here.
    let replay = kickoff().args(["replay", "--variant", path]).arg(&record).output().unwrap();
    let replayed = String::from_utf8(replay.stdout).unwrap();
    assert_eq!(line_after(&replayed, "final position: "), line_after(&played, "final position: "));
}

/// The names of the legal turns of `fen` under `def`, sorted.
fn sorted_turn_names(def: &kickoff::Definition, fen: &str) -> Vec<String> {
    let pos = kickoff::Position::from_fen(&def.rules, fen).unwrap();
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    let mut names = kickoff::turn_text::names::names(&pos, &turns);
    names.sort();
    names
}

/// The sorted names of the turns of `fen` that move a piece of letter `letter` first.
fn turns_of_letter(def: &kickoff::Definition, fen: &str, letter: char) -> Vec<String> {
    let mut names = sorted_turn_names(def, fen);
    names.retain(|n| n.starts_with(letter));
    names
}

/// En passant is a capture: where nothing is captured, a double step past an enemy pawn gives
/// none (and where pieces capture, the same position gives one).
#[test]
fn no_en_passant_where_nothing_is_captured() {
    let fen = "4k/1Pp2/a4/5/4K b 1 b3";
    let names_in = |path: &str| sorted_turn_names(&kickoff::load(path).unwrap(), fen);
    let captures = names_in("tests/data/rules/captures.toml");
    assert!(captures.iter().any(|n| n == "Pxb3"), "{captures:?}");
    let none = names_in("tests/data/rules/en-passant-without-captures.toml");
    assert_eq!(none, ["Kd4", "Kd5", "Ke4", "Pc2", "Pc3"]);
}

/// In a turn of a move and three kicks in any order, a piece that may kick once does not kick
/// again when its move brings it back to the ball.
#[test]
fn a_piece_kicks_no_more_than_its_own_limit_in_a_turn() {
    let def = kickoff::load("tests/data/rules/kick-once-of-three.toml").unwrap();
    let pos = kickoff::Position::start(&def.rules);
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    let names = kickoff::turn_text::names::names(&pos, &turns);
    assert!(names.iter().any(|n| n == ">b4Rb3"), "{names:?}");
    assert!(names.iter().all(|n| n.matches('>').count() <= 1), "{names:?}");
    assert_eq!(names.len(), 20, "{names:?}");
    // Two rooks that may kick four times each pass the ball between them eight times at most.
    let def = kickoff::load("tests/data/rules/kick-four-times.toml").unwrap();
    let pos = kickoff::Position::start(&def.rules);
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    let names = kickoff::turn_text::names::names(&pos, &turns);
    let longest = names.iter().map(|n| n.matches('>').count()).max();
    assert_eq!(longest, Some(8), "{names:?}");
}

/// In a turn of up to three kicks where each piece kicks once, the walk that merges states of a
/// turn reached in several ways keeps apart those where different pieces have kicked: it finds
/// every result the turns lead to, each as often as the list of turns does.
#[test]
fn states_of_a_turn_differ_by_who_has_kicked() {
    let def = kickoff::load("tests/data/rules/kick-once-of-three-knights.toml").unwrap();
    let pos = kickoff::Position::start(&def.rules);
    let mut listed = std::collections::BTreeMap::new();
    for turn in kickoff::movegen::legal_turns(&pos).unwrap() {
        *listed.entry(kickoff::movegen::play_unchecked(&pos, &turn).fen()).or_insert(0) += 1;
    }
    let walked: std::collections::BTreeMap<String, u64> =
        kickoff::movegen::general::results(&pos, u64::MAX)
            .unwrap()
            .into_iter()
            .map(|o| (o.position.fen(), o.turns))
            .collect();
    assert_eq!(listed.len(), 301);
    let missing: Vec<_> = listed.keys().filter(|k| !walked.contains_key(*k)).collect();
    assert!(missing.is_empty(), "results not found by the walk: {missing:?}");
    assert_eq!(walked, listed);
}

/// A pawn's double step is made from its own side's pawn squares of the start position only, not
/// from a square where another piece of its side starts.
#[test]
fn a_double_step_only_from_a_pawns_own_start_square() {
    let def = kickoff::load("vchess-ball").unwrap();
    let pawn_turns = |fen: &str| turns_of_letter(&def, fen, 'P');
    // White's pawn on b2, where White's pawns start, and on a1, where White's phoenix starts.
    assert_eq!(pawn_turns("4q4/9/9/9/4a4/9/9/1P7/4Q4 w 0 - -"), ["Pb3", "Pb4"]);
    assert_eq!(pawn_turns("4q4/9/9/9/4a4/9/9/9/P3Q4 w 0 - -"), ["Pa2"]);
    // Black's pawn on b8, and on a9, where Black's phoenix starts.
    assert_eq!(pawn_turns("4q4/1p7/9/9/4a4/9/9/9/4Q4 b 0 - -"), ["Pb6", "Pb7"]);
    assert_eq!(pawn_turns("p3q4/9/9/9/4a4/9/9/9/4Q4 b 0 - -"), ["Pa8"]);
}

/// A condition on a piece's move (here `i`: a double step only from a square where the piece
/// starts) holds in a game of Boyer's family too, whose plain pieces are generated from tables.
#[test]
fn a_first_move_condition_holds_in_boyers_family() {
    let def = kickoff::load("tests/data/rules/boyer-first-double-step.toml").unwrap();
    let runner_turns = |fen: &str| turns_of_letter(&def, fen, 'P');
    // White's runner on i1, where it starts, and on i2; Black's on i9 and i8.
    assert_eq!(runner_turns("5k3/9/9/9/4a4/9/9/9/5K2P w 0"), ["Pg1", "Ph1", "Pi2", "Pi3"]);
    assert_eq!(runner_turns("5k3/9/9/9/4a4/9/9/8P/5K3 w 0"), ["Ph2", "Pi1", "Pi3"]);
    assert_eq!(runner_turns("5k2p/9/9/9/4a4/9/9/9/5K3 b 0"), ["Pg9", "Ph9", "Pi7", "Pi8"]);
    assert_eq!(runner_turns("5k3/8p/9/9/4a4/9/9/9/5K3 b 0"), ["Ph8", "Pi7", "Pi9"]);
}

/// The position after the turn named `name` of `fen` under the definition at `path`.
fn after_turn(path: &str, fen: &str, name: &str) -> String {
    let def = kickoff::load(path).unwrap();
    let pos = kickoff::Position::from_fen(&def.rules, fen).unwrap();
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    let names = kickoff::turn_text::names::names(&pos, &turns);
    let i = names.iter().position(|n| n == name).unwrap_or_else(|| panic!("{name}: {names:?}"));
    kickoff::movegen::play_unchecked(&pos, &turns[i]).fen()
}

/// A holder robbed with `tackle_push = "orthogonal"` goes right, left, up, then down, the
/// same for both sides, onto the square its tackler left if that is the first free one.
#[test]
fn a_tackled_holder_goes_to_the_first_free_square_in_a_fixed_order() {
    let path = "tests/data/rules/tackle-orthogonal.toml";
    // Right first: d3 is free.
    assert_eq!(after_turn(path, "5/5/5/2u2/5/2R2 w 0 - -", "Rxc3"), "5/5/5/2Ur1/5/5 b 1 - -");
    // Right and left taken: up, to c4.
    assert_eq!(after_turn(path, "5/5/5/1nun1/5/2R2 w 0 - -", "Rxc3"), "5/5/2r2/1nUn1/5/5 b 1 - -");
    // Right, left and up taken: down, to c2.
    assert_eq!(
        after_turn(path, "5/5/2n2/1nun1/5/2R2 w 0 - -", "Rxc3"),
        "5/5/2n2/1nUn1/2r2/5 b 1 - -"
    );
    // The tackler's own square: the rook on d3 tackles from the right and the holder takes
    // its place.
    assert_eq!(after_turn(path, "5/5/5/2uR1/5/5 w 0 - -", "Rxc3"), "5/5/5/2Ur1/5/5 b 1 - -");
    // Black's tackle of a white holder goes right first too (White's right).
    assert_eq!(after_turn(path, "2r2/5/5/2U2/5/5 b 0 - -", "Rxc3"), "5/5/5/2uR1/5/5 w 1 - -");
}
