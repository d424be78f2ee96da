//! Publishing variants through the HTTP API (`docs/api.md`): versions by the hash of their
//! text, who sees what (private, unlisted, public, hidden), the gallery's search, the limits,
//! games of published versions (against the engine, and from the lobby's seeks) that keep
//! their version, and a database of the first schema brought up to date. Each test runs
//! `kickoff serve` itself on a scratch data folder.

#![cfg(unix)]

use serde_json::{Value, json};

mod lobby_api;
use lobby_api::{PASSWORD, Scratch, Server, make_admin};

/// Publishes `text` as `name` for the account of cookie `who`.
fn publish(server: &Server, who: &str, name: &str, visibility: &str, text: &str) -> (u16, Value) {
    let body = json!({"name": name, "visibility": visibility, "text": text});
    server.call("POST", "/api/published", Some(who), Some(&body))
}

/// The gallery's variants for a query, as `owner/name`.
fn gallery(server: &Server, query: &str) -> Vec<String> {
    let (status, body) = server.get(&format!("/api/gallery?{query}"), None);
    assert_eq!(status, 200, "{body}");
    body["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| format!("{}/{}", v["owner"].as_str().unwrap(), v["name"].as_str().unwrap()))
        .collect()
}

/// A definition of Mini Football's rules (7x7, a kicked ball) under another title.
fn mini(title: &str) -> String {
    format!("extends = \"mini\"\n\n[variant]\nname = \"{title}\"\n")
}

/// A definition of a carried ball on vchess-ball's board.
fn carried(title: &str) -> String {
    format!("extends = \"vchess-ball\"\n\n[variant]\nname = \"{title}\"\n")
}

fn is_version(v: &Value) -> bool {
    let text = v.as_str().unwrap_or("");
    text.len() == 29
        && text.ends_with(".toml")
        && text[..24].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[test]
fn a_variant_is_published_in_versions_and_seen_as_its_visibility_says() {
    let dir = Scratch::new("visibility");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let bob = server.account("bob");

    // Signed out, nothing is published.
    let body = json!({"name": "tiny", "visibility": "public", "text": mini("Tiny")});
    assert_eq!(server.call("POST", "/api/published", None, Some(&body)).0, 401);
    // A page of another site cannot publish with Alice's cookie.
    let (status, _, _) = server.request(
        "POST",
        "/api/published",
        Some(&alice),
        Some(&body),
        &[("Origin", "http://elsewhere.example")],
    );
    assert_eq!(status, 403);
    let (status, _, _) = server.request(
        "PATCH",
        "/api/published/alice/tiny",
        Some(&alice),
        Some(&json!({"visibility": "private"})),
        &[("Sec-Fetch-Site", "cross-site")],
    );
    assert_eq!(status, 403);

    // The first version.
    let (status, first) = publish(&server, &alice, "tiny", "public", &mini("Tiny"));
    assert_eq!(status, 201, "{first}");
    assert!(is_version(&first["version"]), "{first}");
    let v1 = first["version"].as_str().unwrap().to_owned();
    assert_eq!(first["page"], format!("/variants/{v1}"));
    assert_eq!((first["title"].as_str(), first["files"].as_u64()), (Some("Tiny"), Some(7)));
    assert_eq!(first["ball"], "kicked");
    assert_eq!(first["versions"].as_array().unwrap().len(), 1);
    // A definition with errors is refused as the editor's check refuses it.
    let (status, body) = publish(&server, &alice, "broken", "public", "[board]\nfiles = 99\n");
    assert_eq!(status, 422, "{body}");
    assert!(body["errors"].as_u64().unwrap() > 0);

    // An edit of the same name is a new version, newest first; the same text again is not.
    let (status, second) = publish(&server, &alice, "Tiny", "public", &mini("Tiny II"));
    assert_eq!(status, 200, "{second}");
    let v2 = second["version"].as_str().unwrap().to_owned();
    assert_ne!(v1, v2);
    let versions: Vec<&str> = second["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, [v2.as_str(), v1.as_str()]);
    assert_eq!(second["versions"][1]["page"], format!("/variants/{v1}"));
    let (status, again) = publish(&server, &alice, "tiny", "public", &mini("Tiny II"));
    assert_eq!(status, 200);
    assert_eq!(again["versions"].as_array().unwrap().len(), 2);
    // Its text is the newest version's, for cloning; anyone sees a public variant.
    let (status, seen) = server.get("/api/published/alice/tiny", None);
    assert_eq!(status, 200);
    assert_eq!(seen["text"], mini("Tiny II"));
    assert_eq!(gallery(&server, "q=tiny"), ["alice/tiny"]);
    let (status, svg, headers) =
        server.request("GET", &format!("/api/diagrams/{v2}"), None, None, &[]);
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "image/svg+xml");
    assert!(svg.as_str().unwrap().starts_with("<svg"));

    // A private variant: to anyone but its owner, as if there were none (404, not 403).
    let (status, secret) = publish(&server, &alice, "secret", "private", &mini("Secret"));
    assert_eq!(status, 201);
    let hidden_version = secret["version"].as_str().unwrap().to_owned();
    assert_eq!(server.get("/api/published/alice/secret", Some(&alice)).0, 200);
    for who in [None, Some(bob.as_str())] {
        let (status, body) = server.get("/api/published/alice/secret", who);
        assert_eq!(status, 404);
        assert_eq!(body, server.get("/api/published/alice/nothing", who).1);
        assert_eq!(server.get(&format!("/api/diagrams/{hidden_version}"), who).0, 404);
        let game = json!({"opponent": "engine", "published": hidden_version});
        assert_eq!(server.call("POST", "/api/games", who, Some(&game)).0, 404);
    }
    let patch = json!({"visibility": "public"});
    assert_eq!(
        server.call("PATCH", "/api/published/alice/secret", Some(&bob), Some(&patch)).0,
        404
    );
    assert_eq!(server.call("PATCH", "/api/published/alice/tiny", Some(&bob), Some(&patch)).0, 403);
    assert!(!gallery(&server, "").contains(&"alice/secret".to_owned()));
    // Its owner plays it against the engine.
    let game = json!({"opponent": "engine", "published": hidden_version});
    assert_eq!(server.call("POST", "/api/games", Some(&alice), Some(&game)).0, 200);
    let mine = server.get("/api/my/variants", Some(&alice)).1;
    let names: Vec<&str> =
        mine.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["secret", "tiny"]);
    assert_eq!(server.get("/api/my/variants", None).0, 401);

    // Unlisted: reached by its link, not listed.
    let (status, link) = publish(&server, &alice, "by-link", "unlisted", &mini("By Link"));
    assert_eq!(status, 201);
    assert_eq!(server.get("/api/published/alice/by-link", Some(&bob)).0, 200);
    let unlisted = link["version"].as_str().unwrap();
    assert_eq!(server.get(&format!("/api/diagrams/{unlisted}"), None).0, 200);
    assert!(gallery(&server, "").iter().all(|v| v != "alice/by-link"));
    // Its owner lists it (PATCH), then makes it private (POST .../visibility).
    let (status, body) =
        server.call("PATCH", "/api/published/alice/by-link", Some(&alice), Some(&patch));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["visibility"], "public");
    assert!(gallery(&server, "").contains(&"alice/by-link".to_owned()));
    let private = json!({"visibility": "private"});
    let path = "/api/published/alice/by-link/visibility";
    assert_eq!(server.call("POST", path, Some(&alice), Some(&private)).0, 200);
    assert_eq!(server.get("/api/published/alice/by-link", Some(&bob)).0, 404);
    assert!(gallery(&server, "").iter().all(|v| v != "alice/by-link"));
    let nonsense = json!({"visibility": "everyone"});
    assert_eq!(server.call("POST", path, Some(&alice), Some(&nonsense)).0, 422);
}

