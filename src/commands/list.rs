//! `kickoff list [--format json]`: the shipped variants.

use serde::Serialize;

use crate::cli::Format;
use crate::commands::Exit;
use kickoff::definition::{load_shipped, shipped};

/// One shipped variant, as `--format json` gives it.
#[derive(Debug, Serialize)]
struct Listed {
    /// The name that commands take.
    name: &'static str,
    /// The variant's own name.
    title: String,
    description: Option<String>,
    author: Option<String>,
    year: Option<i64>,
    source: Option<String>,
    /// Whether it starts from random setups.
    random_setup: bool,
}

/// Prints every shipped variant.
pub fn run(format: Format) -> Exit {
    let mut listed = Vec::new();
    for name in shipped::names() {
        match load_shipped(name) {
            Ok(def) => {
                let info = def.rules.info().clone();
                listed.push(Listed {
                    name,
                    title: info.name,
                    description: info.description,
                    author: info.author,
                    year: info.year,
                    source: info.source,
                    random_setup: def.rules.random_setup().is_some(),
                });
            }
            Err(e) => {
                eprintln!("error: the shipped variant {name} does not load: {e}");
                return Exit::Failure;
            }
        }
    }
    match format {
        Format::Json => match serde_json::to_string_pretty(&listed) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Failure;
            }
        },
        Format::Text => print_text(&listed),
    }
    Exit::Success
}

/// One line a variant: its name, its title and its description.
fn print_text(listed: &[Listed]) {
    let width = listed.iter().map(|l| l.name.len()).max().unwrap_or(0);
    for l in listed {
        match &l.description {
            Some(about) => println!("{:width$}  {}: {about}", l.name, l.title),
            None => println!("{:width$}  {}", l.name, l.title),
        }
    }
}
