//! What an author sees of definitions: `list`, `definition` (as written and resolved), credits
//! that belong to one file, and the command line described for shells and `man`.

use std::path::{Path, PathBuf};
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use kickoff::definition::{Definition, load_path, load_shipped, load_text, shipped};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The standard output of a run that must succeed.
fn stdout_of(args: &[&str]) -> String {
    let out = kickoff().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Every `.toml` file under `dir`, in every folder below it.
fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            toml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

/// The valid definitions under tests/data that extend another.
fn valid_children() -> Vec<(String, Definition)> {
    let mut files = Vec::new();
    toml_files(&root().join("tests/data"), &mut files);
    files.sort();
    let children: Vec<(String, Definition)> = files
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.contains("\nextends = ") || t.starts_with("extends = "))
        })
        .filter_map(|p| Some((p.display().to_string(), load_path(&p).ok()?)))
        .collect();
    assert!(children.len() >= 15, "only {} valid children under tests/data", children.len());
    children
}

/// The resolved text of `def` stands alone (no `extends`, no error) and compiles to the same
/// rules, credits included.
fn assert_resolves(name: &str, def: &Definition) {
    let text = def.resolved_toml();
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!table.contains_key("extends"), "{name}:\n{text}");
    let resolved = load_text("resolved.toml", &text)
        .unwrap_or_else(|e| panic!("{name} resolves to an invalid file: {e:?}\n{text}"));
    assert_eq!(format!("{:#?}", resolved.rules), format!("{:#?}", def.rules), "{name}:\n{text}");
    assert_eq!(resolved.rules.info(), def.rules.info(), "{name}");
}

#[test]
fn every_shipped_variant_resolves_to_a_file_with_the_same_rules() {
    for name in shipped::names() {
        assert_resolves(name, &load_shipped(name).unwrap());
    }
}

#[test]
fn every_valid_child_under_tests_data_resolves_to_a_file_with_the_same_rules() {
    for (name, def) in valid_children() {
        assert_resolves(&name, &def);
    }
}

#[test]
fn a_shipped_definition_is_printed_as_shipped() {
    for name in shipped::names() {
        let shipped = std::fs::read(root().join(format!("variants/{name}.toml"))).unwrap();
        let out = kickoff().args(["definition", name]).output().unwrap();
        assert!(out.status.success(), "{name}");
        assert!(out.stdout == shipped, "kickoff definition {name} differs from the shipped file");
    }
}

#[test]
fn a_file_is_printed_as_it_is() {
    for path in ["tests/data/authoring/grandchild.toml", "tests/data/authoring/crlf.toml"] {
        let file = std::fs::read_to_string(root().join(path)).unwrap();
        assert_eq!(stdout_of(&["definition", path]), file);
    }
}

#[test]
fn resolving_a_chain_of_files() {
    let text = stdout_of(&["definition", "--resolved", "tests/data/authoring/grandchild.toml"]);
    insta::assert_snapshot!(text);
}

#[test]
fn definition_of_an_unknown_variant_or_a_missing_file() {
    assert_cmd_snapshot!(kickoff().args(["definition", "boyer"]));
    assert_cmd_snapshot!(kickoff().args(["definition", "tests/data/no-such-file.toml"]));
    assert_cmd_snapshot!(kickoff().args([
        "definition",
        "--resolved",
        "tests/data/cli/broken.toml"
    ]));
}

#[test]
fn list_names_every_shipped_variant() {
    assert_cmd_snapshot!(kickoff().arg("list"));
}

#[test]
fn list_as_json() {
    let listed: serde_json::Value =
        serde_json::from_str(&stdout_of(&["list", "--format", "json"])).unwrap();
    let names: Vec<&str> =
        listed.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, shipped::names().collect::<Vec<_>>());
    let boyer = &listed[0];
    assert_eq!(boyer["title"], "Football Chess");
    assert_eq!(boyer["author"], "Joseph Boyer");
    assert_eq!(boyer["year"], 1951);
    let f960 = listed.as_array().unwrap().iter().find(|v| v["name"] == "football-960").unwrap();
    assert_eq!(f960["random_setup"], true);
}

#[test]
fn a_child_does_not_inherit_credits() {
    let child = load_path(&root().join("tests/data/authoring/no-credits.toml")).unwrap();
    let info = child.rules.info();
    assert_eq!(
        (&info.author, info.year, &info.description, &info.source),
        (&None, None, &None, &None)
    );
    let grandchild = load_path(&root().join("tests/data/authoring/grandchild.toml")).unwrap();
    let info = grandchild.rules.info();
    assert_eq!(info.author, None, "not from own-credits.toml");
    assert_eq!(info.year, None);
    assert_eq!(info.source.as_deref(), Some("tests/data/authoring"));
}