#[test]
fn the_gallery_is_searched_by_name_author_board_and_ball() {
    let dir = Scratch::new("gallery");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let bob = server.account("bob");
    assert_eq!(publish(&server, &alice, "tiny", "public", &mini("Tiny")).0, 201);
    assert_eq!(publish(&server, &alice, "holder", "public", &carried("Holder")).0, 201);
    assert_eq!(publish(&server, &bob, "small-world", "public", &mini("Small World")).0, 201);

    let mut all = gallery(&server, "");
    all.sort();
    assert_eq!(all, ["alice/holder", "alice/tiny", "bob/small-world"]);
    // The most recently published first.
    assert_eq!(all.len(), 3);
    assert_eq!(gallery(&server, "")[0], "bob/small-world");
    // By name or title, in any case; `%` and `_` are themselves.
    assert_eq!(gallery(&server, "q=TIN"), ["alice/tiny"]);
    assert_eq!(gallery(&server, "q=world"), ["bob/small-world"]);
    assert_eq!(publish(&server, &bob, "odd-title", "public", &mini("100% Odd_Title")).0, 201);
    assert_eq!(gallery(&server, "q=%25"), ["bob/odd-title"]);
    assert_eq!(gallery(&server, "q=_"), ["bob/odd-title"]);
    assert_eq!(gallery(&server, "q=0%25"), ["bob/odd-title"]);
    assert!(gallery(&server, "q=1%25").is_empty());
    // By author, board and ball.
    assert_eq!(gallery(&server, "author=BOB&q=world"), ["bob/small-world"]);
    assert_eq!(gallery(&server, "author=bob").len(), 2);
    assert!(gallery(&server, "author=nobody").is_empty());
    let (_, holder) = server.get("/api/published/alice/holder", None);
    let (files, ranks) = (holder["files"].as_u64().unwrap(), holder["ranks"].as_u64().unwrap());
    assert_ne!(files, 7);
    let mut sevens = gallery(&server, "files=7");
    sevens.sort();
    assert_eq!(sevens, ["alice/tiny", "bob/odd-title", "bob/small-world"]);
    assert_eq!(gallery(&server, &format!("files={files}&ranks={ranks}")), ["alice/holder"]);
    assert_eq!(gallery(&server, "ranks=7&author=alice"), ["alice/tiny"]);
    assert_eq!(gallery(&server, "ball=carried"), ["alice/holder"]);
    assert_eq!(gallery(&server, "ball=kicked&q=tiny"), ["alice/tiny"]);
    assert!(gallery(&server, "files=5").is_empty());
    // Pages.
    let (_, page) = server.get("/api/gallery?page=2", None);
    assert_eq!((page["total"].as_u64(), page["pages"].as_u64()), (Some(4), Some(1)));
    assert!(page["variants"].as_array().unwrap().is_empty());
    // What the search cannot mean is refused.
    assert_eq!(server.get("/api/gallery?ball=rolled", None).0, 400);
    assert_eq!(server.get("/api/gallery?files=seven", None).0, 400);
    assert_eq!(server.get("/api/gallery?page=-1", None).0, 400);
    let long = "x".repeat(101);
    assert_eq!(server.get(&format!("/api/gallery?q={long}"), None).0, 400);
}

