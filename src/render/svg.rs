//! Board diagrams as SVG (`render::png` makes PNG pictures of them): squares with coordinates,
//! goals marked, the squares of zones shaded (where some pieces are kept to or kept out of),
//! the ball (beside its holder when a piece carries it), pieces and the last turn's
//! path as arrows.
//!
//! Every letter and figure is drawn as a path cut from a font embedded in the binary (subsets of
//! DejaVu Sans, `fonts/`), so a diagram has no text element and looks the same in every browser,
//! in `kickoff render` and in a PNG. The web board is this same drawing; the page only adds its
//! highlights over it, finding squares by the `data-` attributes of the root element.

use std::fmt::Write;
use std::sync::OnceLock;

use ttf_parser::{Face, OutlineBuilder};

use crate::movegen::{Action, Mid, MoveKind, Turn};
use crate::position::{Placement, Position};
use crate::render::reach::{Reach, reach, zoned};
use crate::rules::{PieceKind, Rules};
use crate::side::Side;
use crate::square::Square;
use crate::text::escape_markup;

/// The side of a square, in SVG units.
pub const SQUARE: f32 = 60.0;
/// Room left of and under the board for the coordinates.
const MARGIN: f32 = 26.0;
/// Room above and right of the board.
const EDGE: f32 = 6.0;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const GOAL: &str = "#5e9e4f";
const LAST: &str = "#f2d024";
const INK: &str = "#1b1b1b";
const PAPER: &str = "#fbfbf8";
const COORDINATES: &str = "#5a5148";
const MOVE_ARROW: &str = "#2f6fd0";
const KICK_ARROW: &str = "#d9480f";
const ZONE: &str = "#3b3f8f";

static REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans-subset.ttf");
static BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold-subset.ttf");

/// What an arrow shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// A piece's move.
    Move,
    /// The ball's flight.
    Kick,
}

/// An arrow from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour and meaning.
    pub kind: ArrowKind,
}

/// What to draw.
#[derive(Clone, Copy, Debug)]
pub struct Diagram<'a, 'r> {
    /// The position.
    pub position: &'a Position<'r>,
    /// Black's view: rank 1 at the top, the files reversed.
    pub flipped: bool,
    /// Arrows, drawn over the pieces in order.
    pub arrows: &'a [Arrow],
    /// Squares to tint, such as those the last turn touched.
    pub marked: &'a [Square],
}

/// The two embedded fonts, parsed once.
struct Fonts {
    regular: Face<'static>,
    bold: Face<'static>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        // The embedded fonts are part of the binary: a parse failure is a build mistake.
        regular: Face::parse(REGULAR, 0).expect("fonts: the embedded regular font parses"),
        bold: Face::parse(BOLD, 0).expect("fonts: the embedded bold font parses"),
    })
}

/// Collects a glyph's outline as SVG path commands, one string per contour, scaled from font
/// units (y up) to the diagram's (y down) and moved to its place; with each contour its signed
/// area, whose sign tells an outer contour from a hole.
struct PathWriter {
    contours: Vec<(String, f32)>,
    place: Place,
    last: (f32, f32),
}

impl PathWriter {
    fn point(&mut self, x: f32, y: f32) {
        let (px, py) = (self.place.dx + x * self.place.scale, self.place.dy - y * self.place.scale);
        if let Some((d, area)) = self.contours.last_mut() {
            let _ = write!(d, "{px:.1} {py:.1}");
            // The shoelace formula over the points is close enough to tell the orientation.
            *area += self.last.0 * py - px * self.last.1;
        }
        self.last = (px, py);
    }

    fn command(&mut self, c: char) {
        if let Some((d, _)) = self.contours.last_mut() {
            d.push(c);
        }
    }
}

