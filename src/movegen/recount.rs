//! Counting kick chains again after a piece move, walking again only what the move changes.
//!
//! [`Walker::count_recorded`] walks the chains of a position and records the walk as a tree: each
//! state (ball square, kicks used) with its number of chains and the squares its subtree read,
//! each kicker's destinations with the squares its kick read. A piece move changes two squares;
//! [`Walker::recount`] reuses every state and every kick that read neither of them.

use crate::movegen::chains::{Count, Walker};
use crate::rules::cell::{BALL, EMPTY};
use crate::square::Square;
use crate::square_set::SquareSet;

/// The tree of one recorded walk.
#[derive(Default)]
pub(crate) struct Record {
    nodes: Vec<Node>,
    groups: Vec<Group>,
    edges: Vec<Edge>,
}

/// A state of the walk: its number of chains, the squares its whole subtree read, and its
/// kickers (`groups[first..last]`).
#[derive(Clone, Copy, Default)]
struct Node {
    count: u64,
    touched: SquareSet,
    first: u32,
    last: u32,
}

/// One kicker of a state: the squares its kick read and its destinations (`edges[first..last]`).
#[derive(Clone, Copy)]
struct Group {
    kicker: Square,
    reads: SquareSet,
    first: u32,
    last: u32,
}

/// A destination; `child` is the state the ball reaches, or [`NO_NODE`] when the chain must
/// end there (a goal, or nobody left to kick).
#[derive(Clone, Copy)]
struct Edge {
    to: Square,
    child: u32,
}

const NO_NODE: u32 = u32::MAX;

/// The most states and destinations a record holds (about 3 MiB): a walk larger than this is
/// counted without a record, so that memory stays small however the kick chains multiply.
const RECORD_LIMIT: usize = 1 << 16;

/// Whether a move from `from` to `to` changes a square of `set`.
#[inline]
fn hits(set: SquareSet, from: Square, to: Square) -> bool {
    set.contains(from) || set.contains(to)
}

impl Walker<'_> {
    /// Counts the chains from the ball on `b` and records the walk. Sets `touched` to every
    /// square read. `None` when the walk is too large to record ([`RECORD_LIMIT`]).
    pub(crate) fn count_recorded(&mut self, b: Square) -> Option<u64> {
        self.record.nodes.clear();
        self.record.groups.clear();
        self.record.edges.clear();
        let root = self.record_node(b);
        if self.record.nodes.len() + self.record.edges.len() > RECORD_LIMIT {
            return None;
        }
        let root = self.record.nodes[root as usize];
        self.touched = root.touched;
        Some(root.count)
    }

    fn record_node(&mut self, b: Square) -> u32 {
        let t = self.ctx.t;
        if self.record.nodes.len() + self.record.edges.len() > RECORD_LIMIT {
            // Given up: the caller counts without the record.
            return 0;
        }
        let index = self.record.nodes.len() as u32;
        self.record.nodes.push(Node::default());
        let around = t.neighbours[b.index()];
        let first = self.record.groups.len() as u32;
        for k in (around & self.men & !self.spent).iter() {
            self.record_group(b, k);
        }
        let last = self.record.groups.len() as u32;
        let (mut count, mut touched) = (1, around);
        for g in first..last {
            let group = self.record.groups[g as usize];
            touched |= group.reads;
            self.use_kick(group.kicker);
            for e in group.first..group.last {
                let to = self.record.edges[e as usize].to;
                let next = t.neighbours[to.index()];
                if t.goals.contains(to) {
                    count += 1;
                } else if (next & self.men & !self.spent).is_empty() {
                    count += 1;
                    touched |= next;
                } else {
                    self.board[b.index()] = EMPTY;
                    self.board[to.index()] = BALL;
                    let child = self.record_node(to);
                    self.board[to.index()] = EMPTY;
                    self.board[b.index()] = BALL;
                    self.record.edges[e as usize].child = child;
                    let node = self.record.nodes[child as usize];
                    (count, touched) = (count + node.count, touched | node.touched);
                }
            }
            self.unuse_kick(group.kicker);
        }
        self.record.nodes[index as usize] = Node { count, touched, first, last };
        index
    }

    /// Records the destinations of the piece on `k` kicking the ball on `b`.
    fn record_group(&mut self, b: Square, k: Square) {
        let start = self.stack.len();
        let code = self.board[k.index()];
        let mut reads = SquareSet::EMPTY;
        let ctx = self.ctx;
        ctx.targets::<true>(&self.board, k, b, code, &mut self.stack, &mut reads);
        let first = self.record.edges.len() as u32;
        let edges = self.stack[start..].iter().map(|&to| Edge { to, child: NO_NODE });
        self.record.edges.extend(edges);
        self.stack.truncate(start);
        self.record.groups.push(Group {
            kicker: k,
            reads,
            first,
            last: self.record.edges.len() as u32,
        });
    }

    /// The number of chains from the ball on `b` after the piece move `from`-`to`, already made
    /// on the scratch board; the walk without it was recorded by [`Walker::count_recorded`].
    pub(crate) fn recount(&mut self, b: Square, from: Square, to: Square) -> u64 {
        self.recount_node(0, b, from, to)
    }

    fn recount_node(&mut self, index: u32, b: Square, from: Square, to: Square) -> u64 {
        let node = self.record.nodes[index as usize];
        if !hits(node.touched, from, to) {
            return node.count;
        }
        let t = self.ctx.t;
        let around = t.neighbours[b.index()];
        let mut count = 1;
        if !hits(around, from, to) {
            // The same kickers: each one's kick is reused unless the move touched it.
            for g in node.first..node.last {
                let group = self.record.groups[g as usize];
                count += self.recount_group(Some(group), group.kicker, b, from, to);
            }
            return count;
        }
        // Kickers may have come or gone: each present one reuses what was recorded of it.
        for k in (around & self.men & !self.spent).iter() {
            let group = self.record.groups[node.first as usize..node.last as usize]
                .iter()
                .find(|g| g.kicker == k)
                .copied();
            count += self.recount_group(group, k, b, from, to);
        }
        count
    }

    /// The chains that start with the piece on `k` kicking the ball on `b`; `group` is what
    /// was recorded of that kick, if anything.
    fn recount_group(
        &mut self,
        group: Option<Group>,
        k: Square,
        b: Square,
        from: Square,
        to: Square,
    ) -> u64 {
        let mut count = 0;
        self.use_kick(k);
        match group {
            Some(group) if !hits(group.reads, from, to) => {
                for e in group.first..group.last {
                    let edge = self.record.edges[e as usize];
                    count += self.follow(edge, b, from, to);
                }
            }
            _ => {
                let start = self.stack.len();
                let code = self.board[k.index()];
                let ctx = self.ctx;
                let mut unused = SquareSet::EMPTY;
                ctx.targets::<false>(&self.board, k, b, code, &mut self.stack, &mut unused);
                for i in start..self.stack.len() {
                    let s = self.stack[i];
                    let known = group.and_then(|g| {
                        self.record.edges[g.first as usize..g.last as usize]
                            .iter()
                            .find(|e| e.to == s)
                            .copied()
                    });
                    count += match known {
                        Some(edge) => self.follow(edge, b, from, to),
                        None if ctx.t.goals.contains(s) => 1,
                        None => self.walk_from(b, s),
                    };
                }
                self.stack.truncate(start);
            }
        }
        self.unuse_kick(k);
        count
    }

    /// The chains after the recorded kick to `edge.to` (its kick already counted as used).
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
}
