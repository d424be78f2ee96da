//! Kick chains: from a ball square, every sequence of kicks the side to move may make, each piece
//! kicking at most `kick.per_piece` times, a goal ending the chain.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::movegen::kicks::KickContext;
use crate::movegen::recount::Record;
use crate::position::Position;
use crate::rules::cell::{BALL, EMPTY};
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// What a walk over the kick chains reports.
pub(crate) trait Visit {
    /// A chain may end here with the ball on `ball` (a goal square ends it by force).
    fn stop(&mut self, ball: Square);
    /// The piece on `kicker` kicks the ball to `to`.
    #[inline]
    fn enter(&mut self, _kicker: Square, _to: Square) {}
    /// Back from the last `enter`.
    #[inline]
    fn leave(&mut self) {}
}

/// A visitor that sums chains up and can start again.
pub(crate) trait Tally: Visit {
    /// Forgets every chain.
    fn reset(&mut self);
}

/// Counts chains.
#[derive(Default)]
pub(crate) struct Count(pub(crate) u64);

impl Tally for Count {
    fn reset(&mut self) {
        self.0 = 0;
    }
}

impl Visit for Count {
    #[inline]
    fn stop(&mut self, _ball: Square) {
        self.0 += 1;
    }
}

/// Counts chains by the ball's final square.
pub(crate) struct Histogram {
    counts: [u64; SQUARES],
    squares: [Square; SQUARES],
    len: usize,
}

impl Histogram {
    /// No chain yet.
    pub(crate) fn new() -> Histogram {
        Histogram { counts: [0; SQUARES], squares: [Square::from_index(0); SQUARES], len: 0 }
    }

    /// Each final square with its number of chains.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, u64)> + '_ {
        self.squares[..self.len].iter().map(|&s| (s, self.counts[s.index()]))
    }
}

impl Tally for Histogram {
    fn reset(&mut self) {
        for &s in &self.squares[..self.len] {
            self.counts[s.index()] = 0;
        }
        self.len = 0;
    }
}

impl Visit for Histogram {
    #[inline]
    fn stop(&mut self, ball: Square) {
        let c = &mut self.counts[ball.index()];
        if *c == 0 {
            self.squares[self.len] = ball;
            self.len += 1;
        }
        *c += 1;
    }
}

/// A scratch board on which the ball (and one piece move at a time) can be tried. It keeps its
/// buffers from one position to the next, so that walking allocates nothing.
pub(crate) struct Walker<'t> {
    pub(super) ctx: KickContext<'t>,
    pub(super) board: [u8; SQUARES],
    /// The pieces of the side to move.
    pub(super) men: SquareSet,
    /// The pieces that have used all their kicks in the chain being walked.
    pub(super) spent: SquareSet,
    /// Kicks used per square, when a piece may kick more than once.
    used: [u8; SQUARES],
    /// The destinations of the kicks being tried, one segment per level of the walk.
    pub(super) stack: Vec<Square>,
    /// The squares read by the last tracked walk.
    pub(crate) touched: SquareSet,
    /// The tree of the last recorded count (see `recount`).
    pub(super) record: Record,
    /// How many more chain steps a walk may take: a guard against kick chains that explode.
    pub(super) budget: u64,
    /// When a walk must stop, however many steps it has left (one position's chains can take
    /// seconds to walk; the search's clock must be heard within them).
    pub(super) deadline: Option<std::time::Instant>,
}

impl<'t> Walker<'t> {
    /// A scratch copy of `pos`.
    pub(crate) fn new(pos: &Position<'t>) -> Walker<'t> {
        Walker {
            ctx: KickContext::new(pos),
            board: pos.board,
            men: pos.men[pos.side.index()],
            spent: SquareSet::EMPTY,
            used: [0; SQUARES],
            stack: Vec::new(),
            touched: SquareSet::EMPTY,
            record: Record::default(),
            budget: u64::MAX,
            deadline: None,
        }
    }

    /// `kept` made a scratch copy of `pos` (keeping its buffers), or a new walker.
    pub(crate) fn reuse(kept: Option<Walker<'t>>, pos: &Position<'t>) -> Walker<'t> {
        match kept {
            Some(mut w) => {
                w.load(pos);
                w
            }
            None => Walker::new(pos),
        }
    }

