//! The server's resource model, each bound lowered so that a test reaches it: connections
//! that send nothing, bodies and answers that never travel, the work queue, rates, games held in
//! memory, host names and other sites, turn caps.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Server, agent, answer, create, folder};

/// A connection to the server that sends what it is told and nothing more.
fn raw(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(server.address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream
}

/// How long the server takes to close `stream`, reading whatever it answers meanwhile.
fn closed_after(mut stream: TcpStream) -> (Duration, String) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    (start.elapsed(), String::from_utf8_lossy(&got).into_owned())
}

#[test]
fn idle_and_dripping_connections_make_room_and_time_out() {
    let dir = folder("idle");
    let server = Server::with(&dir, |config| {
        config.limits.connections_per_client = 8;
        config.limits.header_time = Duration::from_secs(1);
    });
    // Thirty sockets that send nothing: each new one takes the place of the oldest.
    let idle: Vec<TcpStream> = (0..30).map(|_| raw(&server)).collect();
    let (status, _) = server.get("/api/variants");
    assert_eq!(status, 200, "a request still gets in");
    assert!(server.app.connections.open() <= 8, "{}", server.app.connections.open());
    // Those left are closed once the header time is over.
    let (waited, said) = closed_after(idle.into_iter().last().unwrap());
    assert!(waited < Duration::from_secs(15), "{waited:?}");
    assert!(!said.contains("200 OK"), "{said}");
    // A head sent a byte at a time is cut off too.
    let mut drip = raw(&server);
    let start = Instant::now();
    let mut cut = false;
    for byte in
        b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".iter().cycle().take(200)
    {
        if drip.write_all(&[*byte]).is_err() {
            cut = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(cut || closed_after(drip).0 < Duration::from_secs(1), "never cut off");
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_body_that_never_arrives_and_an_answer_nobody_reads() {
    let dir = folder("stalls");
    let server = Server::with(&dir, |config| {
        config.limits.body_time = Duration::from_secs(1);
        config.limits.write_stall = Duration::from_secs(1);
    });
    let mut slow = raw(&server);
    let head = "POST /api/definitions/check HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\":";
    slow.write_all(head.as_bytes()).unwrap();
    let (waited, said) = closed_after(slow);
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    // A large answer that the client does not read: held against the memory budget until the
    // connection is dropped.
    let definition = std::fs::read_to_string("tests/data/hostile/nulls.toml").unwrap();
    let record = format!("[Variant \"nulls.toml\"]\n\n{}*\n", "-- ".repeat(100_000));
    let body = json!({ "record": record, "definition": definition }).to_string();
    let mut deaf = raw(&server);
    let head = format!(
        "POST /api/records/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    deaf.write_all(head.as_bytes()).unwrap();
    deaf.write_all(body.as_bytes()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.app.memory_held() < 4 << 20 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(server.app.memory_held() > 4 << 20, "the answer is held: {}", server.app.memory_held());
    while server.app.memory_held() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(server.app.memory_held(), 0, "let go once the client stalled");
    drop(deaf);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn draw_offers_wait_their_turn_on_the_work_queue() {
    let dir = folder("offers");
    let server = Server::start(&dir);
    let text = std::fs::read_to_string("tests/data/hostile/explode16.toml").unwrap();
    let games: Vec<String> = (0..5)
        .map(|_| {
            let request = json!({ "definition": text, "opponent": "engine", "level": 1 });
            let (id, key, _) = create(&server, &request);
            format!("/api/games/{id}/{key}")
        })
        .collect();
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let offers: Vec<_> = games
            .iter()
            .map(|game| {
                let server = &server;
                scope.spawn(move || {
                    server.post(&format!("{game}/draw"), &json!({ "action": "offer" })).0
                })
            })
            .collect();
        offers.into_iter().map(|o| o.join().unwrap()).collect()
    });
    let answered = statuses.iter().filter(|&&s| s == 200).count();
    assert!(statuses.iter().all(|s| [200, 429].contains(s)), "{statuses:?}");
    assert!(answered >= 3, "one client's share of the queue is three: {statuses:?}");
    assert!(server.app.queue.most_running() <= 2, "{}", server.app.queue.most_running());
    for game in &games {
        let (_, view) = server.get(game);
        assert_eq!(view["thinking"], false, "no game is left thinking: {view}");
    }
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn host_names_and_requests_from_other_sites() {
    let dir = folder("hosts");
    let server = Server::with(&dir, |config| config.hosts = vec!["kickoff.example".to_owned()]);
    let status = |host: &str| {
        let response = agent().get(&server.url("/api/variants")).header("Host", host).call();
        response.unwrap().status().as_u16()
    };
    assert_eq!(status("rebound.example"), 421, "a name rebound to the server's address");
    assert_eq!(status("kickoff.example"), 200);
    assert_eq!(status("KICKOFF.example:443"), 200);
    assert_eq!(status("192.168.1.20:7157"), 200, "an address cannot be rebound");
    let post = |origin: &str| {
        let request = agent()
            .post(&server.url("/api/games"))
            .header("Origin", origin)
            .send_json(json!({ "opponent": "hotseat" }));
        answer(request)
    };
    let (status, body) = post("http://evil.example");
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("requests from other sites are refused"))
    );
    assert_eq!(post("null").0, 403);
    let own = server.base.clone();
    assert_eq!(post(&own).0, 200, "the page's own origin");
    assert_eq!(super::games_in(&dir), 1, "one game only: {dir:?}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_damaged_record_looks_like_no_game() {
    let dir = folder("damaged");
    let id = "0123456789abcdef01234567";
    std::fs::write(dir.join(format!("{id}.txt")), "garbage [[[\n").unwrap();
    let server = Server::start(&dir);
    let wrong = server.get(&format!("/api/games/{id}/{}", "0".repeat(32)));
    let missing = server.get(&format!("/api/games/{}/{}", "1".repeat(24), "0".repeat(32)));
    assert_eq!(wrong, missing);
    assert_eq!(wrong.0, 404);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn followed_games_are_let_go_and_read_back() {
    let dir = folder("held");
    let server = Server::with(&dir, |config| config.limits.games_in_memory = 3);
    let games: Vec<String> = (0..8)
        .map(|_| {
            let (id, key, _) = create(&server, &json!({ "opponent": "hotseat" }));
            format!("/api/games/{id}/{key}")
        })
        .collect();
    let mut streams: Vec<_> = games
        .iter()
        .map(|game| {
            let response = agent().get(&server.url(&format!("{game}/events"))).call().unwrap();
            std::io::BufRead::lines(std::io::BufReader::new(response.into_body().into_reader()))
        })
        .collect();
    assert!(server.app.store.held().0 <= 3, "{:?} held", server.app.store.held());
    // The first game was let go; a turn read back from its record still reaches its page.
    let first_event = streams[0].nth(1).unwrap().unwrap();
    let (status, _) = server.post(&format!("{}/play", games[0]), &json!({ "text": "Nc3" }));
    assert_eq!(status, 200);
    let next_event = streams[0].nth(2).unwrap().unwrap();
    let version = |line: &str| line.strip_prefix("data: ").unwrap().parse::<u64>().unwrap();
    assert!(version(&next_event) > version(&first_event), "{first_event} then {next_event}");
    assert!(server.app.store.held().0 <= 3);
    drop(streams);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn clients_start_games_and_send_definitions_at_a_bounded_rate() {
    let dir = folder("rates");
    let server = Server::with(&dir, |config| {
        config.limits.games_per_minute = 3.0;
        config.limits.definition_bytes_per_minute = 1000.0;
    });
    for _ in 0..3 {
        create(&server, &json!({ "opponent": "hotseat" }));
    }
    let response = agent()
        .post(&server.url("/api/games"))
        .send_json(json!({ "opponent": "hotseat" }))
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    let retry: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    let dir2 = folder("rates-definitions");
    let server2 = Server::with(&dir2, |config| config.limits.definition_bytes_per_minute = 1000.0);
    let text = format!("extends = \"mini\"\n#{}\n", "x".repeat(600));
    create(&server2, &json!({ "definition": text, "opponent": "hotseat" }));
    let (status, body) =
        server2.post("/api/games", &json!({ "definition": text, "opponent": "hotseat" }));
    assert_eq!(status, 429, "{body}");
    let (status, _) = server2.post("/api/games", &json!({ "opponent": "hotseat" }));
    assert_eq!(status, 200, "games of shipped variants still start");
    drop((server, server2));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&dir2).ok();
}

#[test]
fn games_of_one_definition_share_its_file() {
    let dir = folder("shared-definition");
    let server = Server::start(&dir);
    let text = "extends = \"mini\"\n[variant]\nname = \"Shared\"\n";
    for _ in 0..3 {
        create(&server, &json!({ "definition": text, "opponent": "hotseat" }));
    }
    let definitions = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "toml"))
        .count();
    assert_eq!(definitions, 1);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn long_records_and_long_games() {
    let dir = folder("long");
    let server = Server::with(&dir, |config| {
        config.limits.viewed_turns = 10;
        config.limits.turn_cap = 4;
    });
    let definition = std::fs::read_to_string("tests/data/hostile/nulls.toml").unwrap();
    let record = |turns: usize| format!("[Variant \"nulls.toml\"]\n\n{}*\n", "-- ".repeat(turns));
    let open = |turns| {
        server.post(
            "/api/records/open",
            &json!({ "record": record(turns), "definition": definition }),
        )
    };
    assert_eq!(open(10).0, 200);
    let (status, body) = open(11);
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("at most 10 turns"), "{body}");
    let (id, key, _) = create(&server, &json!({ "definition": definition, "opponent": "hotseat" }));
    let game = format!("/api/games/{id}/{key}");
    for _ in 0..4 {
        let (status, body) = server.post(&format!("{game}/play"), &json!({ "text": "--" }));
        assert_eq!(status, 200, "{body}");
    }
    let (_, view) = server.get(&game);
    assert_eq!(view["ending"]["result"], "1/2-1/2");
    assert_eq!(view["ending"]["reason"], "draw: the game reached its turn cap");
    let saved = std::fs::read_to_string(dir.join(format!("{id}.txt"))).unwrap();
    assert!(saved.contains("[Termination \"turn cap\"]"), "{saved}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_definition_of_many_mistakes_gets_a_short_answer() {
    let dir = folder("mistakes");
    let server = Server::start(&dir);
    let text: String = std::iter::once("extends = \"mini\"\n".to_owned())
        .chain((0..5000).map(|i| format!("[unknown{i}]\n")))
        .collect();
    let (status, answer) = server.post("/api/definitions/check", &json!({ "text": text }));
    assert_eq!(status, 200);
    assert_eq!(answer["valid"], false);
    assert_eq!(answer["diagnostics"].as_array().unwrap().len(), 200, "the first 200 shown");
    assert_eq!(answer["errors"], 5000, "{}", answer["more"]);
    let more = answer["more"].as_str().unwrap();
    assert!(more.starts_with("... and 4800 more (4800 errors, 0 warnings)"), "{more}");
    let (status, refused) =
        server.post("/api/games", &json!({ "definition": text, "opponent": "hotseat" }));
    assert_eq!(status, 422);
    assert_eq!(
        (refused["errors"].as_u64(), refused["diagnostics"].as_array().map(Vec::len)),
        (Some(5000), Some(200))
    );
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn definitions_too_large_for_memory_and_the_bytes_of_games_held() {
    let dir = folder("game-bytes");
    let server = Server::with(&dir, |config| {
        config.limits.definition_memory = 400 << 10;
        config.limits.games_memory = 1 << 20;
    });
    let (status, body) = server.post(
        "/api/games",
        &json!({ "definition": "extends = \"boyer-1951\"\n", "opponent": "hotseat" }),
    );
    assert_eq!(status, 400, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(
        message.starts_with("the board plays definitions whose rules take at most 0 MiB"),
        "{message}"
    );
    // Each of these takes about a quarter of a megabyte: four of them fill the games' memory.
    for i in 0..8 {
        let text = format!("extends = \"mini\"\n[variant]\nname = \"Mini {i}\"\n");
        create(&server, &json!({ "definition": text, "opponent": "hotseat" }));
        let (games, bytes) = server.app.store.held();
        assert!(bytes <= 1 << 20, "{games} games held in {bytes} bytes");
    }
    assert!(server.app.store.held().0 < 8);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_engine_plays_a_game_let_go_while_its_turn_waited() {
    let dir = folder("engine-let-go");
    let server = Server::with(&dir, |config| config.limits.games_in_memory = 1);
    let (id, key, _) = create(
        &server,
        &json!({ "variant": "boyer-1951", "opponent": "engine", "level": 1, "side": "black" }),
    );
    for _ in 0..4 {
        create(&server, &json!({ "opponent": "hotseat" }));
    }
    let game = format!("/api/games/{id}/{key}");
    let view = super::wait_for(&server, &game, |v| v["step"].is_object());
    assert_eq!(super::moves(&view).len(), 1, "{view}");
    assert_eq!(view["thinking"], false);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_simulation_stops_at_its_time() {
    let dir = folder("simulation-time");
    let server = Server::with(&dir, |config| config.limits.simulation_time = Duration::ZERO);
    let text = "extends = \"mini\"\n";
    let (status, answer) =
        server.post("/api/definitions/simulate", &json!({ "text": text, "games": 5 }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["games"].as_u64(), answer["played"].as_u64()), (Some(5), Some(0)));
    let stopped = answer["stopped"].as_str().unwrap();
    assert!(stopped.contains("0 of the 5 asked for were played"), "{stopped}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// A record of `turns` null turns, and the definition that allows them.
fn null_record(turns: usize) -> serde_json::Value {
    let definition = std::fs::read_to_string("tests/data/hostile/nulls.toml").unwrap();
    let record = format!("[Variant \"nulls.toml\"]\n\n{}*\n", "-- ".repeat(turns));
    json!({ "record": record, "definition": definition })
}

#[test]
fn a_record_opened_is_replayed_within_its_time_and_its_bytes() {
    let dir = folder("record-bounds");
    // No time at all: the first turn is shown, and why the others are not.
    let late = Server::with(&dir, |config| config.limits.record_time = Duration::ZERO);
    let (status, opened) = late.post("/api/records/open", &null_record(1000));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["plies"].as_array().unwrap().len(), 1, "{opened}");
    assert_eq!(opened["ending"], serde_json::Value::Null);
    let error = opened["error"].as_str().unwrap();
    assert!(error.starts_with("the first 1 turns are shown: the server replays a record for 0 s"));
    assert_eq!(opened["title"], "Null turns always, no repetition");
    assert_eq!(late.app.memory_held(), 0, "the answer is let go once sent");
    drop(late);
    // An answer of 20,000 bytes at most: the turns that fit, whole.
    let small = Server::with(&dir, |config| config.limits.record_answer = 20_000);
    let (status, opened) = small.post("/api/records/open", &null_record(1000));
    assert_eq!(status, 200, "{opened}");
    let shown = opened["plies"].as_array().unwrap().len();
    assert!((50..1000).contains(&shown), "{shown} turns shown");
    let error = opened["error"].as_str().unwrap();
    assert!(error.contains("the board is sent at most 20000 bytes of a record's turns"), "{error}");
    // A record within the bounds is opened whole, with its ending.
    let (status, opened) = small.post("/api/records/open", &null_record(10));
    assert_eq!(status, 200, "{opened}");
    assert_eq!((opened["plies"].as_array().unwrap().len(), &opened["error"]), (10, &json!(null)));
    drop(small);
    // The answer is built against the client's share of the memory budget: refused as soon as
    // it is spent, not once it is built.
    let poor = Server::with(&dir, |config| config.limits.memory_per_client = 4 << 20);
    let (status, refused) = poor.post("/api/records/open", &null_record(100_000));
    assert_eq!(status, 503, "{refused}");
    assert_eq!(refused["error"], "the server is sending as much as it can: try again in a moment");
    assert_eq!(poor.app.memory_held(), 0);
    drop(poor);
    std::fs::remove_dir_all(&dir).ok();
}

/// A game made by `game` with `turns` null turns, then let go from memory by a second game
/// (the server holds one); its path.
fn game_let_go(server: &Server, game: &serde_json::Value, turns: usize) -> String {
    let (id, key, _) = create(server, game);
    let path = format!("/api/games/{id}/{key}");
    for _ in 0..turns {
        let (status, body) = server.post(&format!("{path}/play"), &json!({ "text": "--" }));
        assert_eq!(status, 200, "{body}");
    }
    create(server, &json!({ "opponent": "hotseat" }));
    assert_eq!(server.app.store.held().0, 1);
    path
}

#[test]
fn games_let_go_are_read_back_on_the_work_queue_unless_that_is_light() {
    let dir = folder("read-back");
    let nulls = std::fs::read_to_string("tests/data/hostile/nulls.toml").unwrap();
    let shipped = json!({ "variant": "boyer-1951", "opponent": "hotseat" });
    let uploaded = json!({ "definition": nulls, "opponent": "hotseat" });
    let server = Server::with(&dir, |config| config.limits.games_in_memory = 1);
    // A short game of a shipped variant is read back among the light requests.
    let game = game_let_go(&server, &shipped, 0);
    let (status, view) = server.get(&game);
    assert_eq!(status, 200, "{view}");
    assert_eq!(server.app.queue.most_running(), 0, "no heavy work");
    // A wrong key costs a look at the record's tags: a 404, and no heavy work either.
    let (id, _) = game.trim_start_matches("/api/games/").split_once('/').unwrap();
    create(&server, &json!({ "opponent": "hotseat" }));
    let wrong = server.get(&format!("/api/games/{id}/{}", "0".repeat(32)));
    assert_eq!(wrong.0, 404);
    assert_eq!(server.app.queue.most_running(), 0);
    // A game whose definition must be compiled again is read back on the work queue.
    let game = game_let_go(&server, &uploaded, 3);
    let (status, view) = server.get(&game);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(3), "{view}");
    assert_eq!(server.app.queue.most_running(), 1, "read back by a worker");
    drop(server);
    // A game whose turns do not replay within the light time goes to the queue, and a game
    // that takes longer than the read-back time is refused, and stays on disk.
    let server = Server::with(&dir, |config| {
        config.limits.games_in_memory = 1;
        config.limits.light_read_back = Duration::ZERO;
    });
    let game = game_let_go(&server, &shipped, 0);
    assert_eq!(server.get(&game).0, 200);
    assert_eq!(server.app.queue.most_running(), 1);
    drop(server);
    let server = Server::with(&dir, |config| {
        config.limits.games_in_memory = 1;
        config.limits.light_read_back = Duration::ZERO;
        config.limits.read_back_time = Duration::ZERO;
    });
    let game = game_let_go(&server, &uploaded, 2);
    let (status, refused) = server.get(&game);
    assert_eq!(status, 503, "{refused}");
    let message = refused["error"].as_str().unwrap();
    assert!(message.starts_with("the game could not be read back from its record within 0 s"));
    drop(server);
    let server = Server::start(&dir);
    let (status, view) = server.get(&game);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(2), "{view}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_request_names_one_host_and_one_origin() {
    let dir = folder("one-host");
    let server = Server::start(&dir);
    let send = |head: &str| {
        let mut stream = raw(&server);
        stream.write_all(head.as_bytes()).unwrap();
        closed_after(stream).1
    };
    let said = send(
        "GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: rebound.example\r\n\
         Connection: close\r\n\r\n",
    );
    assert!(said.starts_with("HTTP/1.1 400"), "{said}");
    let own = format!("http://{}", server.address);
    let said = send(&format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: {own}\r\nOrigin: http://evil.example\r\n\
         Content-Type: application/json\r\nContent-Length: 22\r\nConnection: close\r\n\r\n\
         {{\"opponent\":\"hotseat\"}}",
        server.address
    ));
    assert!(said.starts_with("HTTP/1.1 403"), "{said}");
    assert_eq!(super::games_in(&dir), 0);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}
