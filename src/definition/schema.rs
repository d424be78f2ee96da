//! The definition format's keys: one table of specs drives the checks of every file, the JSON
//! Schema that `kickoff schema` prints, and the key list of the authoring guide.

use serde_json::{Map, Value as Json, json};

use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::Loc;
use crate::definition::tree::{Node, Table, Value};

/// One key of a table.
#[derive(Debug)]
pub(crate) struct Key {
    /// The key as written.
    pub name: &'static str,
    /// What its value must be.
    pub ty: Ty,
    /// Whether a complete definition (after `extends`) must give it.
    pub required: bool,
    /// The default as TOML text, if it has one.
    pub default: Option<&'static str>,
    /// One sentence for authors.
    pub doc: &'static str,
}

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Ty {
    /// A string; the text says which language it is in (for the schema's descriptions).
    Str(&'static str),
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A boolean.
    Bool,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// A table with these keys.
    Table(&'static [Key]),
    /// Tables named by one uppercase letter, each with these keys.
    Pieces(&'static [Key]),
}

const fn key(name: &'static str, ty: Ty, doc: &'static str) -> Key {
    Key {
        name,
        ty,
        required: false,
        default: None,
        doc,
    }
}

const fn required(name: &'static str, ty: Ty, doc: &'static str) -> Key {
    Key {
        name,
        ty,
        required: true,
        default: None,
        doc,
    }
}

const fn with_default(name: &'static str, ty: Ty, default: &'static str, doc: &'static str) -> Key {
    Key {
        name,
        ty,
        required: false,
        default: Some(default),
        doc,
    }
}

const VARIANT: &[Key] = &[
    required("name", Ty::Str("text"), "The variant's name."),
    key("author", Ty::Str("text"), "Its inventor or author."),
    key(
        "year",
        Ty::Int {
            min: -9999,
            max: 9999,
        },
        "The year it was published.",
    ),
    key("description", Ty::Str("text"), "A short description."),
    key("source", Ty::Str("URL"), "Where its rules come from."),
];

const BOARD: &[Key] = &[
    required(
        "files",
        Ty::Int { min: 2, max: 16 },
        "Number of files (columns), 2 to 16.",
    ),
    required(
        "ranks",
        Ty::Int { min: 2, max: 16 },
        "Number of ranks (rows), 2 to 16.",
    ),
    with_default(
        "a1",
        Ty::Enum(&["dark", "light"]),
        "\"dark\"",
        "The colour of a1.",
    ),
];

const GOALS: &[Key] = &[
    required(
        "white",
        Ty::Str("squares"),
        "The squares White must bring the ball to, e.g. \"e9\" or \"d9-f9\".",
    ),
    required(
        "black",
        Ty::Str("squares"),
        "The squares Black must bring the ball to.",
    ),
];

const PIECE: &[Key] = &[
    required(
        "name",
        Ty::Str("text"),
        "The piece's name, e.g. \"knight\".",
    ),
    required(
        "moves",
        Ty::Str("Betza"),
        "How it moves, in Betza notation, e.g. \"N\" or \"fsW\".",
    ),
    key(
        "kick",
        Ty::Str("Betza"),
        "How it kicks the ball, in Betza notation; default: the same as its moves.",
    ),
    with_default(
        "corner_jump",
        Ty::Bool,
        "false",
        "Whether, stuck in a corner with no move, it may jump over its neighbour along a slide.",
    ),
    with_default(
        "removed",
        Ty::Bool,
        "false",
        "In a file that extends another: drop this inherited piece.",
    ),
];

const BALL: &[Key] = &[with_default(
    "symbol",
    Ty::Str("letter"),
    "\"a\"",
    "The ball's letter in positions.",
)];

const RANDOM: &[Key] = &[
    required(
        "squares",
        Ty::Str("squares"),
        "White's squares refilled at random, e.g. \"a1-d1 f1-i1\".",
    ),
    required(
        "pieces",
        Ty::Str("letters"),
        "White's pieces placed on them, e.g. \"KQRRBBNN\".",
    ),
    with_default(
        "opposite_colors",
        Ty::Str("letters"),
        "\"\"",
        "Letters whose two copies stand on squares of different colours, e.g. \"B\".",
    ),
    with_default(
        "black",
        Ty::Enum(&["mirror", "independent"]),
        "\"mirror\"",
        "Whether Black mirrors White or is drawn independently.",
    ),
];

const SETUP: &[Key] = &[
    required(
        "fen",
        Ty::Str("position"),
        "The start position, e.g. \"rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0\".",
    ),
    key("random", Ty::Table(RANDOM), "960-style random back ranks."),
];

const KICK: &[Key] = &[
    with_default(
        "direction",
        Ty::Enum(&["away", "line"]),
        "\"away\"",
        "\"away\": the ball flies directly away from the kicker; \"line\": also backwards over it.",
    ),
    with_default(
        "per_piece",
        Ty::Int { min: 1, max: 8 },
        "1",
        "How many times each piece may kick in one turn.",
    ),
    with_default(
        "leap_adjacent",
        Ty::Bool,
        "false",
        "Whether a leap kick may land next to its kicker.",
    ),
    with_default(
        "corner_exception",
        Ty::Bool,
        "false",
        "Whether a leap kick may land next to its kicker when the ball stands in a corner.",
    ),
    with_default(
        "goal_rank",
        Ty::Enum(&["no-slide", "allowed"]),
        "\"no-slide\"",
        "\"no-slide\": from a goal's rank, no kick along that rank reaches or crosses the goal.",
    ),
];

const TURN: &[Key] = &[
    with_default(
        "null",
        Ty::Enum(&["never", "when-adjacent", "always"]),
        "\"never\"",
        "When a side may neither move nor kick.",
    ),
    with_default(
        "no_goal_before",
        Ty::Int { min: 0, max: 1000 },
        "0",
        "No goal may be scored while fewer turns than this have been completed.",
    ),
];

const END: &[Key] = &[
    with_default(
        "own_goal",
        Ty::Enum(&["counts", "forbidden"]),
        "\"counts\"",
        "Whether a kick into one's own goal scores for the opponent or is not legal.",
    ),
    with_default(
        "repetition",
        Ty::Int { min: 0, max: 100 },
        "3",
        "The game is drawn when a position occurs this many times; 0: never.",
    ),
    with_default(
        "max_turns",
        Ty::Int {
            min: 0,
            max: 1_000_000,
        },
        "0",
        "The game is drawn after this many turns; 0: no limit.",
    ),
];

/// The top level of a definition file.
pub(crate) const ROOT: &[Key] = &[
    with_default(
        "format",
        Ty::Int { min: 1, max: 1 },
        "1",
        "The version of this format.",
    ),
    key(
        "extends",
        Ty::Str("variant"),
        "A shipped variant's name, or a path relative to this file, whose keys this file overrides.",
    ),
    required(
        "variant",
        Ty::Table(VARIANT),
        "The variant's name and credits.",
    ),
    required("board", Ty::Table(BOARD), "The board's size."),
    required("goals", Ty::Table(GOALS), "The goal squares."),
    required(
        "pieces",
        Ty::Pieces(PIECE),
        "The piece types, one table per uppercase letter.",
    ),
    key("ball", Ty::Table(BALL), "The ball."),
    required("setup", Ty::Table(SETUP), "The start position."),
    key("kick", Ty::Table(KICK), "How the ball is kicked."),
    key("turn", Ty::Table(TURN), "What a turn may be."),
    key("end", Ty::Table(END), "How the game ends."),
];

/// Checks one file's tree against the spec: unknown keys, types, ranges and enum values.
/// Bad entries are removed so that later stages do not report them again.
pub(crate) fn check(table: &mut Table, keys: &[Key], path: &str, out: &mut Vec<Diagnostic>) {
    let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
    table.retain(|name, node| {
        let Some(spec) = keys.iter().find(|k| k.name == name) else {
            out.push(unknown_key(name, node, &names, path));
            return false;
        };
        check_value(spec, node, &format!("{path}{}", sub_path(path, name)), out)
    });
}

/// `[pieces.N]`-style path of a key below `path`.
fn sub_path(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!(".{name}")
    }
}

/// The table's name in messages: `[board]`, or "the top level".
fn where_(path: &str) -> String {
    if path.is_empty() {
        "at the top level".to_owned()
    } else {
        format!("in [{path}]")
    }
}

fn unknown_key(name: &str, node: &Node, names: &[&str], path: &str) -> Diagnostic {
    let diag = Diagnostic::error(
        format!("unknown key `{name}` {}", where_(path)),
        node.key_at.clone(),
    );
    match did_you_mean(name, names) {
        Some(best) => diag.with_help(format!("did you mean `{best}`?")),
        None => diag.with_help(format!(
            "the keys {} are: {}",
            where_(path),
            names.join(", ")
        )),
    }
}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Checks one value; returns whether to keep it.
fn check_value(spec: &Key, node: &mut Node, path: &str, out: &mut Vec<Diagnostic>) -> bool {
    let found = node.value.type_name();
    let wrong_type = |expected: &str| {
        Diagnostic::error(
            format!("`{path}` must be {expected}, found {found}"),
            node.at.clone(),
        )
    };
    match (&spec.ty, &mut node.value) {
        (Ty::Str(_), Value::String(_)) | (Ty::Bool, Value::Boolean(_)) => true,
        (Ty::Int { min, max }, Value::Integer(n)) => {
            if (i128::from(*min)..=i128::from(*max)).contains(n) {
                return true;
            }
            let range = if min == max {
                format!("{min}")
            } else {
                format!("between {min} and {max}")
            };
            out.push(Diagnostic::error(
                format!("`{path}` must be {range}, found {n}"),
                node.at.clone(),
            ));
            false
        }
        (Ty::Enum(values), Value::String(s)) => {
            if values.contains(&s.as_str()) {
                return true;
            }
            let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
            let diag = Diagnostic::error(
                format!(
                    "`{path}` must be {}, found \"{s}\"",
                    crate::notation::one_of(&quoted)
                ),
                node.at.clone(),
            );
            out.push(match did_you_mean(s, values) {
                Some(best) => diag.with_help(format!("did you mean \"{best}\"?")),
                None => diag,
            });
            false
        }
        (Ty::Table(keys), Value::Table(t)) => {
            check(t, keys, path, out);
            true
        }
        (Ty::Pieces(keys), Value::Table(t)) => {
            check_pieces(t, keys, path, out);
            true
        }
        (ty, _) => {
            out.push(wrong_type(type_words(ty)));
            false
        }
    }
}

/// Piece tables: each named by one uppercase letter.
fn check_pieces(table: &mut Table, keys: &'static [Key], path: &str, out: &mut Vec<Diagnostic>) {
    table.retain(|letter, node| {
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            out.push(
                Diagnostic::error(
                    format!(
                        "`{letter}` is not a piece letter: pieces are named by one uppercase letter"
                    ),
                    node.key_at.clone(),
                )
                .with_help("write [pieces.N] for a knight, [pieces.K] for a king ..."),
            );
            return false;
        };
        if c.is_ascii_lowercase() {
            let upper = c.to_ascii_uppercase();
            out.push(
                Diagnostic::error(
                    format!("piece tables are named by White's uppercase letter, found `{c}`"),
                    node.key_at.clone(),
                )
                .with_help(format!(
                    "write [pieces.{upper}]: Black's `{c}` is the same piece as White's `{upper}`"
                )),
            );
            return false;
        }
        if !c.is_ascii_uppercase() {
            out.push(Diagnostic::error(
                format!(
                    "`{c}` is not a piece letter: pieces are named by one uppercase letter A-Z"
                ),
                node.key_at.clone(),
            ));
            return false;
        }
        let spec = Key {
            name: "",
            ty: Ty::Table(keys),
            required: false,
            default: None,
            doc: "",
        };
        check_value(&spec, node, &format!("{path}.{letter}"), out)
    });
}

fn type_words(ty: &Ty) -> &'static str {
    match ty {
        Ty::Str(_) | Ty::Enum(_) => "a string",
        Ty::Int { .. } => "an integer",
        Ty::Bool => "true or false",
        Ty::Table(_) | Ty::Pieces(_) => "a table",
    }
}

