//! What the page is sent: a game's state, the actions possible next in a turn being entered, and
//! the board drawn by [`crate::render::svg`].

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::movegen::{Action, Mid, MoveKind, Turn, general};
use crate::position::Position;
use crate::render::svg::{Arrow, ArrowKind, Diagram, svg, turn_path};
use crate::side::Side;
use crate::turn_text::names::{name, resolve};
use crate::web::ApiError;
use crate::web::lobby::games::LobbyInfo;
use crate::web::session::{Mode, Session};

/// One action of a turn as the page sees it and sends it back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ActionView {
    /// A piece moves (or, with a carried ball, acts in place).
    Move {
        /// Its White letter.
        piece: char,
        /// Its square.
        from: String,
        /// Where it goes (in place: the other piece's square).
        to: String,
        /// The letter it becomes.
        promotion: Option<char>,
        /// `plain`, `en-passant`, `in-place` or `drop` (a piece of the hand placed on `to`,
        /// which `from` repeats).
        kind: String,
    },
    /// A piece kicks the ball.
    Kick {
        /// The kicker's square.
        kicker: String,
        /// Where the ball goes.
        to: String,
    },
}

impl From<Action> for ActionView {
    fn from(action: Action) -> ActionView {
        match action {
            Action::Move(m) => ActionView::Move {
                piece: m.letter,
                from: m.from.to_string(),
                to: m.to.to_string(),
                promotion: m.promotion,
                kind: match m.kind {
                    MoveKind::Plain => "plain",
                    MoveKind::EnPassant => "en-passant",
                    MoveKind::InPlace => "in-place",
                    MoveKind::Drop => "drop",
                }
                .to_owned(),
            },
            Action::Kick(k) => {
                ActionView::Kick { kicker: k.kicker.to_string(), to: k.to.to_string() }
            }
        }
    }
}

/// An action possible next, with the name of the turn so far with it.
#[derive(Clone, Debug, Serialize)]
pub struct NextView {
    /// The action.
    pub action: ActionView,
    /// The turn so far ending with it, in kickoff's notation.
    pub name: String,
    /// The name of the piece a promotion makes (`queen`), for the page's question.
    pub promotes_to: Option<String>,
    /// The name of the piece a placement puts on the board (`queen`), for the page's question.
    pub places: Option<String>,
}

/// A turn being entered: what may come next, and whether it may end here.
#[derive(Clone, Debug, Serialize)]
pub struct StepView {
    /// The actions possible next.
    pub next: Vec<NextView>,
    /// Whether the turn may end now.
    pub can_stop: bool,
    /// Whether the null turn may be played (before any action).
    pub null_ok: bool,
    /// The turn so far in notation (empty before the first action).
    pub name: String,
    /// What is left of the turn's budgets in words ("1 action point left"), where the rules
    /// set more than Boyer's single move; empty otherwise.
    pub left: String,
}

/// Walks the actions the page sent from `pos`, each checked against the actions possible at
/// its moment.
///
/// # Errors
/// An action that is not possible where it stands.
pub fn walk<'r>(pos: &Position<'r>, asked: &[ActionView]) -> Result<(Mid<'r>, Turn), ApiError> {
    let mut mid = Mid::start(pos);
    let mut turn = Turn::null();
    let mut possible = Vec::new();
    for (i, want) in asked.iter().enumerate() {
        possible.clear();
        mid.actions(&mut possible);
        let found = possible.iter().find(|&&a| ActionView::from(a) == *want).copied();
        let Some(action) = found else {
            return Err(ApiError::BadRequest(format!(
                "action {} of the turn is not possible at that moment",
                i + 1
            )));
        };
        mid = mid.apply(action);
        turn.actions.push(action);
    }
    Ok((mid, turn))
}

