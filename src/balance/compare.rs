//! Two definitions side by side (`kickoff analyze A --compare B`): what a change did. Both play
//! the same self-play games (game `k` has the same setup number and the same seed under both),
//! so that the games pair up; a sequential test on the pairs stops as soon as the difference
//! in White's score is clear either way, or clearly smaller than the size asked about.

use std::fmt::Write;

use serde::Serialize;

use crate::balance::report::{Forced, Play};
use crate::balance::selfplay::{Draw, GameSummary, SelfPlay, self_play};
use crate::rules::Rules;

/// The sequential probability ratio test on the pairs whose games differ for White.
///
/// Among the pairs where White scores differently under the two definitions, let `p` be the
/// share where B's game is the better one for White. Two Wald tests run side by side: `p = 1/2`
/// against `p = 1/2 + delta` (B favours White) and against `p = 1/2 - delta` (B favours Black).
/// The comparison stops when either finds its alternative, or when both accept `p = 1/2`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Sprt {
    /// How far from one half the share of pairs must be to count as a difference.
    pub delta: f64,
    /// The chance of finding a difference where there is none (each side's test).
    pub alpha: f64,
    /// The chance of missing a difference of `delta`.
    pub beta: f64,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt { delta: 0.15, alpha: 0.05, beta: 0.05 }
    }
}

/// What the sequential test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// B's games are better for White than A's.
    BFavoursWhite,
    /// B's games are better for Black than A's.
    BFavoursBlack,
    /// Any difference is smaller than the size asked about.
    NoClearDifference,
    /// The games ran out before the test could say.
    Undecided,
}

impl Verdict {
    /// The verdict in words.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Verdict::BFavoursWhite => "B favours White more than A does",
            Verdict::BFavoursBlack => "B favours Black more than A does",
            Verdict::NoClearDifference => "no difference of the size asked about",
            Verdict::Undecided => "undecided: more games are needed",
        }
    }
}

/// The test's state after some pairs.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtState {
    /// Its conclusion.
    pub verdict: Verdict,
    /// The pairs read when it concluded (all of them if undecided).
    pub pairs: usize,
    /// The log-likelihood ratio of "B favours White" against no difference.
    pub llr_white: f64,
    /// The log-likelihood ratio of "B favours Black" against no difference.
    pub llr_black: f64,
    /// The bounds: a ratio below the first accepts no difference, above the second the
    /// alternative.
    pub bounds: (f64, f64),
}

impl Sprt {
    /// Reads the differences of the pairs in order (B's score for White minus A's: -1 to 1) and
    /// stops at the first pair after which the test concludes.
    #[must_use]
    pub fn run(&self, differences: &[f64]) -> SprtState {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let p = 0.5 + self.delta;
        let (more, less) = ((p / 0.5).ln(), ((1.0 - p) / 0.5).ln());
        let (mut white, mut black) = (0.0, 0.0);
        let state = |verdict, pairs, white, black| SprtState {
            verdict,
            pairs,
            llr_white: white,
            llr_black: black,
            bounds: (lower, upper),
        };
        for (i, &d) in differences.iter().enumerate() {
            if d > 0.0 {
                white += more;
                black += less;
            } else if d < 0.0 {
                white += less;
                black += more;
            }
            let verdict = if white >= upper {
                Some(Verdict::BFavoursWhite)
            } else if black >= upper {
                Some(Verdict::BFavoursBlack)
            } else if white <= lower && black <= lower {
                Some(Verdict::NoClearDifference)
            } else {
                None
            };
            if let Some(verdict) = verdict {
                return state(verdict, i + 1, white, black);
            }
        }
        state(Verdict::Undecided, differences.len(), white, black)
    }
}

/// White's score in a game: 1 for a win, one half for a draw, 0 for a loss.
fn white_score(game: &GameSummary) -> f64 {
    match game.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    }
}

/// For each pair of games, B's score for White minus A's (from -1 to 1).
fn differences(a: &[GameSummary], b: &[GameSummary]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| white_score(y) - white_score(x)).collect()
}

/// The pairs of games: how they differ for White.
#[derive(Clone, Debug, Serialize)]
pub struct Pairs {
    /// Pairs played.
    pub played: usize,
    /// Pairs whose B game is better for White.
    pub better_for_white: usize,
    /// Pairs whose B game is better for Black.
    pub better_for_black: usize,
    /// Pairs scored alike.
    pub alike: usize,
    /// The mean of B's score for White minus A's.
    pub mean_difference: f64,
    /// A 95% interval of that mean (normal approximation over the pairs).
    pub interval: (f64, f64),
}

impl Pairs {
    fn of(differences: &[f64]) -> Pairs {
        let n = differences.len();
        let mean = if n == 0 { 0.0 } else { differences.iter().sum::<f64>() / n as f64 };
        let spread = if n < 2 {
            1.0
        } else {
            let variance =
                differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            1.959_964 * (variance / n as f64).sqrt()
        };
        Pairs {
            played: n,
            better_for_white: differences.iter().filter(|&&d| d > 0.0).count(),
            better_for_black: differences.iter().filter(|&&d| d < 0.0).count(),
            alike: differences.iter().filter(|&&d| d == 0.0).count(),
            mean_difference: mean,
            interval: ((mean - spread).max(-1.0), (mean + spread).min(1.0)),
        }
    }
}

