//! The lobby's HTTP API as a bot or a script calls it (`docs/api.md`): accounts, sessions and
//! tokens, seeks and challenges, games between accounts with clocks, their public state and
//! events, chat, rematches, and what must be refused. Each test runs `kickoff serve` itself on
//! a scratch data folder, so that restarts and `kill -9` are real.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod lobby_api;
use lobby_api::{Scratch, Server, agent, make_admin};

/// A game of Boyer's rules in which White scores at the 79th turn.
fn game_turns() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/turns-79.txt"),
    )
    .unwrap();
    text.lines().map(str::to_owned).collect()
}

const CORRESPONDENCE: fn() -> Value =
    || json!({"variant": "boyer-1951", "clock": {"days": 3}, "color": "white"});

#[test]
fn accounts_sign_in_by_cookie_or_token_and_names_are_unique() {
    let dir = Scratch::new("accounts");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let (status, body) = server.get("/api/me", Some(&alice));
    assert_eq!((status, body["name"].as_str()), (200, Some("alice")));
    let (status, body) = server.get("/api/me", None);
    assert_eq!((status, body["name"].clone()), (200, Value::Null));
    // The name is taken in any case.
    let (status, _) = server.call(
        "POST",
        "/api/account",
        None,
        Some(&json!({"name": "ALICE", "password": "12345678"})),
    );
    assert_eq!(status, 409);
    let (status, _) = server.call(
        "POST",
        "/api/account",
        None,
        Some(&json!({"name": "bo", "password": "short"})),
    );
    assert_eq!(status, 400);
    // Signing in, with the right password only.
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "alice", "password": "correct horse"})),
    );
    assert_eq!(status, 200);
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "alice", "password": "wrong one"})),
    );
    assert_eq!(status, 401);
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "nobody", "password": "wrong one"})),
    );
    assert_eq!(status, 401);
    // A token signs a script in; a made-up one does not.
    let token = server.token(&alice);
    assert!(token.starts_with("kt_"));
    assert_eq!(server.get("/api/me", Some(&token)).1["name"], "alice");
    assert_eq!(server.get("/api/me", Some("kt_0000")).1["name"], Value::Null);
    assert_eq!(server.call("POST", "/api/tokens", None, None).0, 401);
    // Signing out ends the session.
    assert_eq!(server.call("POST", "/api/logout", Some(&alice), None).0, 204);
    assert_eq!(server.get("/api/me", Some(&alice)).1["name"], Value::Null);
    assert_eq!(server.get("/api/me", Some(&token)).1["name"], "alice");
}

#[test]
fn sign_in_attempts_are_limited_per_client() {
    let dir = Scratch::new("login-rate");
    let server = Server::start(&dir.0);
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let wrong = json!({"name": "carol", "password": "not this one"});
        statuses.push(server.call("POST", "/api/login", None, Some(&wrong)).0);
    }
    assert_eq!(&statuses[..10], &[401; 10]);
    assert_eq!(statuses[11], 429, "{statuses:?}");
}

#[test]
fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits() {
    let dir = Scratch::new("proxy");
    let trusting = Server::with(&dir.0, &["--trust-proxy", "127.0.0.1"]);
    let other = Scratch::new("no-proxy");
    let believing_no_one = Server::start(&other.0);
    let login = |server: &Server, from: &str| {
        let wrong = json!({"name": "carol", "password": "not this one"});
        agent()
            .post(&format!("{}/api/login", server.base))
            .header("X-Forwarded-For", format!("198.51.100.1, {from}"))
            .send_json(&wrong)
            .unwrap()
            .status()
            .as_u16()
    };
    for server in [&trusting, &believing_no_one] {
        let statuses: Vec<u16> = (0..12).map(|_| login(server, "203.0.113.5")).collect();
        assert_eq!(&statuses[..10], &[401; 10]);
        assert_eq!(statuses[11], 429, "{statuses:?}");
    }
    // Another address behind the proxy has attempts of its own; a server that trusts no proxy
    // counts the proxy's address, whatever the header claims.
    assert_eq!(login(&trusting, "203.0.113.6"), 401);
    assert_eq!(login(&believing_no_one, "203.0.113.6"), 429);
}

