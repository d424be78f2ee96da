//! A page per variant: `GET /api/variants/{key}/page` for every shipped variant and for a
//! definition the server keeps by its hash, its rules in words as `kickoff explain` gives them,
//! its diagrams, and what the solver says of its start, computed once in the background.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kickoff::definition::{load_shipped, shipped};
use kickoff::render::explain::explain;
use kickoff::web::{App, Config, serve_on};
use serde_json::{Value, json};

/// A server on a free port, stopped when dropped.
struct Server {
    base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(folder: &Path) -> Server {
        let (ready, address) = std::sync::mpsc::channel::<SocketAddr>();
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
                let config =
                    Config::new(address, folder, |problem| eprintln!("warning: {problem}"));
                let app = Arc::new(App::new(&config).unwrap());
                ready.send(address).unwrap();
                serve_on(listener, app, async {
                    let _ = stopped.await;
                })
                .await;
            });
        });
        let address = address.recv().unwrap();
        Server { base: format!("http://{address}"), stop: Some(stop), thread: Some(thread) }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        answer(agent().get(&format!("{}{path}", self.base)).call())
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        answer(agent().post(&format!("{}{path}", self.base)).send_json(body))
    }

    /// A variant's page whose facts are settled, asked for again until they are.
    fn settled_page(&self, key: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(240);
        loop {
            let (status, page) = self.get(&format!("/api/variants/{key}/page"));
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
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = response.unwrap();
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// A scratch games folder.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kickoff-pages-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let dir = folder("shipped");
    let server = Server::start(&dir);
    for name in shipped::names() {
        let (status, page) = server.get(&format!("/api/variants/{name}/page"));
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
    let (_, chessball) = server.get("/api/variants/chessball-1957/page");
    assert!(chessball["field"]["svg"].as_str().unwrap().contains("class=\"zone\""));
    assert!(chessball["start"].as_str().unwrap().contains("class=\"zone\""));
    assert!(chessball["field"]["zoned"].is_string());
    assert_eq!(chessball["field"]["zones"].as_array().unwrap().len(), 3);
    let (_, boyer) = server.get("/api/variants/boyer-1951/page");
    assert!(!boyer["field"]["svg"].as_str().unwrap().contains("class=\"zone\""));
    assert!(boyer["field"]["zoned"].is_null());
    assert_eq!(boyer["field"]["goals"][0]["squares"], "e9");

    for name in ["boyer-1951", "vchess"] {
        let page = server.settled_page(name);
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
    let (_, again) = server.get("/api/variants/boyer-1951/page");
    assert_eq!(again["facts"]["status"], "settled");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn football_960s_setups_are_counted_from_its_survey() {
    let dir = folder("960");
    let server = Server::start(&dir);
    let page = server.settled_page("football-960");
    assert_eq!(page["random_setup"], true);
    let setups = &page["facts"]["setups"];
    assert_eq!(setups["count"], 2880);
    let two = setups["forced_within_2"].as_u64().unwrap();
    let three = setups["forced_within_3"].as_u64().unwrap();
    assert!(0 < three && two <= three, "{setups}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_key_is_not_found() {
    let dir = folder("unknown");
    let server = Server::start(&dir);
    for key in ["no-such-variant", "0123456789abcdef01234567", "..%2F..%2Fetc%2Fpasswd", "MINI"] {
        let (status, body) = server.get(&format!("/api/variants/{key}/page"));
        assert_eq!(status, 404, "{key}: {body}");
        assert!(body["error"].as_str().unwrap().contains("no variant is named"), "{body}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stored_definition_has_a_page_by_its_hash() {
    let dir = folder("stored");
    let server = Server::start(&dir);
    let text =
        shipped::shipped("mini").unwrap().1.replacen("name = ", "name = \"Mini <b>&</b>\"\n# ", 1);
    let (status, created) =
        server.post("/api/games", &json!({"opponent": "hotseat", "definition": text}));
    assert_eq!(status, 200, "{created}");
    let url = created["url"].as_str().unwrap();
    let (_, game) = server.get(&format!("/api{}", url.replacen("/play", "/games", 1)));
    let stored = game["variant"].as_str().unwrap().to_owned();
    let hash = stored.strip_suffix(".toml").unwrap();
    assert_eq!(hash.len(), 24, "{stored}");
    for key in [hash, stored.as_str()] {
        let (status, page) = server.get(&format!("/api/variants/{key}/page"));
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
    let page = server.settled_page(hash);
    assert_eq!(page["facts"]["forced"][0]["unknown"], false, "{}", page["facts"]);
    let _ = std::fs::remove_dir_all(&dir);
}
