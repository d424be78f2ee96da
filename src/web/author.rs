//! The requests of the authoring and record pages: the shipped variants, a definition checked as
//! `validate` checks it (with its rules in words and its start position drawn), random games
//! simulated under it, a record opened turn by turn, and any position drawn.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};

use crate::definition::{self, Definition, Diagnostic, JsonDiagnostic, LoadError, Sources};
use crate::game::Ply;
use crate::game::record::{self, BrokenRecord};
use crate::lint::{Simulation, load_text_checked, simulate_with};
use crate::notation::record::{count_parts, parse as parse_record};
use crate::position::Position;
use crate::render::explain::explain;
use crate::render::svg::{Arrow, ArrowKind, turn_path};
use crate::rules::{Rules, VariantInfo};
use crate::square::Square;
use crate::web::clients::{Client, Peer};
use crate::web::guard::{Full, Growing};
use crate::web::queue::Kind;
use crate::web::session::MAX_RECORD;
use crate::web::views::{EndingView, board, side_name};
use crate::web::{ApiError, App, MAX_SIMULATED_GAMES};

/// The name a definition sent as text has in its diagnostics.
const TEXT_NAME: &str = "definition.toml";

/// A shipped variant, for the page's list.
#[derive(Debug, Serialize)]
pub struct VariantView {
    name: &'static str,
    /// Its title, author and description.
    #[serde(flatten)]
    info: VariantInfo,
    random_setup: bool,
    text: &'static str,
}

/// `GET /api/variants`.
pub async fn variants(State(app): State<Arc<App>>) -> Json<Vec<VariantView>> {
    Json(
        app.shipped
            .iter()
            .map(|(name, rules)| VariantView {
                name,
                info: rules.info().clone(),
                random_setup: rules.random_setup().is_some(),
                text: definition::shipped::shipped(name).map_or("", |(_, t)| t),
            })
            .collect(),
    )
}

/// A diagnostic as `validate --format json` gives it, with its rustc-style rendering.
#[derive(Debug, Serialize)]
pub struct DiagnosticView {
    #[serde(flatten)]
    json: JsonDiagnostic,
    /// As `validate` prints it.
    rendered: String,
}

/// The views of the first [`definition::MAX_SHOWN`] of `diagnostics`, as `validate` prints
/// them: a file of a hundred thousand mistakes gets the same short answer as one of two hundred,
/// with [`Tally`] to count the rest.
fn diagnostic_views(sources: &Sources, diagnostics: &[Diagnostic]) -> Vec<DiagnosticView> {
    let shown = &diagnostics[..diagnostics.len().min(definition::MAX_SHOWN)];
    definition::to_json_all(shown, sources)
        .into_iter()
        .zip(shown)
        .map(|(json, d)| DiagnosticView { json, rendered: d.render(sources, false) })
        .collect()
}

/// How many problems a definition has in all, and the line that stands for those not shown.
#[derive(Debug, Serialize)]
pub struct Tally {
    errors: usize,
    warnings: usize,
    /// `... and N more`, when there are more than are shown.
    more: Option<String>,
}

impl Tally {
    fn of(diagnostics: &[Diagnostic]) -> Tally {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let rest = diagnostics.get(definition::MAX_SHOWN..).unwrap_or_default();
        let more = (!rest.is_empty()).then(|| {
            let rest_errors = rest.iter().filter(|d| d.is_error()).count();
            format!(
                "... and {} more ({rest_errors} errors, {} warnings): fix these first, or run \
                 `kickoff validate --format json` for the whole list",
                rest.len(),
                rest.len() - rest_errors
            )
        });
        Tally { errors, warnings: diagnostics.len() - errors, more }
    }
}

/// The answer to a definition with errors.
pub fn invalid(sources: &Sources, diagnostics: &[Diagnostic]) -> ApiError {
    let tally = Tally::of(diagnostics);
    ApiError::Invalid(serde_json::json!({
        "error": format!("the definition has {} error(s)", tally.errors),
        "diagnostics": diagnostic_views(sources, diagnostics),
        "errors": tally.errors,
        "warnings": tally.warnings,
        "more": tally.more,
    }))
}

/// A definition's text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    text: String,
    #[serde(default)]
    flip: bool,
}

/// What a definition is, as the authoring page shows it.
#[derive(Debug, Serialize)]
pub struct CheckAnswer {
    valid: bool,
    diagnostics: Vec<DiagnosticView>,
    #[serde(flatten)]
    tally: Tally,
    title: Option<String>,
    explain: Option<String>,
    svg: Option<String>,
}

