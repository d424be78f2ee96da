//! Random games under a definition (`validate --simulate`): what they reveal that reading the
//! definition does not, such as games that do not end or a goal that is never scored.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::definition::Code;
use crate::definition::{Definition, Diagnostic, Loc};
use crate::game::Game;

use crate::movegen::{MAX_TURNS, Turn, count_turns, nth_turn, null_allowed};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// The longest random game `simulate` plays, in turns from its start: a game still going
/// then is stopped, whatever the variant's turn limit (`end.max_turns` may be a million).
pub const SIMULATION_CAP: u32 = 500;

/// The most turns a random game may count in all, over the positions it reaches (each turn is
/// drawn from its position's count): a game whose positions have hundreds of thousands of
/// turns each is stopped when it passes this, rather than run for minutes. The random games
/// of the shipped variants count a few million at most.
pub const SIMULATION_WORK: u64 = 25 * MAX_TURNS;

/// How random games are played, and when they stop before they are all played.
#[derive(Clone, Copy, Default)]
pub struct Simulation<'a> {
    /// The games to play.
    pub games: usize,
    /// The seed of the first game's draws.
    pub seed: u64,
    /// When to stop: no turn is played after it (it is read before each turn, and a turn
    /// walks at most [`MAX_TURNS`] turns of its position), and the game under way is left out.
    pub deadline: Option<Instant>,
    /// Stops the games like the deadline as soon as it is set (by another thread).
    pub cancel: Option<&'a AtomicBool>,
    /// Hears of each game played: (games played, games in all).
    pub progress: Option<&'a dyn Fn(usize, usize)>,
}

/// What random games revealed, and how many were played.
#[derive(Clone, Debug)]
pub struct Simulated {
    /// The warnings, about the games played.
    pub diagnostics: Vec<Diagnostic>,
    /// The games played, each to its end or to the bounds of a random game
    /// ([`SIMULATION_CAP`], [`SIMULATION_WORK`]); fewer than asked when stopped.
    pub played: usize,
    /// Whether the deadline or the cancel flag stopped the games before all were played.
    pub stopped: bool,
}

/// Random games of one kind: how many, and the first as an example.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: usize,
    /// The first: its number (from 0), the turns it played and its record.
    first: Option<(usize, u32, String)>,
}

impl Tally {
    fn note(&mut self, index: usize, game: &Game<'_>) {
        self.games += 1;
        if self.first.is_none() {
            let turns = game.position().turns() - game.start().turns();
            self.first = Some((index, turns, crate::game::record::write(game)));
        }
    }
}

/// What random games under a definition revealed.
#[derive(Clone, Debug, Default)]
struct Findings {
    /// Games still going after [`SIMULATION_CAP`] turns in a variant without a turn limit.
    endless: Tally,
    /// Games still going after [`SIMULATION_CAP`] turns, before the variant's turn limit.
    long: Tally,
    /// Games stopped when their positions' turns passed [`SIMULATION_WORK`].
    costly: Tally,
    /// The first position where a side had no legal turn, and the game up to there.
    stuck: Option<(String, String)>,
    /// Goals scored, by square.
    scored: Vec<Square>,
    /// Whether each side ever kicked.
    kicked: [bool; 2],
    /// Games abandoned at a position with more turns than kickoff lists.
    abandoned: usize,
    /// The first such game: its number, the position and the game up to there.
    exploded: Option<(usize, String, String)>,
}

/// Plays `games` random games under the definition (seeded) and warns of games that do not end,
/// positions where a side cannot move, goals never reached and a side that never kicks.
/// `progress` hears of each game played: (games played, games in all).
#[must_use]
pub fn simulate(
    def: &Definition,
    variant: &str,
    games: usize,
    seed: u64,
    progress: Option<&dyn Fn(usize, usize)>,
) -> Vec<Diagnostic> {
    let simulation = Simulation { games, seed, progress, ..Simulation::default() };
    simulate_with(def, variant, &simulation).diagnostics
}

