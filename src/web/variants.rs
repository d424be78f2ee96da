//! A page per variant (`/variants/{key}`): its name, description and credits, its rules in
//! words as `kickoff explain` gives them, diagrams drawn as `kickoff render` draws (the start,
//! the goals and zones, each piece's moves and kicks), and what the solver says of its start.
//!
//! A key is a shipped variant's name or the name of a stored definition (`HASH`, or `HASH.toml`
//! as games' records give it): [`resolve`] reads every key, so that any definition the store
//! keeps by its hash has a page. The solver's facts are expensive: they are computed on the
//! work queue, once per definition's text, and kept in memory; until then the page says they
//! are being computed, and asks again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::analysis::fair::{FOOTBALL_960_FORCED, shipped_line};
use crate::analysis::solve::{SolveLimits, Unknown, Verdict, solve, solve_reply};
use crate::definition::{self, LoadError};
use crate::position::Position;
use crate::render::explain::explain;
use crate::render::places::squares_words;
use crate::render::reach::zoned;
use crate::render::svg::{field, piece_diagram};
use crate::rules::{Rules, VariantInfo};
use crate::setup;
use crate::side::Side;
use crate::square::Square;
use crate::web::clients::{Client, Peer};
use crate::web::lobby::accounts::MaybeAccount;
use crate::web::queue::Kind;
use crate::web::session::lock;
use crate::web::views::{board, side_name};
use crate::web::{ApiError, App};

/// The pages kept drawn, besides the shipped variants' (which are always kept), and their
/// bytes at most.
const PAGES_KEPT: usize = 32;
const PAGES_BYTES: usize = 16 << 20;
/// The definitions whose facts are kept.
const FACTS_KEPT: usize = 1024;
/// A solve of two turns that took less than this is followed by one of three.
const CHEAP: Duration = Duration::from_secs(2);

/// A variant a key names, its rules compiled.
pub struct Named {
    /// The key of its page: the shipped name, or the stored definition's hash.
    pub key: String,
    /// Its shipped name, if it is a shipped variant.
    pub shipped: Option<&'static str>,
    /// Its definition's text.
    pub text: Arc<str>,
    /// The SHA-256 of that text, in hexadecimal: its facts are kept under it.
    pub hash: String,
    /// Its rules.
    pub rules: Arc<Rules>,
}

impl Named {
    /// The key its facts are kept under (see [`Found::facts_key`]).
    fn facts_key(&self) -> String {
        match self.shipped {
            Some(name) => format!("{} {name}", self.hash),
            None => self.hash.clone(),
        }
    }
}

/// The stored definition's name (`HASH.toml`) a key stands for, if it has that form.
fn stored_name(key: &str) -> Option<String> {
    let stem = key.strip_suffix(".toml").unwrap_or(key);
    crate::web::session::well_formed(stem, crate::web::session::ID_LEN)
        .then(|| format!("{stem}.toml"))
}

fn unknown(key: &str) -> ApiError {
    ApiError::NoSuch(format!(
        "no variant is named `{}`: a page's key is a shipped variant's name (`kickoff list`) or \
         the name of a definition the server keeps",
        crate::text::excerpt(key)
    ))
}

/// The variant `key` names: a shipped variant by name, or a definition the server keeps (in
/// its games folder or its database) by its name, `HASH` or `HASH.toml`; a stored definition
/// is read among the light requests and compiled on the work queue, in `client`'s line (unless
/// a game holds its rules compiled already).
///
/// # Errors
/// No such variant (404), the pools refused the work, or the stored text does not compile.
pub async fn resolve(app: &Arc<App>, client: Client, key: &str) -> Result<Named, ApiError> {
    find(app, client, key).await?.compile(app, client).await
}

/// A variant a key names, its text read, its rules compiled if they were already.
pub struct Found {
    /// The key of its page, its shipped name, its text and its text's hash, as [`Named`].
    pub key: String,
    /// Its shipped name, if it is a shipped variant.
    pub shipped: Option<&'static str>,
    /// Its definition's text.
    pub text: Arc<str>,
    /// The SHA-256 of that text, in hexadecimal.
    pub hash: String,
    /// Its rules, when they need no compiling.
    pub rules: Option<Arc<Rules>>,
    /// The name its games' records give it.
    name: String,
}

