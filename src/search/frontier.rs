//! Nodes one turn from the horizon, in Boyer's family: every result is weighed by its static
//! value before any position is made, and only those that could matter are visited.
//!
//! The horizon can only raise its side's static value (see `horizon.rs`), so a result is worth
//! at most its negated static value to the side choosing it. Results whose bound cannot beat
//! alpha are settled by it; the others are visited best bound first, until one reaches beta.
//! The value is the one the general node gives (`Searcher::search_children`); only the work
//! differs: most results of such a node are never made into positions.

use std::ops::ControlFlow;

use crate::movegen::Child;
use crate::position::Position;
use crate::search::node::history_index;
use crate::search::table::Bound;
use crate::search::{Searcher, WIN};
use crate::square::Square;

/// A result of a frontier node: its piece move, the ball's square, and its bound for the side
/// choosing it.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    piece_move: Option<(Square, Square)>,
    ball: Square,
    bound: i32,
}

/// What listing a frontier node's results found.
enum Weighed {
    /// A result scores for the side to move.
    Scores,
    /// There is no turn at all.
    NoTurn,
    /// The results are listed.
    Listed,
}

/// The value, for the side that chooses it, of a result at `ply` that gives the other side a
/// goal.
fn conceded(ply: u32) -> i32 {
    -(WIN - ply as i32 - 1)
}

impl<'r> Searcher<'r> {
    /// Whether the node `pos`, one turn from the horizon, can be searched as a frontier node:
    /// its turns are walked as kick chains, whose results are a piece move and the ball's
    /// square alone (no score, no captures), and no turn limit ends the game at its results.
    pub(super) fn frontier_applies(pos: &Position<'r>) -> bool {
        let limit = pos.rules.end().max_turns;
        pos.rules.tables().walks_chains() && (limit == 0 || pos.turns.saturating_add(1) < limit)
    }

    /// The value of `pos`, one turn from the horizon, within (`alpha`, `beta`); none when the
    /// side to move has no turn at all (the general node handles the forced pass).
    pub(super) fn frontier(
        &mut self,
        pos: &Position<'r>,
        window: (i32, i32),
        ply: u32,
    ) -> Option<i32> {
        let mut candidates = std::mem::take(&mut self.candidates);
        let value = match self.weigh(pos, ply, &mut candidates) {
            Weighed::Scores => Some(WIN - ply as i32 - 1),
            Weighed::NoTurn => None,
            Weighed::Listed => {
                candidates.sort_unstable_by_key(|c| std::cmp::Reverse(c.bound));
                Some(self.visit(pos, &candidates, window, ply))
            }
        };
        self.candidates = candidates;
        value
    }

    /// Lists the results of `pos` in `candidates` with their bounds, unless one scores.
    fn weigh(&mut self, pos: &Position<'r>, ply: u32, candidates: &mut Vec<Candidate>) -> Weighed {
        let (me, rules, eval) = (pos.side, pos.rules, &self.eval);
        candidates.clear();
        let conceded = conceded(ply);
        let mut any = false;
        // A result that scores settles the node: the walk stops there.
        let scores = self.results.each_until(pos, |piece_move, ball, _| {
            any = true;
            let bound = match rules.scorer(ball) {
                Some(winner) if winner == me => return ControlFlow::Break(()),
                Some(_) => conceded,
                None => -eval.value_after(pos, piece_move, ball),
            };
            candidates.push(Candidate { piece_move, ball, bound });
            ControlFlow::Continue(())
        });
        self.stopped |= self.results.timed_out();
        match (scores, any) {
            (true, _) => Weighed::Scores,
            (false, false) => Weighed::NoTurn,
            (false, true) => Weighed::Listed,
        }
    }

