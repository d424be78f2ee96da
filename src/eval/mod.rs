//! The evaluation: how good a position is for the side to move, in points (a goal is worth
//! [`WIN`](crate::search::WIN)). It is built for football: the ball's distance to each goal, who can
//! kick next and how far, pieces near the ball, defenders in front of each goal.

use crate::position::Position;
use crate::rules::Reach;
use crate::rules::Rules;
use crate::rules::cell::{EMPTY, code_kind};
use crate::rules::tables::{Tables, piece_key, step_slot};
use crate::side::{BySide, Side};
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// Points per distance unit the ball is nearer the goal it attacks than the goal it defends.
const BALL: i32 = 12;
/// Points per distance unit the side to move can bring the ball nearer its target goal now.
const REACH: i32 = 8;
/// Points for each piece within three squares of the ball, per square nearer, per side.
const CLOSE: i32 = 3;
/// In a game without a ball: per king step nearer its goal squares of a side's nearest piece.
const RACE: i32 = 40;
/// Points for each piece next to the ball that has a kick from there, per side.
const ADJACENT: i32 = 25;
/// Points for each piece two squares from the ball (one move from kicking), or next to it
/// without a kick (every way it could send the ball is blocked), per side.
const NEAR: i32 = 8;
/// Points for each defender (up to three) next to its own goal.
const DEFENDER: i32 = 20;
/// Points per square the side to move can leave the ball on this turn (up to [`MOBILE`]).
const MOBILITY: i32 = 2;
/// The most ball squares that count for mobility.
const MOBILE: i32 = 30;
/// Points for having the move.
const TEMPO: i32 = 15;
/// Points per goal of a match more than the opponent has.
pub const POINT: i32 = 3_000;

/// Points for holding a carried ball.
const POSSESSION: i32 = 120;
/// Points per distance unit a carried ball's holder is nearer the goal it attacks, on top of
/// [`BALL`] (the holder runs with it; the opponent must win it back first).
const CARRY: i32 = 12;

/// Distance units per kick still needed (a king step is one unit).
const KICK_UNITS: i32 = 4;
/// The kick distance given to squares from which no goal can be reached.
const FAR: i32 = 6;

/// The squares `side` aims the ball at: its goal squares, or, where pieces are the goals
/// (`target`) and there are none, every square where an enemy goal piece may stand.
fn aims(rules: &Rules, side: Side) -> Vec<Square> {
    let goals = rules.goals(side);
    if !goals.is_empty() {
        return goals.to_vec();
    }
    let t = rules.tables();
    let mut squares = SquareSet::EMPTY;
    for (kind, piece) in rules.pieces().iter().enumerate() {
        if piece.target {
            squares |= t.stand[t.piece_key(!side, kind)];
        }
    }
    squares.iter().collect()
}

