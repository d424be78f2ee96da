//! Where one kick can send the ball (rule: `docs/rules.md#how-the-ball-moves`).

use crate::position::Position;
use crate::rules::OwnGoal;
use crate::rules::cell::{EMPTY, code_kind};
use crate::rules::tables::{Tables, files_between};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// The kick rules as they stand for one position: fixed for the whole turn.
#[derive(Clone, Copy)]
pub(crate) struct KickContext<'t> {
    pub(crate) t: &'t Tables,
    pub(crate) side: Side,
    pub(crate) per_piece: u8,
    backward: bool,
    leap_adjacent: bool,
    corner_exception: bool,
    no_slide: bool,
    /// The squares on which the ball may not stop this turn: goals that may not be scored yet
    /// (or that would be own goals where those are forbidden), and the ball's forbidden squares.
    closed: SquareSet,
    /// The teammates a kick may end on, who kick the ball on (`kick.relay`): none unless the
    /// caller names them ([`KickContext::with_receivers`]).
    receivers: SquareSet,
    /// The pieces a shot flies over (`ball.intercept`: the shooter's friends).
    over: SquareSet,
    /// The pieces that take a shot that reaches them (`ball.intercept`: the enemies), ending
    /// its line.
    interceptors: SquareSet,
}

/// The distinct destinations of one kick from the ball on `ball`, appended to a stack in the
/// order found.
struct Targets<'a> {
    out: &'a mut Vec<Square>,
    ball: Square,
    /// The goal files of the ball's rank that no kick along the rank may reach or cross.
    rank_goals: u32,
    /// Whether the kicker's kicks may overlap, so that duplicates must be dropped.
    dedupe: bool,
    seen: SquareSet,
}

impl Targets<'_> {
    #[inline]
    fn push(&mut self, s: Square) {
        // One destination reached in two ways by the same kicker is one kick.
        if !self.dedupe || self.seen.insert(s) {
            self.out.push(s);
        }
    }
}

/// What a destination square allows.
enum Landing {
    Ok,
    /// Not a destination, but the ball may fly on past it.
    Skip,
    /// Not a destination, nor anything further along this line.
    Stop,
}

impl<'t> KickContext<'t> {
    /// The kick rules for the side to move in `pos`.
    pub(crate) fn new(pos: &Position<'t>) -> KickContext<'t> {
        let rules = pos.rules;
        let t = rules.tables();
        let kick = rules.kick();
        let mut can_score = SquareSet::EMPTY;
        if !pos.before_goals_allowed() {
            for side in Side::ALL {
                if side == pos.side || rules.end().own_goal == OwnGoal::Counts {
                    can_score = rules.goals(side).iter().fold(can_score, |mut set, &g| {
                        set.insert(g);
                        set
                    });
                }
            }
        }
        KickContext {
            t,
            side: pos.side,
            per_piece: kick.per_piece,
            backward: kick.both_ways(),
            leap_adjacent: kick.leap_adjacent,
            corner_exception: kick.corner_exception,
            no_slide: kick.no_slide(),
            closed: (t.goals & !can_score) | t.ball_forbidden,
            receivers: SquareSet::EMPTY,
            over: SquareSet::EMPTY,
            interceptors: SquareSet::EMPTY,
        }
    }

    /// These rules, where a kick flies over the pieces `over` and is taken by the first of
    /// `interceptors` on its line (`ball.intercept`).
    pub(crate) fn with_interception(
        self,
        over: SquareSet,
        interceptors: SquareSet,
    ) -> KickContext<'t> {
        KickContext { over, interceptors, ..self }
    }