/// [`simulate`], stopped early by a deadline or a cancel flag when `simulation` has one: the
/// warnings are then about the games played before it, and say so by their count.
#[must_use]
pub fn simulate_with(def: &Definition, variant: &str, simulation: &Simulation<'_>) -> Simulated {
    play_games(def, variant, simulation, BOUNDS)
}

/// How far kickoff plays a random game: [`SIMULATION_CAP`] turns, [`SIMULATION_WORK`] turns
/// counted.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    turns: u32,
    work: u64,
}

const BOUNDS: Bounds = Bounds { turns: SIMULATION_CAP, work: SIMULATION_WORK };

/// [`simulate_with`] within `bounds`.
fn play_games(
    def: &Definition,
    variant: &str,
    simulation: &Simulation<'_>,
    bounds: Bounds,
) -> Simulated {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(simulation.seed);
    let mut found = Findings::default();
    let mut played = 0;
    while played < simulation.games {
        let game = RandomGame { def, variant, index: played, bounds };
        if game.play(simulation, &mut rng, &mut found).is_break() {
            break;
        }
        played += 1;
        if let Some(report) = simulation.progress {
            report(played, simulation.games);
        }
    }
    Simulated {
        diagnostics: report(def, bounds, played, &found),
        played,
        stopped: played < simulation.games,
    }
}

impl Simulation<'_> {
    /// Whether the deadline has passed or the cancel flag is set.
    fn interrupted(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// A random game to play: the definition, the name its record gives the variant, its number
/// (from 0) and how far it may go.
struct RandomGame<'d> {
    def: &'d Definition,
    variant: &'d str,
    index: usize,
    bounds: Bounds,
}

impl RandomGame<'_> {
    /// Plays the game from the start (a random setup when the variant has them), noting what it
    /// shows in `found`; breaks when the simulation is interrupted before the game ends, leaving
    /// the game out.
    fn play(
        &self,
        simulation: &Simulation<'_>,
        rng: &mut rand_chacha::ChaCha8Rng,
        found: &mut Findings,
    ) -> ControlFlow<()> {
        let rules = &self.def.rules;
        let Some((start, number)) = random_start(rules, rng) else {
            return ControlFlow::Continue(());
        };
        let mut game = Game::new(self.variant, start, number);
        let cap = start.turns().saturating_add(self.bounds.turns);
        let mut work = 0;
        while game.ending().is_none() {
            if simulation.interrupted() {
                return ControlFlow::Break(());
            }
            let bound = if game.position().turns() >= cap {
                Some(if rules.end().max_turns > 0 { &mut found.long } else { &mut found.endless })
            } else {
                (work > self.bounds.work).then_some(&mut found.costly)
            };
            if let Some(tally) = bound {
                tally.note(self.index, &game);
                return ControlFlow::Continue(());
            }
            match random_turn(&mut game, self.index, rng, found) {
                Some(counted) => work += counted,
                None => return ControlFlow::Continue(()),
            }
        }
        ControlFlow::Continue(())
    }
}

/// Plays one random turn in `game` (random game `index`), noting what it shows in `found`: the
/// number of turns counted to draw it, or none when the game cannot go on (its position has too
/// many turns to count, noted as such, or the side has no turn).
fn random_turn(
    game: &mut Game<'_>,
    index: usize,
    rng: &mut rand_chacha::ChaCha8Rng,
    found: &mut Findings,
) -> Option<u64> {
    use rand::RngExt;
    let pos = *game.position();
    let beyond = crate::search::random_by_actions(&pos);
    let counted = if beyond { Err(crate::movegen::TooManyTurns) } else { count_turns(&pos) };
    if counted.is_err() && pos.rules().turn().moves > 1 {
        // Several piece moves a turn: too many turns to count by design, so a turn is built
        // from random actions, as the random player does.
        let turn = crate::search::random_turn(&pos, rng)?;
        play_noting_the_ball(game, turn, found)?;
        return Some(if beyond { 1 } else { MAX_TURNS });
    }
    let Ok(count) = counted else {
        found.abandoned += 1;
        if found.exploded.is_none() {
            found.exploded = Some((index, pos.fen(), crate::game::record::write(game)));
        }
        return None;
    };
    // The turn drawn is the one a full list would hold at that index.
    let drawn = rng.random_range(0..count as usize);
    let turn = nth_turn(&pos, drawn as u64)?;
    if count == 1 && turn.is_null() && !null_allowed(&pos) && found.stuck.is_none() {
        found.stuck = Some((pos.fen(), crate::game::record::write(game)));
    }
    play_noting_the_ball(game, turn, found)?;
    Some(count)
}

