//! Proofs of forced goals: the tree a solver proved, written with turn names, and a checker
//! that re-verifies one with the turn generator alone.
//!
//! A proof names, at each of the attacker's turns, the one turn that wins, and after it every
//! distinct result of the defender's turns (one turn naming each) with the attacker's answer.
//! The checker lists every legal turn of each defender's position ([`legal_turns`])
//! and plays it: it uses neither the solver nor its grouping of turns into results.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::analysis::goal;
use crate::analysis::solve::{Solver, Val};
use crate::movegen::{Child, MAX_TURNS, Turn, general, legal_turns, play_unchecked, shortest_turn};
use crate::position::{Finished, Position};
use crate::side::Side;
use crate::text::excerpt;
use crate::turn_text::names::notation_error;
use crate::turn_text::names::{names, resolve};

/// One turn of the attacker in a proof, with every defence after it (none when it scores).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    /// The turn, as kickoff names it.
    pub turn: String,
    /// Every distinct result of the defender's turns, named by one turn, with the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defences: Vec<Defence>,
}

/// One defence in a proof and the attacker's answer to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defence {
    /// A turn of the defender leading to this result.
    pub turn: String,
    /// The attacker's winning answer; none when the defence itself concedes (an own goal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Attack>,
}

impl Attack {
    /// The number of attacker's turns in the proof's longest line.
    #[must_use]
    pub fn depth(&self) -> u32 {
        1 + self
            .defences
            .iter()
            .filter_map(|d| d.answer.as_ref().map(Attack::depth))
            .max()
            .unwrap_or(0)
    }

    /// The number of turns (the attacker's and the defences) written in the proof.
    #[must_use]
    pub fn size(&self) -> u64 {
        1 + self.defences.iter().map(|d| 1 + d.answer.as_ref().map_or(0, Attack::size)).sum::<u64>()
    }
}

/// Why a proof could not be written or does not hold. Turns quoted from a proof file are
/// shown as [`excerpt`]s: a proof travels, and its text must not act on the reader's terminal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// A position had too many turns to list.
    #[error("the position {fen} has more than {MAX_TURNS} turns: too many to list")]
    TooManyTurns {
        /// The position.
        fen: String,
    },
    /// The proof is asked to force a goal within no turn at all.
    #[error("a proof within 0 turns proves nothing: a goal takes at least one turn")]
    NoTurns,
    /// A named turn cannot be read or is not legal.
    #[error("`{}` is not a legal turn in {fen}: {why}", excerpt(.turn))]
    BadTurn {
        /// The turn as written.
        turn: String,
        /// The position.
        fen: String,
        /// Why.
        why: String,
    },
    /// The attacker's last turn does not score.
    #[error("`{}` in {fen} is the attacker's last turn and does not score", excerpt(.turn))]
    NoGoal {
        /// The turn.
        turn: String,
        /// The position.
        fen: String,
    },
    /// A turn written as the attacker's goal (no defence after it) after which the game goes
    /// on.
    #[error(
        "`{}` in {fen} is written as the attacker's goal (no defence follows it), but the game \
         goes on after it",
        excerpt(.turn)
    )]
    NotAGoal {
        /// The turn.
        turn: String,
        /// The position.
        fen: String,
    },
    /// A defence written as conceding a point (no answer after it) that does not.
    #[error(
        "the defence `{}` in {fen} is written as conceding a point (no answer follows it), but \
         it does not",
        excerpt(.turn)
    )]
    NotConceded {
        /// The defence.
        turn: String,
        /// The position.
        fen: String,
    },
    /// The game ends without the attacker's goal (a goal against it, the turn limit).
    #[error(
        "after `{}` in {fen} the game ends without the attacker's goal: {finished}",
        excerpt(.turn)
    )]
    GameEnds {
        /// The turn.
        turn: String,
        /// The position.
        fen: String,
        /// How the game ended.
        finished: Finished,
    },
    /// A turn repeats a position the times that draw.
    #[error("`{}` in {fen} repeats a position the times that draw the game", excerpt(.turn))]
    Repetition {
        /// The turn.
        turn: String,
        /// The position.
        fen: String,
    },
    /// A defence has no answer in the proof.
    #[error("the defence `{}` in {fen} has no answer in the proof", excerpt(.turn))]
    Unanswered {
        /// A turn leading to the defence.
        turn: String,
        /// The position.
        fen: String,
    },
    /// The defender has no turn and the rules draw then.
    #[error("the defender has no turn in {fen}, which draws the game")]
    NoTurn {
        /// The position.
        fen: String,
    },
    /// The solver did not prove the position (a bug, or limits that changed).
    #[error("the solver could not prove {fen} again")]
    NotProved {
        /// The position.
        fen: String,
    },
}