/// The variant `key` names, as [`resolve`] finds it, without compiling it.
///
/// # Errors
/// No such variant (404), the light pool refused the work, or the store could not be read.
pub async fn find(app: &Arc<App>, client: Client, key: &str) -> Result<Found, ApiError> {
    if let Some((name, rules)) = app.shipped.iter().find(|(n, _)| *n == key) {
        let text = definition::shipped::shipped(name).map_or("", |(_, t)| t);
        return Ok(Found {
            key: (*name).to_owned(),
            shipped: Some(name),
            text: text.into(),
            hash: content_hash(text),
            rules: Some(rules.clone()),
            name: (*name).to_owned(),
        });
    }
    let name = stored_name(key).ok_or_else(|| unknown(key))?;
    let shared = app.clone();
    let looked = name.clone();
    let text = app
        .quick(client, move || {
            shared
                .store
                .stored_definition(&looked)
                .map_err(|e| ApiError::Internal(format!("the definition could not be read: {e}")))
        })
        .await?
        .ok_or_else(|| unknown(key))?;
    let text: Arc<str> = text.into();
    Ok(Found {
        key: name.trim_end_matches(".toml").to_owned(),
        shipped: None,
        hash: content_hash(&text),
        text,
        rules: app.store.compiled_definition(&name),
        name,
    })
}

impl Found {
    /// The key its facts are kept under: its text's hash, and its shipped name (the shipped
    /// football-960's survey is its own, not that of a copy of its text).
    fn facts_key(&self) -> String {
        match self.shipped {
            Some(name) => format!("{} {name}", self.hash),
            None => self.hash.clone(),
        }
    }

    /// Its rules compiled, on the work queue in `client`'s line when they must be, shared with
    /// the games of the same definition.
    ///
    /// # Errors
    /// The queue refused the work, or the text does not compile within the board's bounds.
    pub async fn compile(self, app: &Arc<App>, client: Client) -> Result<Named, ApiError> {
        let Found { key, shipped, text, hash, rules, name } = self;
        if let Some(rules) = rules {
            return Ok(Named { key, shipped, text, hash, rules });
        }
        let most = app.limits.definition_memory;
        let (source, shared) = (text.clone(), app.clone());
        let rules = app
            .queue
            .run(client, Kind::Request, move || {
                let def = definition::load_text(&name, &source).map_err(|e| match e {
                    LoadError::Invalid { sources, diagnostics } => {
                        crate::web::author::invalid(&sources, &diagnostics)
                    }
                    other => ApiError::BadRequest(other.to_string()),
                })?;
                if def.rules.memory() > most {
                    return Err(ApiError::BadRequest(
                        "the definition's rules take more memory than the board gives one"
                            .to_owned(),
                    ));
                }
                Ok(shared.store.share(&name, Arc::new(def.rules)))
            })
            .await?;
        Ok(Named { key, shipped, text, hash, rules })
    }
}

/// The SHA-256 of a definition's text, in hexadecimal.
fn content_hash(text: &str) -> String {
    crate::text::hex(&Sha256::digest(text.as_bytes()))
}

/// A variant's page, as `GET /api/variants/{key}/page` gives it.
#[derive(Debug, Serialize)]
struct PageView<'a> {
    #[serde(flatten)]
    drawn: &'a Drawn,
    facts: FactsView,
}

fn text_of<S: serde::Serializer>(text: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(text)
}

/// What a page shows of its definition: all but the facts, drawn once per text.
#[derive(Debug, Serialize)]
pub struct Drawn {
    key: String,
    shipped: Option<&'static str>,
    /// Its title, author and description.
    #[serde(flatten)]
    info: VariantInfo,
    random_setup: bool,
    /// The rules in words, as `kickoff explain` gives them.
    explain: String,
    /// The definition's text.
    #[serde(serialize_with = "text_of")]
    text: Arc<str>,
    /// The start position.
    start: String,
    /// The goals and the zones.
    field: FieldView,
    /// Each kind of piece: its moves and kicks from one square.
    pieces: Vec<PieceView>,
}

