//! The balance report of `kickoff analyze`: forced goals over every start and self-play
//! figures, as text, JSON and a self-contained HTML page with SVG plots.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::analysis::survey::StartVerdict;
use crate::balance::selfplay::{DrawCause, GameSummary};
use crate::text::escape_markup;

/// The Wilson score interval at 95% for a score fraction `p` over `n` games (wins alone, or
/// wins with half the draws).
#[must_use]
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A rate with its 95% interval.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Rate {
    /// How many.
    pub count: usize,
    /// The fraction.
    pub rate: f64,
    /// The Wilson interval at 95%.
    pub interval: (f64, f64),
}

impl Rate {
    fn of(count: usize, n: usize) -> Rate {
        let rate = if n == 0 { 0.0 } else { count as f64 / n as f64 };
        Rate { count, rate, interval: wilson(rate, n as f64) }
    }
}

/// The forced-goal part of a report.
#[derive(Clone, Debug, Serialize)]
pub struct Forced {
    /// The turns asked.
    pub turns: u32,
    /// Starts solved.
    pub starts: usize,
    /// For each k <= turns: the starts White forces within k turns.
    pub white: BTreeMap<u32, Vec<String>>,
    /// For each k <= turns: the starts Black forces within k turns.
    pub black: BTreeMap<u32, Vec<String>>,
    /// Starts whose answer is unknown.
    pub unknown: Vec<String>,
    /// Seconds taken.
    pub seconds: f64,
    /// Every start's verdict.
    pub verdicts: Vec<StartVerdict>,
}

/// The name of a start: its setup number, or "start".
fn start_name(v: &StartVerdict) -> String {
    v.setup.clone().unwrap_or_else(|| "start".to_owned())
}

impl Forced {
    /// The summary of `verdicts`.
    #[must_use]
    pub fn new(turns: u32, verdicts: Vec<StartVerdict>, seconds: f64) -> Forced {
        let within = |side: fn(&StartVerdict) -> Option<u32>| {
            (1..=turns)
                .map(|k| {
                    let names =
                        verdicts.iter().filter(|v| side(v).is_some_and(|t| t <= k)).map(start_name);
                    (k, names.collect())
                })
                .collect()
        };
        Forced {
            turns,
            starts: verdicts.len(),
            white: within(|v| v.white),
            black: within(|v| v.black),
            unknown: verdicts.iter().filter(|v| v.unknown).map(start_name).collect(),
            seconds,
            verdicts,
        }
    }

    /// The forced-goal section of the HTML report: how many starts a goal is forced in.
    fn html(&self, h: &mut String) {
        let _ = writeln!(
            h,
            "<h2>Forced goals from the start</h2><p>{} starts solved exactly in {:.1} s.</p>",
            self.starts, self.seconds
        );
        let mut bars = Vec::new();
        for k in 1..=self.turns {
            bars.push((format!("White within {k}"), self.white[&k].len() as f64, None));
            bars.push((format!("Black within {k}"), self.black[&k].len() as f64, None));
        }
        h.push_str(&bar_chart(&bars, "starts"));
    }
}

/// The self-play part of a report.
#[derive(Clone, Debug, Serialize)]
pub struct Play {
    /// Games played.
    pub games: usize,
    /// The engine's level.
    pub level: u8,
    /// White's wins.
    pub white: Rate,
    /// Black's wins.
    pub black: Rate,
    /// Draws.
    pub draws: Rate,
    /// Game lengths, in turns, in the order played.
    pub lengths: Vec<u32>,
    /// The median length.
    pub median_length: f64,
    /// Goals by the letter of the piece that scored (own goals under "own goal").
    pub goals_by_piece: BTreeMap<String, usize>,
    /// Kicks by piece letter, over all games.
    pub kicks_by_piece: BTreeMap<String, u64>,
    /// Draws by cause.
    pub draws_by_cause: BTreeMap<DrawCause, usize>,
    /// Seconds taken.
    pub seconds: f64,
    /// Every game.
    pub list: Vec<GameSummary>,
}