/// One definition's side of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// The variant's name.
    pub variant: String,
    /// Its forced goals from its starts.
    pub forced: Forced,
    /// Its self-play games, as many as the pairs played.
    pub play: Option<Play>,
}

/// A comparison of two definitions.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The seed of the games.
    pub seed: u64,
    /// The first definition.
    pub a: Side,
    /// The second.
    pub b: Side,
    /// How the paired games differ.
    pub pairs: Pairs,
    /// The test, as asked.
    pub sprt: Sprt,
    /// What it concluded.
    pub outcome: SprtState,
}

/// Plays pairs of self-play games, game `k` under `a` and under `b` from the same setup number
/// and seed, at most `options.games` pairs, in rounds of `round` pairs, until `sprt` concludes;
/// the games after the pair at which it concluded are dropped, so that the result does not
/// depend on the round or the threads. `draw` picks a game's setup; a number that `b` (or `a`)
/// cannot set up starts that game from the variant's own start.
#[allow(clippy::too_many_arguments)]
pub fn play_pairs(
    a: &Rules,
    b: &Rules,
    options: SelfPlay<'_>,
    round: usize,
    sprt: Sprt,
    draw: &Draw<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<GameSummary>, Vec<GameSummary>, SprtState) {
    let (mut games_a, mut games_b) = (Vec::new(), Vec::new());
    let round = round.max(1);
    let mut outcome = sprt.run(&[]);
    while games_a.len() < options.games {
        let batch = round.min(options.games - games_a.len());
        let part = SelfPlay { first: options.first + games_a.len(), games: batch, ..options };
        let done = games_a.len();
        let each = |k: usize, _: usize| progress(done + k / 2, options.games);
        games_a.extend(self_play(a, part, draw, &each));
        games_b.extend(self_play(b, part, draw, &each));
        outcome = sprt.run(&differences(&games_a, &games_b));
        if outcome.verdict != Verdict::Undecided {
            games_a.truncate(outcome.pairs);
            games_b.truncate(outcome.pairs);
            break;
        }
    }
    progress(games_a.len(), options.games);
    (games_a, games_b, outcome)
}

impl Comparison {
    /// Gathers a comparison from both sides' forced goals and their paired games.
    #[must_use]
    pub fn new(
        seed: u64,
        (a, b): (Side, Side),
        (games_a, games_b): (&[GameSummary], &[GameSummary]),
        sprt: Sprt,
        outcome: SprtState,
    ) -> Comparison {
        Comparison { seed, a, b, pairs: Pairs::of(&differences(games_a, games_b)), sprt, outcome }
    }

    /// The comparison as text, side by side.
    #[must_use]
    pub fn text(&self) -> String {
        let mut t = String::new();
        let (a, b) = (&self.a, &self.b);
        let _ = writeln!(t, "A: {}\nB: {}", a.variant, b.variant);
        let width = 34;
        let _ = writeln!(t, "\n{:<width$} {:>20} {:>20}", "Forced goals from the start", "A", "B");
        let row = |t: &mut String, label: String, x: String, y: String| {
            let _ = writeln!(t, "  {label:<32} {x:>20} {y:>20}");
        };
        row(
            &mut t,
            "starts solved".into(),
            a.forced.starts.to_string(),
            b.forced.starts.to_string(),
        );
        for k in 1..=a.forced.turns.min(b.forced.turns) {
            for (side, pick) in [("White", true), ("Black", false)] {
                let count = |f: &Forced| if pick { f.white[&k].len() } else { f.black[&k].len() };
                row(
                    &mut t,
                    format!("{side} forces a goal within {k}"),
                    count(&a.forced).to_string(),
                    count(&b.forced).to_string(),
                );
            }
        }
        row(
            &mut t,
            "unknown".into(),
            a.forced.unknown.len().to_string(),
            b.forced.unknown.len().to_string(),
        );
        if let (Some(x), Some(y)) = (&a.play, &b.play) {
            let _ = writeln!(
                t,
                "\n{:<width$} {:>20} {:>20}",
                format!("Self-play, level {} (seed {})", x.level, self.seed),
                "A",
                "B"
            );
            let rate = |r: &crate::balance::report::Rate| {
                format!(
                    "{:.1}% [{:.1}, {:.1}]",
                    100.0 * r.rate,
                    100.0 * r.interval.0,
                    100.0 * r.interval.1
                )
            };
            row(&mut t, "games".into(), x.games.to_string(), y.games.to_string());
            row(&mut t, "White wins".into(), rate(&x.white), rate(&y.white));
            row(&mut t, "Black wins".into(), rate(&x.black), rate(&y.black));
            row(&mut t, "draws".into(), rate(&x.draws), rate(&y.draws));
            row(
                &mut t,
                "median length (turns)".into(),
                format!("{}", x.median_length),
                format!("{}", y.median_length),
            );
            // The stuck balls whose last position the solver proved a wall, of all stuck balls.
            let walls = |p: &crate::balance::report::Play| {
                let held = p.walls.get(&crate::balance::selfplay::Wall::Held).copied().unwrap_or(0);
                format!("{held} of {}", p.walls.values().sum::<usize>())
            };
            row(&mut t, "stuck balls proved walls".into(), walls(x), walls(y));
            let p = &self.pairs;
            let _ = writeln!(
                t,
                "\nPairs (game k of A and of B from the same setup and seed): {} played; B's game \
                 better for White in {}, for Black in {}, alike in {}.",
                p.played, p.better_for_white, p.better_for_black, p.alike
            );
            let _ = writeln!(
                t,
                "White's score, B minus A: {:+.3} per game, 95% interval [{:+.3}, {:+.3}].",
                p.mean_difference, p.interval.0, p.interval.1
            );
            let o = &self.outcome;
            let _ = writeln!(
                t,
                "Sequential test (a share of {:.2} of the differing pairs, alpha {}, beta {}): {} \
                 after {} pairs (log-likelihood ratios {:+.2} for White, {:+.2} for Black; \
                 bounds {:.2} and {:.2}).",
                0.5 + self.sprt.delta,
                self.sprt.alpha,
                self.sprt.beta,
                o.verdict.words(),
                o.pairs,
                o.llr_white,
                o.llr_black,
                o.bounds.0,
                o.bounds.1
            );
        }
        t
    }
}