#[test]
fn a_seek_accepted_makes_a_game_that_its_players_play_and_anyone_watches() {
    let dir = Scratch::new("play");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let carol = server.account("carol");
    let (status, _) =
        server.post("/api/seeks", &alice, &json!({"variant": "nope", "clock": {"days": 1}}));
    assert_eq!(status, 400);
    let (status, _) =
        server.post("/api/seeks", &alice, &json!({"variant": "boyer-1951", "clock": {"days": 99}}));
    assert_eq!(status, 400);
    let (_, seek) = server.post("/api/seeks", &alice, &CORRESPONDENCE());
    let seek = seek["id"].as_str().unwrap().to_owned();
    let (_, seeks) = server.get("/api/seeks", None);
    assert!(
        seeks.as_array().unwrap().iter().any(|s| s["id"] == seek.as_str() && s["user"] == "alice")
    );
    // One's own seek is not accepted; someone else's is, once.
    assert_eq!(server.post(&format!("/api/seeks/{seek}/accept"), &alice, &json!({})).0, 409);
    let (status, made) = server.post(&format!("/api/seeks/{seek}/accept"), &bob, &json!({}));
    assert_eq!(status, 201, "{made}");
    let game = made["game"].as_str().unwrap().to_owned();
    assert_eq!(server.post(&format!("/api/seeks/{seek}/accept"), &carol, &json!({})).0, 404);

    let (status, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(status, 200);
    assert_eq!((state["white"].as_str(), state["black"].as_str()), (Some("alice"), Some("bob")));
    assert_eq!(state["result"], Value::Null);
    assert_eq!(state["key"], Value::Null, "a spectator is given no key");
    assert!(state["clock"]["white"].as_i64().unwrap() > 2 * 86_400_000);

    let turn = |who: &str, text: &str| {
        server.post(&format!("/api/games/{game}/turn"), who, &json!({"turn": text}))
    };
    assert_eq!(turn(&bob, "Nc3").0, 403, "Black may not play White's turn");
    assert_eq!(turn(&carol, "Nc3").0, 403, "a spectator may not play");
    let (status, body) = turn(&alice, "Nc9");
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().len() > 10, "{body}");
    let (status, _) = server.call(
        "POST",
        &format!("/api/games/{game}/turn"),
        None,
        Some(&json!({"turn": "Nc3"})),
    );
    assert_eq!(status, 401);

    // A spectator's event stream counts, and hears the turns.
    let events = agent().get(&format!("{}/api/games/{game}/events", server.base)).call().unwrap();
    let mut lines = BufReader::new(events.into_body().into_reader()).lines();
    assert!(lines.next().unwrap().unwrap().starts_with("event: update"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.get(&format!("/api/games/{game}"), None).1["spectators"] != 1 {
        assert!(Instant::now() < deadline, "the spectator is never counted");
        std::thread::sleep(Duration::from_millis(20));
    }

    // The game played to White's goal.
    let turns = game_turns();
    for (i, text) in turns.iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let (status, body) = turn(who, text);
        assert_eq!(status, 200, "turn {i} {text}: {body}");
    }
    let (_, state) = server.get(&format!("/api/games/{game}"), Some(&bob));
    assert_eq!(state["result"], "1-0");
    assert_eq!(state["termination"], "goal");
    assert_eq!(state["turns"].as_array().unwrap().len(), turns.len());
    assert_eq!(state["your_side"], "black");
    assert_eq!(turn(&bob, "--").0, 409);

    // The record names the accounts and replays.
    let record_of = dir.0.join("record.txt");
    let key = state["key"].as_str().unwrap();
    let (status, record) = server.get(&format!("/api/games/{game}/{key}/record"), None);
    assert_eq!(status, 200);
    let record = record.as_str().unwrap().to_owned();
    assert!(record.contains("[White \"alice\"]") && record.contains("[Black \"bob\"]"), "{record}");
    assert!(!record.contains("Key"), "{record}");
    std::fs::write(&record_of, &record).unwrap();
    let replay =
        Command::new(env!("CARGO_BIN_EXE_kickoff")).arg("replay").arg(&record_of).output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));

    // Both players' lists, the game finished.
    let (_, mine) = server.get("/api/my/games", Some(&alice));
    assert_eq!(mine[0]["id"], game.as_str());
    assert_eq!(mine[0]["your_turn"], false);
    // Rematch: an offer, then the other's offer makes the game, colours swapped.
    let (status, offer) =
        server.call("POST", &format!("/api/games/{game}/rematch"), Some(&bob), None);
    assert_eq!(status, 201, "{offer}");
    assert!(offer["seek"].is_string());
    let (status, made) =
        server.call("POST", &format!("/api/games/{game}/rematch"), Some(&alice), None);
    assert_eq!(status, 201, "{made}");
    let rematch = made["game"].as_str().unwrap();
    let (_, state) = server.get(&format!("/api/games/{rematch}"), None);
    assert_eq!((state["white"].as_str(), state["black"].as_str()), (Some("bob"), Some("alice")));
    assert_eq!(state["rematch_of"], game.as_str());
    let (_, mine) = server.get("/api/my/games", Some(&bob));
    assert_eq!(
        (mine[0]["id"].as_str(), mine[0]["your_turn"].as_bool()),
        (Some(rematch), Some(true))
    );
}