/// The step view after `turn` (the actions walked to `mid`) from `pos`.
#[must_use]
pub fn step_view(pos: &Position<'_>, turn: &Turn, mid: &Mid<'_>) -> StepView {
    let mut possible = Vec::new();
    mid.actions(&mut possible);
    let next = possible
        .iter()
        .map(|&a| {
            let mut longer = turn.clone();
            longer.actions.push(a);
            NextView {
                action: a.into(),
                name: name(pos, &longer),
                promotes_to: promotion(pos, a),
                places: placed(pos, a),
            }
        })
        .collect();
    let started = !turn.is_null();
    StepView {
        next,
        can_stop: started && mid.may_stop(!possible.is_empty()),
        null_ok: !started && resolve(pos, "--").is_ok(),
        name: if started { name(pos, turn) } else { String::new() },
        left: if mid.scored().is_some() { String::new() } else { budget_words(mid) },
    }
}

/// What is left of the turn's budgets, in words, where the rules set one beyond Boyer's single
/// move: "1 action point left", "2 moves left, 1 kick left"; the moves and kicks only where
/// they are fewer than the action points. Empty otherwise.
fn budget_words(mid: &Mid<'_>) -> String {
    let turn = mid.position().rules().turn();
    let count = |n: u16, what: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{n} {what}{s} left")
    };
    let below_points = |n: u8| turn.actions == 0 || n < turn.actions;
    let mut out = Vec::new();
    if let Some(points) = mid.points_left() {
        out.push(count(points, "action point"));
    }
    if turn.moves > 1 && below_points(turn.moves) {
        out.push(count(u16::from(mid.moves_left()), "move"));
    }
    if let Some(kicks) = mid.kicks_left().filter(|_| below_points(turn.kicks)) {
        out.push(count(u16::from(kicks), "kick"));
    }
    match mid.moves_owed() {
        0 => {}
        1 => out.push("a piece move still to make".to_owned()),
        n => out.push(format!("{n} piece moves still to make")),
    }
    if let Some(keeper) = mid.keeper_to_release() {
        out.push(format!("the {keeper} must give the ball up"));
    }
    out.join(", ")
}

/// How many states of a side's turns a scoring turn is looked for among, and for how long:
/// beyond either the threat is not known (a few milliseconds for the shipped variants but
/// Soccer Chess, whose two moves a set make the turns far too many).
pub const THREAT_STATES: u64 = 5_000;
/// See [`THREAT_STATES`].
pub const THREAT_TIME: Duration = Duration::from_millis(40);

/// An arrow of a turn drawn over the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArrowView {
    /// Where it starts.
    pub from: String,
    /// Where it points.
    pub to: String,
    /// `move` (a piece's) or `kick` (the ball's flight).
    pub kind: &'static str,
}

/// A turn that scores for the side that would play it: its name and its path on the board.
#[derive(Clone, Debug, Serialize)]
pub struct ScoringTurn {
    /// The turn in kickoff's notation.
    pub name: String,
    /// The piece's moves and the ball's flights.
    pub arrows: Vec<ArrowView>,
    /// The squares the turn touches: where its pieces start and go, where the ball flies.
    pub squares: Vec<String>,
}

/// Whether the side not to move could score with its next turn.
#[derive(Clone, Debug, Serialize)]
pub struct ThreatView {
    /// The side that would score.
    pub side: &'static str,
    /// Whether its turns were all looked at (false: too many to look at cheaply, and `turn`
    /// says nothing).
    pub known: bool,
    /// A turn of the fewest actions that scores, if there is one.
    pub turn: Option<ScoringTurn>,
}

/// The position with the other side to move, as its next turn would find the board if the side
/// to move did nothing: the turn counted, an en-passant square and the last steal (rights of
/// one turn only) dropped. None when the rules refuse that position.
#[must_use]
pub fn other_side_to_move<'r>(pos: &Position<'r>) -> Option<Position<'r>> {
    let mut placement = pos.placement();
    placement.side = !placement.side;
    placement.turns = placement.turns.saturating_add(1);
    placement.en_passant = None;
    placement.steal = None;
    Position::from_placement(pos.rules(), &placement).ok()
}

