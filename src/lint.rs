//! Football-specific warnings about a definition that compiles: things the rules allow but an
//! author probably did not mean. They need the engine, so they run after compilation.

mod contradictions;

use crate::definition::Code;
use crate::definition::{Definition, Diagnostic, Loc};
use crate::movegen::{MAX_TURNS, check_turn_count, kick_destinations, nth_turn, null_allowed};
use crate::position::{Placement, Position};
use crate::rules::{BallMode, OwnGoal, PieceKind, Rules};
use crate::side::Side;
use crate::square::Square;

/// Every warning about `def`.
#[must_use]
pub fn lint(def: &Definition) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    unreachable_goals(def, &mut out);
    inner_goals(def, &mut out);
    unplaced_pieces(def, &mut out);
    random_material(def, &mut out);
    forced_pass_at_start(def, &mut out);
    contradictions::contradictions(def, &mut out);
    out
}

/// Of two places, the one in the file nearer to the file validated (a lower id: parents come
/// after their children), `a` when they are in the same file. A warning about two values that
/// disagree points at the one written last, which the author most likely meant to change.
fn nearer(a: Option<Loc>, b: Option<Loc>) -> Option<Loc> {
    match (a, b) {
        (Some(a), Some(b)) if b.file < a.file => Some(b),
        (a, b) => a.or(b),
    }
}

/// Goal squares away from the board's edge (each of their four neighbours a square of the
/// board), unless `goals.inner = true` says that they are meant.
fn inner_goals(def: &Definition, out: &mut Vec<Diagnostic>) {
    if def.flag(&["goals", "inner"]) {
        return;
    }
    let board = def.rules.board();
    let on_edge = |s: Square| {
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(df, dr)| board.offset(s, df, dr).is_none())
    };
    for side in Side::ALL {
        let inner: Vec<String> = def
            .rules
            .goals(side)
            .iter()
            .filter(|&&s| !on_edge(s))
            .map(ToString::to_string)
            .collect();
        let Some(at) = def.location(&["goals", side.key()]) else { continue };
        if !inner.is_empty() {
            out.push(
                Diagnostic::new(
                    Code::InnerGoal,
                    format!(
                        "{}'s goal ({}) is inside the {}x{} board, not on its edge",
                        side.name(),
                        inner.join(", "),
                        board.files,
                        board.ranks
                    ),
                    at,
                )
                .with_help(
                    "put the goals on the board's edge; if they are meant to stand inside, \
                     write `inner = true` in [goals]",
                ),
            );
        }
    }
}

/// Piece types that no position ever holds: absent from the start position, from the random
/// setup's pieces and from every promotion.
fn unplaced_pieces(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    let promotions = rules.pieces().iter().filter_map(|p| p.promotion.as_ref());
    let placed: Vec<PieceKind> = rules
        .start()
        .pieces
        .iter()
        .map(|&(_, _, kind)| kind)
        .chain(rules.random_setup().into_iter().flat_map(|r| r.pieces.iter().copied()))
        .chain(promotions.flat_map(|p| p.to.iter().copied()))
        .collect();
    for kind in rules.kinds().filter(|k| !placed.contains(k)) {
        let piece = rules.piece(kind);
        let letter = piece.letter.to_string();
        let table = def.location(&["pieces", &letter]);
        let Some(at) = nearer(table, def.location(&["setup", "fen"])) else { continue };
        out.push(
            Diagnostic::new(
                Code::UnplacedPiece,
                format!(
                    "the {} (`{letter}`) is never on the board: neither `setup.fen`, nor the \
                     random setup's pieces, nor a promotion puts it there",
                    piece.name
                ),
                at,
            )
            .with_help(format!(
                "place it in `setup.fen`, or leave the piece out (`[pieces.{letter}] removed = \
                 true` drops an inherited one)"
            )),
        );
    }
}