    /// Makes this walker a scratch copy of `pos`, keeping its buffers.
    pub(crate) fn load(&mut self, pos: &Position<'t>) {
        self.ctx = KickContext::new(pos);
        // Only the board's own ranks hold anything: the rest of both arrays stays empty.
        let used = usize::from(pos.rules.board().ranks) * 16;
        self.board[..used].copy_from_slice(&pos.board[..used]);
        self.men = pos.men[pos.side.index()];
    }

    /// Moves a piece of the side to move on the scratch board (undo by moving it back).
    #[inline]
    pub(crate) fn shift(&mut self, from: Square, to: Square) {
        self.board[to.index()] = self.board[from.index()];
        self.board[from.index()] = EMPTY;
        self.men.remove(from);
        self.men.insert(to);
    }

    /// Calls `each` with every piece move of `moves` and the chains after it, from the ball on
    /// `b`. `base` holds the chains without a move, walked with [`Walker::walk_tracked`] just
    /// before: a move that changes no square that walk read has the same chains.
    pub(crate) fn each_move<V: Tally>(
        &mut self,
        b: Square,
        moves: &[(Square, Square)],
        base: &V,
        scratch: &mut V,
        mut each: impl FnMut((Square, Square), &V),
    ) {
        self.each_move_until(b, moves, base, scratch, |m, v| {
            each(m, v);
            ControlFlow::Continue(())
        });
    }

    /// [`Walker::each_move`], stopping as soon as `each` breaks: whether it did.
    pub(crate) fn each_move_until<V: Tally>(
        &mut self,
        b: Square,
        moves: &[(Square, Square)],
        base: &V,
        scratch: &mut V,
        mut each: impl FnMut((Square, Square), &V) -> ControlFlow<()>,
    ) -> bool {
        let touched = self.touched;
        for &(from, to) in moves {
            let flow = if touched.contains(from) || touched.contains(to) {
                scratch.reset();
                self.shift(from, to);
                self.walk_plain(b, scratch);
                self.shift(to, from);
                each((from, to), scratch)
            } else {
                each((from, to), base)
            };
            if flow.is_break() {
                return true;
            }
        }
        false
    }

    /// Walks every chain from the ball on `b`, recording in `touched` every square read.
    pub(crate) fn walk_tracked<V: Visit>(&mut self, b: Square, v: &mut V) {
        self.touched = SquareSet::EMPTY;
        self.walk::<V, true>(b, v);
    }

    /// Walks every chain from the ball on `b`.
    pub(crate) fn walk_plain<V: Visit>(&mut self, b: Square, v: &mut V) {
        self.walk::<V, false>(b, v);
    }

    fn walk<V: Visit, const TRACK: bool>(&mut self, b: Square, v: &mut V) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        // The clock is read every 16,384 steps (a few hundred microseconds).
        if self.budget & 0x3fff == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        v.stop(b);
        let around = self.ctx.t.neighbours[b.index()];
        if TRACK {
            self.touched |= around;
        }
        let kickers = around & self.men & !self.spent;
        if kickers.is_empty() {
            return;
        }
        for k in kickers.iter() {
            let start = self.stack.len();
            let code = self.board[k.index()];
            let ctx = self.ctx;
            ctx.targets::<TRACK>(&self.board, k, b, code, &mut self.stack, &mut self.touched);
            let end = self.stack.len();
            self.use_kick(k);
            let others = self.men & !self.spent;
            for i in start..end {
                let s = self.stack[i];
                v.enter(k, s);
                let next = ctx.t.neighbours[s.index()];
                if ctx.t.goals.contains(s) {
                    v.stop(s);
                } else if (next & others).is_empty() {
                    // Nobody can kick on from there: the chain ends, as a walk from s would.
                    if TRACK {
                        self.touched |= next;
                    }
                    v.stop(s);
                } else {
                    self.board[b.index()] = EMPTY;
                    self.board[s.index()] = BALL;
                    self.walk::<V, TRACK>(s, v);
                    self.board[s.index()] = EMPTY;
                    self.board[b.index()] = BALL;
                }
                v.leave();
            }
            self.unuse_kick(k);
            self.stack.truncate(start);
        }
    }

    #[inline]
    pub(super) fn use_kick(&mut self, k: Square) {
        if self.ctx.per_piece == 1 {
            self.spent.insert(k);
            return;
        }
        self.used[k.index()] += 1;
        if self.used[k.index()] >= self.ctx.per_piece {
            self.spent.insert(k);
        }
    }

    #[inline]
    pub(super) fn unuse_kick(&mut self, k: Square) {
        self.spent.remove(k);
        if self.ctx.per_piece > 1 {
            self.used[k.index()] -= 1;
        }
    }
}
