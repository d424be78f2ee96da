//! `kickoff render VARIANT [--fen F | --setup N | --record R --turn K]`: a diagram as SVG or PNG.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use crate::cli::Start;
use crate::commands::replay::{parse_record, read_record_file};
use crate::commands::{CommandError, CommandResult, load_variant, setup_or_fen};
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::record;
use kickoff::position::Position;
use kickoff::render::png::png;
use kickoff::render::svg::{Arrow, ArrowKind, Diagram, svg, turn_path};
use kickoff::rules::Rules;
use kickoff::square::Square;
use kickoff::text::{excerpt, printable, printable_path};

/// The arguments of `kickoff render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    #[command(flatten)]
    pub start: Start,
    /// A game record: draw the position after turn K, with that turn's path.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "setup"])]
    pub record: Option<PathBuf>,
    /// The number of turns of the record played (default: all of them; 0: the start).
    #[arg(long, value_name = "K", requires = "record")]
    pub turn: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ImageFormat::Svg)]
    pub format: ImageFormat,
    /// Arrows to draw: `e5-h8` (a move) or `e5>h8` (a kick), separated by spaces.
    #[arg(long, value_name = "LIST")]
    pub arrows: Option<String>,
    /// Black's view: rank 1 at the top.
    #[arg(long)]
    pub flip: bool,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The picture formats of `render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ImageFormat {
    /// Scalable vector graphics.
    Svg,
    /// A PNG picture, drawn by resvg.
    Png,
}

/// Draws the position asked for.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let rules = &def.rules;
    let (pos, mut arrows, marked) = match &args.record {
        Some(path) => from_record(&def, path, args.turn)?,
        None => (setup_or_fen(&def, &args.variant, &args.start)?, Vec::new(), Vec::new()),
    };
    if let Some(list) = &args.arrows {
        arrows.extend(
            parse_arrows(rules, list).map_err(|e| CommandError::usage(format!("--arrows: {e}")))?,
        );
    }
    let picture =
        svg(&Diagram { position: &pos, flipped: args.flip, arrows: &arrows, marked: &marked });
    let bytes = match args.format {
        ImageFormat::Svg => picture.into_bytes(),
        ImageFormat::Png => png(&picture, 2.0).map_err(CommandError::failure)?,
    };
    write_out(args, &bytes)
}

/// The position after `turn` turns of the record (all of them by default), with that turn's
/// path.
fn from_record<'r>(
    def: &'r Definition,
    path: &std::path::Path,
    turn: Option<usize>,
) -> CommandResult<(Position<'r>, Vec<Arrow>, Vec<Square>)> {
    let shown = printable_path(path);
    let text = read_record_file(path).map_err(|reason| {
        CommandError::usage(format!("cannot read {shown}: {}", printable(&reason)))
    })?;
    let parsed = parse_record(&shown, &text)?;
    let game = record::read(&def.rules, &def.rules.info().name, &parsed)
        .map_err(|broken| CommandError::failure(format!("{shown}: {}", broken.error)))?;
    let plies = game.plies();
    let k = turn.unwrap_or(plies.len());
    if k > plies.len() {
        return Err(CommandError::usage(format!(
            "--turn {k}: the record has {} turns",
            plies.len()
        )));
    }
    if k == 0 {
        return Ok((*game.start(), Vec::new(), Vec::new()));
    }
    let (arrows, marked) = turn_path(&game.position_at(k - 1), &plies[k - 1].turn);
    Ok((game.position_at(k), arrows, marked))
}

/// Reads `e5-h8 e5>h8`: a move arrow and a kick arrow.
fn parse_arrows(rules: &Rules, list: &str) -> Result<Vec<Arrow>, String> {
    if list.len() > 2000 {
        return Err("the list is longer than 2000 bytes".to_owned());
    }
    let square = |name: &str| {
        rules
            .board()
            .squares()
            .find(|s| s.to_string() == name)
            .ok_or_else(|| format!("`{}` is not a square of this board", excerpt(name)))
    };
    list.split_whitespace()
        .map(|item| {
            let (from, to, kind) = match (item.split_once('-'), item.split_once('>')) {
                (Some((a, b)), None) => (a, b, ArrowKind::Move),
                (None, Some((a, b))) => (a, b, ArrowKind::Kick),
                _ => {
                    let item = excerpt(item);
                    return Err(format!("`{item}` is not an arrow: write e5-h8 or e5>h8"));
                }
            };
            Ok(Arrow { from: square(from)?, to: square(to)?, kind })
        })
        .collect()
}

/// Writes the picture to `--output` or standard output (never a PNG to a terminal).
fn write_out(args: &Args, bytes: &[u8]) -> CommandResult {
    if let Some(path) = &args.output {
        return std::fs::write(path, bytes).map_err(|e| {
            let why = kickoff::text_file::io_reason(&e);
            CommandError::failure(format!("cannot write {}: {why}", printable_path(path)))
        });
    }
    let mut out = std::io::stdout();
    if args.format == ImageFormat::Png && out.is_terminal() {
        return Err(CommandError::usage(
            "a PNG is not for a terminal: redirect the output or give --output FILE",
        ));
    }
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| CommandError::failure(kickoff::text_file::io_reason(&e)))
}
