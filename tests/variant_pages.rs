//! A page per variant: `GET /api/variants/{key}/page` for every shipped variant and for a
//! definition the server keeps by its hash, its rules in words as `kickoff explain` gives them,
//! its diagrams, and what the solver says of its start, computed once in the background.

#![cfg(unix)]

use std::time::{Duration, Instant};

use kickoff::definition::{load_shipped, shipped};
use kickoff::render::explain::explain;
use serde_json::{Value, json};

mod lobby_api;
use lobby_api::{Scratch, Server};

/// A variant's page whose facts are settled, asked for again until they are.
fn settled_page(server: &Server, key: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let (status, page) = server.get(&format!("/api/variants/{key}/page"), None);
        if status == 200 && page["facts"]["status"] == "settled" {
            return page;
        }
        assert!(
            [200, 429, 503].contains(&status),
            "{key}: {status} {}",
            page.to_string().chars().take(400).collect::<String>()
        );
        assert!(Instant::now() < deadline, "{key}: the facts were never settled");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// A page's diagrams: every one an SVG drawing of the renderer's.
fn check_drawings(key: &str, page: &Value) {
    let rules = load_shipped(key).map(|d| d.rules);
    for svg in [&page["start"], &page["field"]["svg"]] {
        assert!(svg.as_str().unwrap().starts_with("<svg "), "{key}");
    }
    let pieces = page["pieces"].as_array().unwrap();
    if let Ok(rules) = rules {
        assert_eq!(pieces.len(), rules.pieces().len(), "{key}: a diagram per piece type");
    }
    for piece in pieces {
        let svg = piece["svg"].as_str().unwrap();
        assert!(svg.starts_with("<svg "), "{key}");
        let from = piece["from"].as_str().unwrap();
        assert!(svg.contains(&format!("<use class=\"piece\" data-square=\"{from}\"")), "{key}");
        let moves = piece["moves"].as_array().unwrap().len();
        let kicks = piece["kicks"].as_array().unwrap().len();
        assert_eq!(svg.matches("class=\"reach-move\"").count(), moves, "{key}");
        assert_eq!(svg.matches("class=\"reach-kick\"").count(), kicks, "{key}");
        assert!(moves > 0, "{key}: {piece}");
    }
}

#[test]
fn every_shipped_variant_has_a_page() {
    let dir = Scratch::new("shipped");
    let server = Server::start(&dir.0);
    for name in shipped::names() {
        let (status, page) = server.get(&format!("/api/variants/{name}/page"), None);
        assert_eq!(status, 200, "{name}: {page}");
        let def = load_shipped(name).unwrap();
        assert_eq!(page["key"], name);
        assert_eq!(page["shipped"], name);
        assert_eq!(page["title"], def.rules.info().name.as_str());
        assert_eq!(page["explain"].as_str(), Some(explain(&def.rules).as_str()), "{name}");
        assert_eq!(page["text"].as_str(), shipped::shipped(name).map(|(_, t)| t));
        assert!(page["description"].is_string(), "{name}");
        check_drawings(name, &page);
        assert!(["computing", "settled"].contains(&page["facts"]["status"].as_str().unwrap()));
    }
    // The zones are shaded where a variant has them, and only there.
    let (_, chessball) = server.get("/api/variants/chessball-1957/page", None);
    assert!(chessball["field"]["svg"].as_str().unwrap().contains("class=\"zone\""));
    assert!(chessball["start"].as_str().unwrap().contains("class=\"zone\""));
    assert!(chessball["field"]["zoned"].is_string());
    assert_eq!(chessball["field"]["zones"].as_array().unwrap().len(), 3);
    let (_, boyer) = server.get("/api/variants/boyer-1951/page", None);
    assert!(!boyer["field"]["svg"].as_str().unwrap().contains("class=\"zone\""));
    assert!(boyer["field"]["zoned"].is_null());
    assert_eq!(boyer["field"]["goals"][0]["squares"], "e9");

    for name in ["boyer-1951", "vchess"] {
        let page = settled_page(&server, name);
        let facts = &page["facts"];
        let forced = facts["forced"].as_array().unwrap();
        assert_eq!(forced[0]["turns"], 2, "{name}: {facts}");
        assert_eq!(forced[0]["unknown"], false, "{name}: {facts}");
        assert!(!facts["lines"].as_array().unwrap().is_empty());
        // Boyer's game and vchess.club's: nobody forces a goal from the start within two turns.
        assert!(forced[0]["first_wins_in"].is_null(), "{name}: {facts}");
        assert!(forced[0]["second_wins_in"].is_null(), "{name}: {facts}");
        assert!(
            facts["lines"][0].as_str().unwrap().starts_with("Neither side forces a goal"),
            "{name}: {facts}"
        );
    }
    // The facts are kept: asked again, they come at once.
    let (_, again) = server.get("/api/variants/boyer-1951/page", None);
    assert_eq!(again["facts"]["status"], "settled");
}

#[test]
fn football_960s_setups_are_counted_from_its_survey() {
    let dir = Scratch::new("960");
    let server = Server::start(&dir.0);
    let page = settled_page(&server, "football-960");
    assert_eq!(page["random_setup"], true);
    let setups = &page["facts"]["setups"];
    assert_eq!(setups["count"], 2880);
    let two = setups["forced_within_2"].as_u64().unwrap();
    let three = setups["forced_within_3"].as_u64().unwrap();
    assert!(0 < three && two <= three, "{setups}");
}

#[test]
fn an_unknown_key_is_not_found() {
    let dir = Scratch::new("unknown");
    let server = Server::start(&dir.0);
    for key in ["no-such-variant", "0123456789abcdef01234567", "..%2F..%2Fetc%2Fpasswd", "MINI"] {
        let (status, body) = server.get(&format!("/api/variants/{key}/page"), None);
        assert_eq!(status, 404, "{key}: {body}");
        assert!(body["error"].as_str().unwrap().contains("no variant is named"), "{body}");
    }
}

#[test]
fn a_stored_definition_has_a_page_by_its_hash() {
    let dir = Scratch::new("stored");
    let server = Server::start(&dir.0);
    let text =
        shipped::shipped("mini").unwrap().1.replacen("name = ", "name = \"Mini <b>&</b>\"\n# ", 1);
    let (status, created) = server.call(
        "POST",
        "/api/games",
        None,
        Some(&json!({"opponent": "hotseat", "definition": text})),
    );
    assert_eq!(status, 200, "{created}");
    let url = created["url"].as_str().unwrap();
    let (_, game) = server.get(&format!("/api{}", url.replacen("/play", "/games", 1)), None);
    let stored = game["variant"].as_str().unwrap().to_owned();
    let hash = stored.strip_suffix(".toml").unwrap();
    assert_eq!(hash.len(), 24, "{stored}");
    for key in [hash, stored.as_str()] {
        let (status, page) = server.get(&format!("/api/variants/{key}/page"), None);
        assert_eq!(status, 200, "{key}: {page}");
        assert_eq!(page["key"], hash);
        assert!(page["shipped"].is_null());
        assert_eq!(page["title"], "Mini <b>&</b>");
        assert_eq!(page["text"].as_str(), Some(text.as_str()));
        let def = kickoff::definition::load_text("x.toml", &text).unwrap();
        assert_eq!(page["explain"].as_str(), Some(explain(&def.rules).as_str()));
        check_drawings(key, &page);
        // The name is markup-escaped in the drawings' labels.
        let start = page["start"].as_str().unwrap();
        assert!(start.contains("Mini &lt;b&gt;&amp;&lt;/b&gt; board"), "{start}");
        assert!(!start.contains("<b>"));
    }
    let page = settled_page(&server, hash);
    assert_eq!(page["facts"]["forced"][0]["unknown"], false, "{}", page["facts"]);
}