/// `POST /api/definitions/check`: the diagnostics of `validate`, the rules in words and the
/// start position (work for the queue).
pub async fn check(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<CheckRequest>,
) -> Result<Json<CheckAnswer>, ApiError> {
    app.queue
        .run(peer.client, Kind::Request, move || {
            let answer = match load_text_checked(TEXT_NAME, &request.text) {
                Ok(def) => {
                    // The definition's warnings include the lint's already.
                    let start = Position::start(&def.rules);
                    CheckAnswer {
                        valid: true,
                        diagnostics: diagnostic_views(&def.sources, &def.warnings),
                        tally: Tally::of(&def.warnings),
                        title: Some(def.rules.info().name.clone()),
                        explain: Some(explain(&def.rules)),
                        svg: Some(board(&start, request.flip, &[], &[])),
                    }
                }
                Err(LoadError::Invalid { sources, diagnostics }) => CheckAnswer {
                    valid: false,
                    diagnostics: diagnostic_views(&sources, &diagnostics),
                    tally: Tally::of(&diagnostics),
                    title: None,
                    explain: None,
                    svg: None,
                },
                Err(e) => return Err(ApiError::BadRequest(e.to_string())),
            };
            Ok(Json(answer))
        })
        .await
}

/// Random games to play under a definition.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulateRequest {
    text: String,
    games: usize,
    #[serde(default = "one")]
    seed: u64,
}

fn one() -> u64 {
    1
}

/// What the random games showed.
#[derive(Debug, Serialize)]
pub struct SimulateAnswer {
    /// The games asked for.
    games: usize,
    /// The games played: fewer when the time ran out.
    played: usize,
    /// Why fewer were played, if they were.
    stopped: Option<String>,
    diagnostics: Vec<DiagnosticView>,
}

/// Sets its flag when dropped: a request whose client has gone stops its work.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// `POST /api/definitions/simulate`: the warnings of `validate --simulate N` (work for the
/// queue), within the simulation time: then about the games played so far. A simulation whose
/// client has gone stops.
pub async fn simulate(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<SimulateRequest>,
) -> Result<Json<SimulateAnswer>, ApiError> {
    if !(1..=MAX_SIMULATED_GAMES).contains(&request.games) {
        return Err(ApiError::BadRequest(format!("simulate 1 to {MAX_SIMULATED_GAMES} games")));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_when_gone = CancelOnDrop(cancel.clone());
    let time = app.limits.simulation_time;
    app.queue
        .run(peer.client, Kind::Request, move || {
            let def = load_or_invalid(&request.text)?;
            let simulation = Simulation {
                games: request.games,
                seed: request.seed,
                deadline: Some(Instant::now() + time),
                cancel: Some(&cancel),
                progress: None,
            };
            let mut simulated = simulate_with(&def, TEXT_NAME, &simulation);
            simulated.diagnostics.sort_by_key(|d| (d.at.file, d.at.span.start));
            let stopped = simulated.stopped.then(|| {
                format!(
                    "the server plays random games for {} s: {} of the {} asked for were played \
                     (`kickoff validate --simulate` plays them all)",
                    time.as_secs(),
                    simulated.played,
                    request.games
                )
            });
            Ok(Json(SimulateAnswer {
                games: request.games,
                played: simulated.played,
                stopped,
                diagnostics: diagnostic_views(&def.sources, &simulated.diagnostics),
            }))
        })
        .await
}

fn load_or_invalid(text: &str) -> Result<Definition, ApiError> {
    definition::load_text(TEXT_NAME, text).map_err(|e| match e {
        LoadError::Invalid { sources, diagnostics } => invalid(&sources, &diagnostics),
        other => ApiError::BadRequest(other.to_string()),
    })
}

/// The rules of the definition a request names: a shipped variant, or its text.
fn named_definition(
    app: &App,
    variant: Option<&str>,
    text: Option<&str>,
) -> Result<Arc<Rules>, ApiError> {
    match (text, variant) {
        (Some(text), _) => load_or_invalid(text).map(|def| Arc::new(def.rules)),
        (None, Some(name)) => app.shipped(name).cloned().ok_or_else(|| {
            ApiError::BadRequest(format!(
                "`{name}` is not a shipped variant: give the record's definition too"
            ))
        }),
        (None, None) => Err(ApiError::BadRequest("name a variant or give a definition".to_owned())),
    }
}

/// An arrow as the page sends it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrowView {
    from: String,
    to: String,
    /// `move` or `kick`.
    kind: String,
}

fn arrow_view(a: &Arrow) -> ArrowView {
    let kind = match a.kind {
        ArrowKind::Move => "move",
        ArrowKind::Kick => "kick",
    };
    ArrowView { from: a.from.to_string(), to: a.to.to_string(), kind: kind.to_owned() }
}

/// The square of the board named `name`.
fn square_named(rules: &Rules, name: &str) -> Result<Square, ApiError> {
    rules
        .board()
        .squares()
        .find(|s| s.to_string() == name)
        .ok_or_else(|| ApiError::BadRequest(format!("`{name}` is not a square of this board")))
}

