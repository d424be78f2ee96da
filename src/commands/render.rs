//! `kickoff render VARIANT [--fen F | --setup N | --record R --turn K]`: a diagram as SVG or PNG.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use crate::cli::{ImageFormat, Start};
use crate::commands::replay::{parse_record, read_record_file};
use crate::commands::{Exit, load_variant, setup_or_fen};
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::record;
use kickoff::position::Position;
use kickoff::render::svg::{Arrow, ArrowKind, Diagram, png, svg, turn_path};
use kickoff::rules::Rules;
use kickoff::square::Square;
use kickoff::text::{excerpt, printable, printable_path};

/// What `kickoff render` was asked for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The variant.
    pub variant: String,
    /// `--fen F` or `--setup N`.
    pub start: Start,
    /// `--record FILE`.
    pub record: Option<PathBuf>,
    /// `--turn K`.
    pub turn: Option<usize>,
    /// SVG or PNG.
    pub format: ImageFormat,
    /// `--arrows "e5-h8 e5>h8"`.
    pub arrows: Option<String>,
    /// `--flip`.
    pub flip: bool,
    /// `--output FILE`.
    pub output: Option<PathBuf>,
}

/// Draws the position asked for.
pub fn run(request: &Request, options: LoadOptions) -> Exit {
    match draw(request, options) {
        Ok(()) => Exit::Success,
        Err(exit) => exit,
    }
}

fn draw(request: &Request, options: LoadOptions) -> Result<(), Exit> {
    let def = load_variant(&request.variant, options)?;
    let rules = &def.rules;
    let (pos, mut arrows, marked) = match &request.record {
        Some(path) => from_record(&def, path, request.turn)?,
        None => (setup_or_fen(&def, &request.variant, &request.start)?, Vec::new(), Vec::new()),
    };
    if let Some(list) = &request.arrows {
        arrows.extend(parse_arrows(rules, list).map_err(|e| {
            eprintln!("error: --arrows: {e}");
            Exit::Usage
        })?);
    }
    let picture =
        svg(&Diagram { position: &pos, flipped: request.flip, arrows: &arrows, marked: &marked });
    let bytes = match request.format {
        ImageFormat::Svg => picture.into_bytes(),
        ImageFormat::Png => png(&picture, 2.0).map_err(|e| {
            eprintln!("error: {e}");
            Exit::Failure
        })?,
    };
    write_out(request, &bytes)
}

/// The position after `turn` turns of the record (all of them by default), with that turn's
/// path.
fn from_record<'r>(
    def: &'r Definition,
    path: &std::path::Path,
    turn: Option<usize>,
) -> Result<(Position<'r>, Vec<Arrow>, Vec<Square>), Exit> {
    let shown = printable_path(path);
    let text = read_record_file(path).map_err(|reason| {
        eprintln!("error: cannot read {shown}: {}", printable(&reason));
        Exit::Usage
    })?;
    let parsed = parse_record(&shown, &text)?;
    let game = record::read(&def.rules, &def.rules.info().name, &parsed).map_err(|broken| {
        eprintln!("error: {shown}: {}", broken.error);
        Exit::Failure
    })?;
    let plies = game.plies();
    let k = turn.unwrap_or(plies.len());
    if k > plies.len() {
        eprintln!("error: --turn {k}: the record has {} turns", plies.len());
        return Err(Exit::Usage);
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
fn write_out(request: &Request, bytes: &[u8]) -> Result<(), Exit> {
    if let Some(path) = &request.output {
        return std::fs::write(path, bytes).map_err(|e| {
            eprintln!(
                "error: cannot write {}: {}",
                printable_path(path),
                kickoff::text_file::io_reason(&e)
            );
            Exit::Failure
        });
    }
    let mut out = std::io::stdout();
    if request.format == ImageFormat::Png && out.is_terminal() {
        eprintln!("error: a PNG is not for a terminal: redirect the output or give --output FILE");
        return Err(Exit::Usage);
    }
    out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| {
        eprintln!("error: {}", kickoff::text_file::io_reason(&e));
        Exit::Failure
    })
}
