//! A node of the search below the root: its value from the table, the game's end and
//! repetitions, or its results searched in order, late results first less deep (principal
//! variation search with late move reductions); nodes one turn from the horizon go to
//! `frontier.rs`, the horizon itself to `horizon.rs`.

use crate::movegen::Child;
use crate::position::{Outcome, Position};
use crate::search::table::Bound;
use crate::search::{CLOCK_NODES, Searcher, THREAT, WIN};
use crate::square::{SQUARES, Square};

impl<'r> Searcher<'r> {
    /// The value of `pos` (the side to move's) after checking the end of the game and
    /// repetitions.
    pub(super) fn child_value(
        &mut self,
        pos: &Position<'r>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        match pos.outcome().map(|o| (o, o.winner())) {
            Some((_, Some(winner))) => {
                let v = WIN - ply as i32;
                return if winner == pos.side { v } else { -v };
            }
            Some(_) => return 0,
            None => {}
        }
        let h = pos.hash();
        if self.repeats(h) {
            return 0;
        }
        self.path.push(h);
        let v = self.negamax(pos, depth, alpha, beta, ply);
        self.path.pop();
        v
    }

    fn negamax(&mut self, pos: &Position<'r>, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_NODES) && self.out_of_time() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth == 0 {
            return self.leaf(pos, ply, alpha, beta);
        }
        let key = pos.hash();
        let entry = self.table.get(key);
        if let Some(s) = entry.and_then(|e| e.cutoff(depth, alpha, beta, ply)) {
            return s;
        }
        if depth == 1
            && Self::frontier_applies(pos)
            && let Some(value) = self.frontier(pos, (alpha, beta), ply)
        {
            return value;
        }
        let level = ply as usize;
        while self.children.len() <= level {
            self.children.push(Vec::new());
            self.order.push(Vec::new());
        }
        let mut children = std::mem::take(&mut self.children[level]);
        let mut order = std::mem::take(&mut self.order[level]);
        self.results.fill(pos, &mut children);
        // A walk cut by the clock leaves results missing: this node's value would be wrong.
        self.stopped |= self.results.timed_out();
        let tt_best = entry.map_or(0, |e| e.best);
        let best_score = if self.order_children(pos, &children, tt_best, &mut order) {
            WIN - ply as i32 - 1
        } else if children.is_empty() {
            self.no_results(pos)
        } else {
            let window = (alpha, beta);
            self.search_children(pos, &children, &order, depth, window, ply)
        };
        self.children[level] = children;
        self.order[level] = order;
        best_score
    }

    /// Orders `children` for the search into `order` (the table's best first, then results that
    /// threaten a goal, then by value and history, losing results last); true, without ordering
    /// the rest, when one of them is a win for the side to move.
    fn order_children(
        &self,
        pos: &Position<'r>,
        children: &[Child<'r>],
        tt_best: u64,
        order: &mut Vec<Ordered>,
    ) -> bool {
        order.clear();
        let me = pos.side;
        for (index, c) in children.iter().enumerate() {
            let (key, value) = match c.position.outcome().and_then(Outcome::winner) {
                Some(winner) if winner == me => return true,
                Some(_) => (i32::MIN, None),
                _ => {
                    let value = self.eval.static_value(&c.position);
                    let key = if c.position.hash() == tt_best {
                        i32::MAX
                    } else {
                        let threat = if self.eval.threat_in(me, &c.position) { THREAT } else { 0 };
                        threat - value
                            + self.history[history_index(c.piece_move, c.position.ball)].min(4_000)
                                / 40
                    };
                    (key, Some(value))
                }
            };
            order.push(Ordered { key, index, value });
        }
        order.sort_unstable_by_key(|o| std::cmp::Reverse(o.key));
        false
    }

    /// The value of a position whose results list is empty.
    fn no_results(&mut self, pos: &Position<'r>) -> i32 {
        if self.results.exhausted() {
            // Too many turns to list: the results are unknown, not absent.
            self.truncated = true;
            self.eval.static_value(pos)
        } else {
            // No turn at all, not even a pass: the game is drawn (`end.no_moves = "draw"`).
            0
        }
    }

    /// Alpha-beta over the ordered results of `pos`; stores the value in the table unless the
    /// clock stopped the search.
    fn search_children(
        &mut self,
        pos: &Position<'r>,
        children: &[Child<'r>],
        order: &[Ordered],
        depth: u32,
        (mut alpha, beta): (i32, i32),
        ply: u32,
    ) -> i32 {
        let original_alpha = alpha;
        let (mut best_score, mut best_hash) = (-WIN - 1, 0);
        for (n, o) in order.iter().enumerate() {
            let child = children[o.index];
            let score = match self.frontier_bound(&child.position, o, depth, alpha) {
                Some(bound) => bound,
                None => self.searched(&child.position, depth, (alpha, beta), ply + 1, n),
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_hash = child.position.hash();
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                let h = &mut self.history[history_index(child.piece_move, child.position.ball)];
                *h = h.saturating_add((depth * depth) as i32);
                break;
            }
        }
        if !self.stopped {
            let bound = Bound::of(best_score, original_alpha, beta);
            self.table.store(pos.hash(), depth, best_score, bound, best_hash, ply);
        }
        best_score
    }

    /// A bound that settles a result one turn from the horizon without a visit: the horizon
    /// can only raise its side's static value, so the parent gets at most the negated static
    /// value; when that is no better than `alpha`, the result cannot matter. None where the
    /// result must be visited (it ends the game, or repeats a position: a draw).
    fn frontier_bound(
        &self,
        pos: &Position<'r>,
        ordered: &Ordered,
        depth: u32,
        alpha: i32,
    ) -> Option<i32> {
        let bound = -ordered.value?;
        if depth != 1 || bound > alpha {
            return None;
        }
        (!self.repeats(pos.hash())).then_some(bound)
    }

    /// Whether the position of hash `h` occurred before, on the line searched or in the game: a
    /// draw by repetition as the search counts it.
    pub(super) fn repeats(&self, h: u64) -> bool {
        self.path.contains(&h) || self.past.binary_search(&h).is_ok()
    }

    /// The value for its parent of the parent's `n`-th result `pos` (from 0, in search order),
    /// the parent being `depth` turns from the horizon: a late result is first searched less
    /// deep ([`reduction`]) and again in full only if it proves better than alpha.
    pub(super) fn searched(
        &mut self,
        pos: &Position<'r>,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
        n: usize,
    ) -> i32 {
        let threat = self.eval.threat_in(!pos.side, pos);
        if let Some(r) = reduction(depth, n, threat) {
            let reduced = -self.child_value(pos, depth - 1 - r, -alpha - 1, -alpha, ply);
            if reduced <= alpha || self.stopped {
                return reduced;
            }
        }
        self.principal_variation(pos, depth - 1, (alpha, beta), ply, n)
    }

    /// The value of the `n`-th child `pos` (from 0, in search order) for its parent, within the
    /// parent's window: the first child with the whole window, the others first with a null
    /// window at alpha (a proof that they are no better), searched again with the whole window
    /// only when they prove better.
    fn principal_variation(
        &mut self,
        pos: &Position<'r>,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
        n: usize,
    ) -> i32 {
        if n == 0 || beta - alpha <= 1 {
            return -self.child_value(pos, depth, -beta, -alpha, ply);
        }
        let score = -self.child_value(pos, depth, -alpha - 1, -alpha, ply);
        if score > alpha && score < beta && !self.stopped {
            -self.child_value(pos, depth, -beta, -alpha, ply)
        } else {
            score
        }
    }
}

/// A result of a node in search order: its ordering key, its index among the node's results
/// and its static value (for its side to move; none when it ends the game).
#[derive(Clone, Copy)]
pub(super) struct Ordered {
    key: i32,
    index: usize,
    value: Option<i32>,
}

/// How many turns less the `n`-th result (from 0, in search order, with ordering key `key`)
/// of a node `depth` turns from the horizon is first searched (`threat`: it leaves the ball one
/// kick from the mover's goal): late results, which rarely turn
/// out best, are tried shallower and searched again in full only when they prove better than
/// the best so far. Results that threaten a goal are never reduced.
fn reduction(depth: u32, n: usize, threat: bool) -> Option<u32> {
    if depth < 3 || n < LATE || threat {
        return None;
    }
    Some(if depth >= 5 && n >= 4 * LATE { 2 } else { 1 })
}

/// The first result (from 0) that late move reductions may reduce.
const LATE: usize = 3;

/// The slot of a result in the history table: the moved piece's destination and the ball's
/// (the first square's slot in a game without a ball).
pub(super) fn history_index(piece_move: Option<(Square, Square)>, ball: Option<Square>) -> usize {
    let to = piece_move.map_or(SQUARES, |(_, t)| t.index());
    to * SQUARES + ball.map_or(0, Square::index)
}