/// A random setup whose pieces are not those that `setup.fen` has on its squares: `show` and
/// `explain` would show other material than every game starts with.
fn random_material(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    let Some(random) = rules.random_setup() else { return };
    let letters =
        |kinds: &[PieceKind]| -> String { kinds.iter().map(|&k| rules.piece(k).letter).collect() };
    let mut wanted = random.pieces.clone();
    wanted.sort();
    for side in Side::ALL {
        let squares: Vec<Square> = match side {
            Side::White => random.squares.clone(),
            Side::Black => random.squares.iter().map(|&s| rules.board().mirror(s)).collect(),
        };
        let on_squares: Vec<PieceKind> = rules
            .start()
            .pieces
            .iter()
            .filter(|(s, owner, _)| *owner == side && squares.contains(s))
            .map(|&(_, _, kind)| kind)
            .collect();
        let mut found = on_squares.clone();
        found.sort();
        if found == wanted {
            continue;
        }
        let pieces_at = def.location(&["setup", "random", "pieces"]);
        let Some(at) = nearer(pieces_at, def.location(&["setup", "fen"])) else { return };
        let have = if on_squares.is_empty() {
            "no piece".to_owned()
        } else {
            format!("`{}`", letters(&on_squares))
        };
        out.push(
            Diagnostic::new(
                Code::RandomMaterial,
                format!(
                    "the random setup places `{}`, but `setup.fen` has {have} on {}'s random \
                     squares: `show` and `explain` show other pieces than every game starts with",
                    letters(&random.pieces),
                    side.name()
                ),
                at,
            )
            .with_help(
                "give the random squares of `setup.fen` the pieces of `setup.random.pieces`, \
                 in any order",
            ),
        );
        return;
    }
}

/// Goals that no kick of any piece can ever put the ball on, even on an empty board.
fn unreachable_goals(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    if rules.ball().mode == BallMode::Carried {
        return; // a carried ball is not kicked: compile checks that holders can reach goals
    }
    for side in Side::ALL {
        let Some(at) = def.location(&["goals", side.key()]) else { continue };
        for &goal in rules.goals(side) {
            if !reachable(rules, side, goal) {
                out.push(
                    Diagnostic::new(
                        Code::UnreachableGoal,
                        format!("no kick can ever send the ball to {goal}, {}'s goal", side.name()),
                        at.clone(),
                    )
                    .with_help(
                        "check the pieces' kicks: with goal_rank = \"no-slide\" a goal must be \
                         reachable from another rank",
                    ),
                );
            }
        }
    }
}

/// Whether some piece of some side can kick the ball onto `goal` (which `attacker` attacks)
/// from some square, the board otherwise empty.
fn reachable(rules: &Rules, attacker: Side, goal: Square) -> bool {
    let kickers: Vec<Side> = match rules.end().own_goal {
        OwnGoal::Counts => Side::ALL.to_vec(),
        OwnGoal::Forbidden => vec![attacker],
    };
    let board = rules.board();
    let open: Vec<Square> = board.squares().filter(|&s| rules.scorer(s).is_none()).collect();
    kickers.into_iter().any(|side| {
        (0..rules.pieces().len()).any(|kind| {
            open.iter().any(|&ball| {
                open.iter().filter(|&&k| k.distance(ball) == 1).any(|&kicker| {
                    let mut placement =
                        Placement::new(vec![(kicker, side, PieceKind(kind as u8))], ball, side);
                    placement.turns = rules.turn().no_goal_before;
                    let pos = Position::from_checked(rules, &placement);
                    kick_destinations(&pos, kicker).contains(&goal)
                })
            })
        })
    })
}

/// A start position in which the side to move can do nothing but pass, or has more turns than
/// kickoff lists.
fn forced_pass_at_start(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Ok(pos) = Position::from_fen(&def.rules, def.rules.setup_fen()) else { return };
    let Some(at) = def.location(&["setup", "fen"]) else { return };
    if crate::search::beyond_counting(&pos) {
        return;
    }
    let Ok(count) = check_turn_count(&pos) else {
        // A turn of several piece moves has millions of turns by design (Soccer Chess): the
        // warning is for kick chains that multiply by accident.
        if def.rules.turn().moves == 1 {
            out.push(too_many_turns(&pos, "at the start", at));
        }
        return;
    };
    if count == 1 && nth_turn(&pos, 0).is_some_and(|t| t.is_null()) && !null_allowed(&pos) {
        out.push(
            Diagnostic::new(
                Code::ForcedPassAtStart,
                format!("at the start, {} has no legal turn and can only pass", pos.side().name()),
                at,
            )
            .with_help("give its pieces room to move, or put one of them next to the ball"),
        );
    }
}

/// The warning that `pos`, reached `when`, has more turns than kickoff lists.
fn too_many_turns(pos: &Position<'_>, when: &str, at: crate::definition::Loc) -> Diagnostic {
    Diagnostic::new(
        Code::TooManyTurns,
        format!(
            "{when}, {} has more than {MAX_TURNS} turns (in {}): kickoff does not list or \
             count them, and plays them only action by action",
            pos.side().name(),
            pos.fen()
        ),
        at,
    )
    .with_help(
        "kick chains multiply when many pieces stand near the ball and each may kick several \
         times: lower `kick.per_piece`, or shorten the kicks' range",
    )
}

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
