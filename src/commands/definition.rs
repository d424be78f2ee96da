//! `kickoff definition VARIANT [--resolved]`: a definition's text, as written or resolved.

use std::io::IsTerminal;

use crate::commands::{Exit, load_variant, report_unloadable};
use kickoff::definition::{LoadOptions, own_text};
use kickoff::text::printable;

/// Prints the definition's own file, or with `resolved` the one file its chain amounts to.
pub fn run(variant: &str, resolved: bool, options: LoadOptions) -> Exit {
    if resolved {
        return match load_variant(variant, options) {
            Ok(def) => {
                print!("{}", def.resolved_toml());
                Exit::Success
            }
            Err(exit) => exit,
        };
    }
    match own_text(variant) {
        // Redirected, the text is copied exactly; on a terminal, a file's escape sequences are
        // shown, not obeyed.
        Ok(text) if std::io::stdout().is_terminal() => {
            print!("{}", printable(&text));
            Exit::Success
        }
        Ok(text) => {
            print!("{text}");
            Exit::Success
        }
        Err(e) => {
            report_unloadable(&e);
            Exit::Usage
        }
    }
}