/// Per square: the fewest kicks that bring the ball from there onto one of `targets` (the
/// squares `side` aims at: [`aims`]), on an empty board, by any of the side's pieces' kicks
/// (the no-horizontal-goal rule observed; where the kicker stands and the kick-direction rule
/// ignored).
fn kick_distances(rules: &Rules, side: Side, targets: &[Square]) -> Vec<i32> {
    let board = rules.board();
    let no_slide = rules.kick().no_slide();
    let carried = rules.carried_ball();
    let other_goals: Vec<Square> = rules.goals(!side).to_vec();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); SQUARES];
    for from in board.squares() {
        for piece in rules.pieces() {
            // A carried ball travels with its holder: by the holder's moves.
            let legs = if carried { &piece.moves } else { &piece.kicks };
            for leg in legs {
                let (x, y) = leg.step;
                let y = if side == Side::White { y } else { -y };
                let reach = match leg.reach {
                    Reach::Steps(n) => u32::from(n),
                    Reach::Unlimited => 32,
                };
                let mut at = from;
                for _ in 0..reach {
                    let Some(next) =
                        at.offset(i32::from(x), i32::from(y), board.files, board.ranks)
                    else {
                        break;
                    };
                    at = next;
                    let along_goal_rank = no_slide && rules.tables().along_goal_rank(from, next);
                    if along_goal_rank || other_goals.contains(&next) {
                        break;
                    }
                    edges[from.index()].push(next.index());
                }
            }
        }
    }
    let mut dist = vec![FAR; SQUARES];
    for g in targets {
        dist[g.index()] = 0;
    }
    loop {
        let mut changed = false;
        for from in board.squares() {
            let best = edges[from.index()].iter().map(|&t| dist[t] + 1).min().unwrap_or(FAR);
            if best < dist[from.index()] {
                dist[from.index()] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

/// The weights of the terms that count only where pieces are captured (see [`Terms`]), in
/// points. They are fitted to self-play games by `kickoff tune` (Texel's method: the weights
/// whose values best predict the games' results, see `balance::tune`); the football terms above
/// keep their values, so that the fitted weights say what a piece, a threat or a free square
/// is worth in the same points as the ball's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CaptureWeights {
    /// Per piece more than the opponent has.
    pub men: i32,
    /// Per unit of worth more than the opponent has: a piece's worth is the number of squares
    /// it reaches from the average square of an empty board.
    pub worth: i32,
    /// Per enemy piece next to a held ball's holder (against the holder's side).
    pub exposed: i32,
    /// Per capture or steal the side to move has (up to [`MAX_THREATS`]), at the horizon.
    pub threats: i32,
    /// Per result of the side to move's turns (up to [`MAX_MOVES`]), at the horizon.
    pub moves: i32,
}

/// The capture weights the engine plays with: fitted by `kickoff tune vchess-ball --games 400`
/// (43,268 positions; from 150 a piece and nothing else, the error fell from 0.1794 to 0.1666),
/// see `docs/engine.md`.
pub const CAPTURE_WEIGHTS: CaptureWeights =
    CaptureWeights { men: -17, worth: 32, exposed: 44, threats: 9, moves: 0 };

/// The most captures that count as threats.
pub const MAX_THREATS: i32 = 4;
/// The most results that count for mobility.
pub const MAX_MOVES: i32 = 64;

/// What the terms of a position add up from, for the side to move: the football value (all
/// the terms of the ball and of the men around it) and the counts the capture weights
/// multiply. [`Eval::static_value`] is `football + ` [`Terms::captures`]`(`[`CAPTURE_WEIGHTS`]`)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// The football terms (and the score), in points.
    pub football: i32,
    /// Pieces more than the opponent has.
    pub men: i32,
    /// Worth more than the opponent has, in tenths of a square.
    pub worth_tenths: i32,
    /// Enemy pieces next to a held ball's holder: negative when the side to move holds it.
    pub exposed: i32,
}

impl Terms {
    /// What the capture weights `w` add for these counts.
    #[must_use]
    pub fn captures(&self, w: &CaptureWeights) -> i32 {
        w.men * self.men + w.worth * self.worth_tenths / 10 + w.exposed * self.exposed
    }
}

/// What a walk of the side to move's turns adds at the horizon where pieces are captured:
/// the captures and steals it has (`threats`) and how many results (`moves`).
#[must_use]
pub fn horizon_captures(w: &CaptureWeights, threats: i32, moves: i32) -> i32 {
    w.threats * threats.min(MAX_THREATS) + w.moves * moves.min(MAX_MOVES)
}

/// Whether `after` (a state reached by a turn of `me` from `before`) took a piece of the other
/// side or took the ball from it: what counts as a threat, and the turns the search looks at
/// past its horizon.
#[must_use]
pub fn takes(before: &Position<'_>, after: &Position<'_>, me: Side) -> bool {
    let holds = |p: &Position<'_>| p.held && p.ball.is_some_and(|b| p.men[me.index()].contains(b));
    after.men[(!me).index()].len() < before.men[(!me).index()].len()
        || (holds(after) && !holds(before))
}

/// Per piece type: the number of squares it reaches (moving or capturing) from the average
/// square of an empty board, in tenths.
fn worths(rules: &Rules) -> Vec<i32> {
    let board = rules.board();
    let squares: Vec<Square> = board.squares().collect();
    let longest = usize::from(board.files.max(board.ranks));
    rules
        .pieces()
        .iter()
        .map(|piece| {
            let total: usize = squares
                .iter()
                .map(|&from| {
                    let mut reached = SquareSet::EMPTY;
                    for leg in piece.moves.iter().filter(|l| !l.initial) {
                        let most = match leg.reach {
                            Reach::Steps(n) => usize::from(n),
                            Reach::Unlimited => longest,
                        };
                        for s in board.ray(from, leg.step, most) {
                            reached.insert(s);
                        }
                    }
                    reached.len()
                })
                .sum();
            i32::try_from(total * 10 / squares.len().max(1)).unwrap_or(i32::MAX)
        })
        .collect()
}

/// What the evaluation precomputes for a rule set.
pub struct Eval {
    /// Per side and square: how far the ball is from scoring for that side, in units: the
    /// kicks still needed (times [`KICK_UNITS`]) plus king steps to the nearest goal.
    attack: BySide<Vec<i32>>,
    /// Per side: the squares next to (or in front of) the goal the side defends.
    guard: BySide<SquareSet>,
    /// Per square: the squares at king distance 2 and 3 from it (those at distance 1 are its
    /// neighbours in the tables), so that how near the men stand to the ball is counted with a
    /// few set intersections.
    rings: Vec<[SquareSet; 2]>,
    /// Whether a side with no legal turn draws (`end.no_moves = "draw"`): then a side left
    /// without pieces draws, however much material the other has.
    no_moves_draws: bool,
    /// Whether pieces can leave the board (captures), so that material counts.
    captures: bool,
    /// Per piece type: its worth in tenths of a square (see [`CaptureWeights::worth`]).
    worth: Vec<i32>,
    /// The weights of the capture terms.
    weights: CaptureWeights,
    /// Per square: its neighbours (the tables' own, kept here to read them without the rules).
    neighbours: Vec<SquareSet>,
    /// Per side and square: the king steps from there to the nearest square where the side
    /// scores (a game without a ball, where pieces race to the goal squares).
    race: BySide<Vec<i32>>,
    /// Per contents code: whether the piece may stand on a square where its side scores
    /// (a game without a ball: the pieces that count in the race).
    scorer: [bool; 64],
    /// The board's longer side: the race distance of a piece a side does not have.
    race_far: i32,
    /// Which pieces next to the ball have a kick; `None` outside Boyer's family of kicks,
    /// where every piece next to the ball counts as a kicker.
    lanes: Option<Lanes>,
}

/// For each piece type of each side, ball square and direction from a kicker next to the ball
/// to the ball: the squares of which one must be empty for that kicker to have a kick. They are
/// the first square a line kick crosses (ahead of the ball, and for backward kicks beyond the
/// kicker) and the landing squares of its leaps. The goal rules (no goal yet, the goal rank)
/// are left out: a kick they forbid still counts.
struct Lanes {
    /// Piece types per side (the tables' `kinds`).
    kinds: usize,
    /// Files and squares (files times ranks) of the board: spans are kept for its squares
    /// alone, not for every square a position can index.
    files: usize,
    cells: usize,
    /// Key `(piece_key * cells + cell(ball)) * 9 + step_slot(kicker, ball)`: a span of
    /// `squares`.
    spans: Vec<(u32, u32)>,
    squares: Vec<Square>,
}

impl Lanes {
    fn new(rules: &Rules) -> Lanes {
        let t: &Tables = rules.tables();
        let kick = rules.kick();
        let backward = kick.both_ways();
        let board = rules.board();
        let files = usize::from(board.files);
        let cells = files * usize::from(board.ranks);
        let spans = vec![(0, 0); 2 * t.kinds * cells * 9];
        let mut lanes = Lanes { kinds: t.kinds, files, cells, spans, squares: Vec::new() };
        for key in 0..2 * t.kinds {
            for b in board.squares() {
                let near_ok =
                    kick.leap_adjacent || (kick.corner_exception && t.corners.contains(b));
                for k in t.neighbours[b.index()].iter() {
                    let d = t.dir_between(k, b);
                    let start = lanes.squares.len() as u32;
                    if t.line_reach[key][d] > 0 {
                        lanes.squares.extend(t.lines.slice(b.index() * 8 + d).first());
                        if backward {
                            lanes.squares.extend(t.lines.slice(b.index() * 8 + (d + 4) % 8).get(1));
                        }
                    }
                    lanes.squares.extend(
                        t.leaps
                            .slice(key * SQUARES + b.index())
                            .iter()
                            .filter(|s| near_ok || s.distance(k) > 1),
                    );
                    let slot = lanes.slot(key, b, k);
                    lanes.spans[slot] = (start, lanes.squares.len() as u32);
                }
            }
        }
        lanes
    }

    /// The index in `spans` of piece type `key` next to the ball on `ball`, on `kicker`.
    #[inline]
    fn slot(&self, key: usize, ball: Square, kicker: Square) -> usize {
        let cell = usize::from(ball.rank()) * self.files + usize::from(ball.file());
        (key * self.cells + cell) * 9 + step_slot(kicker, ball)
    }

    /// How many of `side`'s men in `next` (squares next to the ball on `ball`) have a kick,
    /// with the pieces of `board` (and the one `moved` from its first square to its second)
    /// and the squares of `empty` free.
    fn kickers(
        &self,
        side: Side,
        next: SquareSet,
        ball: Square,
        board: &[u8; SQUARES],
        moved: Option<(Square, Square)>,
        empty: SquareSet,
    ) -> i32 {
        let mut n = 0;
        for k in next.iter() {
            let at = match moved {
                Some((from, to)) if to == k => from,
                _ => k,
            };
            let code = board[at.index()];
            if code == EMPTY {
                continue;
            }
            let key = piece_key(self.kinds, side, code_kind(code));
            let (a, b) = self.spans[self.slot(key, ball, k)];
            if self.squares[a as usize..b as usize].iter().any(|&s| empty.contains(s)) {
                n += 1;
            }
        }
        n
    }
}

impl Eval {
    /// The tables for `rules`.
    #[must_use]
    pub fn new(rules: &Rules) -> Eval {
        let board = rules.board();
        let attack = BySide::from_fn(|side| {
            let aims = aims(rules, side);
            let kicks = kick_distances(rules, side, &aims);
            let mut d = vec![0; SQUARES];
            for s in board.squares() {
                let steps = aims
                    .iter()
                    .map(|&g| i32::from(s.distance(g)))
                    .min()
                    .unwrap_or(i32::from(board.files.max(board.ranks)));
                d[s.index()] = KICK_UNITS * kicks[s.index()] + steps;
            }
            d
        });
        let race = BySide::from_fn(|side| {
            let aims = aims(rules, side);
            let mut d = vec![0; SQUARES];
            for s in board.squares() {
                d[s.index()] = aims
                    .iter()
                    .map(|&g| i32::from(s.distance(g)))
                    .min()
                    .unwrap_or(i32::from(board.files.max(board.ranks)));
            }
            d
        });
        let t = rules.tables();
        let mut scorer = [false; 64];
        for side in Side::ALL {
            for kind in 0..rules.pieces().len() {
                let code = usize::from(crate::rules::cell::piece_code(side, kind));
                let stand = t.stand[t.piece_key(side, kind)];
                scorer[code] = !(stand & t.goals_of[side.index()]).is_empty();
            }
        }
        let guard = BySide::from_fn(|side| {
            let mut set = SquareSet::EMPTY;
            for s in board.squares() {
                if rules.goals(!side).iter().any(|&g| s.distance(g) == 1) {
                    set.insert(s);
                }
            }
            set
        });
        let mut rings = vec![[SquareSet::EMPTY; 2]; SQUARES];
        for s in board.squares() {
            for t in board.squares() {
                if let d @ 2..=3 = s.distance(t) {
                    rings[s.index()][usize::from(d) - 2].insert(t);
                }
            }
        }
        Eval {
            attack,
            race,
            race_far: i32::from(board.files.max(board.ranks)),
            scorer,
            guard,
            rings,
            no_moves_draws: rules.end().no_moves_draws(),
            captures: rules.has_captures(),
            worth: worths(rules),
            weights: CAPTURE_WEIGHTS,
            neighbours: rules.tables().neighbours.to_vec(),
            lanes: rules.tables().in_family().then(|| Lanes::new(rules)),
        }
    }

    /// The distance from `square` to the nearest square where `side` scores.
    #[inline]
    #[must_use]
    pub fn to_goal(&self, side: Side, square: Square) -> i32 {
        self.attack[side][square.index()]
    }

    /// How far `side` is from scoring in `pos`: [`Eval::to_goal`] of the ball, or in a game
    /// without a ball the king steps of its nearest piece that may score, in the same units.
    #[must_use]
    pub fn to_score(&self, side: Side, pos: &Position<'_>) -> i32 {
        match pos.ball {
            Some(ball) => self.to_goal(side, ball),
            None => KICK_UNITS * self.race_steps(side, pos).min().unwrap_or(self.race_far),
        }
    }

    /// The static value of `pos` for the side to move (no look at its turns).
    #[must_use]
    pub fn static_value(&self, pos: &Position<'_>) -> i32 {
        let terms = self.terms(pos);
        terms.football + terms.captures(&self.weights)
    }

    /// The terms of `pos` for the side to move (the capture counts are zero where pieces are
    /// not captured, or where a side without pieces draws and has none): the static value is
    /// `football` plus what the capture weights make of the counts.
    #[must_use]
    pub fn terms(&self, pos: &Position<'_>) -> Terms {
        let mut football = match pos.ball {
            Some(ball) => self.value_of(pos.side, pos.men, ball, pos.score, &pos.board, None),
            None => self.race_value(pos),
        };
        let draws = self.draws_without_pieces(pos.men);
        if pos.held && !draws {
            football += self.possession(pos);
        }
        if !self.captures || draws {
            return Terms { football, ..Terms::default() };
        }
        let (me, them) = (pos.side.index(), (!pos.side).index());
        let worth = |men: SquareSet| -> i32 {
            men.iter().map(|s| self.worth[code_kind(pos.board[s.index()])]).sum()
        };
        let mut exposed = 0;
        if pos.held
            && let Some(ball) = pos.ball
        {
            let holder = if pos.men[me].contains(ball) { me } else { them };
            let around = (pos.men[1 - holder] & self.neighbours[ball.index()]).len() as i32;
            exposed = if holder == me { -around } else { around };
        }
        Terms {
            football,
            men: pos.men[me].len() as i32 - pos.men[them].len() as i32,
            worth_tenths: worth(pos.men[me]) - worth(pos.men[them]),
            exposed,
        }
    }

    /// The capture weights this evaluation uses.
    #[must_use]
    pub fn weights(&self) -> &CaptureWeights {
        &self.weights
    }

    /// The same evaluation with other capture weights (for fitting them).
    #[must_use]
    pub fn with_weights(mut self, weights: CaptureWeights) -> Eval {
        self.weights = weights;
        self
    }

    /// Whether pieces are captured in these rules (the capture terms count).
    #[must_use]
    pub fn captures(&self) -> bool {
        self.captures
    }

    /// Whether a side has no piece left where that draws (it has no turn).
    fn draws_without_pieces(&self, men: [SquareSet; 2]) -> bool {
        self.no_moves_draws && men.iter().any(|men| men.is_empty())
    }

    /// The static value of the position after a turn of the side to move in `pos` that moves
    /// a piece (`piece_move`, if any) and leaves the ball on `ball`, for the other side (who
    /// moves then): [`Eval::static_value`] of that position, without making it. For rules
    /// where a turn changes nothing else (a kicked ball, no captures, no points).
    #[must_use]
    pub(crate) fn value_after(
        &self,
        pos: &Position<'_>,
        piece_move: Option<(Square, Square)>,
        ball: Square,
    ) -> i32 {
        let mut men = pos.men;
        if let Some((from, to)) = piece_move {
            let mover = &mut men[pos.side.index()];
            mover.remove(from);
            mover.insert(to);
        }
        self.value_of(!pos.side, men, ball, pos.score, &pos.board, piece_move)
    }

    /// The static value for `me` to move, with `men` on the board and the ball (free) on
    /// `ball`; the pieces are those of `board`, but for one `moved` from its first square to
    /// its second.
    fn value_of(
        &self,
        me: Side,
        men: [SquareSet; 2],
        ball: Square,
        score: [u16; 2],
        board: &[u8; SQUARES],
        moved: Option<(Square, Square)>,
    ) -> i32 {
        let them = !me;
        if self.draws_without_pieces(men) {
            return 0;
        }
        let mut v = TEMPO;
        v += BALL * (self.to_goal(them, ball) - self.to_goal(me, ball));
        let around = self.neighbours[ball.index()];
        let mine = men[me.index()];
        let theirs = men[them.index()];
        let [ring2, ring3] = self.rings[ball.index()];
        // Per side: its men next to the ball, two squares from it and three squares from it.
        let counts = |men: SquareSet| {
            ((men & around).len() as i32, (men & ring2).len() as i32, (men & ring3).len() as i32)
        };
        let ((m1, m2, m3), (t1, t2, t3)) = (counts(mine), counts(theirs));
        // Next to the ball, a piece whose every kick is blocked counts as one move away.
        let (k1, l1) = match &self.lanes {
            Some(lanes) => {
                let empty = !(mine | theirs);
                let kick = |side: Side, men: SquareSet| {
                    lanes.kickers(side, men & around, ball, board, moved, empty)
                };
                (kick(me, mine), kick(them, theirs))
            }
            None => (m1, t1),
        };
        v += ADJACENT * (k1 - l1) + NEAR * (m1 - k1 - (t1 - l1) + m2 - t2);
        // Each man counts 4 less its king distance to the ball, if positive.
        let on_ball = |men: SquareSet| 4 * i32::from(men.contains(ball));
        v += CLOSE * (on_ball(mine) - on_ball(theirs) + 3 * (m1 - t1) + 2 * (m2 - t2) + (m3 - t3));
        let guards = |side: Side| (men[side.index()] & self.guard[side]).len().min(3) as i32;
        v += DEFENDER * (guards(me) - guards(them));
        v += POINT * (i32::from(score[me.index()]) - i32::from(score[them.index()]));
        v
    }

    /// A game without a ball, for the side to move: a race of the pieces to the squares where
    /// their side scores. Each side's three pieces nearest to scoring count, the nearest most
    /// ([`RACE`] per king step, halved for the second and quartered for the third), with the
    /// guards of each goal and the points scored.
    fn race_value(&self, pos: &Position<'_>) -> i32 {
        let me = pos.side;
        let them = !me;
        if self.draws_without_pieces(pos.men) {
            return 0;
        }
        // A side with fewer than three pieces that can score counts the missing ones as far
        // away as the board is long.
        let front = |side: Side| -> i32 {
            let mut d = [self.race_far; 3];
            for x in self.race_steps(side, pos) {
                if x < d[2] {
                    d[2] = x;
                    d.sort_unstable();
                }
            }
            4 * d[0] + 2 * d[1] + d[2]
        };
        let guards = |side: Side| (pos.men[side.index()] & self.guard[side]).len().min(3) as i32;
        TEMPO
            + RACE * (front(them) - front(me)) / 4
            + DEFENDER * (guards(me) - guards(them))
            + POINT * (i32::from(pos.score[me.index()]) - i32::from(pos.score[them.index()]))
    }

    /// For a carried ball: the holder's side gains [`POSSESSION`] and its run towards goal.
    fn possession(&self, pos: &Position<'_>) -> i32 {
        let me = pos.side;
        let Some(ball) = pos.ball else { return 0 };
        let holder = if pos.men[me.index()].contains(ball) { me } else { !me };
        let run = CARRY * (KICK_UNITS * FAR - self.to_goal(holder, ball)).max(0);
        let value = POSSESSION + run;
        if holder == me { value } else { -value }
    }

    /// The value of `pos` for the side to move when it cannot score this turn, `reach` is the
    /// nearest it can bring the ball to its target goal and `squares` the number of squares it
    /// can leave the ball on.
    #[must_use]
    pub fn with_reach(&self, pos: &Position<'_>, reach: i32, squares: usize) -> i32 {
        let bonus = pos.ball.map_or(0, |ball| self.reach_bonus(pos.side, ball, reach, squares));
        self.static_value(pos) + bonus
    }

    /// What [`Eval::with_reach`] adds to the static value for `side` with the ball on `ball`:
    /// never negative, and never smaller for a nearer `reach` or more `squares`.
    #[inline]
    #[must_use]
    pub fn reach_bonus(&self, side: Side, ball: Square, reach: i32, squares: usize) -> i32 {
        let squares = i32::try_from(squares).unwrap_or(MOBILE).min(MOBILE);
        REACH * (self.to_goal(side, ball) - reach).max(0) + MOBILITY * squares
    }

    /// Whether the ball on `square` is one kick from a goal of `side` (ignoring blockers).
    #[inline]
    #[must_use]
    pub fn threatens(&self, side: Side, square: Square) -> bool {
        self.to_goal(side, square) < 2 * KICK_UNITS
    }

    /// Whether `side` threatens to score in `pos`: its ball one kick from its goal, or in a
    /// game without a ball, one of its pieces that may score within two king steps of a
    /// square where it scores (ignoring blockers).
    #[must_use]
    pub fn threat_in(&self, side: Side, pos: &Position<'_>) -> bool {
        match pos.ball {
            Some(ball) => self.threatens(side, ball),
            None => self.race_steps(side, pos).any(|steps| steps <= 2),
        }
    }

    /// In a game without a ball: the king steps of each piece of `side` that may score to the
    /// nearest square where it scores.
    fn race_steps<'a>(&'a self, side: Side, pos: &'a Position<'_>) -> impl Iterator<Item = i32> {
        pos.men[side.index()]
            .iter()
            .filter(|s| self.scorer[usize::from(pos.board[s.index()])])
            .map(move |s| self.race[side][s.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::{ADJACENT, Eval, Lanes, NEAR};
    use crate::definition::load_shipped;
    use crate::position::Position;
    use crate::side::Side;
    use crate::square::Square;

    /// vchess.club's Ball, its standard start with the ball moved to d5, free or held.
    fn value(fen: &str) -> i32 {
        let rules = load_shipped("vchess-ball").unwrap().rules;
        let pos = Position::from_fen(&rules, fen).unwrap();
        Eval::new(&rules).static_value(&pos)
    }

    #[test]
    fn holding_the_ball_is_worth_more_than_a_free_ball() {
        let free = value("hbnrqrnhb/ppppppppp/9/9/3a5/3P5/9/PPP1PPPPP/HBNRQRNHB w 0 - -");
        let mine = value("hbnrqrnhb/ppppppppp/9/9/3S5/9/9/PPP1PPPPP/HBNRQRNHB w 0 - -");
        let theirs = value("hbnrqrnhb/ppppppppp/9/9/3S5/9/9/PPP1PPPPP/HBNRQRNHB b 0 - -");
        assert!(mine > free + 100, "{mine} {free}");
        assert!(theirs < -100, "{theirs}");
    }

    /// Football 960, White to move; Black's queen, rook and bishop stand next to the ball in the
    /// corner i1, White's king and queen on g1 and g3, and `third` is White's rank 3 from g3.
    fn corner(third: &str) -> i32 {
        let rules = load_shipped("football-960").unwrap().rules;
        let fen = format!("3k5/9/9/9/9/9/6{third}/7qr/6Kba w 20");
        let pos = Position::from_fen(&rules, &fen).unwrap();
        Eval::new(&rules).static_value(&pos)
    }

    #[test]
    fn a_piece_next_to_the_ball_counts_as_a_kicker_only_if_one_of_its_kicks_is_free() {
        // White's rook on i3 blocks the only kick of Black's rook on i2 (backwards, over the
        // rook, up the i-file); the queen's backward kick is blocked by White's queen on g3,
        // and a bishop has no kick along a rank. On h3, at the same distance from the ball,
        // White's rook leaves i3 free: one Black kicker more.
        let blocked = corner("Q1R");
        let free = corner("QR1");
        assert_eq!(blocked - free, ADJACENT - NEAR, "{blocked} {free}");
    }

    /// A queen (up to three squares in eight directions) is worth more than a pawn, and a
    /// piece less is worth less, where pieces are captured.
    #[test]
    fn where_pieces_are_captured_each_counts_by_its_reach() {
        let full = value("hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 - -");
        let no_pawn = value("hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPP1PPPP/HBNRQRNHB w 0 - -");
        let no_queen = value("hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNR1RNHB w 0 - -");
        assert!(full > no_pawn && no_pawn > no_queen, "{full} {no_pawn} {no_queen}");
        let rules = load_shipped("vchess-ball").unwrap().rules;
        let worth = super::worths(&rules);
        let of =
            |letter: char| worth[rules.pieces().iter().position(|p| p.letter == letter).unwrap()];
        // On a 9x9 board a pawn reaches 1 to 3 squares, a queen of reach 3 up to 24.
        assert!(of('P') < 30 && of('Q') > 120, "{worth:?}");
        assert!(of('P') < of('N') && of('N') < of('Q'), "{worth:?}");
    }

    /// What the search looks at past its horizon: a capture, or the ball taken from the other
    /// side (here an in-place steal, which captures nothing); not a quiet move, nor a pass
    /// between friends.
    #[test]
    fn a_turn_takes_when_it_captures_or_wins_the_ball() {
        let rules = load_shipped("vchess-ball").unwrap().rules;
        let at = |fen: &str| Position::from_fen(&rules, fen).unwrap();
        let takes = |before: &str, after: &str| super::takes(&at(before), &at(after), Side::White);
        let queen = "r8/9/9/3p5/8a/9/3Q5/9/R8 w 0 - -";
        assert!(takes(queen, "r8/9/9/3Q5/8a/9/9/9/R8 b 1 - -"), "the pawn captured");
        assert!(!takes(queen, "r8/9/9/3p5/8a/9/4Q4/9/R8 b 1 - -"), "a quiet move");
        let robbed = "r8/9/9/3s5/9/9/3Q5/9/R8 w 0 - -";
        assert!(takes(robbed, "r8/9/9/3p5/9/9/3T5/9/R8 b 1 - -"), "the ball stolen");
        let holding = "r8/9/9/9/9/9/3T5/9/R8 w 0 - -";
        assert!(!takes(holding, "r8/9/9/9/9/9/3Q5/9/U8 b 1 - -"), "a pass to the rook");
        assert!(!takes(holding, "r8/9/9/9/9/9/9/3T5/R8 b 1 - -"), "the holder runs");
        assert!(!takes(queen, "r8/9/9/3s5/9/9/3Q5/9/R8 b 1 - -"), "the ball left to Black");
    }

    #[test]
    fn a_side_without_pieces_is_a_draw_where_no_moves_draws() {
        assert_eq!(value("rb4rnn/p1p2ppp1/p1h4p1/9/3ps1b2/9/9/9/8q b 52 - -"), 0);
    }

    #[test]
    fn kicker_lanes_give_each_piece_ball_and_kicker_its_own_span_of_board_squares() {
        // Stadium's board is wider than it is long: an index that mixed up files and ranks
        // would give two balls one span, or run past the table.
        let rules = load_shipped("stadium").unwrap().rules;
        let lanes = Lanes::new(&rules);
        let t = rules.tables();
        let board = rules.board();
        let mut seen = vec![false; lanes.spans.len()];
        let mut spans = 0;
        for key in 0..2 * t.kinds {
            for ball in board.squares() {
                for kicker in t.neighbours[ball.index()].iter() {
                    let slot = lanes.slot(key, ball, kicker);
                    assert!(!seen[slot], "slot {slot} twice");
                    seen[slot] = true;
                    let (a, b) = lanes.spans[slot];
                    let squares = &lanes.squares[a as usize..b as usize];
                    assert!(squares.iter().all(|&s| board.contains(s) && s != ball));
                    spans += usize::from(!squares.is_empty());
                }
            }
        }
        assert!(spans > 0);
        // White's rook on k6 kicks the ball on k5 away from it: k4 is the one square its kick
        // needs, on the eleventh file of a board nine ranks long.
        let rook = rules.pieces().iter().position(|p| p.letter == 'R').unwrap();
        let slot = lanes.slot(t.piece_key(Side::White, rook), Square::at(10, 4), Square::at(10, 5));
        let (a, b) = lanes.spans[slot];
        assert_eq!(lanes.squares[a as usize..b as usize], [Square::at(10, 3)]);
    }
}