    /// Alpha-beta over `candidates`, best bound first: each is settled by its bound, by a
    /// repetition, or by a visit of its horizon; the value is stored in the table unless the
    /// clock stopped the search.
    fn visit(
        &mut self,
        pos: &Position<'r>,
        candidates: &[Candidate],
        (mut alpha, beta): (i32, i32),
        ply: u32,
    ) -> i32 {
        let original_alpha = alpha;
        let (mut best_score, mut best_hash) = (-WIN - 1, 0);
        for c in candidates {
            let hash = pos.hash_after(c.piece_move, c.ball);
            let repeats = self.repeats(hash);
            let score = if repeats {
                0
            } else if c.bound <= alpha || c.bound == conceded(ply) {
                c.bound
            } else {
                let child = self.make(pos, c);
                -self.child_value(&child.position, 0, -beta, -alpha, ply + 1)
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_hash = hash;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                let slot = history_index(c.piece_move, Some(c.ball));
                self.history[slot] = self.history[slot].saturating_add(1);
                break;
            }
            // Later bounds are no higher: only a repetition (a draw) could still beat alpha.
            if c.bound <= alpha && alpha >= 0 {
                best_score = best_score.max(c.bound);
                break;
            }
        }
        if !self.stopped {
            let bound = Bound::of(best_score, original_alpha, beta);
            self.table.store(pos.hash(), 1, best_score, bound, best_hash, ply);
        }
        best_score
    }

    /// The position of a candidate result of `pos`.
    fn make(&self, pos: &Position<'r>, c: &Candidate) -> Child<'r> {
        let mut position = *pos;
        if let Some((from, to)) = c.piece_move {
            position.move_piece(from, to);
        }
        position.move_ball(c.ball);
        position.end_turn();
        Child { position, piece_move: c.piece_move }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::definition::load_shipped;
    use crate::movegen::{Results, play_unchecked};
    use crate::position::{Outcome, Position};
    use crate::search::{Searcher, WIN, random_turn};

    /// Positions of random play from the start of `variant`, the game going on in each.
    fn positions(rules: &crate::rules::Rules, seed: u64, count: usize) -> Vec<Position<'_>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pos = Position::start(rules);
        while out.len() < count {
            match random_turn(&pos, &mut rng) {
                Some(t) if pos.outcome().is_none() => {
                    pos = play_unchecked(&pos, &t);
                    if pos.outcome().is_none() {
                        out.push(pos);
                    } else {
                        pos = Position::start(rules);
                    }
                }
                _ => pos = Position::start(rules),
            }
        }
        out
    }

    #[test]
    fn results_are_weighed_as_the_positions_they_make() {
        for variant in ["boyer-1951", "vchess", "stadium"] {
            let rules = load_shipped(variant).unwrap().rules;
            let searcher = Searcher::new(&rules);
            let mut results = Results::new();
            let mut children = Vec::new();
            for pos in positions(&rules, 7, 40) {
                results.fill(&pos, &mut children);
                for c in &children {
                    let ball = c.position.kicked_ball();
                    assert_eq!(pos.hash_after(c.piece_move, ball), c.position.hash(), "{variant}");
                    let weighed = searcher.eval.value_after(&pos, c.piece_move, ball);
                    assert_eq!(weighed, searcher.eval.static_value(&c.position), "{variant}");
                }
            }
        }
    }

    /// With the whole window, a frontier node's value is the best of its results' horizon
    /// values, every result visited: what the general node finds.
    #[test]
    fn a_frontier_node_is_worth_its_best_result() {
        for variant in ["boyer-1951", "vchess"] {
            let rules = load_shipped(variant).unwrap().rules;
            let mut searcher = Searcher::new(&rules);
            let mut children = Vec::new();
            for pos in positions(&rules, 11, 30) {
                assert!(Searcher::frontier_applies(&pos));
                searcher.path = vec![pos.hash()];
                let found = searcher.frontier(&pos, (-WIN - 1, WIN + 1), 0).unwrap();
                searcher.results.fill(&pos, &mut children);
                let mut best = -WIN - 1;
                for c in children.clone() {
                    let value = match c.position.outcome().and_then(Outcome::winner) {
                        Some(w) if w == pos.side() => WIN - 1,
                        Some(_) => -(WIN - 1),
                        None => -searcher.leaf(&c.position, 1, -WIN - 1, WIN + 1),
                    };
                    best = best.max(value);
                }
                assert_eq!(found, best, "{variant}: {}", pos.fen());
            }
        }
    }
}
