//! Self-play for balance: the engine against itself from fairly drawn setups, with how each
//! game ended, its length, the piece that scored and every kick by piece.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::game::{Ending, Game, GameResult};
use crate::movegen::{Action, Turn};
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, Searcher, random_turn};
use crate::setup::{self, SetupNumber};
use crate::square::Square;

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay<'v> {
    /// The variant's name in the games' records (a shipped name, or the definition's file).
    pub variant: &'v str,
    /// Games numbered below this keep their record (as samples to show).
    pub recorded: usize,
    /// The number of the first game (each game's setup and opening come from the seed and its
    /// number, so that games `first..first + games` are the same however they are split).
    pub first: usize,
    /// The number of games.
    pub games: usize,
    /// The engine's level (both sides).
    pub level: u8,
    /// The seed of the setups and openings.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// A game still going after this many turns is a draw (the turn cap).
    pub max_turns: u32,
    /// Random turns played first, so that a variant with one start gives varied games.
    pub opening: u32,
    /// The last turns in which a ball that did not move makes a capped draw a stuck ball.
    pub stuck_turns: u32,
    /// A stuck ball's last position is given to the solver for this many turns of each side
    /// ([`Wall`]); 0: not.
    pub wall_turns: u32,
    /// Games in colour-swapped pairs: where Black's arrangement is drawn apart from White's,
    /// each odd-numbered game starts from the setup of the game before it with the two
    /// arrangements exchanged (a mirrored setup exchanged is the same setup, so there each
    /// game draws its own).
    pub swap_colours: bool,
}

/// What the solver says of the last position of a draw with the ball stuck: whether the wall
/// is one, within the turns asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wall {
    /// Proved: neither side forces a goal within the turns, whatever the other does.
    Held,
    /// A side forces a goal within the turns: the engine did not see it.
    Forced,
    /// The solver could not tell within its limits.
    Unknown,
}

/// The most positions the solver expands for one side of a wall.
const WALL_NODES: u64 = 1_000_000;