/// A position to draw.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderRequest {
    variant: Option<String>,
    definition: Option<String>,
    fen: Option<String>,
    #[serde(default)]
    arrows: Vec<ArrowView>,
    #[serde(default)]
    marked: Vec<String>,
    #[serde(default)]
    flip: bool,
}

/// A drawing.
#[derive(Debug, Serialize)]
pub struct RenderAnswer {
    svg: String,
}

/// `POST /api/render`: a position drawn, with arrows and marked squares (on the work queue when
/// it comes with a definition to read).
pub async fn render(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<RenderRequest>,
) -> Result<Json<RenderAnswer>, ApiError> {
    let shared = app.clone();
    let with_definition = request.definition.is_some();
    let draw = move || {
        let rules =
            named_definition(&shared, request.variant.as_deref(), request.definition.as_deref())?;
        let rules = &*rules;
        let pos = match &request.fen {
            Some(fen) if fen.len() <= 1000 => Position::from_fen(rules, fen)
                .map_err(|e| ApiError::BadRequest(format!("bad position: {e}")))?,
            Some(_) => {
                return Err(ApiError::BadRequest("a position is at most 1000 bytes".to_owned()));
            }
            None => Position::start(rules),
        };
        if request.arrows.len() > 64 || request.marked.len() > 400 {
            return Err(ApiError::BadRequest("too many arrows or marks".to_owned()));
        }
        let mut arrows = Vec::new();
        for a in &request.arrows {
            let kind = if a.kind == "move" { ArrowKind::Move } else { ArrowKind::Kick };
            arrows.push(Arrow {
                from: square_named(rules, &a.from)?,
                to: square_named(rules, &a.to)?,
                kind,
            });
        }
        let marked =
            request.marked.iter().map(|m| square_named(rules, m)).collect::<Result<Vec<_>, _>>()?;
        Ok(Json(RenderAnswer { svg: board(&pos, request.flip, &arrows, &marked) }))
    };
    if with_definition {
        app.queue.run(peer.client, Kind::Request, draw).await
    } else {
        app.quick(peer.client, draw).await
    }
}

/// A record to open.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenRequest {
    record: String,
    /// The definition, when the record's variant is not a shipped one.
    definition: Option<String>,
}

/// One turn of an opened record, with the position after it and its path.
#[derive(Debug, Serialize)]
pub struct PlyView {
    label: String,
    name: String,
    side: &'static str,
    fen: String,
    arrows: Vec<ArrowView>,
    marked: Vec<String>,
    comments: Vec<String>,
}

impl PlyView {
    /// The view of `ply`, played from `before` to `after`.
    fn of(before: &Position<'_>, after: &Position<'_>, ply: &Ply) -> PlyView {
        let (arrows, marked) = turn_path(before, &ply.turn);
        PlyView {
            label: crate::game::move_label(before),
            name: ply.name.clone(),
            side: side_name(before.side()),
            fen: after.fen(),
            arrows: arrows.iter().map(arrow_view).collect(),
            marked: marked.iter().map(ToString::to_string).collect(),
            comments: ply.comments.clone(),
        }
    }
}

/// Why a record opened was not read to its end, though it could be.
enum Stop {
    /// The record time ran out.
    Time,
    /// The answer is full: its cap, or the memory budget.
    Full(Full),
}

/// `POST /api/records/open`: a record's turns, each with its position, checked as `replay`
/// checks them (work for the queue). A record of more turns, tags or comments than the viewer
/// shows is refused before it is parsed. The turns are replayed for the record time at most,
/// into an answer of the record answer's bytes at most, built against the memory budget: the
/// turns read by then are shown, with why the rest are not; when the budget is spent the
/// request is refused (503) at once.
///
/// The answer is a JSON object: `plies` (each turn's label, name, side, the position after it,
/// its path as arrows and marked squares, its comments), `variant`, `title`, `tags`, `start`
/// (the start position), `ending` (none unless the record was read to its end) and `error`
/// (why it was not: a turn that breaks, or the server's bounds).
pub async fn open_record(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<OpenRequest>,
) -> Result<Response, ApiError> {
    if request.record.len() as u64 > MAX_RECORD {
        return Err(ApiError::BadRequest(format!("records are at most {MAX_RECORD} bytes")));
    }
    let most = app.limits.viewed_turns;
    let parts = count_parts(&request.record);
    if parts.turns > most || parts.tags + parts.comments > most {
        return Err(ApiError::BadRequest(format!(
            "the board opens records of at most {most} turns, and as many tags and comments \
             (this one has {} turns, {} tags and {} comments): `kickoff replay` checks longer ones",
            parts.turns, parts.tags, parts.comments
        )));
    }
    let shared = app.clone();
    let client = peer.client;
    app.queue.run(client, Kind::Request, move || open(&shared, client, &request)).await
}

