//! The JSON Schema (`kickoff schema`) names every key of the rule model, and the fuzzing
//! dictionary (`fuzz/definition.dict`) holds every key and choice the schema names.

use std::collections::BTreeSet;
use std::process::Command;

use insta_cmd::get_cargo_bin;

/// The schema as `kickoff schema` prints it.
fn schema() -> serde_json::Value {
    let out = Command::new(get_cargo_bin("kickoff")).arg("schema").output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every property name and every string choice (`enum`) anywhere in `value`.
fn words(value: &serde_json::Value, names: &mut BTreeSet<String>, choices: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Object(props)) = map.get("properties") {
                names.extend(props.keys().cloned());
            }
            if let Some(serde_json::Value::Array(list)) = map.get("enum") {
                choices.extend(list.iter().filter_map(|v| v.as_str().map(str::to_owned)));
            }
            map.values().for_each(|v| words(v, names, choices));
        }
        serde_json::Value::Array(list) => list.iter().for_each(|v| words(v, names, choices)),
        _ => {}
    }
}

/// The property at `path` (tables, then the key).
fn property<'a>(schema: &'a serde_json::Value, path: &[&str]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(schema, |at, key| {
        at.get("properties").and_then(|p| p.get(key)).or_else(|| {
            // A piece table is any letter: its keys sit under patternProperties or
            // additionalProperties.
            let any = at.get("patternProperties").and_then(|p| p.as_object()?.values().next());
            any.or_else(|| at.get("additionalProperties"))
                .and_then(|p| if *key == "X" { Some(p) } else { p.get("properties")?.get(key) })
        })
    })
}

#[test]
fn the_schema_has_every_key_of_the_rule_model() {
    let schema = schema();
    let keys: &[&[&str]] = &[
        &["board", "holes"],
        &["pieces", "X", "zone"],
        &["pieces", "X", "goals"],
        &["pieces", "X", "kick_mode"],
        &["pieces", "X", "royal"],
        &["pieces", "X", "promotion"],
        &["pieces", "X", "promote_to"],
        &["pieces", "X", "holder"],
        &["capture", "mode"],
        &["kick", "mode"],
        &["kick", "enter"],
        &["turn", "moves"],
        &["turn", "kicks"],
        &["turn", "order"],
        &["turn", "end_early"],
        &["end", "goals"],
        &["end", "after_goal"],
        &["end", "next"],
        &["end", "max_turns"],
        &["end", "repetition_draw"],
        &["ball", "mode"],
        &["ball", "forbidden"],
        &["ball", "pass"],
        &["ball", "take_from_friend"],
        &["ball", "steal"],
        &["ball", "holder_captures"],
        &["ball", "steal_back"],
        &["ball", "over_friends"],
        &["pieces", "X", "sprint"],
        &["pieces", "X", "dribble"],
        &["pieces", "X", "lob"],
        &["pieces", "X", "goal_promotion"],
        &["turn", "min_moves"],
    ];
    for path in keys {
        assert!(property(&schema, path).is_some(), "the schema lacks {}", path.join("."));
    }
}

#[test]
fn the_fuzzing_dictionary_has_every_key_and_choice() {
    let (mut names, mut choices) = (BTreeSet::new(), BTreeSet::new());
    words(&schema(), &mut names, &mut choices);
    assert!(names.contains("steal_back") && choices.contains("ball-to-spot"));
    let dict =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/definition.dict"))
            .unwrap();
    let tokens: BTreeSet<&str> = dict.lines().filter(|l| !l.starts_with('#')).collect();
    for name in &names {
        assert!(tokens.contains(format!("\"{name}\"").as_str()), "the dictionary lacks `{name}`");
    }
    for choice in choices.iter().filter(|c| !names.contains(*c)) {
        let token = format!("\"\\\"{choice}\\\"\"");
        assert!(tokens.contains(token.as_str()), "the dictionary lacks the choice `{choice}`");
    }
}
