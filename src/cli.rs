//! The command line: clap types only.

use clap::{Parser, Subcommand, ValueEnum};

/// Football Chess and football-style chess variants, played from definition files.
#[derive(Debug, Parser)]
#[command(name = "kickoff", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Let definitions extend files outside their own folder.
    #[arg(long, global = true)]
    pub allow_outside: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the terminal (Boyer's Football Chess unless another variant is named).
    Play {
        /// A shipped variant's name or a path to a .toml file.
        variant: Option<String>,
        /// Who plays White: human, random, greedy, engine or engine:LEVEL (1 to 4, default 4).
        #[arg(long, default_value = "human")]
        white: String,
        /// Who plays Black: human, random, greedy, engine or engine:LEVEL.
        #[arg(long, default_value = "engine")]
        black: String,
        /// Random setup N (N/M when Black is drawn independently), `random`, or `fair` (`fair:N`):
        /// a random setup where neither side forces a goal within 2 (N) turns.
        #[arg(long, value_name = "N|random|fair", conflicts_with = "fen")]
        setup: Option<String>,
        /// Start from this position.
        #[arg(long)]
        fen: Option<String>,
        /// Save the game's record to FILE after every turn.
        #[arg(long, value_name = "FILE")]
        record: Option<std::path::PathBuf>,
        /// Let a new game replace the record already in the --record FILE.
        #[arg(long, requires = "record")]
        force: bool,
        /// Resume the game saved in FILE.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "setup"])]
        load: Option<std::path::PathBuf>,
        /// Seed the computer's random choices (and a random setup), for a reproducible game.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Carry the definition in the records written, so that a record alone replays the game.
        #[arg(long)]
        embed: bool,
        /// Use the prompt even when the input is not a terminal.
        #[arg(long, hide = true)]
        interactive: bool,
    },
    /// Check definition files and report every problem with its place.
    Validate {
        /// Definition files (or shipped variant names).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also play N random games (1 to 10000) under each definition and warn of what they show.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_SIMULATED_GAMES))]
        simulate: Option<u32>,
        /// The seed of the random games.
        #[arg(long, value_name = "S", default_value_t = 1, requires = "simulate")]
        seed: u64,
    },
    /// List the shipped variants, each with its one-line description.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print a definition: a shipped variant's file as shipped, or a file as it is.
    Definition {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        /// Print what its chain of `extends` resolves to instead, as one complete file.
        #[arg(long)]
        resolved: bool,
    },
    /// Print the rules of a variant in plain English.
    Explain {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
    },
    /// Random setups: how many there are, one by number, or a random pick.
    Setup {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        /// Show setup N (N/M when Black is drawn independently).
        #[arg(long, value_name = "N", conflicts_with_all = ["seed", "count"])]
        number: Option<String>,
        /// Pick a setup at random from this seed (the same pick on every machine).
        #[arg(long, value_name = "S", conflicts_with = "count")]
        seed: Option<u64>,
        /// Draw Black's pieces independently of White's.
        #[arg(long)]
        asymmetric: bool,
        /// Print how many setups there are.
        #[arg(long)]
        count: bool,
        /// Draw only setups where neither side forces a goal within N turns.
        #[arg(long, value_name = "N", conflicts_with_all = ["number", "count", "asymmetric"], value_parser = clap::value_parser!(u32).range(1..=8))]
        fair: Option<u32>,
    },
    /// Show a position as a board.
    Show {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        start: Start,
    },
    /// Check every turn of a game record; print the final position, the result and the reason.
    Replay {
        /// The record.
        file: String,
        /// The variant, when the record names none (or names one that moved).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Print the JSON Schema of the definition format, for editors.
    Schema,
    /// Print the completion script of a shell, e.g. `kickoff completions bash`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), e.g. `kickoff manpage play > kickoff-play.1`, or write them all.
    #[command(visible_alias = "man")]
    Manpage {
        /// The subcommand whose page to print (without one, the page of kickoff itself).
        subcommand: Option<String>,
        /// Write kickoff.1 and one kickoff-SUBCOMMAND.1 per subcommand into this folder.
        #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
        dir: Option<std::path::PathBuf>,
    },
    /// List every legal turn of a position with the position it leads to.
    Turns {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        start: Start,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// The engine's choice of turn in a position, with its score and expected line.
    Bestmove {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        start: Start,
        /// Search this many turns deep.
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Think this many milliseconds.
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Use a level's limits (when neither --depth nor --movetime is given).
        #[arg(long, value_name = "L", value_parser = clap::value_parser!(u8).range(1..=kickoff::search::MAX_LEVEL as i64), conflicts_with_all = ["depth", "movetime"])]
        level: Option<u8>,
        /// With --movetime: ask the exact solver for a forced goal within N turns of the side
        /// to move (first, an eighth of the time) and of the opponent after the chosen turn
        /// (last, three eighths) (levels 3 and 4 do so within 2 and 3 turns).
        #[arg(long, value_name = "N", requires = "movetime", value_parser = clap::value_parser!(u32).range(0..=6))]
        exact: Option<u32>,
        /// Turns played before the position searched, from the start or --fen, separated by
        /// spaces (e.g. "Nc3 Nc7 Qd4"): the position after them is searched, and their
        /// positions are the game's past (a result that repeats one may draw).
        #[arg(long, value_name = "TURNS", allow_hyphen_values = true)]
        moves: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Play games between two computer players and report the score.
    Match {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        /// The number of games (colours alternate).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        games: u32,
        /// The first player (White in odd-numbered games): random, greedy, engine[:LEVEL], or
        /// program:COMMAND (another program, asked for each turn as `bestmove` is).
        #[arg(long)]
        white: String,
        /// The second player.
        #[arg(long)]
        black: String,
        /// Start each pair of games from a random setup (`random`), a fair one (`fair`, `fair:N`:
        /// a random setup where neither side forces a goal within 2, or N, turns) or setup N.
        #[arg(long, value_name = "N|random|fair")]
        setup: Option<String>,
        /// Start each pair of games after this many random turns (the same for both colours),
        /// so that deterministic players meet in varied positions.
        #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
        opening: u32,
        /// Engines think this many milliseconds a turn (instead of their level's time).
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// A game still going after this many turns is a draw.
        #[arg(long, value_name = "N", default_value_t = 300)]
        max_turns: u32,
        /// A program (program:COMMAND) that gives no turn within this many seconds is stopped
        /// and loses the game.
        #[arg(long, value_name = "S", default_value_t = 60,
              value_parser = clap::value_parser!(u64).range(1..=86_400))]
        program_time: u64,
        /// The seed of random players and random setups.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Write each game's record into this folder (game-0001.txt, ...).
        #[arg(long, value_name = "DIR")]
        records: Option<std::path::PathBuf>,
        /// Carry the definition in each record, so that a record alone replays its game.
        #[arg(long, requires = "records")]
        embed: bool,
        /// Count the games whose records are already in the --records folder (from an
        /// interrupted run of the same match) and play only the others.
        #[arg(long, requires = "records")]
        resume: bool,
        /// Write over the records of another match already in the --records folder.
        #[arg(long, requires = "records", conflicts_with = "resume")]
        force: bool,
    },
    /// Prove or refute that the side to move forces a goal within N of its turns.
    Solve {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        start: Start,
        /// The most turns of the side to move (its scoring turn included).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
        turns: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Check the proof in PROOF.json (written by `--format json`) instead of solving.
        #[arg(long, value_name = "PROOF.json")]
        check: Option<std::path::PathBuf>,
        /// Give up ("unknown") after expanding this many positions.
        #[arg(long, value_name = "N")]
        max_nodes: Option<u64>,
        /// Give up ("unknown") after this many seconds.
        #[arg(long, value_name = "S", value_parser = seconds)]
        time: Option<std::time::Duration>,
    },
    /// A balance report for designers: forced goals from every start, and self-play figures.
    Analyze {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        /// Look for forced goals within this many turns of each side.
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
        turns: u32,
        /// Self-play games (0: none).
        #[arg(long, value_name = "M", default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
        games: u32,
        /// The engine's level in self-play.
        #[arg(long, value_name = "L", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=kickoff::search::MAX_LEVEL as i64))]
        level: u8,
        /// A self-play game still going after this many turns is a draw.
        #[arg(long, value_name = "N", default_value_t = 200)]
        max_turns: u32,
        /// The seed of self-play (setups and opening turns).
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: every core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Give up on a start after this many seconds per side ("unknown").
        #[arg(long, value_name = "S", value_parser = seconds)]
        time: Option<std::time::Duration>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
    /// Play as an account of a kickoff server: accept challenges, and play their games.
    Bot {
        /// The server's address (`http://HOST:PORT`).
        #[arg(long, value_name = "URL")]
        server: String,
        /// The account's bearer token (`POST /api/tokens`); `-` reads it from stdin.
        #[arg(long, value_name = "TOKEN")]
        token: String,
        /// The engine's level, 1 to 4.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
        level: u8,
        /// The variants it plays, separated by commas (default: every shipped one).
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        variants: Vec<String>,
        /// Accept open seeks too, not only challenges to the account.
        #[arg(long)]
        accept_seeks: bool,
        /// Refuse live games.
        #[arg(long)]
        no_live: bool,
        /// Refuse correspondence games.
        #[arg(long)]
        no_correspondence: bool,
        /// The most games it plays at once.
        #[arg(long, value_name = "N", default_value_t = 4)]
        max_games: usize,
        /// How often it looks for challenges and turns, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(50..=60_000))]
        poll: u64,
    },
    /// Manage a server's database: accounts, backups, imports.
    Admin {
        /// The server's data folder (default: kickoff in the user's data folder).
        #[arg(long, value_name = "DIR", global = true)]
        data: Option<std::path::PathBuf>,
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Serve the web board: play, open records and write variants in a browser.
    Serve {
        /// The port (0: any free port).
        #[arg(long, default_value_t = 7157)]
        port: u16,
        /// The address to listen on; other machines can reach the board only if it is not a
        /// loopback address.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Open the board in the default browser.
        #[arg(long)]
        open: bool,
        /// Where the database of accounts and lobby games is kept (default: kickoff in the
        /// user's data folder).
        #[arg(long, value_name = "DIR")]
        data: Option<std::path::PathBuf>,
        /// Where games by link are saved (default: `games` in the data folder).
        #[arg(long, value_name = "DIR")]
        games: Option<std::path::PathBuf>,
        /// Mark session cookies `Secure`: for a server reached over HTTPS through a proxy.
        #[arg(long)]
        secure_cookies: bool,
        /// An SMTP server to send players notices of their correspondence games through:
        /// `smtp://HOST:PORT`, `smtp://USER:PASSWORD@HOST:587?tls=required`, `smtps://...`.
        #[arg(long, value_name = "URL", requires = "mail_from")]
        smtp: Option<String>,
        /// The sender of notices (`kickoff <kickoff@example.org>`).
        #[arg(long, value_name = "ADDRESS", requires = "smtp")]
        mail_from: Option<String>,
        /// Where the server's pages are reached from outside, for the links in notices (default:
        /// the address it serves on).
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        /// A host name the board is reached by, besides `localhost` and addresses (repeat it
        /// for several): requests naming any other host are refused, so that no web page can
        /// reach the board by rebinding its own name to the board's address.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_hosts: Vec<String>,
        /// The address of a reverse proxy in front of the board (repeat it for several): the
        /// client of a request it forwards is the address its `X-Forwarded-For` header ends
        /// with, and its own connections are bounded only by the server's total.
        #[arg(long = "trust-proxy", value_name = "ADDRESS")]
        proxies: Vec<std::net::IpAddr>,
        /// The most connections open at once (default: 2000, or fewer when the process may
        /// open fewer files).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=1_000_000))]
        max_connections: Option<u32>,
    },
    /// Draw a position as an SVG or PNG diagram.
    Render {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        start: Start,
        /// A game record: draw the position after turn K, with that turn's path.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "setup"])]
        record: Option<std::path::PathBuf>,
        /// The number of turns of the record played (default: all of them; 0: the start).
        #[arg(long, value_name = "K", requires = "record")]
        turn: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ImageFormat::Svg)]
        format: ImageFormat,
        /// Arrows to draw: `e5-h8` (a move) or `e5>h8` (a kick), separated by spaces.
        #[arg(long, value_name = "LIST")]
        arrows: Option<String>,
        /// Black's view: rank 1 at the top.
        #[arg(long)]
        flip: bool,
        /// Write to FILE instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
    },
    /// Count the sequences of DEPTH turns from a position (perft).
    Perft {
        /// A shipped variant's name or a path to a .toml file.
        variant: String,
        /// The number of turns (0 to 64).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=kickoff::movegen::perft::MAX_DEPTH as i64))]
        depth: u32,
        #[command(flatten)]
        start: Start,
        /// Also print each turn with its own count.
        #[arg(long)]
        divide: bool,
        /// Count only sequences of exactly DEPTH turns, as chess perft does: a finished
        /// position has no turns (by default a scoring turn ends its sequence and counts 1).
        #[arg(long)]
        exact: bool,
        /// Count each distinct result of a position once, however many turns lead to it.
        #[arg(long)]
        distinct: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
}

/// The most random games `validate --simulate` plays under each definition.
pub const MAX_SIMULATED_GAMES: i64 = 10_000;
/// The position an analysis command starts from: `--fen F` or `--setup N`, the variant's start
/// position when neither is given.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Start {
    /// The position (default: the variant's start position).
    #[arg(long, conflicts_with = "setup")]
    pub fen: Option<String>,
    /// Random setup N (N/M when Black is drawn independently).
    #[arg(long, value_name = "N")]
    pub setup: Option<String>,
}

/// How to print a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// For people.
    Text,
    /// For programs.
    Json,
    /// A self-contained HTML page with plots.
    Html,
}