/// Whether the side to move in `pos` can score a point with its turn: a turn of the fewest
/// actions that does, found within [`THREAT_STATES`] states of its turns (`known` is false
/// when they are more).
#[must_use]
pub fn scoring_turn(pos: &Position<'_>) -> ThreatView {
    let side = pos.side();
    let mut view = ThreatView { side: side_name(side), known: false, turn: None };
    if pos.outcome().is_some() {
        view.known = true;
        return view;
    }
    // The ends of the turns, one action count at a time and each state once: the first that
    // scores tells how few actions a scoring turn takes.
    let deadline = Instant::now() + THREAT_TIME;
    let (mut fewest, mut late) = (None, false);
    let walked = general::each_end(pos, THREAT_STATES, |mid, _, _| {
        if mid.scored() == Some(side) {
            fewest = Some(mid.actions_made());
        }
        late = Instant::now() >= deadline;
        fewest.is_some() || late
    });
    if walked.is_err() || (late && fewest.is_none()) {
        return view;
    }
    let Some(fewest) = fewest else {
        view.known = true;
        return view;
    };
    // Then a turn of that many actions, followed action by action.
    let mut budget = THREAT_STATES;
    let mut actions = Vec::new();
    if !scoring_actions(&Mid::start(pos), side, fewest, &mut budget, deadline, &mut actions) {
        return view;
    }
    let turn = Turn { actions };
    let (arrows, squares) = turn_path(pos, &turn);
    let arrows = arrows
        .iter()
        .map(|a| ArrowView {
            from: a.from.to_string(),
            to: a.to.to_string(),
            kind: match a.kind {
                ArrowKind::Move => "move",
                ArrowKind::Kick => "kick",
            },
        })
        .collect();
    let squares = squares.iter().map(ToString::to_string).collect();
    view.known = true;
    view.turn = Some(ScoringTurn { name: name(pos, &turn), arrows, squares });
    view
}

/// Follows the actions from `mid`, at most `left` of them and `budget` states in all (the clock
/// read every 64), until one scores for `side`; true then, with the actions in `path`.
fn scoring_actions(
    mid: &Mid<'_>,
    side: Side,
    left: usize,
    budget: &mut u64,
    deadline: Instant,
    path: &mut Vec<Action>,
) -> bool {
    if left == 0 || *budget == 0 {
        return false;
    }
    *budget -= 1;
    if budget.is_multiple_of(64) && Instant::now() >= deadline {
        *budget = 0;
        return false;
    }
    let mut actions = Vec::new();
    mid.actions(&mut actions);
    for action in actions {
        let next = mid.apply(action);
        path.push(action);
        if next.scored() == Some(side)
            || scoring_actions(&next, side, left - 1, budget, deadline, path)
        {
            return true;
        }
        path.pop();
    }
    false
}

/// The threat of the side not to move in `pos`: its scoring turn, were it to move now.
#[must_use]
pub fn threat(pos: &Position<'_>) -> Option<ThreatView> {
    other_side_to_move(pos).map(|other| scoring_turn(&other))
}

/// The name of the piece that `action` promotes to, if it promotes.
fn promotion(pos: &Position<'_>, action: Action) -> Option<String> {
    let Action::Move(m) = action else { return None };
    let rules = pos.rules();
    m.promotion.and_then(|letter| rules.kind_of(letter)).map(|kind| rules.piece(kind).name.clone())
}

/// The name of the piece that `action` places from the hand, if it is a placement.
fn placed(pos: &Position<'_>, action: Action) -> Option<String> {
    let Action::Move(m) = action else { return None };
    let rules = pos.rules();
    (m.kind == MoveKind::Drop)
        .then(|| rules.kind_of(m.letter))
        .flatten()
        .map(|kind| rules.piece(kind).name.clone())
}

/// The board as an SVG document.
#[must_use]
pub fn board(
    pos: &Position<'_>,
    flipped: bool,
    arrows: &[Arrow],
    marked: &[crate::square::Square],
) -> String {
    svg(&Diagram { position: pos, flipped, arrows, marked })
}

/// The game's board with its last turn drawn.
#[must_use]
pub fn game_board(game: &Game<'_>, flipped: bool) -> String {
    let plies = game.plies();
    let (arrows, marked) = match plies.last() {
        Some(last) => turn_path(&game.position_at(plies.len() - 1), &last.turn),
        None => (Vec::new(), Vec::new()),
    };
    board(game.position(), flipped, &arrows, &marked)
}