impl OutlineBuilder for PathWriter {
    fn move_to(&mut self, x: f32, y: f32) {
        self.contours.push((String::from("M"), 0.0));
        let (px, py) = (self.place.dx + x * self.place.scale, self.place.dy - y * self.place.scale);
        self.last = (px, py);
        self.point(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.command('L');
        self.point(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.command('Q');
        self.point(x1, y1);
        self.command(' ');
        self.point(x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.command('C');
        self.point(x1, y1);
        self.command(' ');
        self.point(x2, y2);
        self.command(' ');
        self.point(x, y);
    }

    fn close(&mut self) {
        self.command('Z');
    }
}

/// Where a glyph goes: scale from font units and the offset of its origin.
#[derive(Clone, Copy)]
struct Place {
    scale: f32,
    dx: f32,
    dy: f32,
}

/// The contours of `ch` at `place`; none when the font lacks it.
fn contours(face: &Face<'_>, ch: char, place: Place) -> Vec<(String, f32)> {
    let mut writer = PathWriter { contours: Vec::new(), place, last: (0.0, 0.0) };
    if let Some(id) = face.glyph_index(ch) {
        face.outline_glyph(id, &mut writer);
    }
    writer.contours
}

/// The path of `ch` at `place`; empty when the font lacks it.
fn glyph(face: &Face<'_>, ch: char, place: Place) -> String {
    contours(face, ch, place).into_iter().map(|(d, _)| d).collect()
}

/// The outline of `ch` split in two paths: its silhouette (the contours turning the way its
/// largest one turns) and its details (the small holes in it; large ones, which some fonts cut
/// in a black figure, are left filled so that both colours share one shape).
fn silhouette_and_details(face: &Face<'_>, ch: char, place: Place) -> (String, String) {
    let all = contours(face, ch, place);
    let outer = all.iter().map(|(_, a)| *a).max_by(|a, b| a.abs().total_cmp(&b.abs()));
    let Some(outer) = outer else { return (String::new(), String::new()) };
    let (mut ground, mut details) = (String::new(), String::new());
    for (d, area) in all {
        if area.signum() == outer.signum() {
            ground.push_str(&d);
        } else if area.abs() < outer.abs() * 0.12 {
            details.push_str(&d);
        }
    }
    (ground, details)
}

/// The place that centres `ch`'s outline on (`cx`, `cy`) with its larger side `size` long.
fn centred(face: &Face<'_>, ch: char, cx: f32, cy: f32, size: f32) -> Option<Place> {
    let rect = face.glyph_bounding_box(face.glyph_index(ch)?)?;
    let (w, h) = (f32::from(rect.width()), f32::from(rect.height()));
    let scale = size / w.max(h).max(1.0);
    let mid_x = (f32::from(rect.x_min) + w / 2.0) * scale;
    let mid_y = (f32::from(rect.y_min) + h / 2.0) * scale;
    Some(Place { scale, dx: cx - mid_x, dy: cy + mid_y })
}

/// A line of text as one path, centred on `cx` with its baseline at `baseline`.
fn text(face: &Face<'_>, line: &str, cx: f32, baseline: f32, height: f32) -> String {
    let scale = height / f32::from(face.units_per_em());
    let advance = |c: char| {
        face.glyph_index(c).and_then(|id| face.glyph_hor_advance(id)).map_or(0.0, f32::from)
    };
    let width: f32 = line.chars().map(advance).sum::<f32>() * scale;
    let mut x = cx - width / 2.0;
    let mut d = String::new();
    for c in line.chars() {
        d.push_str(&glyph(face, c, Place { scale, dx: x, dy: baseline }));
        x += advance(c) * scale;
    }
    d
}

/// The chess figure of a standard letter (the font's black one, whose shape both colours use).
fn figure(letter: char) -> Option<char> {
    Some(match letter {
        'K' => '\u{265A}',
        'Q' => '\u{265B}',
        'R' => '\u{265C}',
        'B' => '\u{265D}',
        'N' => '\u{265E}',
        'P' => '\u{265F}',
        _ => return None,
    })
}

/// The drawing of a piece in a square whose top left corner is the origin: a chess figure for
/// the six standard letters, a disc with the letter for any other.
fn piece_drawing(letter: char, side: Side) -> String {
    let f = fonts();
    let c = SQUARE / 2.0;
    if let Some(filled) = figure(letter)
        && let Some(place) = centred(&f.regular, filled, c, c + 1.0, SQUARE * 0.8)
    {
        // One shape for both colours, its details cut in the other colour.
        let (ground, details) = silhouette_and_details(&f.regular, filled, place);
        let (body, ink) = match side {
            Side::White => (PAPER, INK),
            Side::Black => (INK, PAPER),
        };
        return format!(
            "<path d=\"{ground}\" fill=\"{body}\" stroke=\"{INK}\" stroke-width=\"1.6\" stroke-linejoin=\"round\"/>\
             <path d=\"{details}\" fill=\"{ink}\"/>"
        );
    }
    let (disc, ink) = match side {
        Side::White => (PAPER, INK),
        Side::Black => (INK, PAPER),
    };
    let shown = match side {
        Side::White => letter,
        Side::Black => letter.to_ascii_lowercase(),
    };
    let mark = centred(&f.bold, shown, c, c, SQUARE * 0.42)
        .map(|place| glyph(&f.bold, shown, place))
        .unwrap_or_default();
    format!(
        "<circle cx=\"{c}\" cy=\"{c}\" r=\"{:.1}\" fill=\"{disc}\" stroke=\"{INK}\" stroke-width=\"2\"/>\
         <path d=\"{mark}\" fill=\"{ink}\"/>",
        SQUARE * 0.38
    )
}

/// A football centred on (`cx`, `cy`): a white ball with a black pentagon and its seams.
fn ball(cx: f32, cy: f32, r: f32) -> String {
    let corner = |i: u32, radius: f32| {
        let angle = std::f32::consts::PI * (2.0 * i as f32 / 5.0 - 0.5);
        (cx + radius * angle.cos(), cy + radius * angle.sin())
    };
    let pentagon: Vec<String> = (0..5)
        .map(|i| {
            let (x, y) = corner(i, r * 0.38);
            format!("{x:.1},{y:.1}")
        })
        .collect();
    let mut seams = String::new();
    for i in 0..5 {
        let (x1, y1) = corner(i, r * 0.38);
        let (x2, y2) = corner(i, r);
        let _ = write!(seams, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
    }
    format!(
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{PAPER}\" stroke=\"{INK}\" stroke-width=\"{w:.1}\"/>\
         <path d=\"{seams}\" stroke=\"{INK}\" stroke-width=\"{w:.1}\"/>\
         <polygon points=\"{}\" fill=\"{INK}\"/>",
        pentagon.join(" "),
        w = (r * 0.1).max(1.0),
    )
}

/// The size of the whole picture.
fn picture_size(rules: &Rules) -> (f32, f32) {
    let b = rules.board();
    (MARGIN + EDGE + f32::from(b.files) * SQUARE, MARGIN + EDGE + f32::from(b.ranks) * SQUARE)
}

/// The top left corner of a square in the picture.
fn corner(rules: &Rules, square: Square, flipped: bool) -> (f32, f32) {
    let b = rules.board();
    let (col, row) = if flipped {
        (b.files - 1 - square.file(), square.rank())
    } else {
        (square.file(), b.ranks - 1 - square.rank())
    };
    (MARGIN + f32::from(col) * SQUARE, EDGE + f32::from(row) * SQUARE)
}

/// The centre of a square.
fn centre(rules: &Rules, square: Square, flipped: bool) -> (f32, f32) {
    let (x, y) = corner(rules, square, flipped);
    (x + SQUARE / 2.0, y + SQUARE / 2.0)
}

/// The diagram as an SVG document.
#[must_use]
pub fn svg(d: &Diagram<'_, '_>) -> String {
    draw(d, &Extras { ball: true, marks: &[] })
}

/// What a diagram of a variant's page adds to, or leaves out of, a position's drawing.
struct Extras<'a> {
    /// Whether the ball is drawn.
    ball: bool,
    /// Squares marked by what a piece does there.
    marks: &'a [(Square, Mark)],
}

/// What a square of a piece's diagram shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// The piece moves there.
    Move,
    /// The piece reaches it only by capturing.
    Capture,
    /// Its kick sends the ball there.
    Kick,
}

fn draw(d: &Diagram<'_, '_>, extras: &Extras<'_>) -> String {
    let rules = d.position.rules();
    let (w, h) = picture_size(rules);
    let b = rules.board();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         class=\"kickoff-board\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
         data-files=\"{}\" data-ranks=\"{}\" data-flipped=\"{}\" data-square=\"{SQUARE}\" \
         data-left=\"{MARGIN}\" data-top=\"{EDGE}\" role=\"img\" aria-label=\"{}\">",
        b.files,
        b.ranks,
        d.flipped,
        escape_markup(&format!("{} board", rules.info().name)),
    );
    out.push_str(&defs(d));
    out.push_str(&squares(d));
    out.push_str(&coordinates(rules, d.flipped));
    out.push_str(&contents(d, extras.ball));
    out.push_str(&marks(rules, extras.marks, d.flipped));
    out.push_str(&arrows(rules, d.arrows, d.flipped));
    out.push_str("</svg>\n");
    out
}

/// The empty board of a variant: its goals, and the squares of its zones shaded; the ball on
/// its start square.
#[must_use]
pub fn field(rules: &Rules) -> String {
    let placement = Placement { pieces: Vec::new(), ..rules.start().clone() };
    let position = Position::from_checked(rules, &placement);
    let d = Diagram { position: &position, flipped: false, arrows: &[], marked: &[] };
    draw(&d, &Extras { ball: true, marks: &[] })
}

/// The diagram of White's piece of type `kind` alone on the board, on the square of its zone
/// nearest the centre, with the squares it moves to, captures on and kicks the ball to marked
/// ([`reach`]); with that reach. `None` when the piece may stand nowhere.
#[must_use]
pub fn piece_diagram(rules: &Rules, kind: PieceKind) -> Option<(String, Reach)> {
    let reach = reach(rules, kind)?;
    let placement = Placement {
        pieces: vec![(reach.from, Side::White, kind)],
        ball: Some(reach.from),
        held: false,
        ..rules.start().clone()
    };
    let position = Position::from_checked(rules, &placement);
    let mut list: Vec<(Square, Mark)> = Vec::new();
    list.extend(reach.moves.iter().map(|&s| (s, Mark::Move)));
    list.extend(reach.captures.iter().map(|&s| (s, Mark::Capture)));
    list.extend(reach.kicks.iter().map(|&s| (s, Mark::Kick)));
    let d = Diagram { position: &position, flipped: false, arrows: &[], marked: &[] };
    Some((draw(&d, &Extras { ball: false, marks: &list }), reach))
}

/// The marks of a piece's diagram: a dot where it moves, a ring where it captures, a cross
/// where its kick sends the ball.
fn marks(rules: &Rules, list: &[(Square, Mark)], flipped: bool) -> String {
    if list.is_empty() {
        return String::new();
    }
    let mut out = String::from("<g class=\"reach\">");
    for &(square, mark) in list {
        let (x, y) = centre(rules, square, flipped);
        let _ = match mark {
            Mark::Move => write!(
                out,
                "<circle class=\"reach-move\" data-square=\"{square}\" cx=\"{x}\" cy=\"{y}\" r=\"{:.1}\" fill=\"{MOVE_ARROW}\"/>",
                SQUARE * 0.15
            ),
            Mark::Capture => write!(
                out,
                "<circle class=\"reach-capture\" data-square=\"{square}\" cx=\"{x}\" cy=\"{y}\" r=\"{:.1}\" fill=\"none\" stroke=\"{MOVE_ARROW}\" stroke-width=\"5\"/>",
                SQUARE * 0.3
            ),
            Mark::Kick => {
                let a = SQUARE * 0.3;
                write!(
                    out,
                    "<path class=\"reach-kick\" data-square=\"{square}\" d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\" stroke=\"{KICK_ARROW}\" stroke-width=\"6\" stroke-linecap=\"round\"/>",
                    x - a,
                    y - a,
                    x + a,
                    y + a,
                    x - a,
                    y + a,
                    x + a,
                    y - a
                )
            }
        };
    }
    out.push_str("</g>");
    out
}

/// One drawing per kind of piece on the board, used by every piece of that kind.
fn defs(d: &Diagram<'_, '_>) -> String {
    let rules = d.position.rules();
    let mut out = String::from("<defs>");
    let mut done = Vec::new();
    for square in rules.board().squares() {
        if let Some((side, kind)) = d.position.piece_at(square)
            && !done.contains(&(side, kind))
        {
            done.push((side, kind));
            let _ = write!(
                out,
                "<g id=\"piece-{}-{}\">{}</g>",
                side.fen_char(),
                kind.index(),
                piece_drawing(rules.piece(kind).letter, side)
            );
        }
    }
    out.push_str("</defs>");
    out
}

/// The squares: light, dark, goals with their net, holes left out, marked squares tinted.
fn squares(d: &Diagram<'_, '_>) -> String {
    let rules = d.position.rules();
    let b = rules.board();
    let zoned = zoned(rules);
    let mut out = String::from("<g class=\"squares\">");
    for square in b.squares() {
        let (x, y) = corner(rules, square, d.flipped);
        let fill = match (rules.scorer(square), b.is_dark(square)) {
            (Some(_), _) => GOAL,
            (None, true) => DARK,
            (None, false) => LIGHT,
        };
        let _ = write!(
            out,
            "<rect data-square=\"{square}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
        );
        if rules.scorer(square).is_some() {
            out.push_str(&net(x, y));
        }
        if zoned.contains(square) {
            out.push_str(&shade(square, x, y));
        }
        if d.marked.contains(&square) {
            let _ = write!(
                out,
                "<rect class=\"marked\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{LAST}\" fill-opacity=\"0.45\"/>"
            );
        }
    }
    out.push_str("</g>");
    out
}

/// The shading of a square of a zone (some pieces are kept to it or out of it): a tint and
/// hatching.
fn shade(square: Square, x: f32, y: f32) -> String {
    let mut hatch = String::new();
    for i in 1..4 {
        let t = i as f32 * SQUARE / 4.0;
        let _ = write!(hatch, "M{:.1} {:.1}L{:.1} {:.1}", x, y + t, x + t, y);
        let _ = write!(hatch, "M{:.1} {:.1}L{:.1} {:.1}", x + t, y + SQUARE, x + SQUARE, y + t);
    }
    let _ = write!(hatch, "M{x:.1} {:.1}L{:.1} {y:.1}", y + SQUARE, x + SQUARE);
    format!(
        "<g class=\"zone\" data-square=\"{square}\"><rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{ZONE}\" fill-opacity=\"0.22\"/>\
         <path d=\"{hatch}\" stroke=\"{ZONE}\" stroke-opacity=\"0.45\" stroke-width=\"1.5\"/></g>"
    )
}

/// A goal's net: a frame and a mesh of thin lines.
fn net(x: f32, y: f32) -> String {
    let inset = SQUARE * 0.12;
    let (x0, y0, x1, y1) = (x + inset, y + inset, x + SQUARE - inset, y + SQUARE - inset);
    let mut mesh = String::new();
    let step = (x1 - x0) / 4.0;
    for i in 1..4 {
        let t = i as f32 * step;
        let _ = write!(mesh, "M{:.1} {y0:.1}V{y1:.1}M{x0:.1} {:.1}H{x1:.1}", x0 + t, y0 + t);
    }
    format!(
        "<path d=\"{mesh}\" stroke=\"{PAPER}\" stroke-opacity=\"0.45\" stroke-width=\"1\"/>\
         <rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"{PAPER}\" stroke-width=\"2.5\"/>",
        x1 - x0,
        y1 - y0
    )
}

/// File letters under the board and rank numbers left of it.
fn coordinates(rules: &Rules, flipped: bool) -> String {
    let f = fonts();
    let b = rules.board();
    let size = 15.0;
    let mut d = String::new();
    for file in 0..b.files {
        let (x, _) = centre(rules, Square::at(file, 0), flipped);
        let baseline = EDGE + f32::from(b.ranks) * SQUARE + 19.0;
        d.push_str(&text(&f.regular, &char::from(b'a' + file).to_string(), x, baseline, size));
    }
    for rank in 0..b.ranks {
        let (_, y) = centre(rules, Square::at(0, rank), flipped);
        d.push_str(&text(
            &f.regular,
            &(u32::from(rank) + 1).to_string(),
            MARGIN / 2.0,
            y + 5.5,
            size,
        ));
    }
    format!("<path class=\"coordinates\" d=\"{d}\" fill=\"{COORDINATES}\"/>")
}

/// The pieces and the ball (unless it is left out); a held ball sits in its holder's corner.
fn contents(d: &Diagram<'_, '_>, with_ball: bool) -> String {
    let pos = d.position;
    let rules = pos.rules();
    let mut out = String::from("<g class=\"pieces\">");
    for square in rules.board().squares() {
        if let Some((side, kind)) = pos.piece_at(square) {
            let (x, y) = corner(rules, square, d.flipped);
            let _ = write!(
                out,
                "<use class=\"piece\" data-square=\"{square}\" href=\"#piece-{}-{}\" xlink:href=\"#piece-{}-{}\" x=\"{x}\" y=\"{y}\"/>",
                side.fen_char(),
                kind.index(),
                side.fen_char(),
                kind.index()
            );
        }
    }
    let Some(at) = pos.ball().filter(|_| with_ball) else {
        out.push_str("</g>");
        return out;
    };
    let (x, y) = corner(rules, at, d.flipped);
    let held = pos.ball_held() || pos.piece_at(at).is_some();
    let drawing = if held {
        ball(x + SQUARE * 0.8, y + SQUARE * 0.8, SQUARE * 0.16)
    } else {
        ball(x + SQUARE / 2.0, y + SQUARE / 2.0, SQUARE * 0.3)
    };
    let _ =
        write!(out, "<g class=\"ball\" data-square=\"{at}\" data-held=\"{held}\">{drawing}</g>");
    out.push_str("</g>");
    out
}

/// The arrows: a shaft and a head, shortened so that they do not hide the squares' contents.
fn arrows(rules: &Rules, list: &[Arrow], flipped: bool) -> String {
    let mut out = String::from("<g class=\"arrows\">");
    for arrow in list.iter().filter(|a| a.from != a.to) {
        let (x1, y1) = centre(rules, arrow.from, flipped);
        let (x2, y2) = centre(rules, arrow.to, flipped);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / length, dy / length);
        let head = SQUARE * 0.32;
        let (sx, sy) = (x1 + ux * SQUARE * 0.18, y1 + uy * SQUARE * 0.18);
        let (tx, ty) = (x2 - ux * SQUARE * 0.12, y2 - uy * SQUARE * 0.12);
        let (bx, by) = (tx - ux * head, ty - uy * head);
        let half = head * 0.55;
        let colour = match arrow.kind {
            ArrowKind::Move => MOVE_ARROW,
            ArrowKind::Kick => KICK_ARROW,
        };
        let _ = write!(
            out,
            "<g data-from=\"{}\" data-to=\"{}\" opacity=\"0.82\">\
             <line x1=\"{sx:.1}\" y1=\"{sy:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{colour}\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/>\
             <polygon points=\"{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/></g>",
            arrow.from,
            arrow.to,
            SQUARE * 0.11,
            bx - uy * half,
            by + ux * half,
            bx + uy * half,
            by - ux * half,
        );
    }
    out.push_str("</g>");
    out
}