impl Comparison {
    /// The comparison as a self-contained HTML page: the side-by-side table of the text, and
    /// the self-play rates of both definitions in one chart.
    #[must_use]
    pub fn html(&self) -> String {
        use crate::text::escape_markup;
        let title = format!("{} against {}", self.a.variant, self.b.variant);
        let mut h = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}: \
             comparison</title><style>body{{font-family:sans-serif;max-width:60em;margin:2em \
             auto;color:#222}}svg text{{font-size:12px}}pre{{white-space:pre-wrap}}</style>\
             </head><body>\n<h1>{}</h1>\n",
            escape_markup(&title),
            escape_markup(&title)
        );
        if let (Some(x), Some(y)) = (&self.a.play, &self.b.play) {
            let rate = |name: String, r: &crate::balance::report::Rate| {
                (name, 100.0 * r.rate, Some((100.0 * r.interval.0, 100.0 * r.interval.1)))
            };
            let mut bars = Vec::new();
            for (what, pick) in [("White wins", 0), ("Black wins", 1), ("Draws", 2)] {
                for (side, play) in [("A", x), ("B", y)] {
                    let r = [&play.white, &play.black, &play.draws][pick];
                    bars.push(rate(format!("{side}: {what}"), r));
                }
            }
            h.push_str("<h2>Self-play results (95% intervals)</h2>");
            h.push_str(&crate::balance::report::bar_chart(&bars, "%"));
        }
        let _ = write!(
            h,
            "<h2>Side by side</h2><pre>{}</pre>\n</body></html>\n",
            escape_markup(&self.text())
        );
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_finds_a_clear_difference_either_way_and_stops_there() {
        let sprt = Sprt::default();
        // Each pair better for White under B adds ln(1.3) = 0.262 to the first ratio: the 12th
        // passes ln(19) = 2.944 (here the 13th pair, one being alike).
        let mut white = vec![1.0, 0.5, 0.0];
        white.extend([1.0; 13]);
        let white = sprt.run(&white);
        assert_eq!((white.verdict, white.pairs), (Verdict::BFavoursWhite, 13));
        let black = sprt.run(&[-1.0; 20]);
        assert_eq!((black.verdict, black.pairs), (Verdict::BFavoursBlack, 12));
        // Pairs scored alike say nothing.
        let alike = sprt.run(&[0.0; 50]);
        assert_eq!((alike.verdict, alike.pairs), (Verdict::Undecided, 50));
    }

    #[test]
    fn balanced_differences_accept_no_difference() {
        let sprt = Sprt::default();
        let mixed: Vec<f64> = (0..400).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let state = sprt.run(&mixed);
        assert_eq!(state.verdict, Verdict::NoClearDifference, "{state:?}");
        // Each +/- pair adds ln(1.3) + ln(0.7) = -0.0943 to both ratios: both are below
        // ln(0.05 / 0.95) = -2.944 after 32 of them.
        assert_eq!(state.pairs, 64);
        assert!(state.llr_white <= state.bounds.0 && state.llr_black <= state.bounds.0);
    }

    #[test]
    fn pairs_count_and_bound_the_mean_difference() {
        let p = Pairs::of(&[1.0, 0.0, -0.5, 0.5]);
        assert_eq!((p.played, p.better_for_white, p.better_for_black, p.alike), (4, 2, 1, 1));
        assert!((p.mean_difference - 0.25).abs() < 1e-12);
        assert!(p.interval.0 < 0.25 && p.interval.1 > 0.25 && p.interval.0 >= -1.0);
    }
}
