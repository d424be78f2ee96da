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
