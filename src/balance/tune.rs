//! Fitting the evaluation's capture weights ([`CaptureWeights`]) to games, by Texel's method: the engine
//! plays itself from random openings, every position after the opening is kept with the
//! game's result for its side to move (1, ½ or 0), and the weights are those whose values,
//! through a logistic curve, predict the results best (least mean squared error). The curve's
//! scale is fitted first, with the weights the search starts from; then each weight in turn is
//! moved up and down while that lowers the error, in steps that halve down to one point.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::eval::{CaptureWeights, Eval, MAX_MOVES, MAX_THREATS, Terms, horizon_captures, takes};
use crate::movegen::general::each_end;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, Searcher, random_turn};
use crate::setup::{self, SetupNumber};

/// How the games are played.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Games {
    /// The number of games.
    pub games: usize,
    /// The engine's level (both sides).
    pub level: u8,
    /// Random turns first (the same seed gives the same openings).
    pub opening: u32,
    /// A game still going after this many turns is a draw.
    pub max_turns: u32,
    /// The seed of the openings and setups.
    pub seed: u64,
    /// Games played at once (the games are the same whatever their number).
    #[serde(skip)]
    pub threads: usize,
}

/// A position of a game: its terms, what its side to move's turns add at the horizon, and the
/// result for that side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The static terms.
    pub terms: Terms,
    /// Captures and steals the side to move has (at most [`MAX_THREATS`]).
    pub threats: i32,
    /// Results of the side to move's turns (at most [`MAX_MOVES`]).
    pub moves: i32,
    /// 1 for a win of the side to move, ½ for a draw, 0 for a loss.
    pub result: f64,
}

impl Sample {
    /// The value the weights `w` give it: the search's horizon value without the walk's
    /// bonuses for the ball's reach.
    #[must_use]
    pub fn value(&self, w: &CaptureWeights) -> i32 {
        self.terms.football + self.terms.captures(w) + horizon_captures(w, self.threats, self.moves)
    }
}

/// The sample of `pos` with `result` for its side to move; none when the position's turns
/// are too many to walk. Threats and moves are counted as the search's horizon counts them
/// (`search::horizon`): the ends of turns that score no point, and among them the distinct
/// results that take.
fn sample(eval: &Eval, pos: &Position<'_>, result: f64) -> Option<Sample> {
    let me = pos.side;
    let (mut taken, mut moves) = (Vec::new(), 0);
    each_end(pos, crate::movegen::general::budget(), |mid, _, _| {
        if mid.scored() == Some(me) {
            return false;
        }
        moves += 1;
        if takes(pos, mid.position(), me) {
            let hash = mid.finish().hash();
            if !taken.contains(&hash) {
                taken.push(hash);
            }
        }
        false
    })
    .ok()?;
    let threats = i32::try_from(taken.len()).unwrap_or(i32::MAX);
    Some(Sample {
        terms: eval.terms(pos),
        threats: threats.min(MAX_THREATS),
        moves: moves.min(MAX_MOVES),
        result,
    })
}

/// Plays the games and returns their positions after the openings, in the order of the games
/// (the same whatever the number of threads).
#[must_use]
pub fn samples(rules: &Rules, games: Games) -> Vec<Sample> {
    let numbers: Vec<usize> = (0..games.games).collect();
    let out = std::sync::Mutex::new(vec![Vec::new(); games.games]);
    let engine = || Searcher::with_table_bits(rules, 18);
    crate::parallel::for_each(games.threads, &numbers, engine, |searcher, &i| {
        searcher.forget();
        let game = play(rules, &games, i, searcher);
        out.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = game;
    });
    out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).concat()
}

/// Game `i`: its positions after the opening with the result for each side to move.
fn play<'r>(rules: &'r Rules, games: &Games, i: usize, searcher: &mut Searcher<'r>) -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(games.seed.wrapping_mul(1_000_003) ^ i as u64);
    let mut pos = rules
        .random_setup()
        .and_then(|random| {
            let n = SetupNumber::draw(
                setup::count(rules, random),
                random.black_independent(),
                &mut rng,
            );
            setup::position(rules, random, n).ok()
        })
        .unwrap_or_else(|| Position::start(rules));
    let mut history = vec![pos.hash()];
    let mut kept = Vec::new();
    let mut winner = None;
    for n in 0..games.max_turns {
        if let Some(outcome) = pos.outcome() {
            winner = outcome.winner();
            break;
        }
        let next = if n < games.opening {
            random_turn(&pos, &mut rng).map(|t| crate::movegen::play_unchecked(&pos, &t))
        } else {
            kept.push(pos);
            let past = &history[..history.len() - 1];
            searcher.search(&pos, past, Limits::level(games.level)).ok().and_then(|r| r.result)
        };
        let Some(next) = next else { break };
        // A third occurrence ends the game drawn (the engine counts a repetition as a draw).
        if history.iter().filter(|&&h| h == next.hash()).count() >= 2 {
            break;
        }
        history.push(next.hash());
        pos = next;
    }
    let eval = Eval::new(rules);
    kept.iter()
        .filter_map(|p| {
            let result = match winner {
                Some(w) if w == p.side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            sample(&eval, p, result)
        })
        .collect()
}

