//! `kickoff serve [--port P] [--host H] [--open] [--games DIR]`: the web board.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::commands::Exit;
use kickoff::render::printable::printable_path;
use kickoff::web::{Config, default_games_folder, serve};

/// Serves the web board until the process is stopped.
pub fn run(address: SocketAddr, games: Option<PathBuf>, open: bool) -> Exit {
    let config = Config {
        address,
        games: games.unwrap_or_else(default_games_folder),
        warn: |problem| eprintln!("warning: {problem}"),
    };
    let folder = config.games.clone();
    let ready = |url: &str| {
        println!("kickoff serves {url} (games saved in {})", printable_path(&folder));
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