/// One turn of the move list.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// `12.` or `12...`.
    pub label: String,
    /// The turn in notation.
    pub name: String,
    /// `white` or `black`.
    pub side: &'static str,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct EndingView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why, in words.
    pub reason: String,
}

/// Everything the page shows of a game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The variant as records name it.
    pub variant: String,
    /// The variant's own name.
    pub title: String,
    /// `engine`, `hotseat` or `remote`.
    pub mode: &'static str,
    /// Who plays White and Black.
    pub players: [String; 2],
    /// The sides this link plays.
    pub you: Vec<&'static str>,
    /// The side to move.
    pub to_move: &'static str,
    /// The position.
    pub fen: String,
    /// Goals so far, White's first.
    pub score: [u16; 2],
    /// Whether the game is a match of several goals.
    pub keeps_score: bool,
    /// In the arrangement stage: the squares of the pieces still to make their move, White's
    /// first; none once play has begun.
    pub arranging: Option<[Vec<String>; 2]>,
    /// In the placement stage, per side (White's first): the letters of its hand and how many
    /// of them it still places; none once play has begun.
    pub placing: Option<[HandView; 2]>,
    /// The turns played.
    pub moves: Vec<MoveView>,
    /// How it ended, if it has.
    pub ending: Option<EndingView>,
    /// The side offering a draw.
    pub draw_offer: Option<&'static str>,
    /// Whether the engine is choosing its turn.
    pub thinking: bool,
    /// Counts the game's changes.
    pub version: u64,
    /// Whether this link may take back a turn.
    pub can_undo: bool,
    /// The other person's link, for the one who made a game between two browsers.
    pub invite: Option<String>,
    /// The number of the random setup, if any.
    pub setup: Option<String>,
    /// The board.
    pub svg: String,
    /// The turn to enter, when it is this link's turn.
    pub step: Option<StepView>,
    /// When it is this link's turn: whether the other side could score with its next turn, were
    /// it to move now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<ThreatView>,
    /// For a game of the lobby: its players' accounts, clocks, followers, chat and public page.
    pub lobby: Option<LobbyInfo>,
}

/// A side's hand in the placement stage.
#[derive(Clone, Debug, Serialize)]
pub struct HandView {
    /// The White letters of the pieces in hand, in the hand's order.
    pub pieces: String,
    /// How many of them the side still places.
    pub to_place: usize,
}

/// The lowercase name of a side.
#[must_use]
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The view of a session for the holder of `key`.
#[must_use]
pub fn game_view(session: &Session, key: &str, flipped: bool) -> GameView {
    let game = session.game();
    let sides = session.sides_of(key);
    let pos = game.position();
    let ending = game.ending();
    let my_turn = ending.is_none() && !session.thinking() && sides.contains(&pos.side());
    let step = my_turn.then(|| step_view(pos, &Turn::null(), &Mid::start(pos)));
    let threat = if my_turn { threat(pos) } else { None };
    GameView {
        id: session.id.clone(),
        variant: session.variant().to_owned(),
        title: game.rules().info().name.clone(),
        mode: session.mode.name(),
        players: match &session.lobby {
            // A game of the lobby is played by accounts.
            Some(lobby) => [lobby.players.white.1.clone(), lobby.players.black.1.clone()],
            None => [session.players.white.to_string(), session.players.black.to_string()],
        },
        you: sides.iter().map(|&s| side_name(s)).collect(),
        to_move: side_name(pos.side()),
        fen: pos.fen(),
        score: pos.score(),
        keeps_score: game.rules().end().keeps_score(),
        arranging: pos.arranging().then(|| {
            Side::ALL.map(|side| {
                (pos.to_arrange() & pos.pieces(side)).iter().map(|s| s.to_string()).collect()
            })
        }),
        placing: pos.placing().then(|| {
            Side::ALL.map(|side| HandView {
                pieces: pos.hand(side).iter().map(|&k| game.rules().piece(k).letter).collect(),
                to_place: pos.to_place(side),
            })
        }),
        moves: move_list(game),
        ending: ending
            .map(|e| EndingView { result: e.result().to_string(), reason: e.to_string() }),
        draw_offer: session.draw_offer.map(side_name),
        thinking: session.thinking(),
        version: session.version(),
        can_undo: can_undo(session, &sides),
        invite: session.invite_for(key),
        setup: game.setup_number().map(|n| n.to_string()),
        svg: game_board(game, flipped),
        step,
        threat,
        lobby: None,
    }
}