/// Plays `turn` in `game`, noting in `found` whether its side played the ball (kicked it, or,
/// where the ball is carried, holds it after the turn) and the goal square of a goal it scored
/// (every goal of a match, not only the last). None if the turn cannot be played.
fn play_noting_the_ball(game: &mut Game<'_>, turn: Turn, found: &mut Findings) -> Option<()> {
    let before = *game.position();
    let side = before.side();
    let kicked = turn.kicks().next().is_some();
    game.play(turn).ok()?;
    let after = game.position();
    if after.score() != before.score() || after.is_goal() {
        // A point: the board before a match's reset shows the goal square, the ball on it or
        // in a game without a ball the scorer's piece (a royal piece captured leaves none).
        let mut mid = crate::movegen::Mid::start(&before);
        for &action in game.plies().last().map_or(&[][..], |ply| &ply.turn.actions) {
            mid = mid.apply(action);
        }
        let at = mid.position();
        let square = match at.ball() {
            Some(ball) => at.rules().tables().goals.contains(ball).then_some(ball),
            None => at.piece_on_goal(side),
        };
        found.scored.extend(square.filter(|s| !found.scored.contains(s)));
    }
    let holds = after.ball_held()
        && after.ball().and_then(|b| after.piece_at(b)).is_some_and(|(s, _)| s == side);
    found.kicked[side.index()] |= kicked || holds;
    Some(())
}

/// A random game's start: a random setup (with its number) when the variant has them, else
/// the start position; none if it cannot be set up.
fn random_start<'r>(
    rules: &'r Rules,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Option<(Position<'r>, Option<crate::setup::SetupNumber>)> {
    use rand::RngExt;
    match rules.random_setup() {
        Some(random) => {
            let count = crate::setup::count(rules, random);
            let black = random.black_independent().then(|| rng.random_range(0..count));
            let n = crate::setup::SetupNumber { white: rng.random_range(0..count), black };
            let placement = crate::setup::placement(rules, random, n).ok()?;
            Some((Position::from_checked(rules, &placement), Some(n)))
        }
        None => Some((Position::from_fen(rules, rules.setup_fen()).ok()?, None)),
    }
}

/// The findings as warnings.
fn report(def: &Definition, bounds: Bounds, games: usize, found: &Findings) -> Vec<Diagnostic> {
    // Whole-game findings point at the variant's name, or at `extends` in a file that has none.
    let name_at = def.location(&["variant", "name"]).or_else(|| def.location(&["extends"]));
    let mut out: Vec<Diagnostic> = exploded(games, found, name_at.clone()).into_iter().collect();
    // Only games played to their end say what never happens.
    let games = games - found.abandoned;
    if games == 0 {
        return out;
    }
    out.extend(endless_or_stuck(def, bounds, games, found, name_at.clone()));
    for side in Side::ALL {
        if let Some(at) = def.location(&["goals", side.key()]) {
            for &goal in def.rules.goals(side) {
                if !found.scored.contains(&goal) {
                    out.push(Diagnostic::new(
                        Code::SimulationNoGoal,
                        format!("no goal on {goal} in {games} random games"),
                        at.clone(),
                    ));
                }
            }
        }
        if !found.kicked[side.index()]
            && def.rules.has_ball()
            && let Some(at) = name_at.clone()
        {
            out.push(Diagnostic::new(
                Code::SimulationNoKick,
                if def.rules.carried_ball() {
                    format!(
                        "{} never held nor kicked the ball in {games} random games",
                        side.name()
                    )
                } else {
                    format!("{} never kicked the ball in {games} random games", side.name())
                },
                at,
            ));
        }
    }
    def.relocate_simulated(&mut out);
    out
}

