//! The gate between the two walks of turns, tried key by key. Every key of the definition
//! format is given each of its values (every name of a choice, the other boolean, the ends of
//! a range and the values next to its default, samples of strings) on Boyer's game, or where
//! it cannot take that value there, on the first shipped game beyond Boyer's family that can.
//! Each such definition either leaves the family, as its key's [`Family`] says it must, or has
//! the same turns under the walk of kick chains (`chains`) and the walk action by action
//! (`general`) on a set of positions: its start, the crowded positions of the reference perft
//! file, and positions of random play. A key whose values may keep a definition within the
//! family must have one that does on Boyer's game, so that both walks are tried on it.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::definition::keys::{Family, Key, Literal, Ty, leaves};
use crate::definition::load_text;
use crate::movegen::{
    Results, count_turns, first_scoring_turn, legal_turns_unbounded, nth_turn, perft,
};
use crate::position::Position;
use crate::rules::Rules;
use crate::search::random_turn;

/// Sample values of strings, by the language the key table gives them (`Ty::Str`), in TOML.
const STRINGS: &[(&str, &[&str])] = &[
    ("text", &["\"sample\""]),
    ("URL", &["\"https://example.org/football\""]),
    ("variant", &["\"vchess\"", "\"football-960\""]),
    ("squares", &["\"e4\"", "\"d4-f4\"", "\"a1-i1\"", "\"a1-d1 f1-i1\"", "\"e7\""]),
    ("Betza", &["\"K\"", "\"fsW\"", "\"WN\"", "\"R2\"", "\"mN\"", "\"cKmN\"", "\"iN\"", "\"nD\""]),
    ("letters", &["\"Q\"", "\"KQRRBBNN\"", "\"B\""]),
    ("letter", &["\"S\"", "\"Z\""]),
    (
        "position",
        &[
            "\"k2b5/1r2Na3/2Q3q2/3b3n1/9/2N6/9/9/9 b 30\"",
            "\"5n2R/K4aNB1/4rb3/3b1R1rN/9/9/9/3Q5/B4q3 w 30\"",
            "\"9/9/9/Nb1B4K/b1Rk5/rann4R/qBQ6/1Nr6/9 b 30\"",
        ],
    ),
];

/// The definitions a key's value is given on, the first that loads with it: Boyer's game,
/// then games beyond its family for values that only they can take (a carried ball's rules,
/// royal pieces, matches). A piece's keys are given to the rook (`X`), which they all have.
const BASES: &[&str] = &["boyer-1951", "vchess-ball", "apo-chessball", "soccer-chess-1998"];

/// The piece whose keys are tried.
const PIECE: &str = "R";

