//! What each subcommand does: load, run, print. The library does the work.

pub mod schema;
pub mod validate;

use std::io::IsTerminal;

/// How a command ended, as the process exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It did what was asked.
    Success = 0,
    /// It reported a failure (an invalid file, an illegal turn ...).
    Failure = 1,
    /// Bad usage or an unreadable file.
    Usage = 2,
}

/// Whether to colour what goes to stdout: a terminal, and NO_COLOR not set.
#[must_use]
pub fn color_stdout() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Whether to colour what goes to stderr.
#[must_use]
pub fn color_stderr() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}
