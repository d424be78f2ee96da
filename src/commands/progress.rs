//! Progress bars for long runs, shown on a terminal only.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before it shows a progress bar.
const QUIET_TIME: Duration = Duration::from_millis(700);

/// A bar that draws nothing until [`show_progress`] finds the run long enough.
#[must_use]
pub fn hidden_bar() -> ProgressBar {
    ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
}

/// Shows `done` of `all` (counted in `unit`s) once the run started at `start` has lasted a
/// while, and only when stderr is a terminal.
pub fn show_progress(bar: &ProgressBar, start: Instant, done: usize, all: usize, unit: &str) {
    if bar.is_hidden() {
        if start.elapsed() < QUIET_TIME || !std::io::stderr().is_terminal() {
            return;
        }
        bar.set_draw_target(ProgressDrawTarget::stderr());
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}})");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }
    bar.set_length(all as u64);
    bar.set_position(done as u64);
}

/// A bar of `length` steps (none: a spinner) drawn on stderr in `style` from the start, when
/// stderr is a terminal; else hidden.
#[must_use]
pub fn terminal_bar(length: Option<u64>, style: ProgressStyle) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar
}
