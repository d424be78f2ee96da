//! `kickoff definition VARIANT [--resolved]`: a definition's text, as written or resolved.

use crate::commands::{Exit, load_variant, report_unloadable};
use kickoff::definition::{LoadOptions, own_text};
use kickoff::render::printable::printable;

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
        Ok(text) => {
            // A definition is valid TOML only without control characters (tabs and line ends
            // aside), so this changes nothing but a broken file's escape sequences.
            print!("{}", printable(&text));
            Exit::Success
        }
        Err(e) => {
            report_unloadable(&e);
            Exit::Usage
        }
    }
}
