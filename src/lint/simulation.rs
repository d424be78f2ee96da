//! Random games under a definition (`validate --simulate`): what they reveal that reading the
//! definition does not, such as games that do not end or a goal that is never scored.

use crate::definition::Code;
use crate::definition::{Definition, Diagnostic, Loc};
use crate::movegen::{MAX_TURNS, check_turn_count, nth_turn, null_allowed};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// The longest random game `simulate` plays when the variant has no turn limit.
pub const SIMULATION_CAP: u32 = 500;

/// What random games under a definition revealed.
#[derive(Clone, Debug, Default)]
struct Findings {
    /// The first game that did not end by the cap, as a record.
    endless: Option<(usize, String)>,
    endless_games: usize,
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
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut found = Findings::default();
    for i in 0..games {
        random_game(def, variant, i, &mut rng, &mut found);
        if let Some(report) = progress {
            report(i + 1, games);
        }
    }
    report(def, games, &found)
}

/// One random game from the start (a random setup when the variant has them).
fn random_game(
    def: &Definition,
    variant: &str,
    index: usize,
    rng: &mut rand_chacha::ChaCha8Rng,
    found: &mut Findings,
) {
    use rand::RngExt;
    let rules = &def.rules;
    let Some((start, number)) = random_start(rules, rng) else { return };
    let mut game = crate::game::Game::new(variant, start, number);
    let cap = if rules.end().max_turns > 0 { u32::MAX } else { start.turns() + SIMULATION_CAP };
    while game.ending().is_none() && game.position().turns() < cap {
        let pos = *game.position();
        let beyond = crate::search::beyond_counting(&pos);
        let counted =
            if beyond { Err(crate::movegen::TooManyTurns) } else { check_turn_count(&pos) };
        if counted.is_err() && rules.turn().moves > 1 {
            // Several piece moves a turn: too many turns to count by design, so a turn is built
            // from random actions, as the random player does.
            let Some(turn) = crate::search::random_turn(&pos, rng) else { return };
            found.kicked[pos.side().index()] |= turn.kicks().next().is_some();
            if game.play(turn).is_err() {
                return;
            }
            continue;
        }
        let Ok(count) = counted else {
            found.abandoned += 1;
            if found.exploded.is_none() {
                found.exploded = Some((index, pos.fen(), crate::game::record::write(&game)));
            }
            return;
        };
        // The turn drawn is the one a full list would hold at that index.
        let index = rng.random_range(0..count as usize);
        let Some(turn) = nth_turn(&pos, index as u64) else { return };
        if count == 1 && turn.is_null() && !null_allowed(&pos) && found.stuck.is_none() {
            found.stuck = Some((pos.fen(), crate::game::record::write(&game)));
        }
        if turn.kicks().next().is_some() {
            found.kicked[pos.side().index()] = true;
        }
        if game.play(turn).is_err() {
            return;
        }
    }
    note_end(&game, index, found);
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
            let black =
                crate::setup::independent_by_default(random).then(|| rng.random_range(0..count));
            let n = crate::setup::SetupNumber { white: rng.random_range(0..count), black };
            let placement = crate::setup::placement(rules, random, n).ok()?;
            Some((Position::from_checked(rules, &placement), Some(n)))
        }
        None => Some((Position::from_fen(rules, rules.setup_fen()).ok()?, None)),
    }
}

/// Notes how random game `index` ended: the goal it scored, or that it did not end.
fn note_end(game: &crate::game::Game<'_>, index: usize, found: &mut Findings) {
    match game.ending() {
        Some(crate::game::Ending::Goal { .. }) => found.scored.push(game.position().ball()),
        Some(_) => {}
        None => {
            found.endless_games += 1;
            if found.endless.is_none() {
                found.endless = Some((index, crate::game::record::write(game)));
            }
        }
    }
}

/// The findings as warnings.
fn report(def: &Definition, games: usize, found: &Findings) -> Vec<Diagnostic> {
    let name_at = def.location(&["variant", "name"]);
    let mut out: Vec<Diagnostic> = exploded(games, found, name_at.clone()).into_iter().collect();
    // Only games played to their end say what never happens.
    let games = games - found.abandoned;
    if games == 0 {
        return out;
    }
    out.extend(endless_or_stuck(games, found, name_at.clone()));
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
            && let Some(at) = name_at.clone()
        {
            out.push(Diagnostic::new(
                Code::SimulationNoKick,
                format!("{} never kicked the ball in {games} random games", side.name()),
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

/// The warnings of games that did not end and of a side that had no legal turn, among
/// `games` games played to their end.
fn endless_or_stuck(games: usize, found: &Findings, at: Option<Loc>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let (Some((index, record)), Some(at)) = (&found.endless, at.clone()) {
        out.push(
            Diagnostic::new(
                Code::SimulationEndless,
                format!(
                    "{} of {games} random games did not end within {SIMULATION_CAP} turns \
                     (game {} for example)",
                    found.endless_games,
                    index + 1
                ),
                at,
            )
            .with_help(format!("consider `end.max_turns`; a sample record:\n{}", shorten(record))),
        );
    }
    if let (Some((fen, record)), Some(at)) = (&found.stuck, at) {
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

/// A record cut to its first lines, for a message.
fn shorten(record: &str) -> String {
    const LINES: usize = 12;
    let lines: Vec<&str> = record.lines().collect();
    if lines.len() <= LINES {
        return record.trim_end().to_owned();
    }
    format!("{}\n... ({} more lines)", lines[..LINES].join("\n"), lines.len() - LINES)
}