/// The empty board: each side's goals, the squares of the zones shaded.
#[derive(Debug, Serialize)]
struct FieldView {
    svg: String,
    /// Each side's goal squares, in words.
    goals: Vec<GoalsView>,
    /// The squares shaded, in words (none when the variant has no zones).
    zoned: Option<String>,
    /// The squares each piece with a zone is kept to, in White's frame.
    zones: Vec<ZoneView>,
    /// The squares the ball may not stop on, in words.
    forbidden: Option<String>,
}

#[derive(Debug, Serialize)]
struct GoalsView {
    side: &'static str,
    squares: String,
}

#[derive(Debug, Serialize)]
struct ZoneView {
    piece: String,
    squares: String,
}

/// One kind of piece drawn from one square.
#[derive(Debug, Serialize)]
struct PieceView {
    letter: char,
    name: String,
    /// The square it stands on.
    from: String,
    moves: Vec<String>,
    captures: Vec<String>,
    kicks: Vec<String>,
    svg: String,
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

/// Draws what the page of `named` shows but its facts.
fn draw(named: &Named) -> Drawn {
    let rules = &*named.rules;
    let start = Position::start(rules);
    let b = rules.board();
    let zoned = zoned(rules);
    let field = FieldView {
        svg: field(rules),
        goals: Side::ALL
            .into_iter()
            .map(|side| GoalsView {
                side: side_name(side),
                squares: squares_words(rules.goals(side).iter().copied().collect(), b),
            })
            .collect(),
        zoned: (!zoned.is_empty()).then(|| squares_words(zoned, b)),
        zones: rules
            .pieces()
            .iter()
            .filter_map(|p| {
                p.zone.map(|z| ZoneView { piece: p.name.clone(), squares: squares_words(z, b) })
            })
            .collect(),
        forbidden: (!rules.ball().forbidden.is_empty())
            .then(|| squares_words(rules.ball().forbidden, b)),
    };
    let pieces = rules
        .kinds()
        .filter_map(|kind| {
            let piece = rules.piece(kind);
            let (svg, reach) = piece_diagram(rules, kind)?;
            Some(PieceView {
                letter: piece.letter,
                name: piece.name.clone(),
                from: reach.from.to_string(),
                moves: names(&reach.moves),
                captures: names(&reach.captures),
                kicks: names(&reach.kicks),
                svg,
            })
        })
        .collect();
    Drawn {
        key: named.key.clone(),
        shipped: named.shipped,
        info: rules.info().clone(),
        random_setup: rules.random_setup().is_some(),
        explain: explain(rules),
        text: named.text.clone(),
        start: board(&start, false, &[], &[]),
        field,
        pieces,
    }
}

/// What the solver says of a variant's start, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct FactsView {
    /// `computing` until they are known, then `settled` (which may still say that the budget
    /// did not settle a question).
    status: &'static str,
    /// The facts in words.
    lines: Vec<String>,
    /// Forced goals within two turns of each side, and within three when two were cheap.
    forced: Vec<ForcedView>,
    /// For a variant of random setups: how many there are, and how many have a forced goal.
    setups: Option<SetupsView>,
}

/// Forced goals from the start within `turns` of each side's own turns.
#[derive(Clone, Debug, Serialize)]
struct ForcedView {
    turns: u32,
    /// The side to move at the start.
    first: &'static str,
    /// The fewest turns in which the side to move forces a goal, if it does.
    first_wins_in: Option<u32>,
    /// The fewest turns in which the other side forces a goal whatever the first does, if it
    /// does (not asked when the first side's goal comes first and ends the game).
    second_wins_in: Option<u32>,
    /// Whether a question was left unsettled.
    unknown: bool,
    /// Why: the budget ran out, or a position had too many turns to list.
    why: Option<String>,
    /// Whether it was the budget.
    #[serde(skip)]
    out_of_budget: bool,
    /// How long the solver took, in milliseconds.
    ms: u64,
}