/// The answer to `request`, built as [`open_record`] says (on a worker).
fn open(app: &App, client: Client, request: &OpenRequest) -> Result<Response, ApiError> {
    let deadline = Instant::now() + app.limits.record_time;
    let text = request.record.strip_prefix('\u{feff}').unwrap_or(&request.record);
    let parsed = parse_record(text)
        .map_err(|e| ApiError::BadRequest(format!("the record is malformed: {e}")))?;
    let variant = parsed.tag("Variant").unwrap_or("boyer-1951").to_owned();
    let rules = named_definition(app, Some(&variant), request.definition.as_deref())?;
    let spent =
        || ApiError::Busy("the server is sending as much as it can: try again in a moment".into());
    // The turns fill the answer but for room kept for what follows them (its tags, the start,
    // why it was cut), so that the whole answer stays within its bound.
    let rest: usize = parsed.tags.iter().map(|t| 2 * (t.name.len() + t.value.len()) + 8).sum();
    let room = app.limits.record_answer.saturating_sub(rest.saturating_add(4096));
    let mut out = Growing::new(&app.memory, client, room);
    out.write_all(b"{\"plies\":[").map_err(|_| spent())?;
    let (mut shown, turns) = (0usize, parsed.turns.len());
    let mut before: Option<Position<'_>> = None;
    let read = record::read_while(&rules, &variant, &parsed, |game| {
        let (Some(ply), &after) = (game.plies().last(), game.position()) else {
            return ControlFlow::Continue(());
        };
        let from = before.replace(after).unwrap_or(*game.start());
        let mark = out.len();
        let comma: &[u8] = if shown > 0 { b"," } else { b"" };
        let written = out
            .write_all(comma)
            .map_err(serde_json::Error::io)
            .and_then(|()| serde_json::to_writer(&mut out, &PlyView::of(&from, &after, ply)));
        if written.is_err() {
            out.truncate(mark);
            return ControlFlow::Break(Stop::Full(out.full().unwrap_or(Full::Budget)));
        }
        shown += 1;
        if Instant::now() >= deadline && game.plies().len() < turns {
            return ControlFlow::Break(Stop::Time);
        }
        ControlFlow::Continue(())
    });
    let cut = |why: &str| {
        format!(
            "the first {shown} turns are shown: {why} (`kickoff replay` checks the whole record)"
        )
    };
    // A record cut short by the server's bounds has no ending yet.
    let (game, error, cut_short) = match read {
        Ok((game, None)) => (game, None, false),
        Ok((_, Some(Stop::Full(Full::Budget)))) => return Err(spent()),
        Ok((game, Some(Stop::Time))) => {
            let why = format!(
                "the server replays a record for {} s at most",
                app.limits.record_time.as_secs()
            );
            (game, Some(cut(&why)), true)
        }
        Ok((game, Some(Stop::Full(Full::Cap)))) => {
            let most = app.limits.record_answer;
            let most = if most >= 1 << 20 {
                format!("{} MiB", most >> 20)
            } else {
                format!("{most} bytes")
            };
            let why = format!("the board is sent at most {most} of a record's turns and positions");
            (game, Some(cut(&why)), true)
        }
        Err(BrokenRecord { game: Some(game), error }) => (*game, Some(error.to_string()), false),
        Err(BrokenRecord { game: None, error }) => {
            return Err(ApiError::BadRequest(error.to_string()));
        }
    };
    let ending = game
        .ending()
        .filter(|_| !cut_short)
        .map(|e| EndingView { result: e.result().to_string(), reason: e.to_string() });
    // The rest is small but for the tags, which the budget alone bounds.
    out.set_cap(usize::MAX);
    let rest = Rest {
        variant: &variant,
        title: &rules.info().name,
        tags: &game.tags,
        start: game.start().fen(),
        ending,
        error,
    };
    out.write_all(b"],").map_err(|_| spent())?;
    serde_json::to_writer(Fields { out: &mut out, opened: false }, &rest).map_err(|_| spent())?;
    Ok(out.into_response("application/json"))
}

/// What an opened record's answer gives after its turns.
#[derive(Serialize)]
struct Rest<'a> {
    variant: &'a str,
    title: &'a str,
    tags: &'a [(String, String)],
    start: String,
    ending: Option<EndingView>,
    /// Why the record was not read to its end (the turns before are shown).
    error: Option<String>,
}

/// Writes an object's fields after those written before them: all it is given but the first
/// byte, the object's `{`.
struct Fields<'w> {
    out: &'w mut Growing,
    opened: bool,
}

impl Write for Fields<'_> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let skip = usize::from(!self.opened && !data.is_empty());
        self.opened |= skip == 1;
        self.out.write_all(&data[skip..])?;
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
