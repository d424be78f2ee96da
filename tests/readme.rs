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
