//! The balance report of `kickoff analyze`: forced goals over every start and self-play
//! figures, as text, JSON and a self-contained HTML page with SVG plots.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::analysis::survey::StartVerdict;
use crate::balance::selfplay::{DrawCause, GameSummary, Wall};
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
    pub fn new(turns: u32, verdicts: Vec<StartVerdict>) -> Forced {
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
            verdicts,
        }
    }

    /// The forced-goal section of the HTML report: how many starts a goal is forced in.
    fn html(&self, h: &mut String) {
        let _ = writeln!(
            h,
            "<h2>Forced goals from the start</h2><p>{} solved exactly.</p>",
            shown(self.starts as f64, "starts"),
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
    /// The draws with the ball stuck, by what the solver says of their last positions.
    pub walls: BTreeMap<Wall, usize>,
    /// Every game.
    pub list: Vec<GameSummary>,
    /// A game of each result among the first games played (those whose record was kept): the
    /// first White win, Black win and draw.
    pub samples: Vec<Sample>,
}

/// A sample game of self-play, with its record.
#[derive(Clone, Debug, Serialize)]
pub struct Sample {
    /// Its number among the games (from 0).
    pub game: usize,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// Turns played.
    pub turns: u32,
    /// Its record.
    pub record: String,
}

/// Where the HTML report's sample games open: the records page of a `kickoff serve`, and the
/// definition to give it when the variant is not a shipped one.
#[derive(Clone, Debug)]
pub struct BoardLinks {
    /// The board's address, e.g. `http://127.0.0.1:7157/`.
    pub board: String,
    /// The definition's text, for a variant that the board does not ship.
    pub definition: Option<String>,
}

impl BoardLinks {
    /// The address that opens `record` on the board's records page (the record, and the
    /// definition if any, in the address's fragment, which the browser never sends).
    #[must_use]
    pub fn link(&self, record: &str) -> String {
        use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
        let mut link = format!(
            "{}/records#record={}",
            self.board.trim_end_matches('/'),
            utf8_percent_encode(record, NON_ALPHANUMERIC)
        );
        if let Some(text) = &self.definition {
            link.push_str("&definition=");
            link.push_str(&utf8_percent_encode(text, NON_ALPHANUMERIC).to_string());
        }
        link
    }
}

impl Play {
    /// What the solver said of the stuck balls' last positions, in words (none without a
    /// stuck ball).
    #[must_use]
    pub fn walls_text(&self, turns: u32) -> Option<String> {
        let stuck: usize = self.walls.values().sum();
        (stuck > 0).then(|| {
            let count = |w: Wall| self.walls.get(&w).copied().unwrap_or(0);
            format!(
                "stuck balls: in {} of {stuck} the wall is proved (neither side forces a goal \
                 within {turns} turns of the last position), in {} a side forces one (the engine \
                 missed it), {} unknown",
                count(Wall::Held),
                count(Wall::Forced),
                count(Wall::Unknown)
            )
        })
    }

    /// The last positions of the stuck balls that the solver proved walls.
    pub fn walls_held(&self) -> impl Iterator<Item = &str> {
        self.list.iter().filter(|g| g.wall == Some(Wall::Held)).filter_map(|g| g.last.as_deref())
    }

    /// The summary of `games`.
    #[must_use]
    pub fn new(level: u8, list: Vec<GameSummary>) -> Play {
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
        let mut walls = BTreeMap::new();
        for g in &list {
            if let Some(wall) = g.wall {
                *walls.entry(wall).or_insert(0) += 1;
            }
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
        let samples = ["1-0", "0-1", "1/2-1/2"]
            .iter()
            .filter_map(|result| {
                let (game, g) = list
                    .iter()
                    .enumerate()
                    .find(|(_, g)| g.result == *result && g.record.is_some())?;
                Some(Sample {
                    game,
                    result: g.result.clone(),
                    turns: g.turns,
                    record: g.record.clone()?,
                })
            })
            .collect();
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
            walls,
            list,
            samples,
        }
    }

    /// The self-play section of the HTML report, for games played with `seed`.
    fn html(&self, seed: u64, links: Option<&BoardLinks>, h: &mut String) {
        let _ = writeln!(
            h,
            "<h2>Self-play</h2><p>{} games at level {}, seed {}.</p>",
            self.games, self.level, seed
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
        if let Some(links) = links
            && !self.samples.is_empty()
        {
            h.push_str(
                "<h3>Sample games</h3><p>Each opens on the web board's records page (start \
                 <code>kickoff serve</code> first).</p><ul>",
            );
            for sample in &self.samples {
                let _ = writeln!(
                    h,
                    "<li><a href=\"{}\">game {}: {}, {} turns</a><details><summary>record\
                     </summary><pre>{}</pre></details></li>",
                    escape_markup(&links.link(&sample.record)),
                    sample.game + 1,
                    escape_markup(&sample.result),
                    sample.turns,
                    escape_markup(&sample.record)
                );
            }
            h.push_str("</ul>\n");
        }
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
    /// Where the HTML report's sample games open, if anywhere.
    #[serde(skip)]
    pub links: Option<BoardLinks>,
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
        let _ = writeln!(t, "\nForced goals from the start ({} starts):", f.starts);
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
                "\nSelf-play: {} games at level {} (seed {}):",
                p.games, p.level, self.seed
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
            if let Some(line) = p.walls_text(self.forced.turns) {
                let _ = writeln!(t, "  {line}");
                for fen in p.walls_held().take(3) {
                    let _ = writeln!(t, "    a wall: {fen}");
                }
            }
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
            play.html(self.seed, self.links.as_ref(), &mut h);
            if let Some(line) = play.walls_text(self.forced.turns) {
                let _ = writeln!(h, "<h3>Walls</h3><p>{}</p>", escape_markup(&line));
            }
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
pub(crate) type Bar = (String, f64, Option<(f64, f64)>);

/// The width in pixels that `text` takes at most in the report's 12-pixel sans-serif font (an
/// upper bound: its widest letters are about 0.65 of the size).
fn text_width(text: &str) -> f64 {
    8.0 * text.chars().count() as f64
}

/// A value as the report shows it: counts whole, rates (`%`) to one decimal.
fn shown(value: f64, unit: &str) -> String {
    if unit == "%" {
        format!("{value:.1} {unit}")
    } else if value == 1.0 {
        format!("1 {}", unit.strip_suffix('s').unwrap_or(unit))
    } else {
        format!("{value:.0} {unit}")
    }
}

/// Horizontal bars with labels, values and optional intervals, as SVG. The labels' column is
/// as wide as the longest label, and each value is written after its bar and its interval, so
/// that no text overlaps another or a bar.
pub(crate) fn bar_chart(bars: &[Bar], unit: &str) -> String {
    if bars.is_empty() {
        return "<p>none</p>\n".to_owned();
    }
    let max = bars.iter().map(|b| b.2.map_or(b.1, |i| i.1)).fold(1e-9, f64::max);
    let widest =
        |texts: &mut dyn Iterator<Item = String>| texts.map(|t| text_width(&t)).fold(0.0, f64::max);
    let left = 12.0 + widest(&mut bars.iter().map(|b| b.0.clone())).max(128.0);
    let values = widest(&mut bars.iter().map(|b| shown(b.1, unit)));
    let (width, row) = (420.0, 24.0);
    let height = row * bars.len() as f64 + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{height}\" role=\"img\">\n",
        left + width + 6.0 + values + 4.0
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
        let mut end = w.max(0.0);
        if let Some((lo, hi)) = interval {
            let (a, b) = (left + width * lo / max, left + width * hi / max);
            end = end.max(b - left);
            let _ = writeln!(
                s,
                "<line x1=\"{a:.1}\" x2=\"{b:.1}\" y1=\"{0}\" y2=\"{0}\" stroke=\"#222\" stroke-width=\"2\"/>",
                y + 9.0
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\">{}</text>",
            left + end + 6.0,
            y + 15.0,
            shown(*value, unit)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A histogram of game lengths in ten bins, as SVG: each bin as wide as its widest label, the
/// labels centred under their bins.
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
    let label = |i: u32| format!("{}-{}", min + step * i, min + step * (i + 1) - 1);
    let w = (0..bins).map(|i| text_width(&label(i)) + 8.0).fold(50.0, f64::max);
    let h = 160.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">\n",
        w * f64::from(bins) + 20.0,
        h + 54.0
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = h * c as f64 / top;
        let x = 10.0 + w * i as f64;
        let middle = x + (w - 4.0) / 2.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"{}\" height=\"{bh:.1}\" fill=\"#6a9a4a\"/>",
            24.0 + h - bh,
            w - 4.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{middle}\" y=\"{}\" text-anchor=\"middle\">{c}</text>",
            20.0 + h - bh
        );
        let _ = writeln!(
            s,
            "<text x=\"{middle}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            h + 40.0,
            label(i as u32)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of attribute `name` in each element `tag` of `svg`, in order.
    fn attribute(svg: &str, tag: &str, name: &str) -> Vec<f64> {
        svg.split(&format!("<{tag} "))
            .skip(1)
            .map(|e| {
                let value = e.split(&format!("{name}=\"")).nth(1).unwrap();
                value[..value.find('"').unwrap()].parse().unwrap()
            })
            .collect()
    }

    /// The texts of the `<text>` elements of `svg`, in order.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text ")
            .skip(1)
            .map(|e| &e[e.find('>').unwrap() + 1..e.find("</text>").unwrap()])
            .collect()
    }

    #[test]
    fn counts_are_whole_and_rates_have_one_decimal() {
        let bars = vec![
            ("White within 1".to_owned(), 0.0, None),
            ("Black within 1".to_owned(), 12.0, None),
        ];
        let svg = bar_chart(&bars, "starts");
        assert_eq!(texts(&svg), ["White within 1", "0 starts", "Black within 1", "12 starts"]);
        let rates = bar_chart(&[("Draws".to_owned(), 37.5, Some((20.0, 55.25)))], "%");
        assert_eq!(texts(&rates), ["Draws", "37.5 %"]);
        assert_eq!(texts(&bar_chart(&[("N".to_owned(), 1.0, None)], "goals")), ["N", "1 goal"]);
    }

    /// Each value is written after its bar and its interval, each label fits left of the bars,
    /// and the picture is wide enough for the values.
    #[test]
    fn bar_labels_and_values_do_not_overlap() {
        let long = "a label much longer than the others are".to_owned();
        let bars = vec![
            (long.clone(), 10.0, Some((2.0, 90.0))),
            ("short".to_owned(), 100.0, Some((80.0, 100.0))),
        ];
        let svg = bar_chart(&bars, "%");
        let xs = attribute(&svg, "text", "x");
        let (label_x, value_x) = (xs[0], xs[1]);
        assert!(label_x - text_width(&long) >= 0.0, "{svg}");
        let line_end = attribute(&svg, "line", "x2");
        assert!(value_x > line_end[0], "the value is written over the interval: {svg}");
        let rect = attribute(&svg, "rect", "x")[1] + attribute(&svg, "rect", "width")[1];
        assert!(xs[3] > rect && xs[3] > line_end[1], "{svg}");
        let width = attribute(&svg, "svg", "width")[0];
        assert!(xs[3] + text_width("100.0 %") <= width, "{svg}");
    }

    /// Histogram labels are centred under bins at least as wide as they are.
    #[test]
    fn histogram_labels_do_not_overlap() {
        let lengths: Vec<u32> = (0..40).map(|i| 1000 + 37 * i).collect();
        let svg = histogram(&lengths);
        let labels: Vec<&str> = texts(&svg).into_iter().skip(1).step_by(2).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels[0], "1000-1144");
        let xs: Vec<f64> = attribute(&svg, "text", "x").into_iter().skip(1).step_by(2).collect();
        for (pair, label) in xs.windows(2).zip(&labels) {
            assert!(pair[1] - pair[0] >= text_width(label), "{label} overlaps: {svg}");
        }
    }
}