/// Reports required keys missing from a merged definition. `at` is where the table is.
pub(crate) fn check_required(
    table: &Table,
    keys: &[Key],
    path: &str,
    at: &Loc,
    out: &mut Vec<Diagnostic>,
) {
    for spec in keys {
        let sub = format!("{path}{}", sub_path(path, spec.name));
        match (table.get(spec.name), &spec.ty) {
            (None, Ty::Table(_) | Ty::Pieces(_)) if spec.required => out.push(
                Diagnostic::error(format!("missing table [{sub}]"), at.clone())
                    .with_help(format!("add [{sub}]: {}", spec.doc.to_lowercase())),
            ),
            (None, _) if spec.required => out.push(
                Diagnostic::error(
                    format!("missing key `{}` {}", spec.name, where_(path)),
                    at.clone(),
                )
                .with_help(format!(
                    "add `{} = ...`: {}",
                    spec.name,
                    spec.doc.to_lowercase()
                )),
            ),
            (
                Some(Node {
                    value: Value::Table(t),
                    at: table_at,
                    ..
                }),
                Ty::Table(inner),
            ) => {
                check_required(t, inner, &sub, table_at, out);
            }
            (
                Some(Node {
                    value: Value::Table(t),
                    at: table_at,
                    ..
                }),
                Ty::Pieces(inner),
            ) => {
                if t.is_empty() && spec.required {
                    out.push(Diagnostic::error(
                        format!("[{sub}] defines no piece"),
                        table_at.clone(),
                    ));
                }
                for (letter, piece) in t {
                    if let Value::Table(p) = &piece.value {
                        check_required(p, inner, &format!("{sub}.{letter}"), &piece.key_at, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The JSON Schema (draft 2020-12) of the definition format.
#[must_use]
pub fn json_schema() -> Json {
    let mut root = object_schema(ROOT);
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    root.insert(
        "$id".into(),
        json!("https://kickoff.invalid/schema/definition-1.json"),
    );
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
    Json::Object(root)
}

fn object_schema(keys: &[Key]) -> Map<String, Json> {
    let mut props = Map::new();
    for k in keys {
        props.insert(k.name.into(), key_schema(k));
    }
    let required: Vec<&str> = keys.iter().filter(|k| k.required).map(|k| k.name).collect();
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Json::Object(props));
    m.insert("additionalProperties".into(), json!(false));
    m.insert("required".into(), json!(required));
    m
}

fn key_schema(k: &Key) -> Json {
    let mut m = match &k.ty {
        Ty::Str(language) => {
            let mut m = Map::new();
            m.insert("type".into(), json!("string"));
            m.insert("x-kickoff-language".into(), json!(language));
            m
        }
        Ty::Int { min, max } => {
            let mut m = Map::new();
            m.insert("type".into(), json!("integer"));
            m.insert("minimum".into(), json!(min));
            m.insert("maximum".into(), json!(max));
            m
        }
        Ty::Bool => {
            let mut m = Map::new();
            m.insert("type".into(), json!("boolean"));
            m
        }
        Ty::Enum(values) => {
            let mut m = Map::new();
            m.insert("type".into(), json!("string"));
            m.insert("enum".into(), json!(values));
            m
        }
        Ty::Table(keys) => {
            let mut m = object_schema(keys);
            // Inherited keys may be missing from a file that extends another.
            m.remove("required");
            m
        }
        Ty::Pieces(keys) => {
            let mut piece = object_schema(keys);
            piece.remove("required");
            let mut m = Map::new();
            m.insert("type".into(), json!("object"));
            m.insert(
                "patternProperties".into(),
                json!({ "^[A-Z]$": Json::Object(piece) }),
            );
            m.insert("additionalProperties".into(), json!(false));
            m
        }
    };
    m.insert("description".into(), json!(k.doc));
    if let Some(default) = k.default
        && let Ok(value) = toml::from_str::<toml::Table>(&format!("v = {default}"))
        && let Ok(v) = serde_json::to_value(&value["v"])
    {
        m.insert("default".into(), v);
    }
    Json::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::source::FileId;
    use crate::definition::tree;

    fn problems(text: &str) -> Vec<String> {
        let mut t = tree::parse(FileId(0), text).unwrap();
        let mut out = Vec::new();
        check(&mut t, ROOT, "", &mut out);
        out.iter()
            .map(|d| format!("{} | {}", d.message, d.help.clone().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn unknown_keys_get_a_hint() {
        let p = problems("[pieces.N]\nname = \"knight\"\nmvoes = \"N\"\n");
        assert_eq!(
            p,
            ["unknown key `mvoes` in [pieces.N] | did you mean `moves`?"]
        );
        let p = problems("[bored]\nfiles = 9\n");
        assert_eq!(
            p,
            ["unknown key `bored` at the top level | did you mean `board`?"]
        );
    }

    #[test]
    fn types_ranges_and_enums() {
        let p = problems("[board]\nfiles = \"9\"\nranks = 17\n[kick]\ndirection = \"aways\"\n");
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(
            p[0].starts_with("`board.files` must be an integer, found a string"),
            "{p:?}"
        );
        assert!(
            p[1].starts_with("`board.ranks` must be between 2 and 16, found 17"),
            "{p:?}"
        );
        assert_eq!(
            p[2],
            "`kick.direction` must be \"away\" or \"line\", found \"aways\" | did you mean \"away\"?"
        );
    }

    #[test]
    fn piece_letters() {
        let p = problems(
            "[pieces.k]\nname = \"king\"\nmoves = \"K\"\n[pieces.Kn]\nname = \"x\"\nmoves = \"K\"\n",
        );
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("`Kn` is not a piece letter"), "{p:?}");
        assert!(
            p[1].contains("uppercase letter, found `k`") && p[1].contains("[pieces.K]"),
            "{p:?}"
        );
    }

    #[test]
    fn required_keys_after_merge() {
        let t = tree::parse(
            FileId(0),
            "[variant]\nauthor = \"x\"\n[pieces.N]\nmoves = \"N\"\n",
        )
        .unwrap();
        let mut out = Vec::new();
        check_required(
            &t,
            ROOT,
            "",
            &Loc {
                file: FileId(0),
                span: 0..0,
            },
            &mut out,
        );
        let messages: Vec<&str> = out.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "missing key `name` in [variant]",
                "missing table [board]",
                "missing table [goals]",
                "missing key `name` in [pieces.N]",
                "missing table [setup]"
            ]
        );
    }

    #[test]
    fn schema_describes_every_key() {
        let schema = json_schema();
        let kick = &schema["properties"]["kick"]["properties"];
        assert_eq!(kick["direction"]["enum"], json!(["away", "line"]));
        assert_eq!(kick["per_piece"]["default"], json!(1));
        assert_eq!(
            schema["properties"]["board"]["properties"]["files"]["maximum"],
            json!(16)
        );
        assert!(schema["properties"]["pieces"]["patternProperties"]["^[A-Z]$"].is_object());
    }
}