#[test]
fn chat_is_limited_muted_and_moderated() {
    let dir = Scratch::new("chat");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let game = server.game(&alice, &bob, &CORRESPONDENCE());
    let chat = format!("/api/games/{game}/chat");
    assert_eq!(server.post(&chat, &alice, &json!({"text": "good luck"})).0, 201);
    assert_eq!(server.post(&chat, &bob, &json!({"text": "x".repeat(501)})).0, 400);
    assert_eq!(server.post(&chat, &bob, &json!({"text": "  "})).0, 400);
    assert_eq!(server.post(&chat, &bob, &json!({"text": "a\u{1b}[2Jb"})).0, 400);
    assert_eq!(server.call("POST", &chat, None, Some(&json!({"text": "hi"}))).0, 401);
    let (_, messages) = server.get(&chat, None);
    assert_eq!(messages.as_array().unwrap().len(), 1);
    assert_eq!(
        (messages[0]["user"].as_str(), messages[0]["text"].as_str()),
        (Some("alice"), Some("good luck"))
    );
    // Bob mutes Alice: he no longer reads her, others still do.
    assert_eq!(server.post("/api/users/alice/mute", &bob, &json!({"mute": true})).0, 204);
    assert_eq!(server.get(&chat, Some(&bob)).1.as_array().unwrap().len(), 0);
    assert_eq!(server.get(&chat, None).1.as_array().unwrap().len(), 1);
    // A flood is cut short.
    let statuses: Vec<u16> = (0..8)
        .map(|i| server.post(&chat, &alice, &json!({"text": format!("spam {i}")})).0)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    // Only an administrator deletes a message.
    let id = server.get(&chat, None).1[0]["id"].as_i64().unwrap();
    assert_eq!(server.call("DELETE", &format!("{chat}/{id}"), Some(&alice), None).0, 403);
    make_admin(&dir.0, "bob");
    assert_eq!(server.call("DELETE", &format!("{chat}/{id}"), Some(&bob), None).0, 204);
    assert!(server.get(&chat, None).1.as_array().unwrap().iter().all(|m| m["id"] != id));
}

#[test]
fn a_live_game_is_lost_on_time_with_no_one_there_to_claim_it() {
    let dir = Scratch::new("flag");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let seek =
        json!({"variant": "boyer-1951", "clock": {"initial": 2, "increment": 0}, "color": "white"});
    let game = server.game(&alice, &bob, &seek);
    let (status, _) =
        server.post(&format!("/api/games/{game}/turn"), &alice, &json!({"turn": "Nc3"}));
    assert_eq!(status, 200);
    // Black's two seconds run out; the list (read from the database, which nothing but the
    // server's own clock watcher changes) shows the loss.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, mine) = server.get("/api/my/games", Some(&alice));
        if mine[0]["result"] == "1-0" {
            assert_eq!(mine[0]["termination"], "time forfeit");
            break;
        }
        assert!(Instant::now() < deadline, "Black never lost on time: {mine}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(state["clock"]["black"], 0);
    assert_eq!(state["ending"], "Black loses on time");
    let (status, _) =
        server.post(&format!("/api/games/{game}/turn"), &bob, &json!({"turn": "Nf7"}));
    assert_eq!(status, 409);
}

#[test]
fn a_correspondence_game_and_the_accounts_survive_a_restart() {
    let dir = Scratch::new("restart");
    let server = Server::start(&dir.0);
    let alice_cookie = server.account("alice");
    let alice = server.token(&alice_cookie);
    let bob = server.token(&server.account("bob"));
    let game = server.game(&alice, &bob, &CORRESPONDENCE());
    let turns = game_turns();
    for (i, text) in turns[..10].iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        assert_eq!(
            server.post(&format!("/api/games/{game}/turn"), who, &json!({"turn": text})).0,
            200
        );
    }
    server.kill();
    let server = Server::start(&dir.0);
    assert_eq!(server.get("/api/me", Some(&alice_cookie)).1["name"], "alice");
    let (_, state) = server.get(&format!("/api/games/{game}"), Some(&alice));
    assert_eq!(state["turns"].as_array().unwrap().len(), 10);
    assert_eq!(state["your_side"], "white");
    for (i, text) in turns.iter().enumerate().skip(10) {
        let who = if i % 2 == 0 { &alice } else { &bob };
        assert_eq!(
            server.post(&format!("/api/games/{game}/turn"), who, &json!({"turn": text})).0,
            200
        );
    }
    assert_eq!(server.get(&format!("/api/games/{game}"), None).1["result"], "1-0");
}

