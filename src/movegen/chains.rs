//! Kick chains: from a ball square, every sequence of kicks the side to move may make, each piece
//! kicking at most `kick.per_piece` times, a goal ending the chain.

use crate::movegen::kicks::KickContext;
use crate::position::{BALL, EMPTY, Position};
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

    /// Each final square with its number of chains.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, u64)> + '_ {
        self.squares[..self.len]
            .iter()
            .map(|&s| (s, self.counts[s.index()]))
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

/// A recorded state of the walk (ball square and kicks used): its number of chains, the
/// squares its own step read (`local`: the ball's neighbours, the kick rays) and the squares its
/// whole subtree read (`touched`), and its kicks (`edges[first..last]`).
#[derive(Clone, Copy, Default)]
struct Node {
    count: u64,
    touched: SquareSet,
    local: SquareSet,
    first: u32,
    last: u32,
}

/// A recorded kick; `child` is the node the ball reaches, or [`NO_NODE`] when the chain must
/// end there (a goal, or nobody left to kick).
#[derive(Clone, Copy)]
struct Edge {
    kicker: Square,
    to: Square,
    child: u32,
}

const NO_NODE: u32 = u32::MAX;

/// Whether a move from `from` to `to` changes a square of `set`.
#[inline]
fn hits(set: SquareSet, from: Square, to: Square) -> bool {
    set.contains(from) || set.contains(to)
}