/// What a checked proof covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Positions whose turns were all listed and played.
    pub positions: u64,
    /// Turns played.
    pub turns: u64,
}

/// Whether `hash` after `path` occurs the times that draw.
fn repeats(pos: &Position<'_>, path: &[u64], hash: u64) -> bool {
    let needed = pos.rules().end().repetition as usize;
    needed > 0 && path.iter().filter(|&&h| h == hash).count() + 1 >= needed
}

/// Whether a defence that repeats a position draws: not where a repetition must be claimed,
/// since only the side to move (the attacker, after a defence) may claim it.
fn defence_repetition_draws(pos: &Position<'_>) -> bool {
    !pos.rules().end().repetition_claimed()
}

/// Re-verifies that `proof` forces a goal for the side to move in `pos` within `turns` of its
/// own turns, repetitions counted from `pos` on.
///
/// # Errors
/// The first place where the proof does not hold; [`ProofError::NoTurns`] for 0 turns.
pub fn check(pos: &Position<'_>, proof: &Attack, turns: u32) -> Result<Checked, ProofError> {
    if turns == 0 {
        return Err(ProofError::NoTurns);
    }
    let mut checker = Checker {
        attacker: pos.side(),
        start_score: pos.score()[pos.side().index()],
        path: vec![pos.hash()],
        done: Checked::default(),
    };
    checker.attack(pos, proof, turns)?;
    Ok(checker.done)
}

struct Checker {
    attacker: Side,
    start_score: u16,
    path: Vec<u64>,
    done: Checked,
}

impl Checker {
    fn read(pos: &Position<'_>, text: &str) -> Result<Turn, ProofError> {
        resolve(pos, text).map_err(|e| ProofError::BadTurn {
            turn: text.to_owned(),
            fen: pos.fen(),
            why: notation_error(&e).to_string(),
        })
    }

    fn judge(&self, after: &Position<'_>) -> Option<bool> {
        goal::judge(after, self.attacker, self.start_score)
    }

    fn attack(&mut self, pos: &Position<'_>, node: &Attack, k: u32) -> Result<(), ProofError> {
        let turn = Self::read(pos, &node.turn)?;
        let after = play_unchecked(pos, &turn);
        let (text, fen) = (node.turn.clone(), pos.fen());
        match self.judge(&after) {
            Some(true) => return Ok(()),
            Some(false) => return Err(ended(text, fen, &after)),
            None if k == 1 => return Err(ProofError::NoGoal { turn: text, fen }),
            None if node.defences.is_empty() => {
                return Err(ProofError::NotAGoal { turn: text, fen });
            }
            None if repeats(pos, &self.path, after.hash()) => {
                return Err(ProofError::Repetition { turn: text, fen });
            }
            None => {}
        }
        self.path.push(after.hash());
        let checked = self.defend(&after, &node.defences, k - 1);
        self.path.pop();
        checked
    }

    /// The answers of `defences` by the hash of the position each leads to; a defence written
    /// as conceding must concede.
    fn answers<'d>(
        &self,
        pos: &Position<'_>,
        defences: &'d [Defence],
    ) -> Result<HashMap<u64, &'d Defence>, ProofError> {
        let mut answers = HashMap::new();
        for d in defences {
            let after = play_unchecked(pos, &Self::read(pos, &d.turn)?);
            if d.answer.is_none() && self.judge(&after) != Some(true) {
                return Err(ProofError::NotConceded { turn: d.turn.clone(), fen: pos.fen() });
            }
            answers.insert(after.hash(), d);
        }
        Ok(answers)
    }

    /// Every legal turn of the defender, played: each result must concede or be answered.
    fn defend(
        &mut self,
        pos: &Position<'_>,
        defences: &[Defence],
        k: u32,
    ) -> Result<(), ProofError> {
        let answers = self.answers(pos, defences)?;
        let turns = legal_turns(pos).map_err(|_| ProofError::TooManyTurns { fen: pos.fen() })?;
        if turns.is_empty() && pos.rules().end().no_moves_draws() {
            return Err(ProofError::NoTurn { fen: pos.fen() });
        }
        self.done.positions += 1;
        self.done.turns += turns.len() as u64;
        let mut seen = HashSet::new();
        for turn in &turns {
            let after = play_unchecked(pos, turn);
            if !seen.insert(after.hash()) {
                continue;
            }
            let name = || crate::turn_text::names::name(pos, turn);
            match self.judge(&after) {
                Some(true) => continue,
                Some(false) => return Err(ended(name(), pos.fen(), &after)),
                None if defence_repetition_draws(pos) && repeats(pos, &self.path, after.hash()) => {
                    return Err(ProofError::Repetition { turn: name(), fen: pos.fen() });
                }
                None => {}
            }
            let answer = answers.get(&after.hash()).and_then(|d| d.answer.as_ref());
            let Some(answer) = answer else {
                return Err(ProofError::Unanswered { turn: name(), fen: pos.fen() });
            };
            self.path.push(after.hash());
            let checked = self.attack(&after, answer, k);
            self.path.pop();
            checked?;
        }
        Ok(())
    }
}