#[test]
fn a_server_killed_at_any_moment_keeps_every_acknowledged_turn() {
    let dir = Scratch::new("kill");
    let turns = game_turns();
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let game = server.game(&alice, &bob, &CORRESPONDENCE());
    drop(server);
    let mut acknowledged = 0;
    let mut round: u64 = 0;
    while acknowledged < turns.len() {
        round += 1;
        let server = Server::start(&dir.0);
        let (_, state) = server.get(&format!("/api/games/{game}"), None);
        let kept = state["turns"].as_array().unwrap().len();
        assert!(
            kept >= acknowledged,
            "round {round}: {kept} turns kept of {acknowledged} acknowledged"
        );
        assert_eq!(
            state["turns"].as_array().unwrap()[..kept],
            turns.iter().map(|t| json!(t)).collect::<Vec<_>>()[..kept]
        );
        acknowledged = kept;
        // A killer thread kills the server after a few milliseconds, whatever it is doing.
        let pid = server.child.id();
        let after = Duration::from_millis(5 + (round * 37) % 60);
        let killer = std::thread::spawn(move || {
            std::thread::sleep(after);
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        for (i, text) in turns.iter().enumerate().skip(kept) {
            let who = if i % 2 == 0 { &alice } else { &bob };
            let url = format!("{}/api/games/{game}/turn", server.base);
            let sent = server
                .agent
                .post(&url)
                .header("Authorization", format!("Bearer {who}"))
                .send_json(json!({"turn": text}));
            match sent {
                Ok(response) if response.status().as_u16() == 200 => acknowledged = i + 1,
                _ => break,
            }
        }
        killer.join().unwrap();
        drop(server);
        assert!(round < 200, "no progress");
    }
    assert!(round > 1, "the server was never killed");
    let server = Server::start(&dir.0);
    assert_eq!(server.get(&format!("/api/games/{game}"), None).1["result"], "1-0");
}

#[test]
fn a_challenge_is_for_its_player_and_cross_site_requests_are_refused() {
    let dir = Scratch::new("challenge");
    let server = Server::start(&dir.0);
    let alice_cookie = server.account("alice");
    let alice = server.token(&alice_cookie);
    let bob = server.token(&server.account("bob"));
    let carol = server.token(&server.account("carol"));
    let challenge = json!({"variant": "vchess", "clock": {"days": 1}, "to": "bob"});
    let (status, body) = server.post("/api/seeks", &alice, &challenge);
    assert_eq!(status, 201);
    let id = body["id"].as_str().unwrap();
    // Only the two players see it; only Bob accepts it.
    assert!(server.get("/api/seeks", Some(&carol)).1.as_array().unwrap().is_empty());
    assert_eq!(server.get("/api/seeks", Some(&bob)).1[0]["to"], "bob");
    assert_eq!(server.post(&format!("/api/seeks/{id}/accept"), &carol, &json!({})).0, 403);
    assert_eq!(server.post(&format!("/api/seeks/{id}/accept"), &bob, &json!({})).0, 201);
    let (status, _) = server.post(
        "/api/seeks",
        &alice,
        &json!({"variant": "vchess", "clock": {"days": 1}, "to": "nobody"}),
    );
    assert_eq!(status, 400);
    // A page of another site cannot act with Alice's cookie.
    let response = server
        .agent
        .post(&format!("{}/api/seeks", server.base))
        .header("Cookie", &alice_cookie)
        .header("Origin", "http://evil.example")
        .send_json(&challenge)
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
    // A game by link is not a lobby game: its id shows nothing.
    let (_, link) = server.call("POST", "/api/games", None, Some(&json!({"opponent": "hotseat"})));
    let link = link["id"].as_str().unwrap();
    assert_eq!(server.get(&format!("/api/games/{link}"), None).0, 404);
}

#[test]
fn the_admin_command_bans_backs_up_and_imports() {
    let dir = Scratch::new("admin");
    let data = dir.0.join("data");
    let admin = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_kickoff"))
            .arg("admin")
            .args(args)
            .arg("--data")
            .arg(&data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    assert!(admin(&["create-user", "dave"], "a long password\n").status.success());
    assert!(!admin(&["create-user", "Dave"], "a long password\n").status.success());
    assert!(!admin(&["create-user", "eve"], "short\n").status.success());
    // A game by link, in a games folder of its own, imported with its keys.
    let folder = dir.0.join("old-games");
    let (link, key) = {
        let server = Server::start(&folder);
        let (_, made) =
            server.call("POST", "/api/games", None, Some(&json!({"opponent": "hotseat"})));
        let (id, key) =
            (made["id"].as_str().unwrap().to_owned(), made["key"].as_str().unwrap().to_owned());
        let (status, _) = server.call(
            "POST",
            &format!("/api/games/{id}/{key}/play"),
            None,
            Some(&json!({"text": "Nc3"})),
        );
        assert_eq!(status, 200);
        (id, key)
    };
    let imported = admin(&["import", folder.join("games").to_str().unwrap()], "");
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    assert!(String::from_utf8_lossy(&imported.stdout).starts_with("1 games imported"));
    std::fs::remove_dir_all(folder.join("games")).unwrap();

    let server = Server::start(&data);
    let (status, game) = server.get(&format!("/api/games/{link}/{key}"), None);
    assert_eq!(status, 200, "{game}");
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "dave", "password": "a long password"})),
    );
    assert_eq!(status, 200);
    assert!(admin(&["ban", "dave"], "").status.success());
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "dave", "password": "a long password"})),
    );
    assert_eq!(status, 403);
    assert!(!admin(&["ban", "nobody"], "").status.success());
    // An online backup is a database with the accounts.
    let copy = dir.0.join("copy.db");
    assert!(admin(&["backup", copy.to_str().unwrap()], "").status.success());
    assert!(
        !admin(&["backup", copy.to_str().unwrap()], "").status.success(),
        "a backup never overwrites"
    );
    let restored = dir.0.join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&copy, restored.join("kickoff.db")).unwrap();
    let server = Server::start(&restored);
    let (status, _) = server.call(
        "POST",
        "/api/login",
        None,
        Some(&json!({"name": "dave", "password": "a long password"})),
    );
    assert_eq!(status, 403, "the copy has Dave, banned");
}