#[test]
fn explain_a_child_with_its_own_credits() {
    assert_cmd_snapshot!(kickoff().args(["explain", "tests/data/authoring/own-credits.toml"]));
}

#[test]
fn explain_a_child_without_credits() {
    assert_cmd_snapshot!(kickoff().args(["explain", "tests/data/authoring/no-credits.toml"]));
}

#[test]
fn empty_credits_are_not_shown() {
    let explained = stdout_of(&["explain", "tests/data/authoring/empty-credits.toml"]);
    let bare = stdout_of(&["explain", "tests/data/authoring/no-credits.toml"]);
    assert_eq!(explained, bare);
}

/// The subcommands of kickoff, as its help lists them.
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["help"]);
    let listed = help.split("Commands:\n").nth(1).unwrap().split("\n\n").next().unwrap();
    let names: Vec<String> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|w| w.trim_end_matches(',').to_owned())
        .filter(|w| w != "help")
        .collect();
    assert!(names.len() >= 18, "{names:?}");
    names
}

#[test]
fn bash_completions_know_every_subcommand() {
    let script = stdout_of(&["completions", "bash"]);
    for name in subcommands() {
        assert!(script.contains(&format!("kickoff,{name})")), "bash completion lacks {name}");
    }
    for shell in ["zsh", "fish", "powershell"] {
        assert!(stdout_of(&["completions", shell]).contains("validate"), "{shell}");
    }
}

#[test]
fn the_man_page_names_every_subcommand() {
    let page = stdout_of(&["manpage"]);
    assert!(page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH kickoff"), "{page}");
    for name in subcommands() {
        assert!(page.contains(&format!("kickoff\\-{name}")), "the man page lacks {name}");
    }
    assert_eq!(stdout_of(&["man"]), page, "`man` is `manpage`");
}

/// `extends = "NAME"` names a shipped variant; when there is none but NAME.toml lies next to
/// the file, the help says how to extend that file.
#[test]
fn extending_a_file_by_its_bare_name_suggests_the_file() {
    let out = kickoff().args(["validate", "tests/data/authoring/extends-by-name.toml"]).output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(1));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("cannot extend `own-credits`: no such variant"), "{shown}");
    let help = "help: to extend the file next to this one, write `extends = \"own-credits.toml\"`";
    assert!(shown.contains(help), "{shown}");
}

/// The long options that `kickoff NAME --help` lists.
fn long_options(name: &str) -> Vec<String> {
    let help = stdout_of(&[name, "--help"]);
    let words = help.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']');
    let mut options: Vec<String> = words
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.split('=').next().unwrap().to_owned())
        .collect();
    options.dedup();
    options
}

#[test]
fn every_subcommand_has_a_man_page_naming_its_options() {
    for name in subcommands() {
        let page = stdout_of(&["manpage", &name]);
        assert!(page.contains(&format!(".TH kickoff-{name} 1")), "{name}: {page}");
        for option in long_options(&name) {
            let roff = option.replace('-', "\\-");
            assert!(page.contains(&roff), "the man page of {name} lacks {option}");
        }
    }
    let out = kickoff().args(["manpage", "nosuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the subcommands are: play"));
}

