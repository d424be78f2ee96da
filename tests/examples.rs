//! The example definitions in `examples/`: each is valid without warnings and plays, and each
//! shows the rules it is there to show.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use insta_cmd::get_cargo_bin;
use kickoff::movegen::{legal_turns, play};
use kickoff::{Position, load};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

fn examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".toml"))
        .map(|name| format!("examples/{name}"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_is_valid_without_warnings_and_plays_to_an_end() {
    let files = examples();
    assert!(files.iter().any(|f| f.ends_with("golden-goal.toml")), "{files:?}");
    for file in &files {
        let out = kickoff().args(["validate", file]).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{file}: {stdout}");
        assert!(stdout.trim_end().ends_with(&format!("{file}: valid")), "{file}: {stdout}");
        let args = ["match", file, "--games", "2", "--white", "engine:1", "--black", "random"];
        let out = kickoff().args(args).args(["--max-turns", "200"]).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("endings: goal 2"), "{file}: {stdout}");
    }
}

/// The results of a Golden Goal position, as positions.
fn results(fen: &str) -> BTreeSet<String> {
    let def = load("examples/golden-goal.toml").unwrap();
    let pos = Position::from_fen(&def.rules, fen).unwrap();
    legal_turns(&pos).iter().map(|t| play(&pos, t).fen()).collect()
}

#[test]
fn golden_goal_carries_captures_and_steals_the_ball() {
    // White's queen holds the ball (T) on d5; Black's knight on c3 attacks it.
    let white = results("8/rnb2bnr/8/3T4/8/2n5/RNB2BNR/8 w 0 - -");
    // The holder runs onto d8, a goal: the game is won there.
    assert!(white.contains("3T4/rnb2bnr/8/8/8/2n5/RNB2BNR/8 b 1 - -"));
    // The holder captures, keeping the ball.
    assert!(white.contains("8/rTb2bnr/8/8/8/2n5/RNB2BNR/8 b 1 - -"));
    // No pass and no hand-over: in every result the queen (T) still holds the ball, never a
    // White rook (U), bishop (C) or knight (O).
    assert!(white.iter().all(|f| f.contains('T') && !f.contains(['U', 'C', 'O'])), "{white:?}");
    let black = results("8/rnb2bnr/8/3T4/8/2n5/RNB2BNR/8 b 0 - -");
    // Capturing the holder wins the ball: the knight (o) and the bishop (c) hold it on d5.
    assert!(black.contains("8/rnb2bnr/8/3o4/8/8/RNB2BNR/8 w 1 - -"));
    assert!(black.contains("8/rnb3nr/8/3c4/8/2n5/RNB2BNR/8 w 1 - -"));
    let pos = "3T4/rnb2bnr/8/8/8/2n5/RNB2BNR/8 b 1 - -";
    let def = load("examples/golden-goal.toml").unwrap();
    assert!(Position::from_fen(&def.rules, pos).unwrap().is_goal());
}