#[test]
fn publishing_is_limited_in_names_sizes_and_versions_a_day() {
    let dir = Scratch::new("limits");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    for bad in ["a", "no spaces", "<b>", "-dash-first", &"x".repeat(41)] {
        let (status, body) = publish(&server, &alice, bad, "public", &mini("Tiny"));
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().contains("letters, digits"), "{body}");
    }
    let large = format!("{}# {}\n", mini("Large"), "x".repeat(1 << 20));
    let (status, body) = publish(&server, &alice, "large", "public", &large);
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("at most"), "{body}");
    // 20 versions a day, whatever their variants.
    for n in 0..20 {
        let name = if n % 2 == 0 { "even" } else { "odd" };
        let (status, body) = publish(&server, &alice, name, "public", &mini(&format!("Tiny {n}")));
        assert!(status == 200 || status == 201, "{n}: {body}");
    }
    let (status, body, headers) = server.request(
        "POST",
        "/api/published",
        Some(&alice),
        Some(&json!({"name": "even", "visibility": "public", "text": mini("One more")})),
        &[],
    );
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].as_str().unwrap().contains("20 versions a day"), "{body}");
    let seconds: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((80_000..=86_400).contains(&seconds), "{seconds}");
    // Publishing a version published already adds none, and is not refused.
    assert_eq!(publish(&server, &alice, "even", "public", &mini("Tiny 18")).0, 200);
    // Another account has its own count.
    let bob = server.account("bob");
    assert_eq!(publish(&server, &bob, "even", "public", &mini("Tiny")).0, 201);
}

