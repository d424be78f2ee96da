//! The "goal in K" puzzle sets (`kickoff puzzles`, `/puzzles`): the shipped sets proved again,
//! `kickoff puzzles` as users run it, and the web board's puzzles, which answer each turn with
//! the best defence.

use std::process::Command;

use insta_cmd::get_cargo_bin;
use kickoff::analysis::SolveLimits;
use kickoff::analysis::proof::first_turn;
use kickoff::analysis::puzzle::{NotAPuzzle, Puzzle, SHIPPED, recheck, shipped, unique_answer};
use kickoff::analysis::{Verdict, solve};
use kickoff::turn_text::names::name;
use kickoff::{Position, load};
use serde_json::{Value, json};

mod lobby_api;

fn kickoff(args: &[&str]) -> std::process::Output {
    Command::new(get_cargo_bin("kickoff"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

/// The solver's bound for one answer or one refutation, as `kickoff puzzles` has it.
const LIMITS: SolveLimits = SolveLimits { max_nodes: Some(2_000_000), deadline: None };

#[test]
fn every_shipped_puzzle_is_a_goal_in_k_with_one_answer() {
    assert_eq!(SHIPPED.len(), 5);
    let mut all: Vec<(&str, &kickoff::rules::Rules, &Puzzle)> = Vec::new();
    let defs: Vec<_> =
        SHIPPED.iter().map(|(variant, _)| (*variant, load(variant).unwrap())).collect();
    for (variant, def) in &defs {
        let puzzles = shipped(variant).unwrap_or_else(|| panic!("{variant}: the file reads"));
        assert_eq!(puzzles.len(), 100, "{variant}");
        let mut fens: Vec<&str> = puzzles.iter().map(|p| p.fen.as_str()).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), 100, "{variant}: a position twice");
        assert!(
            puzzles.iter().any(|p| p.turns == 1) && puzzles.iter().any(|p| p.turns >= 2),
            "{variant}"
        );
        all.extend(puzzles.iter().map(|p| (*variant, &def.rules, p)));
    }
    // Proved again by two threads that take the puzzles one by one, the most work first (one
    // puzzle of vchess takes as long as all the others of its set).
    all.sort_by_key(|(_, _, p)| std::cmp::Reverse(p.work));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((variant, rules, p)) = all.get(i) else { break };
                    let work = recheck(rules, p, LIMITS)
                        .unwrap_or_else(|e| panic!("{variant} {}: {e}", p.fen));
                    assert_eq!(work, p.work, "{variant} {}: its grade's work", p.fen);
                }
            });
        }
    });
    assert_eq!(all.len(), 500);
}

#[test]
fn a_goal_that_any_waiting_move_keeps_is_no_puzzle() {
    let def = load("boyer-1951").unwrap();
    // The rook on e6 kicks the ball on e7 into the goal, whatever moves first.
    let pos = Position::from_fen(&def.rules, "rnbq1kbnr/9/4a4/4R4/9/9/9/9/1NBQ1KBNR w 10").unwrap();
    assert_eq!(unique_answer(&pos, 1, LIMITS).err(), Some(NotAPuzzle::NotUnique));
    assert_eq!(unique_answer(&pos, 2, LIMITS).err(), Some(NotAPuzzle::NotExactly));
    let start = Position::start(&def.rules);
    assert_eq!(unique_answer(&start, 1, LIMITS).err(), Some(NotAPuzzle::NotExactly));
}