impl Play {
    /// The summary of `games`.
    #[must_use]
    pub fn new(level: u8, list: Vec<GameSummary>, seconds: f64) -> Play {
        let n = list.len();
        let count = |r: &str| list.iter().filter(|g| g.result == r).count();
        let mut lengths: Vec<u32> = list.iter().map(|g| g.turns).collect();
        let mut sorted = lengths.clone();
        sorted.sort_unstable();
        let median_length = match n {
            0 => 0.0,
            _ if n % 2 == 1 => f64::from(sorted[n / 2]),
            _ => f64::from(sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        };
        let mut goals_by_piece = BTreeMap::new();
        let mut kicks_by_piece = BTreeMap::new();
        let mut draws_by_cause = BTreeMap::new();
        for g in &list {
            if let Some(letter) = g.scorer {
                let key = if g.own_goal { "own goal".to_owned() } else { letter.to_string() };
                *goals_by_piece.entry(key).or_insert(0) += 1;
            }
            for (&letter, &k) in &g.kicks {
                *kicks_by_piece.entry(letter.to_string()).or_insert(0) += u64::from(k);
            }
            if let Some(cause) = g.draw {
                *draws_by_cause.entry(cause).or_insert(0) += 1;
            }
        }
        lengths.shrink_to_fit();
        Play {
            games: n,
            level,
            white: Rate::of(count("1-0"), n),
            black: Rate::of(count("0-1"), n),
            draws: Rate::of(count("1/2-1/2"), n),
            lengths,
            median_length,
            goals_by_piece,
            kicks_by_piece,
            draws_by_cause,
            seconds,
            list,
        }
    }

    /// The self-play section of the HTML report, for games played with `seed`.
    fn html(&self, seed: u64, h: &mut String) {
        let _ = writeln!(
            h,
            "<h2>Self-play</h2><p>{} games at level {}, seed {}, {:.1} s.</p>",
            self.games, self.level, seed, self.seconds
        );
        let rate = |name: &str, r: &Rate| {
            (name.to_owned(), 100.0 * r.rate, Some((100.0 * r.interval.0, 100.0 * r.interval.1)))
        };
        h.push_str("<h3>Results (95% intervals)</h3>");
        h.push_str(&bar_chart(
            &[
                rate("White wins", &self.white),
                rate("Black wins", &self.black),
                rate("Draws", &self.draws),
            ],
            "%",
        ));
        h.push_str("<h3>Game length (turns)</h3>");
        h.push_str(&histogram(&self.lengths));
        let counts =
            |m: Vec<(String, f64)>| m.into_iter().map(|(k, v)| (k, v, None)).collect::<Vec<_>>();
        h.push_str("<h3>Goals by the piece that scored</h3>");
        h.push_str(&bar_chart(
            &counts(self.goals_by_piece.iter().map(|(k, &v)| (k.clone(), v as f64)).collect()),
            "goals",
        ));
        h.push_str("<h3>Kicks by piece</h3>");
        h.push_str(&bar_chart(
            &counts(self.kicks_by_piece.iter().map(|(k, &v)| (k.clone(), v as f64)).collect()),
            "kicks",
        ));
        h.push_str("<h3>Draws by cause</h3>");
        h.push_str(&bar_chart(
            &counts(
                self.draws_by_cause
                    .iter()
                    .map(|(&k, &v)| (cause(k).to_owned(), v as f64))
                    .collect(),
            ),
            "draws",
        ));
    }
}

/// A whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The variant's name.
    pub variant: String,
    /// The seed of the self-play games.
    pub seed: u64,
    /// Forced goals from the starts.
    pub forced: Forced,
    /// Self-play, if any game was played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
}

fn percent(r: &Rate) -> String {
    format!("{:.1}% [{:.1}%, {:.1}%]", 100.0 * r.rate, 100.0 * r.interval.0, 100.0 * r.interval.1)
}

/// A list of starts, shortened past 40.
fn list(names: &[String]) -> String {
    let mut text = names.iter().take(40).cloned().collect::<Vec<_>>().join(" ");
    if names.len() > 40 {
        let _ = write!(text, " ... ({} more)", names.len() - 40);
    }
    text
}

/// The cause of a draw, for people.
fn cause(c: DrawCause) -> &'static str {
    match c {
        DrawCause::Repetition => "repetition",
        DrawCause::TurnLimit => "turn limit",
        DrawCause::StuckBall => "stuck ball",
        DrawCause::TooManyTurns => "too many turns",
    }
}

