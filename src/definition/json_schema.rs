//! The JSON Schema (draft 2020-12) of the definition format, generated from its keys
//! ([`crate::definition::keys`]) for editors.

use serde_json::{Map, Value as Json, json};

use crate::definition::keys::{Given, Key, Literal, ROOT, Ty, description};

/// The JSON Schema (draft 2020-12) of the definition format.
#[must_use]
pub fn json_schema() -> Json {
    let mut root = object_schema(ROOT);
    root.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
    root.insert("$id".into(), json!("https://kickoff.invalid/schema/definition-1.json"));
    root.insert("title".into(), json!("kickoff variant definition"));
    root.insert(
        "description".into(),
        json!(
            "A football chess variant for kickoff. A file that sets `extends` may leave out \
               any key its parent gives; `kickoff validate` checks the merged result."
        ),
    );
    // With `extends`, any key may come from the parent, so nothing is required at the top.
    root.insert("if".into(), json!({ "required": ["extends"] }));
    let required = root.remove("required").unwrap_or(json!([]));
    root.insert("else".into(), json!({ "required": required }));
    // The goal squares are required unless a piece is its side's goal (`target`), or a parent
    // may give them.
    let no_target =
        json!({ "not": { "required": ["target"], "properties": { "target": { "const": true } } } });
    let some_target = json!({ "not": { "patternProperties": { "^[A-Z]$": no_target } } });
    root.insert(
        "allOf".into(),
        json!([{
            "if": { "not": { "anyOf": [
                { "required": ["extends"] },
                { "required": ["pieces"], "properties": { "pieces": some_target } },
            ] } },
            "then": { "required": ["goals"] },
        }]),
    );
    Json::Object(root)
}

fn object_schema(keys: &[Key]) -> Map<String, Json> {
    let mut props = Map::new();
    for k in keys {
        props.insert(k.name.into(), key_schema(k));
    }
    let required: Vec<&str> =
        keys.iter().filter(|k| matches!(k.given, Given::Required)).map(|k| k.name).collect();
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Json::Object(props));
    m.insert("additionalProperties".into(), json!(false));
    m.insert("required".into(), json!(required));
    m
}

fn key_schema(k: &Key) -> Json {
    let mut m = type_schema(&k.ty);
    m.insert("description".into(), json!(description(k, |name| format!("\"{name}\""))));
    if let Given::Default(literal) = k.given {
        m.insert("default".into(), literal_json(literal));
    }
    Json::Object(m)
}

fn type_schema(ty: &Ty) -> Map<String, Json> {
    let mut m = Map::new();
    match ty {
        Ty::Str(language) => {
            m.insert("type".into(), json!("string"));
            m.insert("x-kickoff-language".into(), json!(language));
        }
        Ty::Int { min, max } => {
            m.insert("type".into(), json!("integer"));
            m.insert("minimum".into(), json!(min));
            m.insert("maximum".into(), json!(max));
        }
        Ty::Bool => {
            m.insert("type".into(), json!("boolean"));
        }
        Ty::Choice(choices) => {
            m.insert("type".into(), json!("string"));
            m.insert("enum".into(), json!(choices.names));
        }
        Ty::Table(keys) => {
            m = object_schema(keys);
            // Inherited keys may be missing from a file that extends another.
            m.remove("required");
        }
        Ty::Pieces(keys) => {
            let mut piece = object_schema(keys);
            piece.remove("required");
            m.insert("type".into(), json!("object"));
            m.insert("patternProperties".into(), json!({ "^[A-Z]$": Json::Object(piece) }));
            m.insert("additionalProperties".into(), json!(false));
        }
    }
    m
}

fn literal_json(literal: Literal<'_>) -> Json {
    match literal {
        // Defaults are within their key's range, far inside i64.
        Literal::Int(n) => i64::try_from(n).map_or(Json::Null, |n| json!(n)),
        Literal::Bool(b) => json!(b),
        Literal::Str(s) => json!(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_describes_every_key() {
        let schema = json_schema();
        let kick = &schema["properties"]["kick"]["properties"];
        assert_eq!(kick["direction"]["enum"], json!(["away", "line"]));
        assert_eq!(kick["direction"]["default"], json!("away"));
        assert_eq!(kick["per_piece"]["default"], json!(1));
        assert_eq!(schema["properties"]["end"]["properties"]["repetition"]["default"], json!(3));
        assert_eq!(schema["properties"]["board"]["properties"]["files"]["maximum"], json!(16));
        assert!(schema["properties"]["pieces"]["patternProperties"]["^[A-Z]$"].is_object());
        let null = schema["properties"]["turn"]["properties"]["null"]["description"].as_str();
        assert!(null.unwrap().contains("\"when-adjacent\": Only when one of the side's pieces"));
    }

    /// `[goals]` is required where no piece is a goal and no parent may give it: the schema's
    /// condition names both ways out, and the goals.
    #[test]
    fn goals_are_required_unless_a_piece_is_the_goal() {
        let schema = json_schema();
        let rule = &schema["allOf"][0];
        assert_eq!(rule["then"]["required"], json!(["goals"]));
        let ways_out = &rule["if"]["not"]["anyOf"];
        assert_eq!(ways_out[0]["required"], json!(["extends"]));
        let piece = &ways_out[1]["properties"]["pieces"]["not"]["patternProperties"]["^[A-Z]$"];
        assert_eq!(piece["not"]["properties"]["target"]["const"], json!(true));
        assert!(schema["required"].as_array().is_none_or(|r| !r.contains(&json!("goals"))));
    }
}