#[test]
fn an_administrator_hides_a_variant_and_shows_it_again() {
    let dir = Scratch::new("hide");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let bob = server.account("bob");
    let carol = server.account("carol");
    assert_eq!(publish(&server, &alice, "rude", "public", &mini("Rude")).0, 201);
    assert_eq!(server.call("POST", "/api/published/alice/rude/hide", Some(&bob), None).0, 403);
    assert_eq!(server.call("POST", "/api/published/alice/rude/hide", None, None).0, 401);
    make_admin(&dir.0, "bob");
    assert_eq!(server.call("POST", "/api/published/alice/rude/hide", Some(&bob), None).0, 204);
    assert!(gallery(&server, "").is_empty());
    assert_eq!(server.get("/api/published/alice/rude", Some(&carol)).0, 404);
    let (status, own) = server.get("/api/published/alice/rude", Some(&alice));
    assert_eq!(status, 200);
    assert_eq!(own["hidden"], true);
    assert_eq!(server.get("/api/published/alice/rude", Some(&bob)).0, 200);
    assert_eq!(server.call("POST", "/api/published/alice/rude/unhide", Some(&bob), None).0, 204);
    assert_eq!(gallery(&server, ""), ["alice/rude"]);
    assert_eq!(server.get("/api/published/alice/rude", Some(&carol)).0, 200);
}

#[test]
fn a_game_keeps_the_version_it_started_with() {
    let dir = Scratch::new("versions");
    let mut server = Server::start(&dir.0);
    let alice = server.account("alice");
    let bob = server.account("bob");
    let (_, first) = publish(&server, &alice, "tiny", "public", &mini("Tiny"));
    let v1 = first["version"].as_str().unwrap().to_owned();

    // A lobby game of version 1, from a seek, and a game of it against the engine.
    let seek = json!({"variant": v1, "clock": {"days": 3}, "color": "white"});
    let (status, body) = server.call("POST", "/api/seeks", Some(&alice), Some(&seek));
    assert_eq!(status, 201, "{body}");
    let seeks = server.get("/api/seeks", Some(&bob)).1;
    assert_eq!(seeks[0]["variant"], v1.as_str());
    assert_eq!(seeks[0]["title"], "Tiny", "a published version's seek carries its title");
    let accept = format!("/api/seeks/{}/accept", body["id"].as_str().unwrap());
    let (status, made) = server.call("POST", &accept, Some(&bob), None);
    assert_eq!(status, 201, "{made}");
    let game = format!("/api/games/{}", made["game"].as_str().unwrap());
    let engine = json!({"opponent": "engine", "published": v1, "level": 1});
    let (status, by_link) = server.call("POST", "/api/games", None, Some(&engine));
    assert_eq!(status, 200, "{by_link}");
    let linked = format!(
        "/api/games/{}/{}",
        by_link["id"].as_str().unwrap(),
        by_link["key"].as_str().unwrap()
    );
    // Neither a shipped name nor a version that was never published is sought.
    let unknown = json!({"variant": format!("{}.toml", "0".repeat(24)), "clock": {"days": 3}});
    assert_eq!(server.call("POST", "/api/seeks", Some(&alice), Some(&unknown)).0, 404);

    // Version 2 is published; both games are still of version 1, and go on.
    let (status, second) = publish(&server, &alice, "tiny", "public", &mini("Tiny II"));
    assert_eq!(status, 200);
    assert_ne!(second["version"], v1.as_str());
    let (_, view) = server.get(&game, None);
    assert_eq!(
        (view["variant"].as_str(), view["title"].as_str()),
        (Some(v1.as_str()), Some("Tiny"))
    );
    let (_, view) = server.get(&linked, None);
    assert_eq!(
        (view["variant"].as_str(), view["title"].as_str()),
        (Some(v1.as_str()), Some("Tiny"))
    );
    let turn = json!({"turn": "--"});
    let (status, _) = server.call("POST", &format!("{game}/turn"), Some(&alice), Some(&turn));
    assert!(status == 200 || status == 400, "{status}");

    // And after a restart, read back from the database.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    server = Server::start(&dir.0);
    let (status, view) = server.get(&game, None);
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        (view["variant"].as_str(), view["title"].as_str()),
        (Some(v1.as_str()), Some("Tiny"))
    );
    let alice = server.login("alice", PASSWORD);
    let (_, latest) = server.get("/api/published/alice/tiny", Some(&alice));
    assert_eq!(latest["title"], "Tiny II");
    assert_eq!(latest["versions"].as_array().unwrap().len(), 2);
}