#[test]
fn kickoff_as_a_bot_accepts_a_challenge_and_plays_its_games() {
    let dir = Scratch::new("bot");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bot = server.token(&server.account("kickbot"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(["bot", "--server", &server.base, "--token", "-", "--level", "1", "--poll", "100"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        writeln!(child.stdin.take().unwrap(), "{bot}").unwrap();
    }
    struct Stop(Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _bot = Stop(child);
    // A challenge of a variant with random setups, the bot as White.
    let challenge = json!({"variant": "football-960", "clock": {"initial": 120, "increment": 2}, "color": "black", "to": "kickbot"});
    let (status, _) = server.post("/api/seeks", &alice, &challenge);
    assert_eq!(status, 201);
    let wait_for = |what: &str, done: &dyn Fn() -> Option<Value>| -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(found) = done() {
                return found;
            }
            assert!(Instant::now() < deadline, "the bot never {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let mine = wait_for("accepted", &|| {
        let (_, mine) = server.get("/api/my/games", Some(&alice));
        mine.as_array().and_then(|g| g.first().cloned())
    });
    let game = mine["id"].as_str().unwrap().to_owned();
    assert_eq!(mine["white"], "kickbot");
    // Alice answers each of the bot's turns with her first legal turn, for five turns each.
    let def = kickoff::load("football-960").unwrap();
    for round in 0..5 {
        let state = wait_for("played", &|| {
            let (_, state) = server.get(&format!("/api/games/{game}"), Some(&alice));
            (state["to_move"] == "black"
                && state["turns"].as_array().unwrap().len() == 2 * round + 1)
                .then_some(state)
        });
        if !state["result"].is_null() {
            break;
        }
        let pos = kickoff::Position::from_fen(&def.rules, state["fen"].as_str().unwrap()).unwrap();
        let turns = kickoff::legal_turns(&pos).unwrap();
        let text = kickoff::turn_text::names::name(&pos, &turns[0]);
        let (status, body) =
            server.post(&format!("/api/games/{game}/turn"), &alice, &json!({"turn": text}));
        assert_eq!(status, 200, "{body}");
        if !body["result"].is_null() {
            break;
        }
    }
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert!(state["turns"].as_array().unwrap().len() >= 3, "{state}");
}

/// A message received: its recipients and its text.
type Received = (Vec<String>, String);

/// A real SMTP server (mailin) on a free port, keeping each message it receives.
#[derive(Clone, Default)]
struct Mailbox {
    messages: std::sync::Arc<std::sync::Mutex<Vec<Received>>>,
    to: Vec<String>,
    data: Vec<u8>,
}

impl mailin_embedded::Handler for Mailbox {
    fn rcpt(&mut self, to: &str) -> mailin_embedded::Response {
        self.to.push(to.to_owned());
        mailin_embedded::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> mailin_embedded::Response {
        let text = String::from_utf8_lossy(&std::mem::take(&mut self.data)).into_owned();
        self.messages.lock().unwrap().push((std::mem::take(&mut self.to), text));
        mailin_embedded::response::OK
    }
}

#[test]
fn a_correspondence_player_is_told_of_their_turn_by_mail() {
    let mailbox = Mailbox::default();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut smtp = mailin_embedded::Server::new(mailbox.clone());
    smtp.with_name("localhost")
        .with_ssl(mailin_embedded::SslConfig::None)
        .unwrap()
        .with_tcp_listener(listener);
    std::thread::spawn(move || {
        let _ = smtp.serve();
    });

    let dir = Scratch::new("mail");
    let url = format!("smtp://127.0.0.1:{port}");
    let options = [
        "--smtp",
        &url,
        "--mail-from",
        "kickoff <kickoff@localhost>",
        "--public-url",
        "https://football.example/",
    ];
    let server = Server::with(&dir.0, &options);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    assert_eq!(server.post("/api/me/email", &alice, &json!({"email": "not an address"})).0, 400);
    assert_eq!(server.post("/api/me/email", &alice, &json!({"email": "alice@example.org"})).0, 204);
    assert_eq!(server.get("/api/me", Some(&alice)).1["email"], "alice@example.org");
    let game = server.game(
        &bob,
        &alice,
        &json!({"variant": "boyer-1951", "clock": {"days": 2}, "color": "white"}),
    );
    let turns = game_turns();
    assert_eq!(
        server.post(&format!("/api/games/{game}/turn"), &bob, &json!({"turn": turns[0]})).0,
        200
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while mailbox.messages.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "no notice arrived");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (to, text) = mailbox.messages.lock().unwrap()[0].clone();
    assert_eq!(to, ["alice@example.org"]);
    assert!(text.contains("Subject: Your turn against bob"), "{text}");
    assert!(text.contains(&format!("bob played {}", turns[0])), "{text}");
    assert!(text.contains(&format!("https://football.example/watch/{game}")), "{text}");
    // Bob has no address: Alice's turn sends nothing; a second turn of Bob's within ten minutes
    // neither.
    assert_eq!(
        server.post(&format!("/api/games/{game}/turn"), &alice, &json!({"turn": turns[1]})).0,
        200
    );
    assert_eq!(
        server.post(&format!("/api/games/{game}/turn"), &bob, &json!({"turn": turns[2]})).0,
        200
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mailbox.messages.lock().unwrap().len(), 1);
}

/// Reads a server-sent events stream up to its next event of `kind`; its data.
fn next_event(lines: &mut impl Iterator<Item = std::io::Result<String>>, kind: &str) -> String {
    let mut named = false;
    for line in lines {
        let line = line.unwrap();
        if line == format!("event: {kind}") {
            named = true;
        } else if let Some(data) = line.strip_prefix("data: ").filter(|_| named) {
            return data.to_owned();
        }
    }
    panic!("the stream ended before an event `{kind}`");
}

#[test]
fn a_lobby_game_gives_its_pages_the_board_the_players_the_clocks_and_the_chat() {
    let dir = Scratch::new("pages");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let seek = json!({"variant": "boyer-1951", "clock": {"initial": 300, "increment": 5},
        "color": "white"});
    let game = server.game(&alice, &bob, &seek);

    // The public view: the board drawn (turned for Black when asked), the move list, the
    // variant's name and the link of the public page.
    let (status, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(status, 200, "{state}");
    assert!(state["svg"].as_str().unwrap().starts_with("<svg"), "{state}");
    assert!(state["svg"].as_str().unwrap().contains("data-flipped=\"false\""));
    let (_, flipped) = server.get(&format!("/api/games/{game}?flip=true"), None);
    assert!(flipped["svg"].as_str().unwrap().contains("data-flipped=\"true\""));
    assert_eq!(state["title"], "Football Chess");
    assert_eq!(state["watch"], format!("/watch/{game}"));
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["score"], Value::Null);
    assert_eq!(state["time_control"], json!({"initial": 300, "increment": 5}));

    // Each player's link: the page's own view of the game names the accounts, has the clocks,
    // and gives neither player the other's key (no invitation in a lobby game).
    let key_of = |who: &str| {
        let (_, state) = server.get(&format!("/api/games/{game}"), Some(who));
        state["key"].as_str().unwrap().to_owned()
    };
    let (alice_key, bob_key) = (key_of(&alice), key_of(&bob));
    let (status, mine) = server.get(&format!("/api/games/{game}/{alice_key}"), None);
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["players"], json!(["alice", "bob"]));
    assert_eq!(mine["invite"], Value::Null);
    assert!(!mine.to_string().contains(&bob_key), "Alice's view holds Bob's key: {mine}");
    assert_eq!(mine["lobby"]["watch"], format!("/watch/{game}"));
    let white_left = mine["lobby"]["clock"]["white"].as_i64().unwrap();
    assert!((290_000..=300_000).contains(&white_left), "{mine}");
    assert_eq!(mine["lobby"]["clock"]["black"], 300_000);
    assert_eq!(
        (mine["lobby"]["white"].as_str(), mine["lobby"]["black"].as_str()),
        (Some("alice"), Some("bob"))
    );
    // A game by link has nothing of the lobby.
    let (_, link) = server.call("POST", "/api/games", None, Some(&json!({"opponent": "remote"})));
    let (id, key) = (link["id"].as_str().unwrap(), link["key"].as_str().unwrap());
    let (_, by_link) = server.get(&format!("/api/games/{id}/{key}"), None);
    assert_eq!(by_link["lobby"], Value::Null);
    assert!(by_link["invite"].is_string(), "{by_link}");

    // The lobby's stream tells its pages of a turn played (whose turn it is changes in the
    // lists), through the page's own request as through the API's.
    let events = agent().get(&format!("{}/api/lobby/events", server.base)).call().unwrap();
    let mut lines = BufReader::new(events.into_body().into_reader()).lines();
    let first: u64 = next_event(&mut lines, "lobby").parse().unwrap();
    let (status, played) = server.call(
        "POST",
        &format!("/api/games/{game}/{alice_key}/play"),
        None,
        Some(&json!({"text": "Nc3"})),
    );
    assert_eq!(status, 200, "{played}");
    assert!(played["lobby"]["clock"]["white"].as_i64().unwrap() > 300_000, "the increment");
    let second: u64 = next_event(&mut lines, "lobby").parse().unwrap();
    assert!(second > first);
    let (status, _) =
        server.post(&format!("/api/games/{game}/turn"), &bob, &json!({"turn": "Nc7"}));
    assert_eq!(status, 200);
    let third: u64 = next_event(&mut lines, "lobby").parse().unwrap();
    assert!(third > second);
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(
        state["moves"],
        json!([{"label": "1.", "name": "Nc3", "side": "white"},
            {"label": "1...", "name": "Nc7", "side": "black"}])
    );

    // A player's page that follows the game is present; when it goes, the other pages are told.
    let follow = |auth: Option<&str>| {
        let request = agent().get(&format!("{}/api/games/{game}/events", server.base));
        let request = match auth {
            Some(token) => request.header("Authorization", format!("Bearer {token}")),
            None => request,
        };
        BufReader::new(request.call().unwrap().into_body().into_reader()).lines()
    };
    let mut watching = follow(None);
    next_event(&mut watching, "update");
    let mut alice_page = follow(Some(&alice));
    next_event(&mut alice_page, "update");
    next_event(&mut watching, "update");
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(state["present"], json!({"white": true, "black": false}));
    assert_eq!(state["spectators"], 1);
    let left = Instant::now();
    drop(alice_page);
    next_event(&mut watching, "update");
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert_eq!(state["present"], json!({"white": false, "black": false}));
    assert!(left.elapsed() < Duration::from_secs(20), "told after {:?}", left.elapsed());
    eprintln!("a page gone is told after {:?}", left.elapsed());
    drop(watching);

    // The chat's mark changes with each message, in both views.
    let mark = state["chat"].as_u64().unwrap();
    let chat = format!("/api/games/{game}/chat");
    assert_eq!(server.post(&chat, &bob, &json!({"text": "<b>hello</b>"})).0, 201);
    let (_, state) = server.get(&format!("/api/games/{game}"), None);
    assert_ne!(state["chat"].as_u64().unwrap(), mark);
    let (_, mine) = server.get(&format!("/api/games/{game}/{alice_key}"), None);
    assert_eq!(mine["lobby"]["chat"], state["chat"]);
    assert_eq!(server.get(&chat, None).1[0]["text"], "<b>hello</b>", "kept as written");

    // A player's resignation by the page's link ends the game; the lists say which game a
    // rematch is of.
    let (status, over) =
        server.call("POST", &format!("/api/games/{game}/{bob_key}/resign"), None, Some(&json!({})));
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["ending"]["result"], "1-0");
    let (_, offer) = server.call("POST", &format!("/api/games/{game}/rematch"), Some(&bob), None);
    let seek = offer["seek"].as_str().unwrap();
    let (status, made) = server.post(&format!("/api/seeks/{seek}/accept"), &alice, &json!({}));
    assert_eq!(status, 201, "{made}");
    let (_, mine) = server.get("/api/my/games", Some(&alice));
    assert_eq!(mine[0]["id"], made["game"]);
    assert_eq!(mine[0]["rematch_of"], game.as_str());
    assert_eq!(mine[1]["rematch_of"], Value::Null);
}

#[test]
fn tokens_are_listed_and_revoked_and_a_new_password_signs_out_other_browsers() {
    let dir = Scratch::new("tokens");
    let server = Server::start(&dir.0);
    let alice = server.account("alice");
    let (status, made) = server.post("/api/tokens", &alice, &json!({"label": "my bot"}));
    assert_eq!(status, 201, "{made}");
    let (token, id) = (made["token"].as_str().unwrap(), made["id"].as_str().unwrap());
    let (status, list) = server.get("/api/tokens", Some(&alice));
    assert_eq!(status, 200);
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!((list[0]["id"].as_str(), list[0]["label"].as_str()), (Some(id), Some("my bot")));
    assert!(!list.to_string().contains(&token[3..]), "the secret is never shown again");
    assert_eq!(server.get("/api/me", Some(token)).1["name"], "alice");
    // Another account cannot see or revoke it.
    let bob = server.account("bob");
    assert_eq!(server.get("/api/tokens", Some(&bob)).1, json!([]));
    assert_eq!(server.call("DELETE", &format!("/api/tokens/{id}"), Some(&bob), None).0, 404);
    assert_eq!(server.call("DELETE", &format!("/api/tokens/{id}"), Some(&alice), None).0, 204);
    assert_eq!(server.get("/api/me", Some(token)).1["name"], Value::Null, "revoked");
    assert_eq!(server.call("DELETE", &format!("/api/tokens/{id}"), Some(&alice), None).0, 404);
    assert_eq!(server.call("DELETE", "/api/tokens/..%2F", Some(&alice), None).0, 404);

    // A second browser signed in; the first changes the password.
    let second = server.login("alice", "correct horse");
    let kept =
        server.post("/api/tokens", &alice, &json!({})).1["token"].as_str().unwrap().to_owned();
    let change = |auth: &str, password: &str, new: &str| {
        server.post("/api/me/password", auth, &json!({"password": password, "new": new})).0
    };
    assert_eq!(change(&alice, "wrong one", "battery staple"), 403);
    assert_eq!(change(&alice, "correct horse", "short"), 400);
    assert_eq!(change(&alice, "correct horse", "battery staple"), 204);
    assert_eq!(server.get("/api/me", Some(&alice)).1["name"], "alice", "this browser stays");
    assert_eq!(server.get("/api/me", Some(&second)).1["name"], Value::Null, "the other is out");
    assert_eq!(server.get("/api/me", Some(&kept)).1["name"], "alice", "tokens stay");
    let old = json!({"name": "alice", "password": "correct horse"});
    assert_eq!(server.call("POST", "/api/login", None, Some(&old)).0, 401);
    server.login("alice", "battery staple");
}

#[test]
fn a_rematch_of_a_random_setup_plays_the_same_setup_colours_swapped() {
    let dir = Scratch::new("rematch-setup");
    let server = Server::start(&dir.0);
    let alice = server.token(&server.account("alice"));
    let bob = server.token(&server.account("bob"));
    let seek = json!({"variant": "football-960", "clock": {"days": 1}, "color": "white",
        "setup": "random"});
    let game = server.game(&alice, &bob, &seek);
    let (_, first) = server.get(&format!("/api/games/{game}"), None);
    let setup = first["setup"].as_str().expect("a random setup's number").to_owned();
    assert_eq!(server.post(&format!("/api/games/{game}/resign"), &bob, &json!({})).0, 200);
    let (_, offer) = server.call("POST", &format!("/api/games/{game}/rematch"), Some(&bob), None);
    assert!(offer["seek"].is_string(), "{offer}");
    let (status, made) =
        server.call("POST", &format!("/api/games/{game}/rematch"), Some(&alice), None);
    assert_eq!(status, 201, "{made}");
    let (_, second) = server.get(&format!("/api/games/{}", made["game"].as_str().unwrap()), None);
    assert_eq!((second["white"].as_str(), second["black"].as_str()), (Some("bob"), Some("alice")));
    assert_eq!(second["setup"].as_str(), Some(setup.as_str()));
    assert_eq!(second["start"], first["start"]);
    // A rematch of a game that is not one is not found, whatever its id.
    let (status, _) = server.call("POST", "/api/games/..%2F..%2Fx/rematch", Some(&bob), None);
    assert_eq!(status, 404);
}
