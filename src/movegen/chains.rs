//! Kick chains: from a ball square, every sequence of kicks the side to move may make, each piece
//! kicking at most `kick.per_piece` times, a goal ending the chain.

use crate::movegen::kicks::{KickContext, Targets};
use crate::position::{BALL, EMPTY, Position, code_side};
use crate::square::Square;
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

/// Counts chains.
#[derive(Default)]
pub(crate) struct Count(pub(crate) u64);

impl Visit for Count {
    #[inline]
    fn stop(&mut self, _ball: Square) {
        self.0 += 1;
    }
}

/// Counts chains by the ball's final square.
pub(crate) struct Histogram {
    counts: [u64; 256],
    squares: [Square; 256],
    len: usize,
}

impl Histogram {
    /// No chain yet.
    pub(crate) fn new() -> Histogram {
        Histogram {
            counts: [0; 256],
            squares: [Square::from_index(0); 256],
            len: 0,
        }
    }

    /// Forgets every chain.
    pub(crate) fn clear(&mut self) {
        for &s in &self.squares[..self.len] {
            self.counts[s.index()] = 0;
        }
        self.len = 0;
    }

    /// Each final square with its number of chains (possibly 0 after `remove_one`).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, u64)> + '_ {
        self.squares[..self.len]
            .iter()
            .map(|&s| (s, self.counts[s.index()]))
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

/// A scratch board on which the ball (and one piece move at a time) can be tried.
pub(crate) struct Walker<'t> {
    pub(crate) ctx: KickContext<'t>,
    pub(crate) board: [u8; 256],
    used: [u8; 256],
    /// The squares read by the last tracked walk.
    pub(crate) touched: SquareSet,
}

impl<'t> Walker<'t> {
    /// A scratch copy of `pos`.
    pub(crate) fn new(pos: &Position<'t>) -> Walker<'t> {
        Walker {
            ctx: KickContext::new(pos),
            board: pos.board,
            used: [0; 256],
            touched: SquareSet::EMPTY,
        }
    }

    /// Moves a piece on the scratch board (undo by moving it back).
    #[inline]
    pub(crate) fn shift(&mut self, from: Square, to: Square) {
        self.board[to.index()] = self.board[from.index()];
        self.board[from.index()] = EMPTY;
    }

    /// Walks every chain from the ball on `b`, recording in `touched` what was read.
    pub(crate) fn walk_tracked<V: Visit>(&mut self, b: Square, v: &mut V) {
        self.touched = SquareSet::EMPTY;
        self.walk::<V, true>(b, v);
    }

    /// Walks every chain from the ball on `b`.
    pub(crate) fn walk_plain<V: Visit>(&mut self, b: Square, v: &mut V) {
        self.walk::<V, false>(b, v);
    }

    fn walk<V: Visit, const TRACK: bool>(&mut self, b: Square, v: &mut V) {
        v.stop(b);
        let ctx = self.ctx;
        for &k in &ctx.t.neighbours[b.index()] {
            if TRACK {
                self.touched.insert(k);
            }
            let code = self.board[k.index()];
            if code <= BALL || code_side(code) != ctx.side || self.used[k.index()] >= ctx.per_piece
            {
                continue;
            }
            let mut out = Targets::new();
            ctx.targets::<TRACK>(&self.board, k, b, code, &mut out, &mut self.touched);
            self.used[k.index()] += 1;
            for &s in out.as_slice() {
                v.enter(k, s);
                if ctx.t.goal[s.index()] != 0 {
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
            self.used[k.index()] -= 1;
        }
    }
}