#[test]
fn manpage_dir_writes_one_page_per_subcommand() {
    let dir = std::env::temp_dir().join(format!("kickoff-manpages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    stdout_of(&["manpage", "--dir", dir.to_str().unwrap()]);
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    let mut expected: Vec<String> =
        subcommands().iter().map(|n| format!("kickoff-{n}.1")).collect();
    expected.push("kickoff.1".to_owned());
    expected.sort();
    assert_eq!(written, expected);
    let play = std::fs::read_to_string(dir.join("kickoff-play.1")).unwrap();
    assert_eq!(play, stdout_of(&["manpage", "play"]), "the written page is the printed one");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The moves of each side's king in a variant whose king moves only by `lW`.
fn left_steps(side: char) -> Vec<String> {
    let text = "extends = \"boyer-1951\"\n[variant]\nname = \"Left\"\n[pieces.K]\nmoves = \"lW\"\n";
    let def = load_text("left.toml", text).unwrap();
    let fen = format!("9/9/2k6/9/4a4/9/2K6/9/9 {side} 0");
    let pos = kickoff::Position::from_fen(&def.rules, &fen).unwrap();
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    kickoff::turn_text::names::names(&pos, &turns)
}

/// README: `l` and `r` are White's left and right for both sides (Black's directions mirror
/// White's top to bottom), so Black's `lW` goes towards the a-file too.
#[test]
fn l_is_towards_the_a_file_for_both_sides() {
    assert_eq!(left_steps('w'), ["Kb3"]);
    assert_eq!(left_steps('b'), ["Kb7"]);
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("Black's `lW` goes towards the a-file, as White's does"));
}

/// `--simulate` says what it played when the games show nothing to warn of, and only then.
#[test]
fn simulate_says_what_it_played_when_it_has_no_warning() {
    let quiet = stdout_of(&["validate", "--simulate", "50", "--seed", "1", "mini"]);
    assert_eq!(quiet, "mini: valid\nmini: 50 random games: no warning\n");
    let warned = stdout_of(&["validate", "--simulate", "3", "--seed", "5", "mini"]);
    assert!(warned.contains("warning[W0304]"), "{warned}");
    assert!(!warned.contains("random games: no warning"), "{warned}");
}

/// What random games find about an inherited value is shown at `extends` with the value's
/// place, but no help says to set the key: setting it is no remedy for what the games found.
#[test]
fn simulate_points_at_extends_without_telling_to_set_the_key() {
    let def = load_text("child.toml", "extends = \"mini\"\n").unwrap();
    let found = kickoff::lint::simulate(&def, "child.toml", 3, 5, None);
    let no_goal: Vec<_> = found.iter().filter(|d| d.code.as_str() == "W0304").collect();
    assert!(!no_goal.is_empty(), "{found:?}");
    for d in no_goal {
        let json = d.to_json(&def.sources);
        assert_eq!((json.file.as_str(), json.line), ("child.toml", 1), "{json:?}");
        assert!(json.note.unwrap_or_default().starts_with("the inherited value: mini"));
        assert_eq!(json.help, None);
    }
}

/// Where the ball is carried, holding it is playing it: random games of the shipped
/// carried-ball definitions warn of no side that never kicked, and a side that never holds the
/// ball (it has no piece) is warned of in those words.
#[test]
fn simulate_counts_holding_a_carried_ball_as_playing_it() {
    let codes = |def: &Definition, name: &str| -> Vec<String> {
        let found = kickoff::lint::simulate(def, name, 30, 1, None);
        found.iter().filter(|d| d.code.as_str() == "W0305").map(|d| d.message.clone()).collect()
    };
    let golden = load_path(&root().join("examples/golden-goal.toml")).unwrap();
    assert!(golden.rules.carried_ball());
    assert_eq!(codes(&golden, "golden-goal.toml"), Vec::<String>::new());
    let ball = load_shipped("vchess-ball").unwrap();
    assert!(ball.rules.carried_ball());
    assert_eq!(codes(&ball, "vchess-ball"), Vec::<String>::new());

    // Black without pieces never holds the ball; the file that says so has no name of its
    // own, and the warning points at its `extends`.
    let dir = std::env::temp_dir().join(format!("kickoff-carried-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join("examples/golden-goal.toml"), dir.join("golden-goal.toml")).unwrap();
    let child = dir.join("alone.toml");
    let text =
        "extends = \"golden-goal.toml\"\n\n[setup]\nfen = \"8/8/8/8/3a4/8/8/RNBQ1BNR w 0 - -\"\n";
    std::fs::write(&child, text).unwrap();
    let alone = load_path(&child).unwrap();
    let warned = codes(&alone, "alone.toml");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(warned, ["Black never held nor kicked the ball in 30 random games"]);
}

#[test]
fn simulate_refuses_more_games_than_its_cap() {
    for games in ["0", "10001"] {
        let out = kickoff().args(["validate", "--simulate", games, "mini"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--simulate {games}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("is not in 1..=10000"), "{stderr}");
    }
}

/// A shipped variant knows its name; a file, even one that extends it unchanged, does not.
#[test]
fn only_a_shipped_definition_has_a_shipped_name() {
    let shipped = kickoff::load("football-960").unwrap();
    assert_eq!(shipped.shipped_name(), Some("football-960"));
    let dir = tempfile::tempdir().unwrap();
    let child = dir.path().join("child.toml");
    std::fs::write(&child, "extends = \"football-960\"\n").unwrap();
    let file = kickoff::load(child.to_str().unwrap()).unwrap();
    assert_eq!(file.shipped_name(), None);
}

/// `extends` may name a file outside the extending file's folder only when the loader allows it.
#[test]
fn a_parent_outside_the_folder_needs_leave() {
    use kickoff::definition::{LoadOptions, load_path, load_path_with};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    std::fs::write(dir.path().join("parent.toml"), "extends = \"mini\"\n").unwrap();
    let child = dir.path().join("mine/child.toml");
    std::fs::write(&child, "extends = \"../parent.toml\"\n").unwrap();
    let Err(kickoff::definition::LoadError::Invalid { diagnostics, .. }) = load_path(&child) else {
        panic!("a parent outside the folder is refused by default")
    };
    assert!(
        diagnostics.iter().any(|d| d.is_error() && d.message.contains("outside")),
        "{diagnostics:?}"
    );
    let allowed = load_path_with(&child, LoadOptions { allow_outside: true }).unwrap();
    assert_eq!(allowed.rules.board().files, 7);
}