/// The game ended after `turn` in `fen`, in `after`, without the attacker's goal.
fn ended(turn: String, fen: String, after: &Position<'_>) -> ProofError {
    match after.finished() {
        Some(finished) => ProofError::GameEnds { turn, fen, finished },
        // Unreachable: the judge found the game over.
        None => ProofError::NoGoal { turn, fen },
    }
}

/// Writes the proof that the attacker to move in `pos` forces a goal within `k` turns, from
/// what `solver` proved (it proves again where its table no longer holds a value).
///
/// # Errors
/// A position with too many turns, or a value the solver cannot prove again.
pub(crate) fn prove<'r>(
    solver: &mut Solver<'r, '_>,
    pos: &Position<'r>,
    k: u32,
) -> Result<Attack, ProofError> {
    solver.start_path(pos);
    prove_attack(solver, pos, k)
}

fn prove_attack<'r>(
    solver: &mut Solver<'r, '_>,
    pos: &Position<'r>,
    k: u32,
) -> Result<Attack, ProofError> {
    let not_proved = || ProofError::NotProved { fen: pos.fen() };
    let (child, scores) = winning_child(solver, pos, k)?;
    let turn = first_turn(pos, &child).ok_or_else(not_proved)?;
    let name = crate::turn_text::names::name(pos, &turn);
    if scores {
        return Ok(Attack { turn: name, defences: Vec::new() });
    }
    solver.enter(child.position.hash());
    let defences = prove_defences(solver, &child.position, k - 1);
    solver.leave();
    Ok(Attack { turn: name, defences: defences? })
}

/// The result the attacker to move in `pos` wins with, within `k` turns, and whether it
/// scores at once. The last turn's goal is found without listing the position's turns (the
/// checker reads that one turn alone); any earlier turn's position is listed as the search
/// listed it.
fn winning_child<'r>(
    solver: &mut Solver<'r, '_>,
    pos: &Position<'r>,
    k: u32,
) -> Result<(Child<'r>, bool), ProofError> {
    let not_proved = || ProofError::NotProved { fen: pos.fen() };
    let too_many = |_| ProofError::TooManyTurns { fen: pos.fen() };
    if k == 1 {
        let child = solver.scoring_child(pos).map_err(too_many)?.ok_or_else(not_proved)?;
        return Ok((child, true));
    }
    let mut children = Vec::new();
    solver.expand(pos, &mut children).map_err(too_many)?;
    if let Some(&c) = children.iter().find(|c| solver.judge(&c.position) == Some(true)) {
        return Ok((c, true));
    }
    match solver.attack_value(pos, k) {
        Val::Win(best) => {
            let child =
                children.iter().find(|c| c.position.hash() == best).ok_or_else(not_proved)?;
            Ok((*child, false))
        }
        _ => Err(not_proved()),
    }
}

/// Every distinct result of the defender's turns, named by its turn with the fewest actions
/// (the first listed among equals), with the attacker's answer.
fn prove_defences<'r>(
    solver: &mut Solver<'r, '_>,
    pos: &Position<'r>,
    k: u32,
) -> Result<Vec<Defence>, ProofError> {
    let turns = legal_turns(pos).map_err(|_| ProofError::TooManyTurns { fen: pos.fen() })?;
    let mut chosen: Vec<(Turn, Position<'r>)> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    for turn in turns {
        let after = play_unchecked(pos, &turn);
        match index.get(&after.hash()) {
            Some(&i) if chosen[i].0.actions.len() <= turn.actions.len() => {}
            Some(&i) => chosen[i].0 = turn,
            None => {
                index.insert(after.hash(), chosen.len());
                chosen.push((turn, after));
            }
        }
    }
    let texts = names(pos, &chosen.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>());
    let mut defences = Vec::with_capacity(chosen.len());
    for ((_, after), turn) in chosen.into_iter().zip(texts) {
        let answer = match solver.judge(&after) {
            Some(true) => None,
            Some(false) => return Err(ProofError::NotProved { fen: pos.fen() }),
            None => {
                solver.enter(after.hash());
                let answer = prove_attack(solver, &after, k);
                solver.leave();
                Some(answer?)
            }
        };
        defences.push(Defence { turn, answer });
    }
    Ok(defences)
}

/// A turn from `pos` to the result `child`: the one with the fewest actions.
#[must_use]
pub fn first_turn(pos: &Position<'_>, child: &Child<'_>) -> Option<Turn> {
    // The walk's bound is a listing's: any turn of a position the solver expands is found.
    shortest_turn(pos, child, general::budget(), None)
}