/// The mean squared error of the results predicted with `w` through the logistic curve of
/// scale `k` (per point).
#[must_use]
pub fn loss(samples: &[Sample], w: &CaptureWeights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = 1.0 / (1.0 + (-k * f64::from(s.value(w))).exp());
            (s.result - p).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// What a fit found.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Fitted {
    /// The weights it started from.
    pub start: CaptureWeights,
    /// The weights fitted.
    pub weights: CaptureWeights,
    /// The logistic curve's scale, per point.
    pub k: f64,
    /// The error with the start weights.
    pub before: f64,
    /// The error with the fitted weights.
    pub after: f64,
    /// Positions fitted to.
    pub samples: usize,
}

/// The scale of the logistic curve that fits `samples` best with `w`: a golden-section search
/// over the logarithm of the scale, from 1/100000 to 1/10 per point.
fn fit_scale(samples: &[Sample], w: &CaptureWeights) -> f64 {
    let f = |x: f64| loss(samples, w, 10f64.powf(x));
    let (mut a, mut b) = (-5.0f64, -1.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// Fits the weights to `samples`, from `start`: the scale first, then each weight by steps
/// (64 points down to 1) while a step lowers the error. The threat and mobility weights stay
/// at or above zero (the search counts on the horizon's walk only raising a value).
#[must_use]
pub fn fit(samples: &[Sample], start: CaptureWeights) -> Fitted {
    let k = fit_scale(samples, &start);
    let before = loss(samples, &start, k);
    let mut w = start;
    let mut best = before;
    let mut step = 64;
    while step >= 1 {
        let mut improved = false;
        for i in 0..5 {
            for sign in [1, -1] {
                loop {
                    let mut trial = w;
                    let field = match i {
                        0 => &mut trial.men,
                        1 => &mut trial.worth,
                        2 => &mut trial.exposed,
                        3 => &mut trial.threats,
                        _ => &mut trial.moves,
                    };
                    *field += sign * step;
                    if i >= 3 && *field < 0 {
                        break;
                    }
                    let l = loss(samples, &trial, k);
                    if l < best {
                        (w, best, improved) = (trial, l, true);
                    } else {
                        break;
                    }
                }
            }
        }
        if !improved {
            step /= 2;
        }
    }
    Fitted { start, weights: w, k, before, after: best, samples: samples.len() }
}

#[cfg(test)]
mod tests {
    use super::{Sample, fit, loss};
    use crate::eval::{CaptureWeights, Terms};

    /// Results drawn from a logistic curve of the football value plus 250 points a piece: the
    /// fit, started at 50 a piece, finds about 250 and leaves the weights of terms that
    /// predict nothing at zero.
    #[test]
    fn a_fit_finds_the_weight_that_predicts_the_results() {
        let mut samples = Vec::new();
        for football in (-400..=400).step_by(100) {
            for men in -3..=3 {
                for n in 0..40 {
                    let p = 1.0 / (1.0 + (-0.004 * f64::from(football + 250 * men)).exp());
                    let result = if (f64::from(n) + 0.5) / 40.0 < p { 1.0 } else { 0.0 };
                    let terms = Terms { football, men, worth_tenths: 0, exposed: 0 };
                    samples.push(Sample { terms, threats: 0, moves: 0, result });
                }
            }
        }
        let start = CaptureWeights { men: 50, worth: 0, exposed: 0, threats: 0, moves: 0 };
        let fitted = fit(&samples, start);
        assert!(fitted.after < fitted.before, "{fitted:?}");
        assert!((150..=350).contains(&fitted.weights.men), "{fitted:?}");
        assert_eq!((fitted.weights.worth, fitted.weights.threats), (0, 0), "{fitted:?}");
        assert!(loss(&samples, &fitted.weights, fitted.k) < loss(&samples, &start, fitted.k));
    }
}