/// The random setups of a variant.
#[derive(Clone, Debug, Serialize)]
struct SetupsView {
    count: u128,
    /// How many have a forced goal for either side within two turns, and within three; none
    /// where the server has no survey of them (`kickoff analyze` makes one).
    forced_within_2: Option<usize>,
    forced_within_3: Option<usize>,
}

impl FactsView {
    fn computing() -> FactsView {
        FactsView {
            status: "computing",
            lines: vec![
                "What the solver says of the start is being computed: this page asks again in \
                 a moment."
                    .to_owned(),
            ],
            forced: Vec::new(),
            setups: None,
        }
    }
}

/// The facts kept, and the pages drawn, by definition.
#[derive(Default)]
pub struct Facts {
    state: Mutex<FactsState>,
}

#[derive(Default)]
struct FactsState {
    /// By content hash (and shipped name): the facts, or `None` while they are being
    /// computed.
    facts: HashMap<String, Option<FactsView>>,
    /// By the key of their page.
    pages: HashMap<String, Arc<Drawn>>,
    /// The pages of definitions that are not shipped, and their bytes.
    stored: usize,
    stored_bytes: usize,
}

impl Facts {
    /// The facts of `hash` if known; otherwise, whether the caller should start computing them
    /// (they are not being computed already), marked as being computed.
    fn get_or_claim(&self, hash: &str) -> Result<FactsView, bool> {
        let mut state = lock(&self.state);
        match state.facts.get(hash) {
            Some(Some(facts)) => Ok(facts.clone()),
            Some(None) => Err(false),
            None => {
                if state.facts.len() >= FACTS_KEPT {
                    // Forget a settled answer to make room; one being computed stays.
                    let old = state.facts.iter().find(|(_, v)| v.is_some()).map(|(k, _)| k.clone());
                    match old {
                        Some(old) => {
                            state.facts.remove(&old);
                        }
                        None => return Err(false),
                    }
                }
                state.facts.insert(hash.to_owned(), None);
                Err(true)
            }
        }
    }

    /// The facts of `hash`: `Some(None)` while they are being computed, `None` when nobody
    /// asked for them yet (or they were let go).
    fn peek(&self, hash: &str) -> Option<Option<FactsView>> {
        lock(&self.state).facts.get(hash).cloned()
    }

    fn settle(&self, hash: &str, facts: Option<FactsView>) {
        let mut state = lock(&self.state);
        match facts {
            Some(facts) => {
                state.facts.insert(hash.to_owned(), Some(facts));
            }
            // Not computed (the queue was full): asked again by the next request.
            None => {
                state.facts.remove(hash);
            }
        }
    }

    fn page(&self, key: &str) -> Option<Arc<Drawn>> {
        lock(&self.state).pages.get(key).cloned()
    }

    fn keep_page(&self, key: &str, drawn: Arc<Drawn>) {
        let mut state = lock(&self.state);
        if drawn.shipped.is_none() {
            let bytes = drawn.bytes();
            if bytes > PAGES_BYTES {
                return;
            }
            // The pages of kept definitions are let go, any first, to make room.
            while state.stored_bytes + bytes > PAGES_BYTES || state.stored >= PAGES_KEPT {
                let old = state
                    .pages
                    .iter()
                    .find(|(_, p)| p.shipped.is_none())
                    .map(|(k, p)| (k.clone(), p.bytes()));
                let Some((old, size)) = old else { break };
                state.pages.remove(&old);
                state.stored -= 1;
                state.stored_bytes -= size;
            }
            state.stored += 1;
            state.stored_bytes += bytes;
        }
        if let Some(old) = state.pages.insert(key.to_owned(), drawn)
            && old.shipped.is_none()
        {
            state.stored -= 1;
            state.stored_bytes -= old.bytes();
        }
    }
}

impl Drawn {
    /// About the bytes it holds: its text and its drawings.
    fn bytes(&self) -> usize {
        self.text.len()
            + self.explain.len()
            + self.start.len()
            + self.field.svg.len()
            + self.pieces.iter().map(|p| p.svg.len()).sum::<usize>()
    }
}

