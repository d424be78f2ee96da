//! The README's examples work as it says.

use std::path::PathBuf;

/// The TOML blocks of the README's authoring guide that are whole definitions.
fn readme_definitions() -> Vec<String> {
    let readme = include_str!("../README.md");
    readme
        .split("```toml\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .filter(|block| block.contains("[variant]"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_authoring_guide_example_is_a_valid_variant() {
    let examples = readme_definitions();
    assert!(!examples.is_empty());
    let dir = std::env::temp_dir().join(format!("kickoff-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, text) in examples.iter().enumerate() {
        let path: PathBuf = dir.join(format!("example-{i}.toml"));
        std::fs::write(&path, text).unwrap();
        let def = kickoff::definition::load_path(&path);
        assert!(def.is_ok(), "README example {i} is not valid: {def:?}");
        let rules = def.unwrap().rules;
        if i == 0 {
            let king = rules.piece(rules.kind_of('K').unwrap());
            assert_ne!(king.kicks, king.moves, "the example changes the king's kick");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The README shows the mixed example exactly as `examples/free-kick-keepers.toml` ships it.
#[test]
fn the_mixed_example_is_shown_as_shipped() {
    let shipped = include_str!("../examples/free-kick-keepers.toml");
    assert!(readme_definitions().iter().any(|block| block == shipped));
}

/// The help of `kickoff ARGS`.
fn help(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands that `kickoff help` lists (clap's own list of them).
fn subcommands() -> Vec<String> {
    let top = help(&["help"]);
    let listed = top.split("Commands:\n").nth(1).unwrap().split("\n\n").next().unwrap();
    listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&w| w != "help")
        .map(str::to_owned)
        .collect()
}

/// The long options that `kickoff SUB --help` lists, `--help` and the global ones left out.
fn options(sub: &str) -> Vec<String> {
    help(&[sub, "--help"])
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-o, ").unwrap_or(l);
            l.strip_prefix("--").map(|rest| rest.split([' ', '<', '=']).next().unwrap_or(rest))
        })
        .filter(|o| !["help", "allow-outside"].contains(o))
        .map(|o| format!("--{o}"))
        .collect()
}

/// Every subcommand has a row in README's table of commands, and its row names each of its
/// options.
#[test]
fn the_commands_table_names_every_command_and_option() {
    let readme = include_str!("../README.md");
    let table = readme.split("## Commands\n\n").nth(1).unwrap().split("\n\n").next().unwrap();
    let subs = subcommands();
    assert!(subs.len() >= 19, "{subs:?}");
    let mut missing = Vec::new();
    for sub in &subs {
        let Some(row) = table.lines().find(|l| l.starts_with(&format!("| `kickoff {sub}"))) else {
            missing.push(format!("kickoff {sub}"));
            continue;
        };
        for option in options(sub) {
            let named = row.match_indices(&option).any(|(i, _)| {
                !row[i + option.len()..]
                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            if !named {
                missing.push(format!("kickoff {sub} {option}"));
            }
        }
    }
    assert!(missing.is_empty(), "README's table of commands lacks {missing:?}");
}

/// The rows of the README's Betza table: the examples (in backticks), whether kickoff reads
/// them ("yes" or "no") and the code it refuses them with, if the row names one.
fn betza_rows() -> Vec<(Vec<String>, bool, Option<String>)> {
    let readme = include_str!("../README.md");
    let section = readme.split("### Pieces in Betza notation").nth(1).unwrap();
    let section = section.split("\n### ").next().unwrap();
    let rows = section.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| Betza"));
    rows.filter(|l| !l.starts_with("| ---"))
        .map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let examples = cells[1].split('`').skip(1).step_by(2).map(str::to_owned).collect();
            let code = cells[4].find("(E0").map(|i| cells[4][i + 1..i + 6].to_owned());
            (examples, cells[2] == "yes", code)
        })
        .collect()
}

/// Every example of the README's Betza table is read where the table says "yes" and refused,
/// with the code the row names, where it says "no".
#[test]
fn the_betza_table_is_true_of_the_parser() {
    use kickoff::definition::Code;
    use kickoff::notation::betza;
    use kickoff::rules::leg;
    let rows = betza_rows();
    assert!(rows.len() >= 20, "only {} rows", rows.len());
    for (examples, read, code) in rows {
        assert!(!examples.is_empty());
        for text in examples {
            let result = betza::parse(&text).and_then(|b| leg::legs(&b));
            match (&result, read) {
                (Ok(_), true) => {}
                (Err(e), false) => {
                    let given = Code::from(e.kind).to_string();
                    if let Some(code) = &code {
                        assert_eq!(&given, code, "{text:?}: {e}");
                    }
                }
                _ => panic!("{text:?}: the README says {read}, kickoff gives {result:?}"),
            }
        }
    }
}
