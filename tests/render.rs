//! `kickoff render`: diagrams drawn from the rules and the position, as SVG and PNG.

use std::process::{Command, Output};

use insta_cmd::get_cargo_bin;

fn render(args: &[&str]) -> Output {
    Command::new(get_cargo_bin("kickoff"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .arg("render")
        .args(args)
        .output()
        .unwrap()
}

fn svg(args: &[&str]) -> String {
    let out = render(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn the_start_of_boyers_game() {
    let picture = svg(&["boyer-1951"]);
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(picture.contains("viewBox=\"0 0 572 572\""), "nine 60-unit squares and the margins");
    assert_eq!(count(&picture, "<rect data-square="), 81);
    assert_eq!(count(&picture, "class=\"piece\""), 16);
    assert!(picture.contains("<g class=\"ball\" data-square=\"e5\" data-held=\"false\">"));
    // Goals carry their net; no text element, so every viewer draws the same letters.
    assert_eq!(count(&picture, "fill=\"#5e9e4f\""), 2);
    assert!(!picture.contains("<text"));
    assert!(picture.contains("<path class=\"coordinates\""));
    // One drawing per kind of piece and side, used by every piece of that kind.
    assert_eq!(count(&picture, "<g id=\"piece-"), 10);
}

#[test]
fn a_record_turn_with_its_path() {
    let picture =
        svg(&["boyer-1951", "--record", "tests/data/records/boyer-game.txt", "--turn", "1"]);
    assert!(picture.contains("data-square=\"g7\" data-held=\"false\""));
    assert!(picture.contains("<g data-from=\"g1\" data-to=\"d4\""), "the bishop's move");
    assert!(picture.contains("<g data-from=\"e5\" data-to=\"g7\""), "the ball's flight");
    assert_eq!(count(&picture, "class=\"marked\""), 4, "g1, d4, e5 and g7");
    let last = svg(&["boyer-1951", "--record", "tests/data/records/boyer-game.txt"]);
    assert!(last.contains("data-square=\"e9\" data-held=\"false\""), "the goal");
    let start =
        svg(&["boyer-1951", "--record", "tests/data/records/boyer-game.txt", "--turn", "0"]);
    assert!(!start.contains("data-from="));
    let out =
        render(&["boyer-1951", "--record", "tests/data/records/boyer-game.txt", "--turn", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "error: --turn 4: the record has 3 turns\n");
}

#[test]
fn arrows_flipped_boards_and_setups() {
    let picture = svg(&["boyer-1951", "--arrows", "d1-d4 e5>h8", "--flip"]);
    assert!(picture.contains("data-flipped=\"true\""));
    assert!(picture.contains("<rect data-square=\"a1\" x=\"506\" y=\"6\""), "a1 top right");
    assert_eq!(count(&picture, "<g data-from="), 2);
    assert!(picture.contains("stroke=\"#2f6fd0\"") && picture.contains("stroke=\"#d9480f\""));
    let out = render(&["boyer-1951", "--arrows", "e5-z9"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --arrows: `z9` is not a square of this board\n"
    );
    let setup = svg(&["football-960", "--setup", "0"]);
    assert!(setup.contains("data-files=\"9\""));
    let out = render(&["boyer-1951", "--setup", "0"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn holes_and_a_carried_ball_come_from_the_rules() {
    let picture = svg(&["tests/data/web/carried.toml"]);
    assert_eq!(count(&picture, "<rect data-square="), 77, "four holes are not squares");
    assert!(!picture.contains("data-square=\"a1\""));
    // The rook holds the ball: the piece is drawn, with the ball in its corner.
    assert!(picture.contains("<use class=\"piece\" data-square=\"e5\""));
    assert!(picture.contains("<g class=\"ball\" data-square=\"e5\" data-held=\"true\">"));
    // Fairy letters are discs with the letter drawn as a path.
    let stadium = svg(&["stadium"]);
    assert!(stadium.contains("<circle cx=\"30\" cy=\"30\" r=\"22.8\""), "a lettered disc");
}

#[test]
fn png_pictures() {
    let dir = std::env::temp_dir().join(format!("kickoff-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("start.png");
    let out = render(&["boyer-1951", "--format", "png", "--output", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&file).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (1144, 1144), "twice the SVG's size");
    // To standard output when it is not a terminal.
    let piped = render(&["mini", "--format", "png"]);
    assert!(piped.status.success());
    assert_eq!(&piped.stdout[..4], b"\x89PNG");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_readme_diagram_is_current() {
    // README.md shows `kickoff render stadium`; remake it with
    // `kickoff render stadium -o docs/screenshots/stadium.svg` when the drawing changes.
    let shown = std::fs::read_to_string("docs/screenshots/stadium.svg").unwrap();
    assert!(shown == svg(&["stadium"]), "docs/screenshots/stadium.svg is not what render draws");
}