/// `GET /api/variants/{key}/page`: what the variant's page shows. The facts are computed on the
/// work queue the first time they are asked for (in the asking client's line), within the
/// server's facts budget; meanwhile the answer says they are being computed.
pub async fn page(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(viewer): MaybeAccount,
    Path(key): Path<String>,
) -> Result<Response, ApiError> {
    let client = peer.client;
    let found = find(&app, client, &key).await?;
    // A published version that only its owner (or an administrator) may see has no page for
    // anyone else, as if it did not exist; a definition no account published (a game's) has one.
    if found.shipped.is_none() {
        let (shared, name) = (app.clone(), found.name.clone());
        let seen = app
            .quick(client, move || {
                let holders = shared.store.db().holders(&name)?;
                Ok(holders.is_empty()
                    || holders.iter().any(|v| crate::web::published::may_see(v, viewer.as_ref())))
            })
            .await?;
        if !seen {
            return Err(unknown(&key));
        }
    }
    // A page drawn whose facts are known or under way needs no rules: a kept definition is
    // not compiled again at each visit, nor while its page asks for its facts.
    if let (Some(drawn), Some(facts)) =
        (app.facts.page(&found.key), app.facts.peek(&found.facts_key()))
    {
        return page_answer(&drawn, facts.unwrap_or_else(FactsView::computing));
    }
    let named = found.compile(&app, client).await?;
    let drawn = match app.facts.page(&named.key) {
        Some(drawn) => drawn,
        None => {
            let rules = named.rules.clone();
            let (key, shipped, text, hash) =
                (named.key.clone(), named.shipped, named.text.clone(), named.hash.clone());
            let draw_it = move || {
                let named = Named { key, shipped, text, hash, rules };
                Ok(Arc::new(draw(&named)))
            };
            let drawn = if named.shipped.is_some() {
                app.quick(client, draw_it).await?
            } else {
                app.queue.run(client, Kind::Request, draw_it).await?
            };
            app.facts.keep_page(&named.key, drawn.clone());
            drawn
        }
    };
    let facts = match app.facts.get_or_claim(&named.facts_key()) {
        Ok(facts) => facts,
        Err(start) => {
            if start {
                compute_later(&app, client, &named);
            }
            FactsView::computing()
        }
    };
    page_answer(&drawn, facts)
}

