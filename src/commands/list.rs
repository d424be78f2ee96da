//! `kickoff list [--format json]`: the shipped variants.

use serde::Serialize;

use crate::cli::Format;
use crate::commands::{CommandError, CommandResult};
use kickoff::definition::{load_shipped, shipped};
use kickoff::rules::VariantInfo;

/// One shipped variant, as `--format json` gives it.
#[derive(Debug, Serialize)]
struct Listed {
    /// The name that commands take.
    name: &'static str,
    /// The variant's own name (`title`), its author and description.
    #[serde(flatten)]
    info: VariantInfo,
    /// Whether it starts from random setups.
    random_setup: bool,
}

/// The arguments of `kickoff list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Prints every shipped variant.
pub fn run(args: &Args) -> CommandResult {
    let mut listed = Vec::new();
    for name in shipped::names() {
        match load_shipped(name) {
            Ok(def) => {
                listed.push(Listed {
                    name,
                    info: def.rules.info().clone(),
                    random_setup: def.rules.random_setup().is_some(),
                });
            }
            Err(e) => {
                return Err(CommandError::failure(format!(
                    "the shipped variant {name} does not load: {e}"
                )));
            }
        }
    }
    match args.format {
        Format::Json => {
            println!("{}", serde_json::to_string_pretty(&listed).map_err(CommandError::failure)?);
        }
        Format::Text => print_text(&listed),
    }
    Ok(())
}

/// One line a variant: its name, its title and its description.
fn print_text(listed: &[Listed]) {
    let width = listed.iter().map(|l| l.name.len()).max().unwrap_or(0);
    for l in listed {
        match &l.info.description {
            Some(about) => println!("{:width$}  {}: {about}", l.name, l.info.name),
            None => println!("{:width$}  {}", l.name, l.info.name),
        }
    }
}