/// What the solver says of `pos`, the last position of a draw with the ball stuck.
fn wall(pos: &Position<'_>, turns: u32) -> Wall {
    let limits = crate::analysis::SolveLimits { max_nodes: Some(WALL_NODES), deadline: None };
    let v = crate::analysis::survey::verdict(None, pos, turns, limits);
    if v.white.is_some() || v.black.is_some() {
        Wall::Forced
    } else if v.unknown {
        Wall::Unknown
    } else {
        Wall::Held
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawCause {
    /// A position occurred the times that draw.
    Repetition,
    /// The variant's turn limit or the analysis's turn cap, the ball moving.
    TurnLimit,
    /// The turn limit or cap, the ball still for the last turns (the stuck ball).
    StuckBall,
    /// A position had too many turns for the engine.
    TooManyTurns,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Its setup, if the variant has random setups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// Why a draw was drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawCause>,
    /// Turns played.
    pub turns: u32,
    /// The letter of the piece whose kick scored (the last kicker), if a goal ended the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scorer: Option<char>,
    /// Whether the goal was an own goal.
    pub own_goal: bool,
    /// Kicks by piece letter.
    pub kicks: BTreeMap<char, u32>,
    /// For a draw with the ball stuck, what the solver says of its last position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall: Option<Wall>,
    /// For a draw with the ball stuck, its last position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// Its record, for the first games only (`SelfPlay::recorded`).
    #[serde(skip)]
    pub record: Option<String>,
}

/// How a game's setup is drawn from its random stream (none: the variant's start).
pub type Draw<'d> = dyn Fn(&mut ChaCha8Rng) -> Option<SetupNumber> + Sync + 'd;

/// Plays `options.games` games of the engine against itself (numbered from `options.first`);
/// `draw` picks each game's setup. `progress` is called with the games done.
pub fn self_play(
    rules: &Rules,
    options: SelfPlay<'_>,
    draw: &Draw<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<GameSummary> {
    let numbers: Vec<usize> = (options.first..options.first + options.games).collect();
    let out = Mutex::new(vec![None; options.games]);
    let done = AtomicUsize::new(0);
    play_games(rules, options, &numbers, draw, &|i, summary| {
        out.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i - options.first] =
            Some(summary);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, options.games);
    });
    let out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    out.into_iter().flatten().collect()
}

/// Plays the games numbered `numbers` on `options.threads` threads; `done` is called with
/// each game's number and summary as it ends. A game depends on the seed and its number alone
/// (each starts with an engine that forgets earlier games), so games split among threads,
/// runs or machines come out as in one run.
pub fn play_games(
    rules: &Rules,
    options: SelfPlay<'_>,
    numbers: &[usize],
    draw: &Draw<'_>,
    done: &(dyn Fn(usize, GameSummary) + Sync),
) {
    let engine = || Searcher::with_table_bits(rules, 18);
    crate::parallel::for_each(options.threads, numbers, engine, |searcher, &i| {
        searcher.forget();
        done(i, play_one(rules, &options, i, draw, searcher));
    });
}

/// Game `i`: its own random stream from the seed, so that results do not depend on threads.
fn play_one<'r>(
    rules: &'r Rules,
    options: &SelfPlay<'_>,
    i: usize,
    draw: &Draw<'_>,
    searcher: &mut Searcher<'r>,
) -> GameSummary {
    let stream = |i: usize| {
        ChaCha8Rng::seed_from_u64(options.seed.wrapping_mul(1_000_003).wrapping_add(i as u64))
    };
    let mut rng = stream(i);
    let independent = rules.random_setup().is_some_and(|r| r.black_independent());
    let number = if options.swap_colours && independent && i % 2 == 1 {
        draw(&mut stream(i - 1)).map(|n| SetupNumber { white: n.black(), black: Some(n.white) })
    } else {
        draw(&mut rng)
    };
    let start = number
        .zip(rules.random_setup())
        .and_then(|(n, random)| setup::position(rules, random, n).ok())
        .unwrap_or_else(|| Position::start(rules));
    let mut game = Game::new(options.variant, start, number);
    let mut kicks = BTreeMap::new();
    let mut last_kicker = None;
    let mut still = 0;
    let mut too_many = false;
    while game.ending().is_none() && (game.plies().len() as u32) < options.max_turns {
        let pos = *game.position();
        let turn = if (game.plies().len() as u32) < options.opening {
            random_turn(&pos, &mut rng)
        } else {
            let history = game.hashes();
            let past = &history[..history.len() - 1];
            searcher.search(&pos, past, Limits::level(options.level)).ok().and_then(|r| r.turn)
        };
        let Some(turn) = turn else {
            too_many = true;
            break;
        };
        last_kicker = count_kicks(&pos, &turn, &mut kicks).or(last_kicker);
        if !pos.rules().has_ball() {
            // Without a ball the scorer is the piece that moved last.
            last_kicker = turn.first_move().map(|m| m.letter).or(last_kicker);
        }
        if game.play(turn).is_err() {
            too_many = true;
            break;
        }
        // A ball that has not moved for a while (never, in a game without a ball).
        let ball = game.position().ball();
        still = if ball.is_some() && ball == pos.ball() { still + 1 } else { 0 };
    }
    let mut summary =
        summarise(&game, number, kicks, last_kicker, still >= options.stuck_turns, too_many);
    if summary.draw == Some(DrawCause::StuckBall) && options.wall_turns > 0 {
        summary.wall = Some(wall(game.position(), options.wall_turns));
        summary.last = Some(game.position().fen());
    }
    if i < options.recorded {
        summary.record = Some(crate::game::record::write(&game));
    }
    summary
}