/// Keys whose values need other keys of Boyer's game changed with them (a board of another
/// size, a ball of another letter): each value, in TOML, with what it needs.
const WITH: &[(&str, &str, &str)] = &[
    (
        "board.files",
        "10",
        "[goals]\nwhite = \"e9\"\nblack = \"e1\"\n\
         [setup]\nfen = \"rnbq1kbnr1/10/10/10/4a5/10/10/10/RNBQ1KBNR1 w 0\"",
    ),
    (
        "board.ranks",
        "10",
        "[goals]\nwhite = \"e10\"\nblack = \"e1\"\n\
         [setup]\nfen = \"rnbq1kbnr/9/9/9/4a4/9/9/9/9/RNBQ1KBNR w 0\"",
    ),
    (
        "board.holes",
        "\"e4\"",
        "[goals]\nwhite = \"e9\"\nblack = \"e1\"\n\
         [setup]\nfen = \"rnbq1kbnr/9/9/9/4a4/4*4/9/9/RNBQ1KBNR w 0\"",
    ),
    ("ball.symbol", "\"o\"", "[setup]\nfen = \"rnbq1kbnr/9/9/9/4o4/9/9/9/RNBQ1KBNR w 0\""),
    ("pieces.X.removed", "true", "[setup]\nfen = \"1nbq1kbn1/9/9/9/4a4/9/9/9/1NBQ1KBN1 w 0\""),
    ("pieces.X.promotion", "\"a9-i9\"", "[pieces.R]\npromote_to = \"Q\""),
    ("setup.random.squares", "\"a1-d1 f1-i1\"", "[setup.random]\npieces = \"RNBQKBNR\""),
    ("setup.random.pieces", "\"KQRRBBNN\"", "[setup.random]\nsquares = \"a1-d1 f1-i1\""),
    (
        "setup.random.opposite_colors",
        "\"B\"",
        "[setup.random]\nsquares = \"a1-d1 f1-i1\"\npieces = \"RNBQKBNR\"",
    ),
    (
        "setup.random.black",
        "\"independent\"",
        "[setup.random]\nsquares = \"a1-d1 f1-i1\"\npieces = \"RNBQKBNR\"",
    ),
    ("placement.pieces", "\"QRN\"", "[placement]\nsquares = \"a2-i2\""),
    ("placement.count", "2", "[placement]\npieces = \"QRN\"\nsquares = \"a2-i2\""),
    ("placement.squares", "\"a2-i2\"", "[placement]\npieces = \"QRN\""),
    ("pieces.X.place", "\"a2-d2\"", "[placement]\npieces = \"QRN\"\nsquares = \"a2-i2\""),
    ("turn.moves_per_piece", "2", "[turn]\nmoves = 2"),
    ("ball.intercept", "true", "[ball]\nshoot = true"),
    ("pieces.X.sprint", "\"fW4\"", "[turn]\nactions = 2"),
    ("pieces.X.dribble", "true", "[turn]\nactions = 2"),
    ("ball.tackle_push", "\"orthogonal\"", "[ball]\nsteal = \"tackle\""),
    (
        "ball.offside",
        "\"a9-i9\"",
        "[ball]\nshoot = true\nintercept = true\n[pieces.R]\ntarget = true\n\
         [end]\nafter_goal = \"reset\"\n\
         [setup]\nfen = \"hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 0-0 - -\"",
    ),
    (
        "end.serve",
        "\"Q\"",
        "[end]\nafter_goal = \"reset\"\n\
         [setup]\nfen = \"hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 0-0 - -\"",
    ),
    (
        "pieces.X.target",
        "true",
        "[ball]\nshoot = true\nintercept = true\n[end]\nafter_goal = \"reset\"\n\
         [setup]\nfen = \"hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 0-0 - -\"",
    ),
];

/// The crowded positions of `tests/data/football-perft.json`, tried wherever they are
/// positions of the definition.
const CROWDED: &[&str] = &[
    "k2b5/1r2Na3/2Q3q2/3b3n1/9/2N6/9/9/9 b 30",
    "5n2R/K4aNB1/4rb3/3b1R1rN/9/9/9/3Q5/B4q3 w 30",
    "9/9/9/Nb1B4K/b1Rk5/rann4R/qBQ6/1Nr6/9 b 30",
];

/// The values of `key` to try other than its default, as TOML, each with what it needs
/// besides (see [`WITH`]).
fn values(path: &str, key: &Key) -> Vec<(String, String)> {
    let with: Vec<(String, String)> = WITH
        .iter()
        .filter(|(p, _, _)| *p == path)
        .map(|(_, v, more)| ((*v).to_owned(), (*more).to_owned()))
        .collect();
    if !with.is_empty() {
        return with;
    }
    let default = key.family_default();
    let mut out: Vec<String> = match &key.ty {
        Ty::Bool => ["true", "false"].map(str::to_owned).to_vec(),
        Ty::Int { min, max } => {
            let around = match default {
                Some(Literal::Int(d)) => vec![d as i64 - 1, d as i64 + 1, d as i64 + 2],
                _ => vec![min + 1],
            };
            let mut all: Vec<i64> = [*min, *max].into_iter().chain(around).collect();
            all.retain(|n| (min..=max).contains(&n));
            all.sort_unstable();
            all.dedup();
            all.iter().map(i64::to_string).collect()
        }
        Ty::Choice(choices) => choices.names.iter().map(|n| format!("\"{n}\"")).collect(),
        Ty::Str(language) => {
            let samples = STRINGS.iter().find(|(l, _)| l == language);
            let samples = samples.unwrap_or_else(|| panic!("no sample strings of `{language}`"));
            samples.1.iter().map(|s| (*s).to_owned()).collect()
        }
        // A table's keys are tried one by one.
        Ty::Table(_) | Ty::Pieces(_) => Vec::new(),
    };
    out.retain(|v| {
        let literal = match v.as_str() {
            "true" => Literal::Bool(true),
            "false" => Literal::Bool(false),
            _ => v.parse().map_or(Literal::Str(v.trim_matches('"')), Literal::Int),
        };
        default != Some(literal)
    });
    out.into_iter().map(|v| (v, String::new())).collect()
}