/// The warning that some of the `games` random games were abandoned at a position with too
/// many turns.
fn exploded(games: usize, found: &Findings, at: Option<Loc>) -> Option<Diagnostic> {
    let ((index, fen, record), at) = (found.exploded.as_ref()?, at?);
    Some(
        Diagnostic::new(
            Code::SimulationExploded,
            format!(
                "{} of {games} random games reached a position with more than {MAX_TURNS} \
                 turns and were abandoned there (game {} for example, in {fen})",
                found.abandoned,
                index + 1
            ),
            at,
        )
        .with_help(format!(
            "kick chains multiply when many pieces near the ball may each kick several \
             times; a sample record:\n{}",
            shorten(record)
        )),
    )
}

/// The warnings of games that did not end (or were stopped by kickoff's bounds) and of a side
/// that had no legal turn, among `games` games played to their end.
fn endless_or_stuck(
    def: &Definition,
    bounds: Bounds,
    games: usize,
    found: &Findings,
    at: Option<Loc>,
) -> Vec<Diagnostic> {
    let Some(at) = at else { return Vec::new() };
    let mut out = Vec::new();
    if let Some((index, _, record)) = &found.endless.first {
        out.push(
            Diagnostic::new(
                Code::SimulationEndless,
                format!(
                    "{} of {games} random games did not end within {} turns (game {} for \
                     example)",
                    found.endless.games,
                    bounds.turns,
                    index + 1
                ),
                at.clone(),
            )
            .with_help(format!("consider `end.max_turns`; a sample record:\n{}", shorten(record))),
        );
    }
    out.extend(stopped(def, bounds, games, found, &at));
    if let Some((fen, record)) = &found.stuck {
        out.push(
            Diagnostic::new(
                Code::SimulationStuck,
                format!("a side had no legal turn and had to pass in {fen}"),
                at,
            )
            .with_help(format!("a sample record:\n{}", shorten(record))),
        );
    }
    out
}

/// The warnings of games that kickoff stopped before their end, among `games`: still going
/// after `bounds.turns` before the variant's turn limit, or past `bounds.work`.
fn stopped(
    def: &Definition,
    bounds: Bounds,
    games: usize,
    found: &Findings,
    at: &Loc,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some((index, _, record)) = &found.long.first {
        let limit = def.rules.end().max_turns;
        out.push(
            Diagnostic::new(
                Code::SimulationStopped,
                format!(
                    "{} of {games} random games were stopped after {} turns, the most kickoff \
                     plays of a random game, before the turn limit ({limit} turns) could end \
                     them (game {} for example)",
                    found.long.games,
                    bounds.turns,
                    index + 1
                ),
                at.clone(),
            )
            .with_help(format!("a sample record:\n{}", shorten(record))),
        );
    }
    if let Some((index, turns, record)) = &found.costly.first {
        out.push(
            Diagnostic::new(
                Code::SimulationStopped,
                format!(
                    "{} of {games} random games were stopped when the positions they reached \
                     had more than {} turns in all, the most kickoff counts in a random game \
                     (game {} after {turns} turns, for example)",
                    found.costly.games,
                    bounds.work,
                    index + 1
                ),
                at.clone(),
            )
            .with_help(format!(
                "kick chains multiply when many pieces near the ball may each kick several \
                 times; a sample record:\n{}",
                shorten(record)
            )),
        );
    }
    out
}