/// A private variant is never offered to the whole lobby: its owner challenges a player by
/// name, who may then play it.
#[test]
fn a_private_variant_is_offered_only_by_challenge() {
    let dir = Scratch::new("private-seek");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let bob = server.account("bob");
    let (_, published) = publish(&server, &alice, "secret", "private", &mini("Secret"));
    let version = published["version"].as_str().unwrap().to_owned();
    let open = json!({"variant": version, "clock": {"days": 3}, "color": "white"});
    let (status, body) = server.call("POST", "/api/seeks", Some(&alice), Some(&open));
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("challenge a player by name"), "{body}");
    assert_eq!(server.get("/api/seeks", Some(&bob)).1.as_array().map(Vec::len), Some(0));
    // Bob cannot seek it either, nor read its page: he cannot see it.
    assert_eq!(server.call("POST", "/api/seeks", Some(&bob), Some(&open)).0, 404);
    let page = format!("/api/variants/{version}/page");
    assert_eq!(server.get(&page, Some(&bob)).0, 404);
    assert_eq!(server.get(&page, None).0, 404);
    let (status, body) = server.get(&page, Some(&alice));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["title"], "Secret");
    let challenge =
        json!({"variant": version, "clock": {"days": 3}, "color": "white", "to": "bob"});
    // The page's analysis may still be running for Alice on a busy machine: her requests are
    // bounded, so she waits for it (at most ten seconds) as the answer says.
    let mut tries = 0;
    let (status, body) = loop {
        let (status, body) = server.call("POST", "/api/seeks", Some(&alice), Some(&challenge));
        tries += 1;
        if status != 429 || tries == 40 {
            break (status, body);
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    };
    assert_eq!(status, 201, "{body}");
    let accept = format!("/api/seeks/{}/accept", body["id"].as_str().unwrap());
    assert_eq!(server.call("POST", &accept, Some(&bob), None).0, 201);
    // Once unlisted, it may be sought by anyone who has its link.
    let change = json!({"visibility": "unlisted"});
    let (status, _) =
        server.call("PATCH", "/api/published/alice/secret", Some(&alice), Some(&change));
    assert_eq!(status, 200);
    assert_eq!(server.call("POST", "/api/seeks", Some(&alice), Some(&open)).0, 201);
}

#[test]
fn a_database_of_the_first_schema_is_brought_up_to_date_whole() {
    let dir = Scratch::new("upgrade");
    let path = dir.0.join("kickoff.db");
    let hash = kickoff::web::lobby::accounts::hash_password("correct horse").unwrap();
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(include_str!("../src/web/db/schema-1.sql")).unwrap();
        c.pragma_update(None, "user_version", 1).unwrap();
        c.execute(
            "INSERT INTO users (name, password, created) VALUES ('alice', ?1, 1), ('bob', ?1, 1)",
            [&hash],
        )
        .unwrap();
        c.execute(
            "INSERT INTO games (id, head, variant, white, black, clock, result, termination, \
             plies, created, updated) VALUES ('0123456789abcdef01234567', ?1, 'boyer-1951', 1, \
             2, '{\"days\":3}', '1-0', 'resignation', 0, 1, 1)",
            ["[Variant \"boyer-1951\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]"],
        )
        .unwrap();
        c.execute(
            "INSERT INTO definitions (name, text) VALUES ('00112233445566778899aabb.toml', ?1)",
            [mini("Old")],
        )
        .unwrap();
    }
    let server = Server::start(&dir.0);
    // What was there is there.
    let alice = server.login("alice", PASSWORD);
    let (status, games) = server.get("/api/my/games", Some(&alice));
    assert_eq!(status, 200, "{games}");
    assert_eq!(games[0]["id"], "0123456789abcdef01234567");
    assert_eq!(games[0]["result"], "1-0");
    // And variants are published.
    let (status, body) = publish(&server, &alice, "tiny", "public", &mini("Tiny"));
    assert_eq!(status, 201, "{body}");
    drop(server);
    let c = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = c.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, 2);
    let kept: String = c
        .query_row(
            "SELECT text FROM definitions WHERE name = '00112233445566778899aabb.toml'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, mini("Old"));
    let users: i64 = c.query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0)).unwrap();
    assert_eq!(users, 2);
}
