//! `kickoff serve [--port P] [--host H] [--open] [--data DIR] [--games DIR] [--secure-cookies]
//! [--smtp URL --mail-from ADDRESS] [--public-url URL] [--allow-host NAME] [--trust-proxy ADDRESS]
//! [--max-connections N]`:
//! the web board and the lobby.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use crate::commands::{CommandError, CommandResult};
use kickoff::text::printable_path;
use kickoff::web::{Config, default_data_folder, serve};

/// The arguments of `kickoff serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The port (0: any free port).
    #[arg(long, default_value_t = 7157)]
    pub port: u16,
    /// The address to listen on; other machines can reach the board only if it is not a
    /// loopback address.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the board in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Where the database of accounts and lobby games is kept (default: kickoff in the
    /// user's data folder).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Where games by link are saved (default: `games` in the data folder).
    #[arg(long, value_name = "DIR")]
    pub games: Option<PathBuf>,
    /// Mark session cookies `Secure`: for a server reached over HTTPS through a proxy.
    #[arg(long)]
    pub secure_cookies: bool,
    /// An SMTP server to send players notices of their correspondence games through:
    /// `smtp://HOST:PORT`, `smtp://USER:PASSWORD@HOST:587?tls=required`, `smtps://...`.
    #[arg(long, value_name = "URL", requires = "mail_from")]
    pub smtp: Option<String>,
    /// The sender of notices (`kickoff <kickoff@example.org>`).
    #[arg(long, value_name = "ADDRESS", requires = "smtp")]
    pub mail_from: Option<String>,
    /// Where the server's pages are reached from outside, for the links in notices (default:
    /// the address it serves on).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// A host name the board is reached by, besides `localhost` and addresses (repeat it
    /// for several): requests naming any other host are refused, so that no web page can
    /// reach the board by rebinding its own name to the board's address.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// The address of a reverse proxy in front of the board (repeat it for several): the
    /// client of a request it forwards is the address its `X-Forwarded-For` header ends
    /// with, and its own connections are bounded only by the server's total.
    #[arg(long = "trust-proxy", value_name = "ADDRESS")]
    pub proxies: Vec<IpAddr>,
    /// The most connections open at once (default: 2000, or fewer when the process may
    /// open fewer files).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=1_000_000))]
    pub max_connections: Option<u32>,
}

/// Serves the web board until the process is stopped.
pub fn run(args: Args) -> CommandResult {
    let data = args.data.unwrap_or_else(default_data_folder);
    let games = args.games.unwrap_or_else(|| data.join("games"));
    let address = SocketAddr::new(args.host, args.port);
    let mut config = Config::new(address, games, |problem| eprintln!("warning: {problem}"));
    config.data = data;
    config.secure_cookies = args.secure_cookies;
    config.smtp = args.smtp.zip(args.mail_from);
    config.public_url = args.public_url;
    config.hosts = args.allow_hosts;
    config.proxies = args.proxies;
    if let Some(most) = args.max_connections {
        config.limits.connections = most as usize;
    }
    let folder = config.games.clone();
    let data = config.data.clone();
    let open = args.open;
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CommandError::failure(format!("cannot start the server: {e}")))?;
    runtime.block_on(serve(config, ready)).map_err(CommandError::failure)
}