/// A record cut to its first lines, for a message.
fn shorten(record: &str) -> String {
    const LINES: usize = 12;
    let lines: Vec<&str> = record.lines().collect();
    if lines.len() <= LINES {
        return record.trim_end().to_owned();
    }
    format!("{}\n... ({} more lines)", lines[..LINES].join("\n"), lines.len() - LINES)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    use super::{Bounds, SIMULATION_CAP, Simulation, play_games, simulate, simulate_with};
    use crate::definition::{Definition, load, load_text};

    /// Kings kept to their first two ranks, the ball out of their reach: no game ends before
    /// the turn limit.
    const LONG: &str = r#"
[variant]
name = "Long"

[board]
files = 5
ranks = 7

[goals]
white = "c7"
black = "c1"

[pieces.K]
name = "king"
moves = "K"
zone = "a1:e2"

[turn]
null = "always"

[end]
repetition = 0
max_turns = 1000000

[setup]
fen = "1k1k1/5/5/2a2/5/5/1K1K1 w 0"
"#;

    fn codes_and_messages(def: &Definition, games: usize) -> Vec<(String, String)> {
        let found = simulate(def, "long.toml", games, 1, None);
        found.into_iter().map(|d| (d.code.to_string(), d.message)).collect()
    }

    /// A game still going at kickoff's own cap is stopped there, whatever the turn limit: it is
    /// said to be stopped where a turn limit would have ended it, and not to end where none
    /// would.
    #[test]
    fn games_stop_at_the_cap_and_are_said_to_stop_there() {
        let limited = load_text("long.toml", LONG).unwrap();
        let found = codes_and_messages(&limited, 2);
        let stopped = format!(
            "2 of 2 random games were stopped after {SIMULATION_CAP} turns, the most kickoff \
             plays of a random game, before the turn limit (1000000 turns) could end them (game \
             1 for example)"
        );
        assert!(found.contains(&("W0306".to_owned(), stopped)), "{found:?}");
        assert!(found.iter().all(|(code, _)| code != "W0302"), "{found:?}");
        let unlimited =
            load_text("long.toml", &LONG.replace("max_turns = 1000000", "max_turns = 0")).unwrap();
        let found = codes_and_messages(&unlimited, 2);
        let endless = format!(
            "2 of 2 random games did not end within {SIMULATION_CAP} turns (game 1 for example)"
        );
        assert!(found.contains(&("W0302".to_owned(), endless)), "{found:?}");
        assert!(found.iter().all(|(code, _)| code != "W0306"), "{found:?}");
    }

    /// A game whose positions count more turns in all than kickoff's bound is stopped there.
    #[test]
    fn games_stop_when_their_positions_count_too_many_turns() {
        let def = load("mini").unwrap();
        let simulation = Simulation { games: 3, seed: 1, ..Simulation::default() };
        let bounds = Bounds { turns: SIMULATION_CAP, work: 1000 };
        let found = play_games(&def, "mini", &simulation, bounds).diagnostics;
        let stopped: Vec<&str> = found
            .iter()
            .filter(|d| d.code.as_str() == "W0306")
            .map(|d| d.message.as_str())
            .collect();
        let [message] = stopped[..] else { panic!("{found:?}") };
        assert!(
            message.starts_with(
                "3 of 3 random games were stopped when the positions they reached had more \
                 than 1000 turns in all"
            ),
            "{message}"
        );
    }

    /// A deadline or a cancel flag stops the games; the warnings are those of the games played,
    /// as if no more had been asked for.
    #[test]
    fn a_deadline_or_a_cancel_flag_stops_the_games() {
        let def = load("mini").unwrap();
        let late = Simulation {
            games: 5,
            seed: 5,
            deadline: Some(Instant::now()),
            ..Simulation::default()
        };
        let none = simulate_with(&def, "mini", &late);
        assert_eq!((none.played, none.stopped), (0, true));
        assert!(none.diagnostics.is_empty(), "{:?}", none.diagnostics);
        let cancel = AtomicBool::new(false);
        let progress = |done: usize, _: usize| cancel.store(done == 3, Ordering::Relaxed);
        let cancelled = Simulation {
            games: 50,
            seed: 5,
            cancel: Some(&cancel),
            progress: Some(&progress),
            ..Simulation::default()
        };
        let three = simulate_with(&def, "mini", &cancelled);
        assert_eq!((three.played, three.stopped), (3, true));
        assert!(!three.diagnostics.is_empty());
        assert_eq!(three.diagnostics, simulate(&def, "mini", 3, 5, None));
        let asked = Simulation { games: 3, seed: 5, ..Simulation::default() };
        let all = simulate_with(&def, "mini", &asked);
        assert_eq!((all.played, all.stopped), (3, false));
        assert_eq!(all.diagnostics, three.diagnostics);
    }
}
