//! `kickoff serve [--port P] [--host H] [--open] [--data DIR] [--games DIR] [--secure-cookies]
//! [--smtp URL --mail-from ADDRESS] [--public-url URL] [--allow-host NAME] [--max-connections N]`:
//! the web board and the lobby.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::commands::Exit;
use kickoff::text::printable_path;
use kickoff::web::{Config, default_data_folder, serve};

/// What `serve` was asked.
pub struct Request {
    /// Where to listen.
    pub address: SocketAddr,
    /// Where the database is kept.
    pub data: Option<PathBuf>,
    /// Where games by link are saved.
    pub games: Option<PathBuf>,
    /// Whether session cookies are marked `Secure`.
    pub secure_cookies: bool,
    /// The SMTP server's URL and the notices' sender.
    pub smtp: Option<(String, String)>,
    /// Where the server's pages are reached from outside.
    pub public_url: Option<String>,
    /// Whether to open the board in a browser.
    pub open: bool,
    /// Host names the board is reached by.
    pub allow_hosts: Vec<String>,
    /// The most connections open at once.
    pub max_connections: Option<u32>,
}

/// Serves the web board until the process is stopped.
pub fn run(request: Request) -> Exit {
    let data = request.data.unwrap_or_else(default_data_folder);
    let games = request.games.unwrap_or_else(|| data.join("games"));
    let mut config = Config::new(request.address, games, |problem| eprintln!("warning: {problem}"));
    config.data = data;
    config.secure_cookies = request.secure_cookies;
    config.smtp = request.smtp;
    config.public_url = request.public_url;
    config.hosts = request.allow_hosts;
    if let Some(most) = request.max_connections {
        config.limits.connections = most as usize;
    }
    let folder = config.games.clone();
    let data = config.data.clone();
    let open = request.open;
    let ready = |url: &str| {
        println!(
            "kickoff serves {url} (games by link saved in {}, accounts and lobby games in {})",
            printable_path(&folder),
            printable_path(data.join("kickoff.db"))
        );
        if open && let Err(e) = open::that_detached(url) {
            eprintln!("warning: could not open a browser: {e}");
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return Exit::Failure;
        }
    };
    match runtime.block_on(serve(config, ready)) {
        Ok(()) => Exit::Success,
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}