impl Report {
    /// The report as text.
    #[must_use]
    pub fn text(&self) -> String {
        let mut t = String::new();
        let f = &self.forced;
        let _ = writeln!(t, "{}: balance report", self.variant);
        let _ =
            writeln!(t, "\nForced goals from the start ({} starts, {:.1} s):", f.starts, f.seconds);
        for k in 1..=f.turns {
            for (side, map) in [("White", &f.white), ("Black", &f.black)] {
                let names = &map[&k];
                let _ = writeln!(
                    t,
                    "  {side} forces a goal within {k}: {}{}",
                    names.len(),
                    if names.is_empty() { String::new() } else { format!(" ({})", list(names)) }
                );
            }
        }
        if !f.unknown.is_empty() {
            let _ = writeln!(t, "  unknown: {} ({})", f.unknown.len(), list(&f.unknown));
        }
        if let Some(p) = &self.play {
            let _ = writeln!(
                t,
                "\nSelf-play: {} games at level {} (seed {}, {:.1} s):",
                p.games, p.level, self.seed, p.seconds
            );
            let _ = writeln!(t, "  White wins {}", percent(&p.white));
            let _ = writeln!(t, "  Black wins {}", percent(&p.black));
            let _ = writeln!(t, "  draws      {}", percent(&p.draws));
            let (min, max) =
                (p.lengths.iter().min().unwrap_or(&0), p.lengths.iter().max().unwrap_or(&0));
            let _ = writeln!(t, "  length: median {} turns, from {min} to {max}", p.median_length);
            let join = |m: Vec<String>| if m.is_empty() { "none".to_owned() } else { m.join(", ") };
            let _ = writeln!(
                t,
                "  goals by piece: {}",
                join(p.goals_by_piece.iter().map(|(k, v)| format!("{k} {v}")).collect())
            );
            let _ = writeln!(
                t,
                "  kicks by piece: {}",
                join(p.kicks_by_piece.iter().map(|(k, v)| format!("{k} {v}")).collect())
            );
            let _ = writeln!(
                t,
                "  draws by cause: {}",
                join(p.draws_by_cause.iter().map(|(k, v)| format!("{} {v}", cause(*k))).collect())
            );
        }
        t
    }

    /// The report as a self-contained HTML page (inline SVG, no script, no outside file).
    #[must_use]
    pub fn html(&self) -> String {
        let mut h = String::new();
        let title = escape_markup(&self.variant);
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}: balance report</title>\
             <style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}}\
             svg text{{font-size:12px}}pre{{white-space:pre-wrap}}</style></head><body>\n<h1>{title}: balance report</h1>\n"
        );
        self.forced.html(&mut h);
        if let Some(play) = &self.play {
            play.html(self.seed, &mut h);
        }
        let _ = write!(
            h,
            "<h2>As text</h2><pre>{}</pre>\n</body></html>\n",
            escape_markup(&self.text())
        );
        h
    }
}

/// One bar: its label, its value and, for a rate, its interval.
type Bar = (String, f64, Option<(f64, f64)>);

/// Horizontal bars with labels, values and optional intervals, as SVG.
fn bar_chart(bars: &[Bar], unit: &str) -> String {
    if bars.is_empty() {
        return "<p>none</p>\n".to_owned();
    }
    let max = bars.iter().map(|b| b.2.map_or(b.1, |i| i.1)).fold(1e-9, f64::max);
    let (left, width, row) = (140.0, 420.0, 24.0);
    let height = row * bars.len() as f64 + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"{height}\" role=\"img\">\n"
    );
    for (i, (label, value, interval)) in bars.iter().enumerate() {
        let y = 5.0 + row * i as f64;
        let w = width * value / max;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + 15.0,
            escape_markup(label)
        );
        let _ = writeln!(
            s,
            "<rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"18\" fill=\"#4a7ab8\"/>"
        );
        if let Some((lo, hi)) = interval {
            let (a, b) = (left + width * lo / max, left + width * hi / max);
            let _ = writeln!(
                s,
                "<line x1=\"{a:.1}\" x2=\"{b:.1}\" y1=\"{0}\" y2=\"{0}\" stroke=\"#222\" stroke-width=\"2\"/>",
                y + 9.0
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\">{value:.1} {unit}</text>",
            left + w.max(0.0) + 6.0,
            y + 15.0
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A histogram of game lengths in ten bins, as SVG.
fn histogram(values: &[u32]) -> String {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
        return "<p>no games</p>\n".to_owned();
    };
    let bins = 10u32;
    let step = ((max - min) / bins + 1).max(1);
    let mut counts = vec![0usize; bins as usize];
    for &v in values {
        counts[(((v - min) / step) as usize).min(bins as usize - 1)] += 1;
    }
    let top = *counts.iter().max().unwrap_or(&1) as f64;
    let (w, h) = (50.0, 160.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">\n",
        w * f64::from(bins) + 20.0,
        h + 40.0
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = h * c as f64 / top;
        let x = 10.0 + w * i as f64;
        let from = min + step * i as u32;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"{}\" height=\"{bh:.1}\" fill=\"#6a9a4a\"/>",
            10.0 + h - bh,
            w - 4.0
        );
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{c}</text>", x + 4.0, 8.0 + h - bh);
        let _ = writeln!(s, "<text x=\"{x}\" y=\"{}\">{from}-{}</text>", h + 26.0, from + step - 1);
    }
    s.push_str("</svg>\n");
    s
}
