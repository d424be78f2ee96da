use std::process::ExitCode;

mod cli;
mod commands;

use clap::Parser;

/// Runs the subcommand asked for; a failure is told once, here, on stderr.
fn main() -> ExitCode {
    restore_sigpipe();
    match cli::Cli::parse().run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprint!("{error}");
            ExitCode::from(error.status() as u8)
        }
    }
}

/// Dies quietly, like other command-line tools, when the reader of our output goes away
/// (`kickoff turns ... | head`), instead of failing to print.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