/// A scratch board on which the ball (and one piece move at a time) can be tried. It keeps its
/// buffers from one position to the next, so that walking allocates nothing.
pub(crate) struct Walker<'t> {
    pub(crate) ctx: KickContext<'t>,
    board: [u8; 256],
    /// The pieces of the side to move.
    men: SquareSet,
    /// The pieces that have used all their kicks in the chain being walked.
    spent: SquareSet,
    /// Kicks used per square, when a piece may kick more than once.
    used: [u8; 256],
    /// The destinations of the kicks being tried, one segment per level of the walk.
    stack: Vec<Square>,
    /// The squares read by the last tracked walk.
    pub(crate) touched: SquareSet,
    /// The tree of the last recorded count.
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl<'t> Walker<'t> {
    /// A scratch copy of `pos`.
    pub(crate) fn new(pos: &Position<'t>) -> Walker<'t> {
        Walker {
            ctx: KickContext::new(pos),
            board: pos.board,
            men: pos.men[pos.side.index()],
            spent: SquareSet::EMPTY,
            used: [0; 256],
            stack: Vec::new(),
            touched: SquareSet::EMPTY,
            nodes: Vec::new(),
            edges: Vec::new(),
        }
    }

    /// Makes this walker a scratch copy of `pos`, keeping its buffers.
    pub(crate) fn load(&mut self, pos: &Position<'t>) {
        self.ctx = KickContext::new(pos);
        self.board = pos.board;
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
        let touched = self.touched;
        for &(from, to) in moves {
            if touched.contains(from) || touched.contains(to) {
                scratch.reset();
                self.shift(from, to);
                self.walk_plain(b, scratch);
                self.shift(to, from);
                each((from, to), scratch);
            } else {
                each((from, to), base);
            }
        }
    }

    /// Counts the chains from the ball on `b` and records the walk, so that [`Walker::recount`]
    /// can count them again after a piece move, walking again only what the move changes.
    /// Sets `touched` to every square read.
    pub(crate) fn count_recorded(&mut self, b: Square) -> u64 {
        self.nodes.clear();
        self.edges.clear();
        let root = self.record(b);
        self.touched = self.nodes[root as usize].touched;
        self.nodes[root as usize].count
    }

    fn record(&mut self, b: Square) -> u32 {
        let t = self.ctx.t;
        let index = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        let mut local = t.neighbours[b.index()];
        let first = self.edges.len() as u32;
        for k in (local & self.men & !self.spent).iter() {
            let start = self.stack.len();
            let code = self.board[k.index()];
            let ctx = self.ctx;
            ctx.targets::<true>(&self.board, k, b, code, &mut self.stack, &mut local);
            let child = NO_NODE;
            let kicks = self.stack[start..].iter().map(|&to| Edge {
                kicker: k,
                to,
                child,
            });
            self.edges.extend(kicks);
            self.stack.truncate(start);
        }
        let last = self.edges.len() as u32;
        let (mut count, mut touched) = (1, local);
        for e in first as usize..last as usize {
            let Edge { kicker, to, .. } = self.edges[e];
            self.use_kick(kicker);
            let next = t.neighbours[to.index()];
            if t.goals.contains(to) {
                count += 1;
            } else if (next & self.men & !self.spent).is_empty() {
                count += 1;
                touched |= next;
            } else {
                self.board[b.index()] = EMPTY;
                self.board[to.index()] = BALL;
                let child = self.record(to);
                self.board[to.index()] = EMPTY;
                self.board[b.index()] = BALL;
                self.edges[e].child = child;
                count += self.nodes[child as usize].count;
                touched |= self.nodes[child as usize].touched;
            }
            self.unuse_kick(kicker);
        }
        self.nodes[index as usize] = Node {
            count,
            touched,
            local,
            first,
            last,
        };
        index
    }

    /// The number of chains from the ball on `b` after the piece move `from`-`to`, already made
    /// on the scratch board; the walk without it was recorded by [`Walker::count_recorded`].
    pub(crate) fn recount(&mut self, b: Square, from: Square, to: Square) -> u64 {
        self.recount_node(0, b, from, to)
    }

    fn recount_node(&mut self, index: u32, b: Square, from: Square, to: Square) -> u64 {
        let node = self.nodes[index as usize];
        if !hits(node.touched, from, to) {
            return node.count;
        }
        if hits(node.local, from, to) {
            return self.recount_changed(&node, b, from, to);
        }
        let mut count = 1;
        for e in node.first as usize..node.last as usize {
            let edge = self.edges[e];
            self.use_kick(edge.kicker);
            count += self.follow(edge, b, from, to);
            self.unuse_kick(edge.kicker);
        }
        count
    }

    /// Recounts a node whose own kicks the move changed: its kicks are generated again, and
    /// each one that was recorded before leads to the same state, recounted from its record.
    fn recount_changed(&mut self, node: &Node, b: Square, from: Square, to: Square) -> u64 {
        let ctx = self.ctx;
        let mut count = 1;
        let mut unused = SquareSet::EMPTY;
        for k in (ctx.t.neighbours[b.index()] & self.men & !self.spent).iter() {
            let start = self.stack.len();
            let code = self.board[k.index()];
            ctx.targets::<false>(&self.board, k, b, code, &mut self.stack, &mut unused);
            self.use_kick(k);
            for i in start..self.stack.len() {
                let s = self.stack[i];
                let recorded = self.edges[node.first as usize..node.last as usize]
                    .iter()
                    .find(|e| e.kicker == k && e.to == s)
                    .copied();
                count += match recorded {
                    Some(edge) => self.follow(edge, b, from, to),
                    None if ctx.t.goals.contains(s) => 1,
                    None => self.walk_from(b, s),
                };
            }
            self.unuse_kick(k);
            self.stack.truncate(start);
        }
        count
    }

    /// The chains after the recorded kick `edge` (its kick already counted as used).
    fn follow(&mut self, edge: Edge, b: Square, from: Square, to: Square) -> u64 {
        let s = edge.to;
        let t = self.ctx.t;
        if t.goals.contains(s)
            || (edge.child == NO_NODE && !hits(t.neighbours[s.index()], from, to))
        {
            return 1;
        }
        if edge.child == NO_NODE {
            return self.walk_from(b, s);
        }
        self.board[b.index()] = EMPTY;
        self.board[s.index()] = BALL;
        let n = self.recount_node(edge.child, s, from, to);
        self.board[s.index()] = EMPTY;
        self.board[b.index()] = BALL;
        n
    }

    /// The chains from the ball kicked from `b` to `s`, walked afresh.
    fn walk_from(&mut self, b: Square, s: Square) -> u64 {
        self.board[b.index()] = EMPTY;
        self.board[s.index()] = BALL;
        let mut chains = Count::default();
        self.walk_plain(s, &mut chains);
        self.board[s.index()] = EMPTY;
        self.board[b.index()] = BALL;
        chains.0
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
    fn use_kick(&mut self, k: Square) {
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
    fn unuse_kick(&mut self, k: Square) {
        self.spent.remove(k);
        if self.ctx.per_piece > 1 {
            self.used[k.index()] -= 1;
        }
    }
}