fn page_answer(drawn: &Drawn, facts: FactsView) -> Result<Response, ApiError> {
    let body = serde_json::to_vec(&PageView { drawn, facts })
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Computes the facts of `named` on the work queue, in `client`'s line, and keeps them.
fn compute_later(app: &Arc<App>, client: Client, named: &Named) {
    let (rules, shipped, hash) = (named.rules.clone(), named.shipped, named.facts_key());
    let (budget, nodes) = (app.limits.facts_time, app.limits.facts_nodes);
    let shared = app.clone();
    tokio::spawn(async move {
        let job = move || Ok(facts(&rules, shipped, budget, nodes));
        let facts = shared.queue.run(client, Kind::Request, job).await.ok();
        shared.facts.settle(&hash, facts);
    });
}

/// What the solver says of the start of `rules` within `budget` and `nodes` positions: forced
/// goals within two turns, and three when two took little time; for a variant of random
/// setups, how many there are, and for shipped football-960 how many have a forced goal (from
/// its shipped survey).
#[must_use]
pub fn facts(rules: &Rules, shipped: Option<&str>, budget: Duration, nodes: u64) -> FactsView {
    let began = Instant::now();
    let deadline = began + budget;
    let start = Position::start(rules);
    let name = shipped.unwrap_or("VARIANT.toml");
    let mut forced = Vec::new();
    let mut lines = Vec::new();
    let two = solve_start(&start, 2, deadline, nodes);
    lines.push(forced_words(&two, name, budget));
    let first_wins_soon = two.first_wins_in.is_some();
    let cheap = !two.unknown && u128::from(two.ms) < CHEAP.as_millis();
    forced.push(two);
    if cheap && !first_wins_soon && Instant::now() < deadline {
        let three = solve_start(&start, 3, deadline, nodes);
        lines.push(forced_words(&three, name, budget));
        forced.push(three);
    }
    let setups = rules.random_setup().map(|random| {
        let count = setup::count(rules, random);
        let (two, three) = if shipped == Some("football-960") {
            let list: Vec<(u128, Option<u32>, Option<u32>)> = FOOTBALL_960_FORCED
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(shipped_line)
                .collect();
            let within = |n: u32| {
                list.iter()
                    .filter(|(_, w, b)| [w, b].iter().any(|t| t.is_some_and(|t| t <= n)))
                    .count()
            };
            (Some(within(2)), Some(within(3)))
        } else {
            (None, None)
        };
        lines.push(match (two, three) {
            (Some(two), Some(three)) => format!(
                "Of its {count} random setups, {two} have a goal that one side forces within two \
                 of its turns, and {three} within three."
            ),
            _ => format!(
                "It has {count} random setups; the server has no survey of their forced goals \
                 (`kickoff analyze {name} --turns 2` makes one)."
            ),
        });
        SetupsView { count, forced_within_2: two, forced_within_3: three }
    });
    FactsView { status: "settled", lines, forced, setups }
}

fn solve_start(start: &Position<'_>, turns: u32, deadline: Instant, nodes: u64) -> ForcedView {
    let began = Instant::now();
    let limits = SolveLimits { max_nodes: Some(nodes), deadline: Some(deadline) };
    // As a survey solves a start: where the first goal ends the game, a goal the side to move
    // forces settles the other side's question.
    let first = solve(start, turns, limits);
    // A position whose turns are too many to list (Soccer Chess's start) would leave the other
    // side's question unsettled too: it is not asked.
    let unlisted = matches!(first.unknown, Some(Unknown::TooManyTurns { .. }))
        && first.verdict == Verdict::Unknown;
    let second = (!unlisted
        && (first.verdict != Verdict::Win || start.rules().end().keeps_score()))
    .then(|| solve_reply(start, turns, limits));
    let unknown = [Some(&first), second.as_ref()]
        .into_iter()
        .flatten()
        .find(|s| s.verdict == Verdict::Unknown)
        .map(|s| s.unknown.clone());
    ForcedView {
        turns,
        first: side_name(start.side()),
        first_wins_in: first.turns,
        second_wins_in: second.and_then(|s| s.turns),
        unknown: unknown.is_some(),
        out_of_budget: matches!(unknown, Some(Some(Unknown::Nodes(_) | Unknown::Time))),
        why: unknown.flatten().map(|why| match why {
            Unknown::TooManyTurns { .. } => why.to_string(),
            Unknown::Nodes(_) | Unknown::Time => "the budget ran out".to_owned(),
        }),
        ms: u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}

fn turns_words(n: u32) -> String {
    if n == 1 { "one turn".to_owned() } else { format!("{n} turns") }
}

fn capitalised(side: &str) -> String {
    let mut chars = side.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A solve's answer in words.
fn forced_words(f: &ForcedView, name: &str, budget: Duration) -> String {
    let first = capitalised(f.first);
    let second = if f.first == "white" { "Black" } else { "White" };
    let within = match f.turns {
        2 => "two",
        3 => "three",
        _ => "so many",
    };
    match (f.first_wins_in, f.second_wins_in) {
        (Some(n), _) => {
            format!("{first}, moving first, forces a goal from the start in {}.", turns_words(n))
        }
        (None, Some(n)) => format!(
            "{second}, moving second, forces a goal in {} of its own, whatever {first} plays.",
            turns_words(n)
        ),
        (None, None) if f.unknown && !f.out_of_budget => format!(
            "Whether a side forces a goal from the start within {within} of its turns is not \
             settled: {}.",
            f.why.as_deref().unwrap_or("the solver could not tell")
        ),
        (None, None) if f.unknown => format!(
            "Whether a side forces a goal from the start within {within} of its turns is not \
             settled within the budget ({} s, or so many positions): `kickoff solve {name} \
             --turns {}` settles it without one.",
            budget.as_secs(),
            f.turns
        ),
        (None, None) => {
            format!("Neither side forces a goal from the start within {within} of its own turns.")
        }
    }
}