/// `base` with `path` set to `value` and the keys of `more` (TOML) added, as a definition that
/// extends it.
fn definition(base: &str, path: &[&str], value: &str, more: &str) -> String {
    let mut tables: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut top = vec![format!("extends = \"{base}\"")];
    tables.entry("variant".into()).or_default().push("name = \"sample\"".into());
    let mut table = String::new();
    for line in more.lines() {
        match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            Some(header) => table = header.to_owned(),
            None => tables.entry(table.clone()).or_default().push(line.to_owned()),
        }
    }
    let path: Vec<&str> = path.iter().map(|&p| if p == "X" { PIECE } else { p }).collect();
    let (key, table) = path.split_last().expect("a path");
    let line = format!("{key} = {value}");
    if table.is_empty() {
        top.retain(|l| !l.starts_with(&format!("{key} =")));
        top.push(line);
    } else {
        let lines = tables.entry(table.join(".")).or_default();
        lines.retain(|l| !l.starts_with(&format!("{key} =")));
        lines.push(line);
    }
    let mut text = top.join("\n") + "\n";
    for (table, lines) in tables {
        text += &format!("[{table}]\n{}\n", lines.join("\n"));
    }
    text
}

/// Positions of `rules` to compare the walks on: the start, the crowded positions, and
/// positions of random play from the start.
fn positions(rules: &Rules) -> Vec<String> {
    let mut out = vec![Position::start(rules).fen()];
    out.extend(
        CROWDED
            .iter()
            .filter_map(|fen| Position::from_fen(rules, fen).ok())
            .filter(|p| p.outcome().is_none())
            .map(|p| p.fen()),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(47);
    for _ in 0..3 {
        let mut pos = Position::start(rules);
        for _ in 0..5 {
            let Some(turn) = random_turn(&pos, &mut rng) else { break };
            pos = crate::movegen::play_unchecked(&pos, &turn);
            if pos.outcome().is_some() {
                break;
            }
            out.push(pos.fen());
        }
    }
    out
}

/// The most turns a position may have for its turns to be listed here (kicks of several per
/// piece may make millions).
const LISTED: u64 = 50_000;

/// The largest perft 2 compared (the walk action by action takes a few seconds for tens of
/// millions of turns, which kicks of several per piece make in crowded positions).
const DEEP: u64 = 2_000_000;

/// Everything the walks say of the position `fen` of `rules`, as text, with its perft 2 if
/// `deep`.
fn said(rules: &Rules, fen: &str, deep: bool) -> Vec<String> {
    let pos = Position::from_fen(rules, fen).expect("a position of both walks");
    let count = count_turns(&pos);
    let mut out = vec![format!("count {count:?}")];
    let Ok(count) = count else { return out };
    let mut results = Results::new();
    let mut children = Vec::new();
    results.fill(&pos, &mut children);
    let mut fens: Vec<String> = children.iter().map(|c| c.position.fen()).collect();
    fens.sort();
    out.push(format!("results {} turns {}: {fens:?}", children.len(), results.turns()));
    let mut balls = Vec::new();
    results.ball_squares(&pos, &mut balls);
    balls.sort();
    out.push(format!("ball squares {balls:?}"));
    let scoring = first_scoring_turn(&pos, pos.side()).is_some();
    out.push(format!("scores now {scoring}"));
    if count <= LISTED {
        let listed = legal_turns_unbounded(&pos);
        // The order of the list is each walk's own, but nth_turn follows it.
        for i in [0, listed.len() / 2, listed.len().saturating_sub(1)] {
            assert_eq!(nth_turn(&pos, i as u64).as_ref(), listed.get(i), "{fen} turn {i}");
        }
        let mut listed: Vec<String> = listed.iter().map(ToString::to_string).collect();
        listed.sort();
        out.push(format!("turns {listed:?}"));
    }
    if deep {
        let options = crate::movegen::PerftOptions::default();
        out.push(format!("perft 2 {:?}", perft(&pos, 2, &options, None)));
    }
    out
}

/// The first thing the two walks say differently of `rules`' positions.
fn disagreement(rules: &Rules) -> Option<String> {
    let general = rules.with_general_walker();
    assert!(!general.tables().walks_chains());
    let options = crate::movegen::PerftOptions::default();
    for fen in positions(rules) {
        let pos = Position::from_fen(rules, &fen).expect("a position of the rules");
        let deep = perft(&pos, 2, &options, None).is_ok_and(|n| n <= DEEP);
        let (chains, walked) = (said(rules, &fen, deep), said(&general, &fen, deep));
        if let Some((a, b)) = chains.iter().zip(&walked).find(|(a, b)| a != b) {
            return Some(format!("{fen}:\n  chains:  {a}\n  general: {b}"));
        }
    }
    None
}

/// Every key, with each of its values: beyond Boyer's family where the key table says so,
/// else the same turns under both walks. A key whose values may keep a definition within the
/// family must have one that does, tried on Boyer's game.
#[test]
fn every_value_of_every_key_leaves_the_family_or_walks_alike() {
    let mut failures = Vec::new();
    let (mut compared, mut beyond) = (0, 0);
    for (path, key) in leaves() {
        let dotted = path.join(".");
        let values = values(&dotted, key);
        let (mut loaded, mut within) = (0, 0);
        for (value, more) in &values {
            let Some(def) = BASES.iter().find_map(|base| {
                load_text("sample.toml", &definition(base, &path, value, more)).ok()
            }) else {
                continue;
            };
            loaded += 1;
            let rules = &def.rules;
            let in_family = rules.tables().walks_chains();
            let must_leave = match key.family {
                Family::Any => false,
                Family::Default => true,
                Family::PlainBetza => value.contains(|c| "mcine".contains(c)),
            };
            if must_leave && in_family {
                failures.push(format!("`{dotted} = {value}` stays in Boyer's family"));
            }
            if !in_family {
                beyond += 1;
                continue;
            }
            (compared, within) = (compared + 1, within + 1);
            if let Some(d) = disagreement(rules) {
                failures.push(format!("`{dotted} = {value}`: the walks disagree at {d}"));
            }
        }
        if !values.is_empty() && loaded == 0 {
            failures.push(format!("no value of `{dotted}` makes a definition: add a sample"));
        }
        let may_stay =
            key.family != Family::Default && !matches!(key.ty, Ty::Table(_) | Ty::Pieces(_));
        if may_stay && !values.is_empty() && within == 0 {
            failures.push(format!(
                "no value of `{dotted}` keeps Boyer's game in its family: add a sample, or \
                 declare the key `Family::Default`"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 40 && beyond >= 20, "{compared} compared, {beyond} beyond the family");
}

/// The shipped variants of Boyer's family (the others carry the ball, capture, enter the ball's
/// square or move several pieces a turn) walk alike.
#[test]
fn the_shipped_games_of_boyers_family_walk_alike() {
    let mut family = Vec::new();
    for name in crate::definition::shipped::names() {
        let def = crate::definition::load_shipped(name).unwrap();
        if def.rules.tables().walks_chains() {
            family.push(name);
            assert_eq!(disagreement(&def.rules), None, "{name}");
        }
    }
    assert_eq!(family, ["boyer-1951", "vchess", "football-960", "mini", "stadium"]);
}