    /// These rules, where a kick may also end on one of `receivers` (the first piece on a
    /// slide's line, or a leap's landing square).
    pub(crate) fn with_receivers(self, receivers: SquareSet) -> KickContext<'t> {
        KickContext { receivers, ..self }
    }

    /// Whether the ball of `kick` may end on the occupied square `s`: a receiver's, not
    /// beyond a goal along the goal's rank. (It does not stop there: the receiver kicks it on.)
    #[inline]
    fn receives(&self, kick: &Targets<'_>, s: Square) -> bool {
        self.receivers.contains(s) && !matches!(self.landing(kick, s), Landing::Stop)
    }

    /// Whether the ball of `kick` may stop on the empty square `s`.
    #[inline]
    fn landing(&self, kick: &Targets<'_>, s: Square) -> Landing {
        let (b, rank_goals) = (kick.ball, kick.rank_goals);
        // The rank's goal files were read once per kick (`Tables::along_goal_rank` is the rule).
        if rank_goals != 0 && s.rank() == b.rank() && files_between(rank_goals, b, s) {
            return Landing::Stop;
        }
        if self.closed.contains(s) {
            return Landing::Skip;
        }
        Landing::Ok
    }

    /// The goal files of `b`'s rank that the no-horizontal-goal rule guards.
    #[inline]
    fn rank_goals(&self, b: Square) -> u32 {
        if self.no_slide { u32::from(self.t.goal_files[usize::from(b.rank())]) } else { 0 }
    }

    /// Appends to `out` every square the piece `code` on `k` can kick the ball on `b` to.
    /// With `TRACK`, every square whose contents were read goes into `touched`.
    #[inline]
    pub(crate) fn targets<const TRACK: bool>(
        &self,
        board: &[u8; SQUARES],
        k: Square,
        b: Square,
        code: u8,
        out: &mut Vec<Square>,
        touched: &mut SquareSet,
    ) {
        let t = self.t;
        let key = t.piece_key(self.side, code_kind(code));
        let out = &mut Targets {
            out,
            ball: b,
            rank_goals: self.rank_goals(b),
            dedupe: t.kick_overlap[key],
            seen: SquareSet::EMPTY,
        };
        let d = t.dir_between(k, b);
        let reach = usize::from(t.line_reach[key][d]);
        if reach > 0 {
            let ahead = t.lines.slice(b.index() * 8 + d);
            let ahead = &ahead[..reach.min(ahead.len())];
            self.slide::<TRACK>(board, ahead, out, touched);
            if self.backward {
                // Behind the ball: the kicker, then the squares beyond it.
                let behind = &t.lines.slice(b.index() * 8 + (d + 4) % 8)[1..];
                let behind = &behind[..reach.min(behind.len())];
                self.slide::<TRACK>(board, behind, out, touched);
            }
        }
        self.leaps::<TRACK>(board, k, key, out, touched);
    }

    /// Appends to `out` every square the ball on `b` can be kicked to by the whole kick
    /// pattern of the piece `key` from the ball's square (kick modes `from-ball` and `enter`,
    /// relays, a holder's shots): slides stop before the first occupied square, leaps land on
    /// empty squares, and a hopper's line (`p`) begins beyond its first occupied square. A shot
    /// that may be intercepted flies over friends and ends on the first interceptor.
    pub(crate) fn kicks_from_ball(
        &self,
        board: &[u8; SQUARES],
        b: Square,
        key: usize,
        out: &mut Vec<Square>,
    ) {
        let mut targets = Targets {
            out,
            ball: b,
            rank_goals: self.rank_goals(b),
            dedupe: true,
            seen: SquareSet::EMPTY,
        };
        let table = &self.t.ball_rays;
        let (mut i, end) = table.span(key * SQUARES + b.index());
        let hops = self.t.any_kick_hop.then(|| self.t.kick_hops[key].as_slice());
        // The end of the ray being walked, and whether its hopper has flown over its screen.
        let (mut ray_end, mut screened) = (0, false);
        while i < end {
            let s = table.square(i);
            if let Some(hops) = hops {
                if i >= ray_end {
                    (ray_end, screened) = (table.next_ray(i), false);
                }
                if !screened && hops.get(usize::from(table.tag(i))) == Some(&true) {
                    // Before its screen a hopper's ball only flies.
                    screened = board[s.index()] != EMPTY;
                    i += 1;
                    continue;
                }
            }
            if board[s.index()] != EMPTY {
                if self.receives(&targets, s) || self.interceptors.contains(s) {
                    targets.push(s);
                }
                // A shot that may be intercepted flies on over a friend.
                i = if self.over.contains(s) { i + 1 } else { table.next_ray(i) };
                continue;
            }
            match self.landing(&targets, s) {
                Landing::Ok => targets.push(s),
                Landing::Skip => {}
                Landing::Stop => {
                    i = table.next_ray(i);
                    continue;
                }
            }
            i += 1;
        }
    }

    #[inline]
    fn slide<const TRACK: bool>(
        &self,
        board: &[u8; SQUARES],
        line: &[Square],
        out: &mut Targets<'_>,
        touched: &mut SquareSet,
    ) {
        for &s in line {
            if TRACK {
                touched.insert(s);
            }
            if board[s.index()] != EMPTY {
                if self.receives(out, s) {
                    out.push(s);
                }
                break;
            }
            match self.landing(out, s) {
                Landing::Ok => out.push(s),
                Landing::Skip => {}
                Landing::Stop => break,
            }
        }
    }

    #[inline]
    fn leaps<const TRACK: bool>(
        &self,
        board: &[u8; SQUARES],
        k: Square,
        key: usize,
        out: &mut Targets<'_>,
        touched: &mut SquareSet,
    ) {
        let b = out.ball;
        let table = &self.t.leaps;
        let (mut i, end) = table.span(key * SQUARES + b.index());
        let near_ok = self.leap_adjacent || (self.corner_exception && self.t.corners.contains(b));
        while i < end {
            let s = table.square(i);
            if TRACK {
                touched.insert(s);
            }
            if board[s.index()] != EMPTY {
                if self.receives(out, s) && (near_ok || s.distance(k) > 1) {
                    out.push(s);
                }
                i = table.next_ray(i);
                continue;
            }
            if !near_ok && s.distance(k) <= 1 {
                i += 1;
                continue;
            }
            match self.landing(out, s) {
                Landing::Ok => out.push(s),
                Landing::Skip => {}
                Landing::Stop => {
                    i = table.next_ray(i);
                    continue;
                }
            }
            i += 1;
        }
    }
}
