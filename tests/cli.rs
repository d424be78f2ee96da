//! The command line, run as a user runs it: output, errors and exit codes.

use insta_cmd::{Command, assert_cmd_snapshot, get_cargo_bin};

/// `kickoff ARGS...`.
fn kickoff(args: &[&str]) -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.args(args).env("NO_COLOR", "1");
    cmd
}

/// Runs `body` with the perft timing line made stable.
fn without_time(body: impl FnOnce()) {
    insta::with_settings!({ filters => vec![(r"in \d+\.\d+ ms", "in [TIME] ms")] }, {
        body();
    });
}

#[test]
fn turns_as_text() {
    assert_cmd_snapshot!(kickoff(&[
        "turns",
        "boyer-1951",
        "--fen",
        "9/9/9/9/9/a8/R8/9/9 w 0"
    ]));
}

#[test]
fn turns_as_json() {
    assert_cmd_snapshot!(kickoff(&[
        "turns",
        "vchess",
        "--fen",
        "9/9/9/9/9/9/9/7N1/8a w 2",
        "--format",
        "json"
    ]));
}

#[test]
fn turns_of_the_start_position() {
    assert_cmd_snapshot!(kickoff(&["turns", "boyer-1951"]));
}

#[test]
fn turns_of_a_finished_game_are_refused() {
    assert_cmd_snapshot!(kickoff(&[
        "turns",
        "boyer-1951",
        "--fen",
        "4a4/9/9/9/9/9/9/9/9 b 7"
    ]));
}

#[test]
fn turns_of_a_bad_position_point_at_the_mistake() {
    assert_cmd_snapshot!(kickoff(&[
        "turns",
        "vchess",
        "--fen",
        "4K4/9/9/9/4a4/9/9/9/9 w 0"
    ]));
    assert_cmd_snapshot!(kickoff(&["turns", "vchess", "--fen", "9/9/9 w 0"]));
}

#[test]
fn turns_of_an_unknown_or_broken_variant() {
    assert_cmd_snapshot!(kickoff(&["turns", "boyer"]));
    assert_cmd_snapshot!(kickoff(&["turns", "tests/data/cli/missing.toml"]));
    assert_cmd_snapshot!(kickoff(&["turns", "tests/data/cli/broken.toml"]));
}

#[test]
fn perft_counts() {
    without_time(|| {
        assert_cmd_snapshot!(kickoff(&["perft", "boyer-1951", "3"]));
        assert_cmd_snapshot!(kickoff(&["perft", "vchess", "3", "--threads", "2"]));
        assert_cmd_snapshot!(kickoff(&["perft", "vchess", "0"]));
    });
}

#[test]
fn perft_divide() {
    without_time(|| {
        assert_cmd_snapshot!(kickoff(&[
            "perft",
            "vchess",
            "2",
            "--divide",
            "--fen",
            "9/4a4/4R4/9/9/9/9/9/9 w 2"
        ]));
    });
}

#[test]
fn perft_usage_errors() {
    assert_cmd_snapshot!(kickoff(&["perft", "vchess", "two"]));
    assert_cmd_snapshot!(kickoff(&["perft", "vchess", "2", "--threads", "0"]));
}