/// Counts the kicks of `turn` by piece letter; returns the last kicker's letter.
fn count_kicks(pos: &Position<'_>, turn: &Turn, kicks: &mut BTreeMap<char, u32>) -> Option<char> {
    // Where the moved piece stands now, to name a kicker that moved in this turn.
    let mut moved: Vec<(Square, char)> = Vec::new();
    let mut last = None;
    for action in &turn.actions {
        match action {
            Action::Move(m) => moved.push((m.to, m.letter)),
            Action::Kick(k) => {
                let letter = moved
                    .iter()
                    .rev()
                    .find(|(s, _)| *s == k.kicker)
                    .map(|&(_, l)| l)
                    .or_else(|| {
                        pos.piece_at(k.kicker).map(|(_, kind)| pos.rules().piece(kind).letter)
                    })
                    .unwrap_or('?');
                *kicks.entry(letter).or_insert(0) += 1;
                last = Some(letter);
            }
        }
    }
    last
}

fn summarise(
    game: &Game<'_>,
    number: Option<SetupNumber>,
    kicks: BTreeMap<char, u32>,
    last_kicker: Option<char>,
    stuck: bool,
    too_many: bool,
) -> GameSummary {
    let ending = game.ending();
    let (result, draw, scorer, own_goal) = match ending {
        Some(Ending::Goal { winner, own_goal }) => {
            let result = if winner == crate::side::Side::White {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            (result, None, last_kicker, own_goal)
        }
        Some(Ending::Repetition) => (GameResult::Draw, Some(DrawCause::Repetition), None, false),
        Some(e) if e.result() != GameResult::Draw => (e.result(), None, None, false),
        _ if too_many => (GameResult::Draw, Some(DrawCause::TooManyTurns), None, false),
        _ if stuck => (GameResult::Draw, Some(DrawCause::StuckBall), None, false),
        _ => (GameResult::Draw, Some(DrawCause::TurnLimit), None, false),
    };
    GameSummary {
        setup: number.map(|n| n.to_string()),
        result: result.to_string(),
        draw,
        turns: game.plies().len() as u32,
        scorer,
        own_goal,
        kicks,
        wall: None,
        last: None,
        record: None,
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;

    use super::{SelfPlay, self_play};
    use crate::setup::{self, SetupNumber};

    /// With Black drawn apart from White, each odd-numbered game starts from the game before's
    /// setup with the arrangements exchanged; without colour-swapped pairs it draws its own.
    #[test]
    fn colour_swapped_pairs_exchange_the_arrangements_where_black_is_drawn_apart() {
        let def = crate::definition::load("tests/data/compare/960-independent.toml").unwrap();
        let rules = &def.rules;
        let count = setup::count(rules, rules.random_setup().unwrap());
        let draw = |rng: &mut ChaCha8Rng| Some(SetupNumber::draw(count, true, rng));
        let options = SelfPlay {
            variant: "960-independent",
            recorded: 0,
            first: 0,
            games: 4,
            level: 1,
            seed: 7,
            threads: 2,
            max_turns: 2,
            opening: 0,
            stuck_turns: 20,
            wall_turns: 0,
            swap_colours: true,
        };
        let numbers = |games: &[super::GameSummary]| -> Vec<(String, String)> {
            games
                .iter()
                .map(|g| {
                    let text = g.setup.clone().unwrap();
                    let (w, b) = text.split_once('/').unwrap();
                    (w.to_owned(), b.to_owned())
                })
                .collect()
        };
        let swapped = numbers(&self_play(rules, options, &draw, &|_, _| {}));
        for pair in swapped.chunks(2) {
            assert_eq!((&pair[0].0, &pair[0].1), (&pair[1].1, &pair[1].0), "{swapped:?}");
            assert_ne!(pair[0].0, pair[0].1);
        }
        assert_ne!(swapped[0], swapped[2]);
        let plain = numbers(&self_play(
            rules,
            SelfPlay { swap_colours: false, ..options },
            &draw,
            &|_, _| {},
        ));
        assert_eq!((&plain[0], &plain[2]), (&swapped[0], &swapped[2]));
        assert_ne!(plain[1], swapped[1]);
    }
}
