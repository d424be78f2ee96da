//! `kickoff bot --server URL --token T [--level L] ...`: kickoff's engine plays as an account
//! of a server, through the HTTP API as any bot does (docs/api.md): it accepts the challenges
//! (and, if asked, the open seeks) it is given limits for, and plays the turns of its games,
//! thinking within its clock.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::commands::{CommandError, CommandResult};
use kickoff::definition::load_shipped;
use kickoff::game::Game;
use kickoff::position::Position;
use kickoff::rules::Rules;
use kickoff::search::{Limits, Searcher};
use kickoff::text::excerpt;
use kickoff::turn_text::names::name;

/// The arguments of `kickoff bot`: what the bot is asked.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's address (`http://HOST:PORT`).
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The account's bearer token (`POST /api/tokens`); `-` reads it from stdin.
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
    /// The engine's level, 1 to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// The variants it plays, separated by commas (default: every shipped one).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Accept open seeks too, not only challenges to the account.
    #[arg(long)]
    pub accept_seeks: bool,
    /// Refuse live games.
    #[arg(long)]
    pub no_live: bool,
    /// Refuse correspondence games.
    #[arg(long)]
    pub no_correspondence: bool,
    /// The most games it plays at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_games: usize,
    /// How often it looks for challenges and turns, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub poll: u64,
}

/// Why a call to the server failed.
enum CallError {
    /// The server answered with an error status.
    Status(u16, String),
    /// It could not be reached.
    Unreachable(String),
}

struct Client {
    agent: ureq::Agent,
    base: String,
    auth: String,
}

impl Client {
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, CallError> {
        let url = format!("{}{path}", self.base);
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).header("Authorization", &self.auth).call(),
            (_, Some(body)) => {
                self.agent.post(&url).header("Authorization", &self.auth).send_json(body)
            }
            (_, None) => self.agent.post(&url).header("Authorization", &self.auth).send_empty(),
        };
        let mut response = response.map_err(|e| CallError::Unreachable(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if status >= 400 {
            let why = excerpt(value["error"].as_str().unwrap_or(&text)).into_owned();
            return Err(CallError::Status(status, why));
        }
        Ok(value)
    }
}

/// Plays as the account of the token until stopped, or until the token is refused.
pub fn run(mut args: Args) -> CommandResult {
    if args.token == "-" {
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        args.token = line.trim().to_owned();
    }
    let client = Client {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into(),
        base: args.server.trim_end_matches('/').to_owned(),
        auth: format!("Bearer {}", args.token),
    };
    let me = match client.call("GET", "/api/me", None) {
        Ok(me) => me["name"].as_str().map(str::to_owned),
        Err(CallError::Status(code, why)) => {
            return Err(CommandError::failure(format!("the server answered {code}: {why}")));
        }
        Err(CallError::Unreachable(why)) => {
            let base = excerpt(&client.base);
            return Err(CommandError::failure(format!("cannot reach {base}: {why}")));
        }
    };
    let me = me.ok_or_else(|| CommandError::failure("the server does not know this token"))?;
    println!("kickoff plays as {} on {}", excerpt(&me), excerpt(&client.base));
    let mut rules: HashMap<String, Rules> = HashMap::new();
    loop {
        match round(&client, &args, &me, &mut rules) {
            Ok(()) => {}
            Err(CallError::Status(401, why)) => {
                return Err(CommandError::failure(format!(
                    "the server no longer takes this token: {why}"
                )));
            }
            Err(CallError::Status(code, why)) => eprintln!("warning: {code}: {why}"),
            Err(CallError::Unreachable(why)) => eprintln!("warning: {why}"),
        }
        std::thread::sleep(Duration::from_millis(args.poll));
    }
}

