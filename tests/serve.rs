//! The web board's HTTP API, as the page (or anyone else) calls it: games, turns step by step,
//! the engine's replies, links as keys, records that survive a restart, the authoring requests,
//! and requests that must be refused.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kickoff::definition::{self, LoadError};
use kickoff::web::{App, Config, serve_on};
use serde_json::{Value, json};

#[path = "serve/limits.rs"]
mod server_limits;

/// A server on a free port, stopped when dropped.
struct Server {
    base: String,
    address: SocketAddr,
    app: Arc<App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(folder: &Path) -> Server {
        Server::with(folder, |_| {})
    }

    /// A server whose configuration `adjust` changes first (its limits, its host names).
    fn with(folder: &Path, adjust: impl FnOnce(&mut Config) + Send + 'static) -> Server {
        let (ready, address) = std::sync::mpsc::channel::<(SocketAddr, Arc<App>)>();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let folder = folder.to_path_buf();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let address = listener.local_addr().unwrap();
                let mut config =
                    Config::new(address, folder, |problem| eprintln!("warning: {problem}"));
                adjust(&mut config);
                let app = Arc::new(App::new(&config).unwrap());
                ready.send((address, app.clone())).unwrap();
                serve_on(listener, app, async {
                    let _ = stopped.await;
                })
                .await;
            });
        });
        let (address, app) = address.recv().unwrap();
        Server {
            base: format!("http://{address}"),
            address,
            app,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        answer(agent().get(&self.url(path)).call())
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        answer(agent().post(&self.url(path)).send_json(body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = response.unwrap();
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// The files of a games folder beside the database (which the server keeps in the same folder
/// in these tests).
fn games_in(dir: &Path) -> usize {
    let files = std::fs::read_dir(dir).unwrap().flatten();
    files.filter(|f| !f.file_name().to_string_lossy().starts_with("kickoff.db")).count()
}

/// A scratch games folder.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kickoff-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts a game; returns the id and key of the maker's link, and the invitation if any.
fn create(server: &Server, request: &Value) -> (String, String, Option<String>) {
    let (status, body) = server.post("/api/games", request);
    assert_eq!(status, 200, "{body}");
    let invite = body["invite"].as_str().map(str::to_owned);
    (body["id"].as_str().unwrap().to_owned(), body["key"].as_str().unwrap().to_owned(), invite)
}

/// The game's state once `ready` holds (the engine replies in the background).
fn wait_for(server: &Server, game: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, view) = server.get(game);
        assert_eq!(status, 200, "{view}");
        if ready(&view) {
            return view;
        }
        assert!(Instant::now() < deadline, "the game never got there: {view}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The next action of the step view whose turn-so-far is named `name`.
fn action_named<'v>(step: &'v Value, name: &str) -> &'v Value {
    let next = step["next"].as_array().unwrap();
    &next.iter().find(|n| n["name"] == name).unwrap_or_else(|| panic!("no {name} in {step}"))["action"]
}

fn moves(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_game_against_the_engine_step_by_step() {
    let dir = folder("engine");
    let server = Server::start(&dir);
    let (id, key, invite) =
        create(&server, &json!({ "variant": "boyer-1951", "opponent": "engine", "level": 1 }));
    assert_eq!(invite, None);
    let game = format!("/api/games/{id}/{key}");
    let view = wait_for(&server, &game, |v| v["step"].is_object());
    assert_eq!(view["you"], json!(["white"]));
    assert_eq!(view["players"], json!(["human", "engine:1"]));
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    // The bishop's move first; then the kicks it allows are offered.
    let step = &view["step"];
    assert_eq!(step["can_stop"], false);
    assert_eq!(step["null_ok"], false);
    let bishop = action_named(step, "Bd4").clone();
    assert_eq!(
        bishop,
        json!({"type": "move", "piece": 'B', "from": "g1", "to": "d4", "promotion": null, "kind": "plain"})
    );
    let (status, after) = server.post(&format!("{game}/step"), &json!({ "actions": [bishop] }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["step"]["name"], "Bd4");
    assert_eq!(after["step"]["can_stop"], true);
    let kick = action_named(&after["step"], "Bd4>g7").clone();
    assert_eq!(kick, json!({"type": "kick", "kicker": "d4", "to": "g7"}));
    assert!(after["svg"].as_str().unwrap().contains("data-square=\"d4\""));
    let (status, played) =
        server.post(&format!("{game}/play"), &json!({ "actions": [bishop, kick] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(moves(&played)[0], "Bd4>g7");
    let replied = wait_for(&server, &game, |v| v["moves"].as_array().unwrap().len() == 2);
    assert_eq!(replied["thinking"], false);
    assert_eq!(replied["can_undo"], true);
    // A typed turn, then undo takes back the engine's reply with it.
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "Nc3" }));
    assert_eq!(status, 200);
    wait_for(&server, &game, |v| v["moves"].as_array().unwrap().len() == 4);
    let (status, undone) = server.post(&format!("{game}/undo"), &json!({}));
    assert_eq!(status, 200, "{undone}");
    assert_eq!(moves(&undone).len(), 2);
    assert_eq!(undone["to_move"], "white");
    // The record: the turns in notation, without the keys of the links.
    let mut record = agent().get(&server.url(&format!("{game}/record"))).call().unwrap();
    let text = record.body_mut().read_to_string().unwrap();
    assert!(
        text.starts_with("[Variant \"boyer-1951\"]\n[White \"human\"]\n[Black \"engine:1\"]\n"),
        "{text}"
    );
    assert!(text.contains("1. Bd4>g7 "), "{text}");
    assert!(!text.contains(&key) && !text.contains("Key"), "{text}");
    // The saved record keeps the keys, so that the links still work after a restart.
    let saved = std::fs::read_to_string(dir.join(format!("{id}.txt"))).unwrap();
    assert!(saved.contains(&format!("[WhiteKey \"{key}\"]")), "{saved}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn illegal_and_untimely_requests_are_refused() {
    let dir = folder("refused");
    let server = Server::start(&dir);
    let (id, key, _) = create(&server, &json!({ "variant": "boyer-1951", "opponent": "hotseat" }));
    let game = format!("/api/games/{id}/{key}");
    let bad = json!({"type": "move", "piece": 'B', "from": "g1", "to": "g5", "promotion": null, "kind": "plain"});
    let (status, body) = server.post(&format!("{game}/step"), &json!({ "actions": [bad] }));
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (400, "action 1 of the turn is not possible at that moment")
    );
    let (status, body) = server.post(&format!("{game}/play"), &json!({ "text": "Nd3" }));
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("Nc3"),
        "the legal turns of the knights: {body}"
    );
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "actions": [] }));
    assert_eq!(status, 400, "no null turn in Boyer's game");
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "x".repeat(501) }));
    assert_eq!(status, 400);
    // Unknown fields, unknown opponents and levels are refused, not ignored.
    let (status, _) = server.post("/api/games", &json!({ "opponent": "engine", "colour": "red" }));
    assert_eq!(status, 422);
    let (status, _) = server.post("/api/games", &json!({ "opponent": "robot" }));
    assert_eq!(status, 400);
    let (status, _) = server.post("/api/games", &json!({ "opponent": "engine", "level": 9 }));
    assert_eq!(status, 400);
    // A game over takes no turn.
    let (status, _) = server.post(&format!("{game}/resign"), &json!({}));
    assert_eq!(status, 200);
    let (status, body) = server.post(&format!("{game}/play"), &json!({ "text": "Nc3" }));
    assert_eq!((status, body["error"].as_str().unwrap()), (409, "the game is over: White resigns"));
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_game_belongs_to_the_holders_of_its_links() {
    let dir = folder("links");
    let server = Server::start(&dir);
    let (id, key, invite) =
        create(&server, &json!({ "variant": "boyer-1951", "opponent": "remote", "side": "white" }));
    let invite = invite.unwrap();
    let other = invite.rsplit('/').next().unwrap().to_owned();
    assert_ne!(other, key);
    let white = format!("/api/games/{id}/{key}");
    let black = format!("/api/games/{id}/{other}");
    // Wrong keys, malformed ids and keys, and paths all look like no game at all.
    for path in [
        format!("/api/games/{id}/{}", "0".repeat(32)),
        format!("/api/games/{}/{key}", "0".repeat(24)),
        format!("/api/games/{id}/{}", key.to_uppercase()),
        format!("/api/games/..%2F..%2Fetc/{key}"),
        format!("/api/games/{id}.txt/{key}"),
    ] {
        let (status, body) = server.get(&path);
        assert_eq!(
            (status, &body["error"]),
            (404, &json!("no such game: check the link")),
            "{path}"
        );
    }
    let (_, view) = server.get(&white);
    assert_eq!(view["invite"].as_str(), Some(invite.as_str()));
    let (_, view) = server.get(&black);
    assert_eq!(view["you"], json!(["black"]));
    assert_eq!(view["invite"], Value::Null, "only the maker is shown the invitation");
    assert_eq!(view["step"], Value::Null, "not Black's turn");
    let (status, _) = server.post(&format!("{black}/play"), &json!({ "text": "Nc7" }));
    assert_eq!(status, 409);
    let (status, _) = server.post(&format!("{white}/play"), &json!({ "text": "Nc3" }));
    assert_eq!(status, 200);
    let (status, _) = server.post(&format!("{black}/undo"), &json!({}));
    assert_eq!(status, 409, "no undo between two browsers");
    // A draw offered by one side is accepted by the other only.
    let (_, offered) = server.post(&format!("{white}/draw"), &json!({ "action": "offer" }));
    assert_eq!(offered["status"], "offered");
    let (status, _) = server.post(&format!("{white}/draw"), &json!({ "action": "accept" }));
    assert_eq!(status, 409);
    let (_, accepted) = server.post(&format!("{black}/draw"), &json!({ "action": "accept" }));
    assert_eq!(accepted["status"], "accepted");
    let (_, view) = server.get(&white);
    assert_eq!(view["ending"], json!({ "result": "1/2-1/2", "reason": "draw by agreement" }));
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_change_is_pushed_as_an_event() {
    let dir = folder("events");
    let server = Server::start(&dir);
    let (id, key, _) = create(&server, &json!({ "opponent": "hotseat" }));
    let game = format!("/api/games/{id}/{key}");
    let response = agent().get(&server.url(&format!("{game}/events"))).call().unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut lines = BufReader::new(response.into_body().into_reader()).lines();
    let mut event = || -> (String, String) {
        let name = lines.next().unwrap().unwrap();
        let data = lines.next().unwrap().unwrap();
        assert_eq!(lines.next().unwrap().unwrap(), "");
        (name, data)
    };
    let (name, first) = event();
    assert_eq!(name, "event: update");
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "Nc3" }));
    assert_eq!(status, 200);
    let (_, second) = event();
    let version = |data: &str| data.strip_prefix("data: ").unwrap().parse::<u64>().unwrap();
    assert!(version(&second) > version(&first), "{first} then {second}");
    // The server waits for open connections as it stops.
    drop(lines);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn games_survive_a_restart() {
    let dir = folder("restart");
    let text = std::fs::read_to_string("tests/data/web/carried.toml").unwrap();
    let (id, game) = {
        let server = Server::start(&dir);
        let (id, key, _) = create(&server, &json!({ "definition": text, "opponent": "hotseat" }));
        let game = format!("/api/games/{id}/{key}");
        let (status, body) = server.post(&format!("{game}/play"), &json!({ "text": "Re2" }));
        assert_eq!(status, 200, "{body}");
        (id, game)
    };
    // The uploaded definition sits beside the record, which names it: `replay` reads it too.
    let saved = std::fs::read_to_string(dir.join(format!("{id}.txt"))).unwrap();
    let named = saved.strip_prefix("[Variant \"").unwrap().split('"').next().unwrap().to_owned();
    assert_eq!(std::fs::read_to_string(dir.join(&named)).unwrap(), text, "{saved}");
    let server = Server::start(&dir);
    let (status, view) = server.get(&game);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["title"], "Carry drill");
    assert_eq!(moves(&view), ["Re2"]);
    assert_eq!(view["to_move"], "black");
    drop(server);
    // A folder of an older server names each definition after its game: still read.
    std::fs::rename(dir.join(&named), dir.join(format!("{id}.toml"))).unwrap();
    let older = saved.replace(&named, &format!("{id}.toml"));
    std::fs::write(dir.join(format!("{id}.txt")), older).unwrap();
    let server = Server::start(&dir);
    let (status, view) = server.get(&game);
    assert_eq!((status, &view["title"]), (200, &json!("Carry drill")), "{view}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn definitions_are_checked_as_validate_checks_them() {
    let dir = folder("check");
    let server = Server::start(&dir);
    let path = "tests/data/several-problems.toml";
    let text = std::fs::read_to_string(path).unwrap();
    let (status, answer) = server.post("/api/definitions/check", &json!({ "text": text }));
    assert_eq!(status, 200);
    assert_eq!(answer["valid"], false);
    // The same problems at the same lines and columns, with the same help, as `validate`.
    let Err(LoadError::Invalid { sources, diagnostics }) = definition::load_path(Path::new(path))
    else {
        panic!("{path} is invalid");
    };
    let expected: Vec<Value> =
        diagnostics.iter().map(|d| serde_json::to_value(d.to_json(&sources)).unwrap()).collect();
    let got = answer["diagnostics"].as_array().unwrap();
    assert_eq!(got.len(), expected.len());
    for (got, expected) in got.iter().zip(&expected) {
        for field in ["line", "column", "end_line", "end_column", "severity", "message", "help"] {
            assert_eq!(got[field], expected[field], "{field} of {got}");
        }
        assert!(
            got["rendered"]
                .as_str()
                .unwrap()
                .contains(&format!("definition.toml:{}:{}", got["line"], got["column"]))
        );
    }
    // A valid one comes with its rules in words and its start position.
    let mini = definition::shipped::shipped("mini").unwrap().1;
    let (_, answer) = server.post("/api/definitions/check", &json!({ "text": mini }));
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["title"], "Mini Football");
    assert!(answer["explain"].as_str().unwrap().starts_with("Mini Football\n"));
    assert!(answer["svg"].as_str().unwrap().contains("data-files=\"7\""));
    let (status, simulated) =
        server.post("/api/definitions/simulate", &json!({ "text": mini, "games": 3 }));
    assert_eq!(status, 200, "{simulated}");
    assert_eq!(
        (&simulated["games"], &simulated["played"], &simulated["stopped"]),
        (&json!(3), &json!(3), &Value::Null)
    );
    let (status, _) =
        server.post("/api/definitions/simulate", &json!({ "text": mini, "games": 201 }));
    assert_eq!(status, 400);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_path_from_a_request_reaches_the_file_system() {
    let dir = folder("paths");
    let server = Server::start(&dir);
    // A definition sent as text may extend shipped variants only.
    let text = "extends = \"/etc/passwd.toml\"\n";
    let (status, answer) = server.post("/api/definitions/check", &json!({ "text": text }));
    assert_eq!(status, 200);
    let message = answer["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("a definition given as text has no folder"), "{message}");
    let (status, answer) =
        server.post("/api/games", &json!({ "definition": text, "opponent": "hotseat" }));
    assert_eq!(status, 422, "{answer}");
    // A record's Variant tag names a shipped variant, or the definition sent with it.
    let record = "[Variant \"../../../etc/passwd.toml\"]\n\n1. Nc3 *\n";
    let (status, answer) = server.post("/api/records/open", &json!({ "record": record }));
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().contains("not a shipped variant"), "{answer}");
    let (status, _) = server.post("/api/render", &json!({ "variant": "/etc/passwd" }));
    assert_eq!(status, 400);
    // Static files are the page's own, by exact name.
    let (status, _) = server.get("/static/..%2F..%2FCargo.toml");
    assert_eq!(status, 404);
    assert_eq!(games_in(&dir), 0, "nothing was written");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bodies_and_hosts_are_bounded() {
    let dir = folder("bounds");
    let server = Server::start(&dir);
    // A body over the limit is refused before it is read: 413, or the connection closed on it.
    let big = "#".repeat(4 << 20);
    match agent().post(&server.url("/api/definitions/check")).send_json(json!({ "text": big })) {
        Ok(response) => assert_eq!(response.status().as_u16(), 413),
        Err(ureq::Error::Io(e)) => assert!(
            matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ),
            "{e}"
        ),
        Err(e) => panic!("{e}"),
    }
    let just_over = format!("{}\n", "#".repeat(1 << 20));
    let (status, answer) = server.post("/api/definitions/check", &json!({ "text": just_over }));
    assert_eq!(status, 400, "a definition over 1 MiB, as for files");
    assert!(answer["error"].as_str().unwrap().contains("definitions are at most 1048576 bytes"));
    // A page on another host name (a rebound DNS name) cannot reach a loopback server.
    let response = agent().get(&server.url("/api/variants")).header("Host", "evil.example").call();
    assert_eq!(response.unwrap().status().as_u16(), 421);
    let (status, variants) = server.get("/api/variants");
    assert_eq!(status, 200);
    let names: Vec<&str> =
        variants.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    let shipped: Vec<&str> = kickoff::definition::shipped::names().collect();
    assert_eq!(names, shipped, "every shipped variant, in the order of the help");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn records_open_turn_by_turn() {
    let dir = folder("records");
    let server = Server::start(&dir);
    let record = std::fs::read_to_string("tests/data/records/boyer-game.txt").unwrap();
    let (status, opened) = server.post("/api/records/open", &json!({ "record": record }));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["title"], "Football Chess");
    assert_eq!(opened["ending"]["reason"], "White scores a goal");
    let plies = opened["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3);
    assert_eq!(plies[0]["name"], "Bd4>g7");
    assert_eq!(plies[0]["comments"], json!(["the ball goes up the long diagonal"]));
    assert_eq!(
        plies[0]["arrows"],
        json!([{"from": "g1", "to": "d4", "kind": "move"}, {"from": "e5", "to": "g7", "kind": "kick"}])
    );
    let (status, drawn) = server.post(
        "/api/render",
        &json!({ "variant": "boyer-1951", "fen": plies[0]["fen"], "arrows": plies[0]["arrows"], "marked": plies[0]["marked"], "flip": true }),
    );
    assert_eq!(status, 200);
    let svg = drawn["svg"].as_str().unwrap();
    assert!(
        svg.contains("data-flipped=\"true\"") && svg.contains("data-from=\"e5\" data-to=\"g7\"")
    );
    let broken = "[Variant \"boyer-1951\"]\n\n1. Nc3 Nc7 2. Nd3 *\n";
    let (status, opened) = server.post("/api/records/open", &json!({ "record": broken }));
    assert_eq!(status, 200);
    assert_eq!(opened["plies"].as_array().unwrap().len(), 2);
    assert!(opened["error"].as_str().unwrap().starts_with("turn 2. `Nd3`"), "{opened}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// The game's definition from `tests/data/web/`.
fn web_data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web").join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Plays the first turn the step view offers that starts with `prefix` and may end there.
fn play_one_action(server: &Server, game: &str, prefix: &str) -> Value {
    let (_, view) = server.get(game);
    let next = view["step"]["next"].as_array().unwrap();
    let action = next
        .iter()
        .find(|n| n["name"].as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("no turn starting with {prefix}: {view}"));
    let (status, played) =
        server.post(&format!("{game}/play"), &json!({ "actions": [action["action"]] }));
    assert_eq!(status, 200, "{played}");
    played
}

#[test]
fn captures_promotions_and_passes_of_a_carried_ball() {
    let dir = folder("ball");
    let server = Server::start(&dir);
    let request = json!({ "definition": web_data("ball-drill.toml"), "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    // The promotion is a choice among five moves to one square.
    let step = &view["step"];
    let promotions: Vec<&Value> = step["next"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["action"]["from"] == "b8")
        .map(|n| &n["action"])
        .collect();
    let letters: Vec<&str> = promotions.iter().map(|a| a["promotion"].as_str().unwrap()).collect();
    assert_eq!(letters, ["R", "N", "B", "Q", "H"], "in the order of promote_to: {step}");
    assert!(promotions.iter().all(|a| a["to"] == "b9"));
    // A capture: the rook takes the pawn on h5.
    let capture = action_named(step, "Rxh5").clone();
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "actions": [capture] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["fen"], "9/1P7/9/r4B3/7R1/4O4/9/9/9 b 1 - -");
    play_one_action(&server, &game, "Ra");
    // A pass: the knight holding the ball gives it to the bishop; neither moves.
    let (_, view) = server.get(&game);
    let pass = action_named(&view["step"], ">f6").clone();
    assert_eq!(pass["kind"], "in-place");
    assert_eq!((pass["from"].as_str(), pass["to"].as_str()), (Some("e4"), Some("f6")));
    let (status, passed) = server.post(&format!("{game}/play"), &json!({ "actions": [pass] }));
    assert_eq!(status, 200, "{passed}");
    let svg = passed["svg"].as_str().unwrap();
    assert!(svg.contains("<g class=\"ball\" data-square=\"f6\" data-held=\"true\">"), "{svg}");
    let fen = passed["fen"].as_str().unwrap();
    assert!(fen.contains("/5C3/7R1/4N4/"), "the bishop holds the ball, the knight stays: {fen}");
    play_one_action(&server, &game, "R");
    // The promotion chosen is the one played.
    let (_, view) = server.get(&game);
    let queen = action_named(&view["step"], "Pb9=Q").clone();
    let (status, promoted) = server.post(&format!("{game}/play"), &json!({ "actions": [queen] }));
    assert_eq!(status, 200, "{promoted}");
    assert!(promoted["fen"].as_str().unwrap().starts_with("1Q7/"), "{promoted}");
    assert_eq!(moves(&promoted)[0], "Rxh5");
    assert_eq!(moves(&promoted)[2], ">f6");
    assert_eq!(moves(&promoted)[4], "Pb9=Q");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// Black's rook on e5 can kick the ball from e4 down the e-file into White's goal on e1;
/// White's rook on a3 can step into its path, and its bishop on f3 kick the ball away after.
const THREAT: &str = r#"extends = "boyer-1951"

[variant]
name = "Threat drill"

[setup]
fen = "9/9/9/9/4r4/4a4/R4B3/9/9 w 0"
"#;

#[test]
fn the_view_tells_whether_the_other_side_could_score_next_turn() {
    let dir = folder("threat");
    let server = Server::start(&dir);
    let request = json!({ "definition": THREAT, "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    let threat = &view["threat"];
    assert_eq!(threat["side"], "black", "{threat}");
    assert_eq!(threat["known"], true, "{threat}");
    let turn = &threat["turn"];
    assert!(turn["name"].as_str().unwrap().ends_with("e1#"), "{turn}");
    assert_eq!(turn["arrows"], json!([{ "from": "e4", "to": "e1", "kind": "kick" }]), "{turn}");
    let squares: Vec<&str> =
        turn["squares"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert!(["e5", "e4", "e1"].iter().all(|s| squares.contains(s)), "{turn}");
    // After the rook steps into the path (the turn may end there, or the bishop kick), no goal
    // is left.
    let rook = action_named(&view["step"], "Re3").clone();
    let (status, after) = server.post(&format!("{game}/step"), &json!({ "actions": [rook] }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["threat"], json!({ "side": "black", "known": true, "turn": null }));
    // The start of Boyer's game holds no threat; the link not to move is told nothing.
    let (id, key, invite) =
        create(&server, &json!({ "variant": "boyer-1951", "opponent": "remote" }));
    let (_, view) = server.get(&format!("/api/games/{id}/{key}"));
    assert_eq!(view["threat"], json!({ "side": "black", "known": true, "turn": null }));
    let (_, theirs) =
        server.get(&format!("/api/games{}", invite.unwrap().trim_start_matches("/play")));
    assert!(theirs.get("threat").is_none(), "{theirs}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_soccer_chess_turn_of_two_moves() {
    let dir = folder("soccer");
    let server = Server::start(&dir);
    let request = json!({ "variant": "soccer-chess-1998", "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    assert_eq!(view["keeps_score"], true);
    assert_eq!(view["score"], json!([0, 0]));
    // Millions of turns, but only the first actions are sent.
    let first = view["step"]["next"].as_array().unwrap().len();
    assert!((50..500).contains(&first), "{first} first actions");
    let one = action_named(&view["step"], "Da3").clone();
    let (status, after) = server.post(&format!("{game}/step"), &json!({ "actions": [one] }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["step"]["can_stop"], true, "a set may end after one move");
    let next = after["step"]["next"].as_array().unwrap();
    assert!(
        next.iter().all(|n| n["action"]["from"] != "a3"),
        "each piece moves once a set: {after}"
    );
    let two = action_named(&after["step"], "Da3Dc4").clone();
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "actions": [one, two] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(moves(&played), ["Da3Dc4"]);
    assert_eq!(played["to_move"], "black");
    let fen = played["fen"].as_str().unwrap();
    assert!(fen.contains("/6D2D1/2D8/D4G5/"), "b5 to a3 and e5 to c4: {fen}");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// MathiCasa's relay on the web board: the bishop captures the ball and kicks it to the knight,
/// which must kick it on; the board shows the ball with the knight in between.
#[test]
fn a_relay_entered_step_by_step() {
    let dir = folder("relay");
    let server = Server::start(&dir);
    let definition = "format = 1\nextends = \"mathicasa\"\n\n[variant]\nname = \"Relay drill\"\n\n\
                      [setup]\nfen = \"4k3/8/6N1/8/4o3/8/2B5/4K3 w 0\"\n";
    let request = json!({ "definition": definition, "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    let next = view["step"]["next"].as_array().unwrap();
    let pass = &next
        .iter()
        .find(|n| n["action"]["kicker"] == "c2" && n["action"]["to"] == "g6")
        .unwrap_or_else(|| panic!("no kick c2>g6 in {view}"))["action"];
    let (status, after) = server.post(&format!("{game}/step"), &json!({ "actions": [pass] }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["step"]["can_stop"], false, "the knight must kick on: {after}");
    let onward = after["step"]["next"].as_array().unwrap();
    let mut to: Vec<&str> = onward
        .iter()
        .map(|n| {
            assert_eq!(n["action"]["kicker"], "g6", "{n}");
            n["action"]["to"].as_str().unwrap()
        })
        .collect();
    to.sort_unstable();
    assert_eq!(to, ["e5", "e7", "f4", "f8", "h4", "h8"]);
    let svg = after["svg"].as_str().unwrap();
    assert!(svg.contains("data-square=\"g6\" data-held=\"true\""), "{svg}");
    // A turn that stops with the ball on the knight is refused.
    let (status, refused) = server.post(&format!("{game}/play"), &json!({ "actions": [pass] }));
    assert_eq!(status, 400, "{refused}");
    let shot = &onward.iter().find(|n| n["action"]["to"] == "h8").unwrap()["action"];
    let (status, played) =
        server.post(&format!("{game}/play"), &json!({ "actions": [pass, shot] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["fen"], "4k2o/8/6N1/8/4B3/8/8/4K3 b 1");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// Ogneva's arrangement stage on the web board: the view says which pieces are still to move,
/// only arrangement moves are offered, and play begins once all have moved.
#[test]
fn the_arrangement_stage_on_the_web_board() {
    let dir = folder("arrangement");
    let server = Server::start(&dir);
    // Setup 1 puts the ball on e4, the paper's diagram (a game without a number draws the
    // ball's centre square).
    let request = json!({ "variant": "ogneva-2014", "opponent": "hotseat", "setup": "1" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    assert_eq!(view["setup"], "1", "{view}");
    let white = ["a1", "b1", "c1", "d1", "f1", "g1", "h1"];
    let black = ["a8", "b8", "c8", "d8", "f8", "g8", "h8"];
    assert_eq!(view["arranging"], json!([white, black]));
    let next = view["step"]["next"].as_array().unwrap();
    assert!(next.iter().all(|n| n["action"]["type"] == "move"), "{view}");
    assert!(next.iter().any(|n| n["name"] == "Qd5") && !next.iter().any(|n| n["name"] == "Qd6"));
    let queen = action_named(&view["step"], "Qd5").clone();
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "actions": [queen] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["arranging"][0], json!(["a1", "b1", "c1", "f1", "g1", "h1"]));
    // Thirteen more arrangement moves, then play.
    for name in [
        "Nc6", "Nc3", "Nf6", "Nf3", "Ba6", "Ba3", "Bh6", "Bh3", "Qd6", "Rab1", "Rab8", "Rhg1",
        "Rhg8",
    ] {
        let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": name }));
        assert_eq!(status, 200, "{name}: {played}");
    }
    let (_, view) = server.get(&game);
    assert_eq!(view["arranging"], Value::Null, "{view}");
    assert!(action_named(&view["step"], "Qxd6").is_object());
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_game_without_a_ball_on_the_web_board() {
    let dir = folder("no-ball");
    let server = Server::start(&dir);
    let request = json!({ "variant": "footballchess-correa", "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let (_, view) = server.get(&game);
    // No ball is drawn, and no action kicks.
    assert!(!view["svg"].as_str().unwrap().contains("class=\"ball\""), "{view}");
    let next = view["step"]["next"].as_array().unwrap();
    assert_eq!(next.len(), 70, "the start's 70 moves");
    assert!(next.iter().all(|n| n["action"]["type"] == "move"), "{view}");
    // White's forward takes the forward on c10, then the midfielder on d11, and steps into
    // the goal d12: a point, and the board is set up again with Black (who conceded) to move.
    for name in ["Fxc10", "Ca10", "Fxd11", "Ca8"] {
        let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": name }));
        assert_eq!(status, 200, "{name}: {played}");
    }
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": "Fd12#" }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["score"], json!([1, 0]), "{played}");
    assert_eq!(played["ending"], Value::Null, "first to three: the match goes on");
    assert_eq!(played["fen"], "cdd2ddc/2mmmm2/2f2f2/8/8/8/8/8/8/2F2F2/2MMMM2/CDD2DDC b 5 1-0");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tackle_on_the_web_board() {
    let dir = folder("tackle");
    let server = Server::start(&dir);
    let request = json!({ "variant": "skunne-chessball", "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    for name in ["Da1", "Ab4", "Da2", "Aa3"] {
        let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": name }));
        assert_eq!(status, 200, "{name}: {played}");
    }
    // The defender on a2 tackles the attacker on a3, which goes to a4: offered as a move onto
    // the enemy, and kept in the position for the next turn.
    let (_, view) = server.get(&game);
    let tackle = action_named(&view["step"], "Dxa3").clone();
    assert_eq!(tackle["type"], "move", "{tackle}");
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "actions": [tackle] }));
    assert_eq!(status, 200, "{played}");
    assert!(played["fen"].as_str().unwrap().ends_with(" a3a4"), "{played}");
    // The tackled attacker may not jump back over its tackler.
    let next = played["step"]["next"].as_array().unwrap();
    assert!(next.iter().any(|n| n["name"] == "Ab5"), "{played}");
    assert!(!next.iter().any(|n| n["name"] == "Aa2"), "{played}");
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "Aa2" }));
    assert_eq!(status, 400);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_draft_on_the_web_board() {
    let dir = folder("draft");
    let server = Server::start(&dir);
    let request = json!({ "variant": "orsi-chess-football", "opponent": "hotseat" });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    // The view says what each side still places, from which hand.
    let (_, view) = server.get(&game);
    let hand = json!({ "pieces": "QRRBBNNPPPPPP", "to_place": 3 });
    assert_eq!(view["placing"], json!([hand, hand]), "{view}");
    // A placement is offered as a move of kind `drop` onto its square, and played.
    let placement = action_named(&view["step"], "Q@d1").clone();
    assert_eq!(
        placement,
        json!({ "type": "move", "piece": "Q", "from": "d1", "to": "d1", "promotion": null, "kind": "drop" })
    );
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "actions": [placement] }));
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["placing"][0], json!({ "pieces": "RRBBNNPPPPPP", "to_place": 2 }));
    // A placement on the other side's ranks, or of a piece no longer in hand, is refused.
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "Q@d2" }));
    assert_eq!(status, 400, "Black places on its own first two ranks");
    for name in ["B@c8", "R@a1", "B@f8", "N@g1"] {
        let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": name }));
        assert_eq!(status, 200, "{name}: {played}");
    }
    let (status, _) = server.post(&format!("{game}/play"), &json!({ "text": "B@a7" }));
    assert_eq!(status, 400, "Black's bishops are both placed");
    let (status, played) = server.post(&format!("{game}/play"), &json!({ "text": "P@c7" }));
    assert_eq!(status, 200, "{played}");
    // The draft is over: play begins.
    assert_eq!(played["placing"], Value::Null, "{played}");
    assert_eq!(played["fen"], "2b1kb2/2ppp3/8/8/4a3/8/3PP3/R2QK1N1 w 6 - - -");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_side_without_a_turn_draws_and_the_engine_is_not_asked_for_one() {
    let dir = folder("shut-in");
    let server = Server::start(&dir);
    let request = json!({
        "definition": web_data("shut-in.toml"), "opponent": "engine", "side": "black", "level": 1
    });
    let (id, key, _) = create(&server, &request);
    let game = format!("/api/games/{id}/{key}");
    let view = wait_for(&server, &game, |v| v["thinking"] == false);
    assert_eq!(
        view["ending"],
        json!({ "result": "1/2-1/2", "reason": "draw: the side to move has no legal turn" })
    );
    assert_eq!(view["step"], Value::Null);
    // A view wakes the engine when it is its turn: it must not be asked again and again.
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(50));
        let (_, again) = server.get(&game);
        assert_eq!((&again["version"], &again["thinking"]), (&view["version"], &json!(false)));
    }
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn random_games_of_a_variant_whose_sides_can_be_left_without_a_turn() {
    let dir = folder("simulate");
    let server = Server::start(&dir);
    // vchess.club's Ball draws a game whose side to move has no turn; one of these games gets
    // there (drawing a random turn among none once failed the request).
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/vchess-ball.toml"),
    )
    .unwrap();
    let (status, answer) =
        server.post("/api/definitions/simulate", &json!({ "text": text, "games": 20, "seed": 1 }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["games"], 20);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_pages_files_are_cached_and_cost_a_tenth_of_a_request() {
    let dir = folder("static");
    let server = Server::with(&dir, |config| {
        config.limits.request_burst = 20.0;
        config.limits.requests_per_second = 0.001;
    });
    let agent = agent();
    let mut response = agent.get(&server.url("/static/app.js")).call().unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let tag = response.headers().get("etag").unwrap().to_str().unwrap().to_owned();
    response.body_mut().read_to_string().unwrap();
    assert!(tag.starts_with('"') && tag.len() == 26, "{tag}");
    // A copy still the server's is answered without the file.
    let mut again =
        agent.get(&server.url("/static/app.js")).header("If-None-Match", &tag).call().unwrap();
    assert_eq!(again.status().as_u16(), 304);
    assert_eq!(again.body_mut().read_to_string().unwrap(), "");
    let mut other =
        agent.get(&server.url("/static/api.js")).header("If-None-Match", &tag).call().unwrap();
    assert_eq!(other.status().as_u16(), 200, "another file's tag is not this one's");
    other.body_mut().read_to_string().unwrap();
    // A burst of 20 requests: 150 of the page's files fit in it, then 5 requests of the API;
    // the next is refused.
    for i in 0..150 {
        let mut file = agent.get(&server.url("/static/board.js")).call().unwrap();
        assert_eq!(file.status().as_u16(), 200, "file {i}");
        // Read whole, so that the connection serves the next.
        file.body_mut().read_to_string().unwrap();
    }
    for i in 0..4 {
        assert_eq!(server.get("/api/variants").0, 200, "request {i}");
    }
    let statuses: Vec<u16> = (0..3).map(|_| server.get("/api/variants").0).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
}
