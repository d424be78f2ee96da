//! `kickoff serve` run by a test on a scratch data folder, and the HTTP calls a bot or a script
//! makes to it: shared by the test binaries of the lobby's API and of publishing.

// Each test binary uses the part it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// The password of the accounts the tests make.
pub const PASSWORD: &str = "correct horse";

/// A scratch folder, removed afterwards.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "kickoff-{}-{name}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// `kickoff serve` on a free port, killed when dropped.
pub struct Server {
    pub child: Child,
    pub base: String,
    /// One agent, whose connections are kept alive: the server limits new connections a
    /// second.
    pub agent: ureq::Agent,
}

impl Server {
    pub fn start(data: &Path) -> Server {
        Server::with(data, &[])
    }

    /// A server with more options.
    pub fn with(data: &Path, options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kickoff"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let base = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_owned();
        Server { child, base, agent: agent() }
    }

    /// Kills the server at once, as `kill -9` does.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// A request as `auth` if given (a bearer token `kt_...`, else a session cookie), with
    /// extra headers: its status, its body (JSON, else text) and its headers.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        auth: Option<&str>,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> (u16, Value, ureq::http::HeaderMap) {
        let url = format!("{}{path}", self.base);
        let mut request = ureq::http::Request::builder().method(method).uri(&url);
        match auth {
            Some(token) if token.starts_with("kt_") => {
                request = request.header("Authorization", format!("Bearer {token}"));
            }
            Some(cookie) => request = request.header("Cookie", cookie),
            None => {}
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = match body {
            Some(body) => self.agent.run(
                request
                    .header("Content-Type", "application/json")
                    .body(serde_json::to_vec(body).unwrap())
                    .unwrap(),
            ),
            None => self.agent.run(request.body(Vec::new()).unwrap()),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.body_mut().read_to_string().unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)), headers)
    }

    pub fn call(
        &self,
        method: &str,
        path: &str,
        auth: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (status, body, _) = self.request(method, path, auth, body, &[]);
        (status, body)
    }

    pub fn get(&self, path: &str, auth: Option<&str>) -> (u16, Value) {
        self.call("GET", path, auth, None)
    }

    pub fn post(&self, path: &str, auth: &str, body: &Value) -> (u16, Value) {
        self.call("POST", path, Some(auth), Some(body))
    }

    /// Makes an account (with [`PASSWORD`]); returns its session cookie, which must be kept
    /// from scripts and other sites.
    pub fn account(&self, name: &str) -> String {
        let body = json!({"name": name, "password": PASSWORD});
        let (status, answer, headers) =
            self.request("POST", "/api/account", None, Some(&body), &[]);
        assert_eq!(status, 201, "{answer}");
        let cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
        cookie.split(';').next().unwrap().to_owned()
    }

    /// Signs in: the new session's cookie.
    pub fn login(&self, name: &str, password: &str) -> String {
        let body = json!({"name": name, "password": password});
        let (status, answer, headers) = self.request("POST", "/api/login", None, Some(&body), &[]);
        assert_eq!(status, 200, "{answer}");
        let cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
        cookie.split(';').next().unwrap().to_owned()
    }

    /// A bearer token for the account of `cookie`.
    pub fn token(&self, cookie: &str) -> String {
        let (status, body) = self.call("POST", "/api/tokens", Some(cookie), None);
        assert_eq!(status, 201, "{body}");
        body["token"].as_str().unwrap().to_owned()
    }

    /// `seeker` seeks, `acceptor` accepts: the game's id.
    pub fn game(&self, seeker: &str, acceptor: &str, seek: &Value) -> String {
        let (status, body) = self.post("/api/seeks", seeker, seek);
        assert_eq!(status, 201, "{body}");
        let id = body["id"].as_str().unwrap();
        let (status, body) = self.post(&format!("/api/seeks/{id}/accept"), acceptor, &json!({}));
        assert_eq!(status, 201, "{body}");
        body["game"].as_str().unwrap().to_owned()
    }
}

/// Makes `name` an administrator with `kickoff admin`, on the database of data folder `data`
/// (which a running server shares).
pub fn make_admin(data: &Path, name: &str) {
    let admin = Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(["admin", "make-admin", name, "--data"])
        .arg(data)
        .output()
        .unwrap();
    assert!(admin.status.success(), "{}", String::from_utf8_lossy(&admin.stderr));
}

/// An HTTP client that reads error statuses as answers, with a minute's bound on each call.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
