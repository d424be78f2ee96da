//! `kickoff merge FILE...`: the report of an `analyze` or the table of a `match` whose work was
//! split into shards (`--shard I/N --out FILE`), from all the shards' files: the same bytes a
//! run on one machine prints.

use std::path::PathBuf;

use crate::commands::analyze::{self, ReportFormat};
use crate::commands::shards::read_all;
use crate::commands::{CommandError, CommandResult, load_variant, matches};
use kickoff::definition::LoadOptions;
use kickoff::game::record;
use kickoff::text::printable;

/// The arguments of `kickoff merge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shards' files (in any order; a shard's file may be given more than once).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The definition, where the name the shards were run with does not find it here (a path
    /// on another machine): it must be the same text.
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Output format of an analysis's report (a match's table is text).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// With --format html: the web board whose records page opens the sample games.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:7157/")]
    pub board: String,
}

/// Reads the shards' files and prints what the run on one machine prints.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let (header, found) = read_all(&args.files).map_err(CommandError::usage)?;
    let variant = args.variant.as_deref().unwrap_or(&header.variant);
    let def = load_variant(variant, options)?;
    let hash = record::definition_hash(&def.sources);
    if hash != header.hash {
        return Err(CommandError::usage(format!(
            "the shards were run with another definition than {} reads as now (hash {} there, {hash} here): \
             give the same text with --variant",
            printable(variant),
            header.hash
        )));
    }
    match header.command.as_str() {
        "analyze" => analyze::merge(&def, &header, &found, args.board.clone(), args.format),
        "match" if args.format == ReportFormat::Text => matches::merge(&def, &header, &found),
        "match" => Err(CommandError::usage("a match's table is text only")),
        other => Err(CommandError::usage(format!(
            "the shards are of `{}`, which merge does not know",
            printable(other)
        ))),
    }
}