#[test]
fn puzzles_are_made_checked_and_a_changed_answer_is_caught() {
    let args = [
        "puzzles",
        "boyer-1951",
        "--count",
        "3",
        "--turns",
        "1-2",
        "--seed",
        "5",
        "--format",
        "json",
    ];
    let out = kickoff(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let again = kickoff(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(out.stdout, again.stdout, "the same puzzles whatever the threads");
    let mut file: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(file["puzzles"].as_array().unwrap().len(), 3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let checked = kickoff(&["puzzles", "boyer-1951", "--check", path.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    assert!(String::from_utf8_lossy(&checked.stdout).contains("3 of 3 puzzles hold"));
    // Another legal turn given as the answer of the second puzzle.
    let def = load("boyer-1951").unwrap();
    let fen = file["puzzles"][1]["fen"].as_str().unwrap().to_owned();
    let pos = Position::from_fen(&def.rules, &fen).unwrap();
    let other = kickoff::search::random_turn(
        &pos,
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3),
    )
    .unwrap();
    file["puzzles"][1]["solution"] = name(&pos, &other).into();
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let caught = kickoff(&["puzzles", "boyer-1951", "--check", path.to_str().unwrap()]);
    assert_eq!(caught.status.code(), Some(1));
    let said = String::from_utf8_lossy(&caught.stdout);
    assert!(
        said.contains("puzzle 2: its answer") && said.contains("2 of 3 puzzles hold"),
        "{said}"
    );
    std::fs::write(&path, "{\"variant\": \"boyer-1951\",\n \"puzzles\": [}").unwrap();
    let malformed = kickoff(&["puzzles", "boyer-1951", "--check", path.to_str().unwrap()]);
    assert_eq!(malformed.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&malformed.stderr).contains("p.json:2:"),
        "{}",
        String::from_utf8_lossy(&malformed.stderr)
    );
}

/// A turn of the side to move in `fen` that forces the goal within `turns`, by its name.
fn forcing_turn(variant: &str, fen: &str, turns: u32) -> String {
    let def = load(variant).unwrap();
    let pos = Position::from_fen(&def.rules, fen).unwrap();
    let found = solve(&pos, turns, LIMITS);
    assert_eq!(found.verdict, Verdict::Win, "{fen}");
    let turn = first_turn(&pos, &found.first.unwrap()).unwrap();
    name(&pos, &turn)
}

#[test]
fn the_board_answers_each_turn_with_the_best_defence_until_the_goal() {
    let scratch = lobby_api::Scratch::new("puzzles");
    let server = lobby_api::Server::start(&scratch.0);
    let (status, sets) = server.get("/api/puzzles", None);
    assert_eq!(status, 200);
    let sets = sets.as_array().unwrap();
    assert_eq!(sets.len(), 5);
    assert!(sets.iter().all(|s| s["count"] == 100), "{sets:?}");
    // The first puzzle of Boyer's set that takes two turns or more.
    let puzzles = shipped("boyer-1951").unwrap();
    let number = puzzles.iter().position(|p| p.turns >= 2).unwrap() + 1;
    let path = format!("/api/puzzles/boyer-1951/{number}");
    let (status, puzzle) = server.get(&path, None);
    assert_eq!(status, 200);
    assert!(puzzle["svg"].as_str().unwrap().starts_with("<svg "));
    let (fen, turns) = (puzzle["fen"].as_str().unwrap(), puzzle["turns"].as_u64().unwrap() as u32);
    let answer = puzzle["answer"].as_str().unwrap();
    let attempt = |line: &[&str]| {
        server.call("POST", &format!("{path}/try"), None, Some(&json!({ "line": line })))
    };
    // A turn that is not the answer: the defence holds.
    let def = load("boyer-1951").unwrap();
    let pos = Position::from_fen(&def.rules, fen).unwrap();
    let other = kickoff::search::random_turn(
        &pos,
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1),
    )
    .unwrap();
    let (status, wrong) = attempt(&[&name(&pos, &other)]);
    assert_eq!(status, 200);
    assert_eq!(wrong["verdict"], "wrong", "{wrong}");
    assert_eq!(wrong["line"], json!([]));
    // The answer, then a forcing turn after each defence, to the goal.
    let mut line: Vec<String> = vec![answer.to_owned()];
    for left in (1..turns).rev() {
        let refs: Vec<&str> = line.iter().map(String::as_str).collect();
        let (status, reply) = attempt(&refs);
        assert_eq!(status, 200, "{reply}");
        assert_eq!(reply["verdict"], "go-on", "{reply}");
        line = serde_json::from_value(reply["line"].clone()).unwrap();
        assert_eq!(line.len() % 2, 0);
        line.push(forcing_turn("boyer-1951", reply["fen"].as_str().unwrap(), left));
    }
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    let (status, solved) = attempt(&refs);
    assert_eq!(status, 200, "{solved}");
    assert_eq!(solved["verdict"], "solved", "{solved}");
    // The board's answer is the board's: a line with another defence is refused.
    if line.len() >= 3 {
        let defence_at = Position::from_fen(&def.rules, &{
            let after = kickoff::turn_text::names::resolve(&pos, answer).unwrap();
            kickoff::movegen::play_unchecked(&pos, &after).fen()
        })
        .unwrap();
        let chosen = kickoff::turn_text::names::resolve(&defence_at, &line[1]).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
        let another = (0..50)
            .filter_map(|_| kickoff::search::random_turn(&defence_at, &mut rng))
            .find(|t| {
                kickoff::movegen::play_unchecked(&defence_at, t)
                    != kickoff::movegen::play_unchecked(&defence_at, &chosen)
            })
            .unwrap();
        let (status, refused) = attempt(&[answer, &name(&defence_at, &another), &line[2]]);
        assert_eq!(status, 400, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("the board answers"), "{refused}");
    }
    // Malformed requests.
    assert_eq!(attempt(&[]).0, 400);
    assert_eq!(attempt(&["Zz9"]).0, 400);
    assert_eq!(server.get("/api/puzzles/boyer-1951/0", None).0, 404);
    assert_eq!(server.get("/api/puzzles/boyer-1951/101", None).0, 404);
    assert_eq!(server.get("/api/puzzles/mini/1", None).0, 404);
    server.kill();
}