/// One look at the lobby and the bot's games: challenges accepted, turns played.
fn round(
    client: &Client,
    args: &Args,
    me: &str,
    rules: &mut HashMap<String, Rules>,
) -> Result<(), CallError> {
    let mine = client.call("GET", "/api/my/games", None)?;
    let games = mine.as_array().cloned().unwrap_or_default();
    let mut going = games.iter().filter(|g| g["result"].is_null()).count();
    let seeks = client.call("GET", "/api/seeks", None)?;
    for seek in seeks.as_array().into_iter().flatten() {
        if going >= args.max_games {
            break;
        }
        if !wanted(args, me, seek) {
            continue;
        }
        let id = seek["id"].as_str().unwrap_or_default();
        match client.call("POST", &format!("/api/seeks/{id}/accept"), None) {
            Ok(made) => {
                going += 1;
                println!(
                    "accepted {}'s seek of {}: game {}",
                    excerpt(seek["user"].as_str().unwrap_or("")),
                    excerpt(seek["variant"].as_str().unwrap_or("")),
                    excerpt(made["game"].as_str().unwrap_or_default())
                );
            }
            // Taken by someone else, or lapsed.
            Err(CallError::Status(404 | 409, _)) => {}
            Err(e) => return Err(e),
        }
    }
    for game in games.iter().filter(|g| g["your_turn"] == json!(true)) {
        let id = game["id"].as_str().unwrap_or_default();
        play(client, args, id, rules)?;
    }
    Ok(())
}

/// Whether the bot takes `seek`: a challenge to it, or an open seek when it accepts them, of a
/// variant and a time control it plays.
fn wanted(args: &Args, me: &str, seek: &Value) -> bool {
    let to_me = seek["to"].as_str().is_some_and(|to| to.eq_ignore_ascii_case(me));
    let open = seek["to"].is_null() && args.accept_seeks;
    let own = seek["user"].as_str().is_some_and(|u| u.eq_ignore_ascii_case(me));
    let variant = seek["variant"].as_str().unwrap_or_default();
    let variant_ok = args.variants.is_empty() || args.variants.iter().any(|v| v == variant);
    let live = seek["clock"]["initial"].is_number();
    let clock_ok = if live { !args.no_live } else { !args.no_correspondence };
    !own && (to_me || open) && variant_ok && clock_ok
}

/// Chooses and plays the bot's turn in game `id`.
fn play(
    client: &Client,
    args: &Args,
    id: &str,
    rules: &mut HashMap<String, Rules>,
) -> Result<(), CallError> {
    let game = client.call("GET", &format!("/api/games/{id}"), None)?;
    let variant = game["variant"].as_str().unwrap_or_default().to_owned();
    if !rules.contains_key(&variant) {
        let Ok(def) = load_shipped(&variant) else {
            eprintln!(
                "warning: game {}: kickoff does not know the variant {}",
                excerpt(id),
                excerpt(&variant)
            );
            return Ok(());
        };
        rules.insert(variant.clone(), def.rules);
    }
    let rules = &rules[&variant];
    let Some(turn) = choose(rules, &variant, &game, args.level) else {
        eprintln!("warning: game {}: no turn to play", excerpt(id));
        return Ok(());
    };
    match client.call("POST", &format!("/api/games/{id}/turn"), Some(&json!({ "turn": turn }))) {
        Ok(_) => {
            println!("game {}: {turn}", excerpt(id));
            Ok(())
        }
        // The game ended meanwhile (a clock, a resignation).
        Err(CallError::Status(409, _)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// The engine's turn in `game` (as `GET /api/games/{id}` gives it), within its clock.
fn choose(rules: &Rules, variant: &str, game: &Value, level: u8) -> Option<String> {
    let start = Position::from_fen(rules, game["start"].as_str()?).ok()?;
    let mut played = Game::new(variant, start, None);
    for turn in game["turns"].as_array()? {
        played.play_text(turn.as_str()?).ok()?;
    }
    let pos = *played.position();
    let hashes = played.hashes();
    let past = &hashes[..hashes.len().saturating_sub(1)];
    let mut limits = Limits::level(level);
    if let Some(budget) = budget(game) {
        limits.cap = Some(limits.cap.map_or(budget, |cap| cap.min(budget)));
    }
    let report = Searcher::new(rules).search(&pos, past, limits).ok()?;
    report.turn.map(|turn| name(&pos, &turn))
}

/// The time the bot gives a turn of a live game: a thirtieth of what is left, and most of the
/// increment, with a margin for the way to the server.
fn budget(game: &Value) -> Option<Duration> {
    let side = game["your_side"].as_str()?;
    let left = game["clock"][side].as_i64()?;
    let increment = game["time_control"]["increment"].as_i64()?;
    let ms = (left / 30 + increment * 800).min(left / 2 - 300).max(20);
    Some(Duration::from_millis(u64::try_from(ms).ok()?))
}