/// How to print results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// The picture formats of `render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ImageFormat {
    /// Scalable vector graphics.
    Svg,
    /// A PNG picture, drawn by resvg.
    Png,
}

/// A time in seconds (`--time`): a number from 0 to a million, fractions allowed.
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let s: f64 = text.parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(0.0..=1_000_000.0).contains(&s) {
        return Err(format!("{text} seconds is out of range: give 0 to 1000000"));
    }
    Ok(std::time::Duration::from_secs_f64(s))
}

/// What `kickoff admin` does.
#[derive(Debug, clap::Subcommand)]
pub enum AdminAction {
    /// Make an account; its password is read from the first line of stdin.
    CreateUser {
        /// Its name.
        name: String,
        /// Make it an administrator.
        #[arg(long)]
        admin: bool,
    },
    /// Make an account an administrator.
    MakeAdmin {
        /// Its name.
        name: String,
    },
    /// Ban an account: it can no longer sign in, seek or play; its sessions end and its seeks go.
    Ban {
        /// Its name.
        name: String,
    },
    /// Lift a ban.
    Unban {
        /// Its name.
        name: String,
    },
    /// Forbid an account to chat.
    Mute {
        /// Its name.
        name: String,
    },
    /// Let an account chat again.
    Unmute {
        /// Its name.
        name: String,
    },
    /// Copy the whole database to a new file while the server runs.
    Backup {
        /// The copy (a new file).
        file: std::path::PathBuf,
    },
    /// Import the games of a games folder (records `ID.txt`, definitions `HASH.toml`): their
    /// links keep working, from the database.
    Import {
        /// The folder.
        folder: std::path::PathBuf,
    },
}