/// The turns of `game` as the move list shows them.
#[must_use]
pub fn move_list(game: &Game<'_>) -> Vec<MoveView> {
    let mut before = *game.start();
    game.plies()
        .iter()
        .map(|ply| {
            let view = MoveView {
                label: crate::game::move_label(&before),
                name: ply.name.clone(),
                side: side_name(before.side()),
            };
            before = crate::movegen::play_unchecked(&before, &ply.turn);
            view
        })
        .collect()
}

/// Whether the holder of a link playing `sides` may take back a turn: against the engine (its
/// own last turn, with the engine's reply), or at a hot seat.
fn can_undo(session: &Session, sides: &[Side]) -> bool {
    let game = session.game();
    let anything = !game.plies().is_empty() || game.ending().is_some();
    match session.mode {
        Mode::Engine => {
            !session.thinking()
                && anything
                && (game.ending().is_some()
                    || (0..game.plies().len()).any(|i| sides.contains(&game.side_at(i))))
        }
        Mode::HotSeat => anything,
        Mode::Remote => false,
    }
}

#[cfg(test)]
mod tests {
    use super::budget_words;
    use crate::movegen::{Action, Mid};
    use crate::position::Position;

    /// What is left of a turn's budgets, as the web board says it: the action points, and the
    /// moves or kicks where they are fewer than the points (or there are none); nothing for
    /// Boyer's single move.
    #[test]
    fn the_budget_left_in_words() {
        let left = |variant: &str, actions: usize| {
            let def = crate::definition::load_shipped(variant).unwrap();
            let pos = Position::start(&def.rules);
            let mut mid = Mid::start(&pos);
            for _ in 0..actions {
                let mut next = Vec::new();
                mid.actions(&mut next);
                // A piece move first, where there is one, so that the moves left go down.
                let pick = next.iter().find(|a| matches!(a, Action::Move(_)));
                mid = mid.apply(*pick.or(next.first()).unwrap());
            }
            budget_words(&mid)
        };
        assert_eq!(left("boyer-1951", 0), "");
        assert_eq!(left("tulaanh-chessfootball", 0), "2 action points left");
        assert_eq!(left("tulaanh-chessfootball", 1), "1 action point left");
        assert_eq!(left("tulaanh-chessfootball", 2), "0 action points left");
        assert_eq!(left("soccer-chess-1998", 0), "5 moves left");
        assert_eq!(left("soccer-chess-1998", 4), "1 move left");
        assert_eq!(left("apo-chessball", 0), "3 kicks left");
        // A turn of xfutebol must move a piece: said until it has.
        assert_eq!(left("xfutebol", 0), "2 action points left, a piece move still to make");
        assert_eq!(left("xfutebol", 1), "1 action point left");
    }

    /// Chess.Football's king that held the ball at the end of its side's last turn must give it
    /// up in this one: the web board says so with the points left.
    #[test]
    fn a_keeper_bound_to_release_is_named() {
        let def = crate::definition::load_shipped("chess-football-2025").unwrap();
        let words = |fen: &str| {
            let pos = Position::from_fen(&def.rules, fen).unwrap();
            budget_words(&Mid::start(&pos))
        };
        let fen = "9/4k4/9/9/9/9/9/9/9/9/4J4/9 w 0 0-0 - - -";
        assert_eq!(words(fen), "5 action points left");
        assert_eq!(
            words(&fen.replace(" - - -", " - - R")),
            "5 action points left, the king must give the ball up"
        );
    }
}