/// The arrows of a turn played from `before` (the piece's move, then each flight of the ball)
/// and the squares it touched.
#[must_use]
pub fn turn_path(before: &Position<'_>, turn: &Turn) -> (Vec<Arrow>, Vec<Square>) {
    let mut arrows = Vec::new();
    let mut touched = Vec::new();
    let mut mid = Mid::start(before);
    for &action in &turn.actions {
        match action {
            // A piece placed from the hand has no path: its square is marked.
            Action::Move(m) if m.kind == MoveKind::Drop => touched.push(m.to),
            Action::Move(m) => {
                let kind =
                    if m.kind == MoveKind::InPlace { ArrowKind::Kick } else { ArrowKind::Move };
                arrows.push(Arrow { from: m.from, to: m.to, kind });
                touched.extend([m.from, m.to]);
            }
            Action::Kick(k) => {
                let Some(from) = mid.position().ball() else { continue };
                arrows.push(Arrow { from, to: k.to, kind: ArrowKind::Kick });
                touched.extend([k.kicker, from, k.to]);
            }
        }
        mid = mid.apply(action);
    }
    touched.sort();
    touched.dedup();
    (arrows, touched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::turn_text::names::resolve;

    #[test]
    fn a_turns_path_follows_the_ball_from_kick_to_kick() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::from_fen(&rules, "9/9/3R5/9/3a5/3R5/9/9/9 w 0").unwrap();
        let turn = resolve(&pos, "Rc7>d7>f7").unwrap();
        let (arrows, touched) = turn_path(&pos, &turn);
        let named: Vec<String> = arrows
            .iter()
            .map(|a| {
                format!("{}{}{}", a.from, if a.kind == ArrowKind::Move { '-' } else { '>' }, a.to)
            })
            .collect();
        assert_eq!(named, ["d7-c7", "d5>d7", "d7>f7"]);
        let touched: Vec<String> = touched.iter().map(ToString::to_string).collect();
        assert_eq!(touched, ["d4", "d5", "c7", "d7", "f7"]);
    }

    #[test]
    fn a_pieces_diagram_marks_its_moves_and_its_kicks() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let rook = rules.kind_of('R').unwrap();
        let (drawing, reach) = piece_diagram(&rules, rook).unwrap();
        assert_eq!(drawing.matches("class=\"reach-move\"").count(), reach.moves.len());
        assert_eq!(drawing.matches("class=\"reach-kick\"").count(), reach.kicks.len());
        assert!(drawing.contains("<use class=\"piece\" data-square=\"e5\""));
        assert!(!drawing.contains("class=\"ball\""), "no ball in a piece's diagram");
        assert!(!drawing.contains("class=\"zone\""), "Boyer's game has no zones");
        let chessball = load_shipped("chessball-1957").unwrap().rules;
        let drawn = field(&chessball);
        // The two back ranks of five squares: the keepers' goals.
        assert_eq!(drawn.matches("class=\"zone\"").count(), 10);
        assert!(drawn.contains("class=\"ball\""));
    }

    #[test]
    fn every_figure_and_letter_is_in_the_embedded_fonts() {
        let f = fonts();
        for letter in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let figure = figure(letter).unwrap();
            let place = centred(&f.regular, figure, 30.0, 30.0, 48.0).unwrap();
            let (ground, details) = silhouette_and_details(&f.regular, figure, place);
            assert!(!ground.is_empty(), "{letter}");
            // The pawn is a plain silhouette; the others have details cut in them.
            assert_eq!(details.is_empty(), letter == 'P', "{letter}");
        }
        for c in ('A'..='Z').chain('a'..='z').chain('0'..='9') {
            assert!(f.bold.glyph_index(c).is_some() && f.regular.glyph_index(c).is_some(), "{c}");
        }
    }
}
