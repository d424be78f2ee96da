//! Turn notation against a position: the canonical name of every legal turn (`Nc3`, `Bf4>d6>b8`,
//! `N>h3#`, `Ng>e4`, `g5>e4`, `Nxe5`, `Pe8=Q`, `>e7Qe6>d1`, `N<e5`, `--`) and reading what a
//! person typed back into a turn.
//!
//! A turn is named action by action, each against the actions possible at that moment of the
//! turn: a piece move names its starting file, rank or square only when another piece of the
//! same letter can go to the same square then; a kick names its kicker only when another piece
//! could send the ball to the same square then, and then by the first of letter, letter + file,
//! letter + rank, square that tells them apart. Reading walks the same moments, so reading a
//! turn never lists every turn of the position. The text is split into its parts by the
//! grammar reader of [`crate::notation::turn`].

use crate::movegen::step::Mid;
use crate::movegen::{Action, Kick, MoveKind, PieceMove, TooManyTurns, Turn, null_allowed};
use crate::notation::ParseError;
use crate::notation::squares::SquareName;
use crate::notation::turn::{self, KickText, Kicker, MoveText, Part, Start, TurnText};
use crate::position::Position;
use crate::square::Square;
use crate::text::excerpt;

/// Why a typed turn is not a legal turn of the position. The typed text is shown as an
/// [`excerpt`]: whoever prints the error echoes no control sequence and no huge token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a turn.
    #[error("`{}` is not a turn: {error}", excerpt(.text))]
    Syntax {
        /// What was typed.
        text: String,
        /// The grammar's complaint.
        error: ParseError,
    },
    /// No legal turn matches.
    #[error("`{}` is not legal here{}", excerpt(.text), alternatives_words(.alternatives))]
    Illegal {
        /// What was typed.
        text: String,
        /// The legal moves of that piece (or the kicks available now).
        alternatives: Vec<String>,
    },
    /// Several legal turns match.
    #[error("`{}` is ambiguous: it could be {}", excerpt(.text), .candidates.join(", "))]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The canonical names of the matching turns.
        candidates: Vec<String>,
    },
    /// The turn stops where it may not.
    #[error(
        "`{}` is not a whole turn: it cannot end there; next: {}",
        excerpt(.text),
        .next.join(" ")
    )]
    Unfinished {
        /// What was typed.
        text: String,
        /// The names of the turns one action longer.
        next: Vec<String>,
    },
    /// The game is over: nobody moves any more.
    #[error("the game is over")]
    Finished,
    /// The position has too many turns to read one.
    #[error(transparent)]
    TooManyTurns(#[from] TooManyTurns),
}

fn alternatives_words(alternatives: &[String]) -> String {
    match alternatives {
        [] => String::new(),
        list if list.len() > 24 => format!("; legal instead: {} ...", list[..24].join(" ")),
        list => format!("; legal instead: {}", list.join(" ")),
    }
}

/// One moment of a turn being named or read: the state, and the actions possible there.
struct Moment<'r> {
    mid: Mid<'r>,
    actions: Vec<Action>,
}

impl<'r> Moment<'r> {
    fn new(mid: Mid<'r>) -> Moment<'r> {
        let mut actions = Vec::new();
        mid.actions(&mut actions);
        Moment { mid, actions }
    }

    /// The piece letter on `square` now.
    fn letter(&self, square: Square) -> Option<char> {
        let pos = self.mid.position();
        pos.piece_at(square).map(|(_, kind)| pos.rules().piece(kind).letter)
    }

    /// `action` written with as little as tells it from the other actions possible now.
    fn part(&self, action: Action) -> Part {
        match action {
            Action::Move(m) if m.kind == MoveKind::InPlace => {
                let holder =
                    self.mid.position().ball_held() && self.mid.position().ball() == Some(m.from);
                let rivals = self.in_place_rivals(m, holder);
                let text = KickText { kicker: self.kicker(&rivals, m.from), to: name_of(m.to) };
                if holder { Part::Kick(text) } else { Part::Take(text) }
            }
            Action::Move(m) if m.kind == MoveKind::Drop => Part::Drop(m.letter, name_of(m.to)),
            Action::Move(m) => Part::Move(self.move_text(m)),
            Action::Kick(k) => {
                let rivals: Vec<Square> = self
                    .actions
                    .iter()
                    .filter_map(|a| match a {
                        Action::Kick(o) if o.to == k.to && o.kicker != k.kicker => Some(o.kicker),
                        _ => None,
                    })
                    .collect();
                Part::Kick(KickText { kicker: self.kicker(&rivals, k.kicker), to: name_of(k.to) })
            }
        }
    }

    /// The squares of the other pieces that can pass to (or take from) `m.to` now.
    fn in_place_rivals(&self, m: PieceMove, holder: bool) -> Vec<Square> {
        let pos = self.mid.position();
        self.actions
            .iter()
            .filter_map(|a| match a {
                Action::Move(o)
                    if o.kind == MoveKind::InPlace
                        && o.to == m.to
                        && o.from != m.from
                        && (pos.ball_held() && pos.ball() == Some(o.from)) == holder =>
                {
                    Some(o.from)
                }
                _ => None,
            })
            .collect()
    }

    fn move_text(&self, m: PieceMove) -> MoveText {
        let others: Vec<Square> = self
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Move(o)
                    if !matches!(o.kind, MoveKind::InPlace | MoveKind::Drop)
                        && o.letter == m.letter
                        && o.to == m.to
                        && o.from != m.from =>
                {
                    Some(o.from)
                }
                _ => None,
            })
            .collect();
        let from = if others.is_empty() {
            Start::Unspecified
        } else if others.iter().all(|s| s.file() != m.from.file()) {
            Start::File(m.from.file())
        } else if others.iter().all(|s| s.rank() != m.from.rank()) {
            Start::Rank(m.from.rank())
        } else {
            Start::Square(name_of(m.from))
        };
        let pos = self.mid.position();
        let capture = m.kind == MoveKind::EnPassant
            || pos.piece_at(m.to).is_some_and(|(side, _)| side != pos.side());
        MoveText { letter: m.letter, from, capture, to: name_of(m.to), promotion: m.promotion }
    }

    /// The first of nothing, letter, letter + file, letter + rank, square that tells the piece
    /// on `kicker` from the pieces on `rivals`.
    fn kicker(&self, rivals: &[Square], kicker: Square) -> Kicker {
        if rivals.is_empty() {
            return Kicker::Unspecified;
        }
        let letter = self.letter(kicker);
        let rivals: Vec<Square> =
            rivals.iter().copied().filter(|&s| self.letter(s) == letter).collect();
        let letter = letter.unwrap_or('?');
        if rivals.is_empty() {
            Kicker::Letter(letter)
        } else if rivals.iter().all(|s| s.file() != kicker.file()) {
            Kicker::LetterFile(letter, kicker.file())
        } else if rivals.iter().all(|s| s.rank() != kicker.rank()) {
            Kicker::LetterRank(letter, kicker.rank())
        } else {
            Kicker::Square(name_of(kicker))
        }
    }

    /// The actions possible now that `part` describes.
    fn matching(&self, part: &Part) -> Vec<Action> {
        let pos = self.mid.position();
        let holds = |s: Square| pos.ball_held() && pos.ball() == Some(s);
        self.actions
            .iter()
            .copied()
            .filter(|&a| match (part, a) {
                (Part::Move(w), Action::Move(m)) => {
                    !matches!(m.kind, MoveKind::InPlace | MoveKind::Drop) && move_matches(w, m)
                }
                (&Part::Drop(letter, to), Action::Move(m)) => {
                    m.kind == MoveKind::Drop && m.letter == letter && square_is(to, m.to)
                }
                (Part::Kick(w), Action::Kick(k)) => self.kick_matches(w, k.kicker, k.to),
                (Part::Kick(w), Action::Move(m)) if m.kind == MoveKind::InPlace => {
                    holds(m.from) && self.kick_matches(w, m.from, m.to)
                }
                (Part::Take(w), Action::Move(m)) if m.kind == MoveKind::InPlace => {
                    !holds(m.from) && self.kick_matches(w, m.from, m.to)
                }
                _ => false,
            })
            .collect()
    }

    fn kick_matches(&self, w: &KickText, kicker: Square, to: Square) -> bool {
        let letter = self.letter(kicker);
        square_is(w.to, to)
            && match w.kicker {
                Kicker::Unspecified => true,
                Kicker::Letter(l) => letter == Some(l),
                Kicker::LetterFile(l, f) => letter == Some(l) && kicker.file() == f,
                Kicker::LetterRank(l, r) => letter == Some(l) && kicker.rank() == r,
                Kicker::Square(s) => square_is(s, kicker),
            }
    }
}

fn move_matches(w: &MoveText, m: PieceMove) -> bool {
    (w.letter == m.letter || w.letter == '?')
        && square_is(w.to, m.to)
        && (w.promotion.is_none() || w.promotion == m.promotion)
        && match w.from {
            Start::Unspecified => true,
            Start::File(f) => m.from.file() == f,
            Start::Rank(r) => m.from.rank() == r,
            Start::Square(s) => square_is(s, m.from),
        }
}

fn square_is(name: SquareName, s: Square) -> bool {
    name.file == s.file() && name.rank == s.rank()
}

fn name_of(s: Square) -> SquareName {
    SquareName { file: s.file(), rank: s.rank() }
}

/// Names turns of one position one after another, keeping the moments of the last turn named:
/// turns named in listing order ([`crate::movegen::each_legal_turn`]) share their first
/// actions, so each moment is worked out about once.
pub struct Namer<'p, 'r> {
    pos: &'p Position<'r>,
    /// The actions of the last turn named and the moment before each.
    path: Vec<(Action, Moment<'r>)>,
}

impl<'p, 'r> Namer<'p, 'r> {
    /// A namer of the turns of `pos`.
    #[must_use]
    pub fn new(pos: &'p Position<'r>) -> Self {
        Namer { pos, path: Vec::new() }
    }

    /// The canonical name of `t`, which must be a legal turn of the position.
    pub fn name(&mut self, t: &Turn) -> String {
        if t.is_null() {
            return "--".to_owned();
        }
        let same = self.path.iter().zip(&t.actions).take_while(|((a, _), b)| a == *b).count();
        self.path.truncate(same);
        for &action in &t.actions[same..] {
            let mid = match self.path.last() {
                Some((a, m)) => m.mid.apply(*a),
                None => Mid::start(self.pos),
            };
            self.path.push((action, Moment::new(mid)));
        }
        let mut parts: Vec<Part> = self.path.iter().map(|(a, m)| m.part(*a)).collect();
        disambiguate_squares(&mut parts, &t.actions);
        let end = self.path.last().map(|(a, m)| m.mid.apply(*a));
        let text =
            TurnText { parts, null: false, goal_mark: end.is_some_and(|m| m.scored().is_some()) };
        text.to_string()
    }
}

/// `Nc3g5>e4` would read as a knight move c3-g5: a move written without its start that is
/// followed by a part naming its piece by a bare square names its file as well.
fn disambiguate_squares(parts: &mut [Part], actions: &[Action]) {
    for i in 1..parts.len() {
        let square_next = matches!(
            parts[i],
            Part::Kick(KickText { kicker: Kicker::Square(_), .. })
                | Part::Take(KickText { kicker: Kicker::Square(_), .. })
        );
        if square_next
            && let (Part::Move(m), Action::Move(action)) = (&mut parts[i - 1], actions[i - 1])
            && m.from == Start::Unspecified
            && m.promotion.is_none()
        {
            m.from = Start::File(action.from.file());
        }
    }
}

/// The canonical names of `turns`, which must be legal turns of `pos`.
#[must_use]
pub fn names(pos: &Position<'_>, turns: &[Turn]) -> Vec<String> {
    let mut namer = Namer::new(pos);
    turns.iter().map(|t| namer.name(t)).collect()
}

/// The canonical name of one legal turn of `pos`.
#[must_use]
pub fn name(pos: &Position<'_>, turn: &Turn) -> String {
    Namer::new(pos).name(turn)
}

/// Reads a turn as a person writes it: the canonical name, a longer form (`Nb1-c3`, a kicker
/// named more than needed), with or without `#` or `x`, with spaces anywhere.
///
/// ```
/// use kickoff::turn_text::names::{name, resolve};
/// use kickoff::{Position, load};
///
/// let def = load("boyer-1951")?;
/// let start = Position::start(&def.rules);
/// let turn = resolve(&start, "Nb1-c3")?;
/// assert_eq!(name(&start, &turn), "Nc3");
/// assert_eq!(turn.to_string(), "Nb1-c3");
/// // A turn that is not legal is refused, with why.
/// assert!(resolve(&start, "Nb1-b3").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Not a turn, not legal here (with the legal alternatives of that piece), ambiguous (with the
/// candidates), not a whole turn, the game is over, or the position has too many turns.
pub fn resolve(pos: &Position<'_>, text: &str) -> Result<Turn, NotationError> {
    if pos.is_goal() {
        return Err(NotationError::Finished);
    }
    // Reading follows the turn action by action: it never lists the position's turns, so a
    // position with very many of them costs no more than any other.
    let written = parse(text, false)?;
    let turn = extend(pos, &Turn::null(), &written, text)?;
    if turn.is_null() {
        return if null_is_legal(pos) {
            Ok(turn)
        } else {
            Err(NotationError::Illegal { text: text.trim().to_owned(), alternatives: Vec::new() })
        };
    }
    let mid = after(pos, &turn);
    let mut more = Vec::new();
    mid.actions(&mut more);
    if !mid.may_stop(!more.is_empty()) {
        return Err(NotationError::Unfinished {
            text: text.trim().to_owned(),
            next: next_actions(pos, &turn),
        });
    }
    Ok(turn)
}

/// Whether the null turn is legal: allowed by the rules, or the forced pass of a side that has
/// no other turn.
fn null_is_legal(pos: &Position<'_>) -> bool {
    let mut actions = Vec::new();
    Mid::start(pos).actions(&mut actions);
    null_allowed(pos) || (actions.is_empty() && !pos.rules().end().no_moves_draws())
}

/// Reads `text` into its parts; `continuing` reads a bare square as a kick there.
fn parse(text: &str, continuing: bool) -> Result<TurnText, NotationError> {
    let mut compact: String = text.split_whitespace().collect();
    if continuing && !compact.contains(['>', '<']) && turn::parse(&compact).is_err() {
        compact = format!(">{compact}");
    }
    turn::parse(&compact)
        .map_err(|error| NotationError::Syntax { text: text.trim().to_owned(), error })
}

/// The state after the actions of `turn` (which must be legal so far).
fn after<'r>(pos: &Position<'r>, turn: &Turn) -> Mid<'r> {
    turn.actions.iter().fold(Mid::start(pos), |mid, &a| mid.apply(a))
}

/// `partial` continued by the parts of `written`, each matched among the actions possible at
/// its moment.
fn extend(
    pos: &Position<'_>,
    partial: &Turn,
    written: &TurnText,
    text: &str,
) -> Result<Turn, NotationError> {
    let mut turn = partial.clone();
    if written.null {
        return if partial.is_null() {
            Ok(turn)
        } else {
            Err(NotationError::Illegal { text: text.trim().to_owned(), alternatives: Vec::new() })
        };
    }
    let mut mid = after(pos, partial);
    for part in &written.parts {
        let moment = Moment::new(mid);
        let found = moment.matching(part);
        match found.as_slice() {
            [one] => {
                turn.actions.push(*one);
                mid = mid.apply(*one);
            }
            [] => {
                return Err(NotationError::Illegal {
                    text: text.trim().to_owned(),
                    alternatives: alternatives(pos, &turn, &moment, part),
                });
            }
            many => {
                let mut candidates: Vec<String> = many
                    .iter()
                    .map(|&a| {
                        let mut t = turn.clone();
                        t.actions.push(a);
                        name(pos, &t)
                    })
                    .collect();
                candidates.sort();
                return Err(NotationError::Ambiguous { text: text.trim().to_owned(), candidates });
            }
        }
    }
    Ok(turn)
}

/// What to suggest instead of an illegal part: the moves of the pieces with that letter, or
/// the kicks (and ball actions) possible at that moment; each as the whole turn so far.
fn alternatives(pos: &Position<'_>, turn: &Turn, moment: &Moment<'_>, part: &Part) -> Vec<String> {
    let mut out: Vec<String> = moment
        .actions
        .iter()
        .filter(|a| match (part, a) {
            (Part::Move(w), Action::Move(m)) => {
                !matches!(m.kind, MoveKind::InPlace | MoveKind::Drop)
                    && (m.letter == w.letter || w.letter == '?')
            }
            (Part::Move(_), _) => false,
            (Part::Drop(..), Action::Move(m)) => m.kind == MoveKind::Drop,
            (Part::Drop(..), _) => false,
            (_, Action::Move(m)) => m.kind == MoveKind::InPlace,
            (_, Action::Kick(_)) => true,
        })
        .map(|&a| {
            let mut t = turn.clone();
            t.actions.push(a);
            name(pos, &t)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Reads one step of a turn entered step by step: `partial` is what has been entered so far,
/// `text` the next part or parts (`Nc3`, `>e6`, `Nc3>e6`; once started, a bare square `e6` is
/// a kick there). The result is the longer partial turn.
///
/// # Errors
/// Not a turn, no action continues this way (with the alternatives), or several do.
pub fn resolve_step(pos: &Position<'_>, partial: &Turn, text: &str) -> Result<Turn, NotationError> {
    let written = parse(text, !partial.is_null())?;
    if written.null && !partial.is_null() {
        return Err(NotationError::Syntax {
            text: text.trim().to_owned(),
            error: ParseError::new("the turn has begun: go on, or end it", 0..text.len()),
        });
    }
    let turn = extend(pos, partial, &written, text)?;
    if turn.is_null() && !null_is_legal(pos) {
        return Err(NotationError::Illegal {
            text: text.trim().to_owned(),
            alternatives: Vec::new(),
        });
    }
    Ok(turn)
}

/// The names of the turns one action longer than `partial`.
#[must_use]
pub fn next_actions(pos: &Position<'_>, partial: &Turn) -> Vec<String> {
    names_one_longer(pos, partial, |_| true)
}

/// The kicks (and ball actions) possible after `partial`, as whole turns.
#[must_use]
pub fn next_kicks(pos: &Position<'_>, partial: &Turn) -> Vec<String> {
    names_one_longer(pos, partial, |a| {
        matches!(a, Action::Kick(_)) || matches!(a, Action::Move(m) if m.kind == MoveKind::InPlace)
    })
}

/// The sorted names of `partial` followed by each action that may follow it and `keep` keeps.
fn names_one_longer(
    pos: &Position<'_>,
    partial: &Turn,
    keep: impl Fn(&Action) -> bool,
) -> Vec<String> {
    let moment = Moment::new(after(pos, partial));
    let mut out: Vec<String> = moment
        .actions
        .iter()
        .filter(|a| keep(a))
        .map(|&a| {
            let mut t = partial.clone();
            t.actions.push(a);
            name(pos, &t)
        })
        .collect();
    out.sort();
    out
}

/// Whether an action may follow `partial`.
#[must_use]
pub fn can_continue(pos: &Position<'_>, partial: &Turn) -> bool {
    let mut actions = Vec::new();
    after(pos, partial).actions(&mut actions);
    !actions.is_empty()
}

/// Whether `partial` (with at least one action) may end the turn.
#[must_use]
pub fn can_stop(pos: &Position<'_>, partial: &Turn) -> bool {
    let mid = after(pos, partial);
    let mut actions = Vec::new();
    mid.actions(&mut actions);
    !partial.is_null() && mid.may_stop(!actions.is_empty())
}

/// The kick `k` as an action (for callers that build turns by hand).
#[must_use]
pub fn kick(kicker: Square, to: Square) -> Action {
    Action::Kick(Kick { kicker, to })
}

/// The same error with the typed text cut and made printable, so that a message never echoes
/// a huge token or a control sequence.
#[must_use]
pub fn notation_error(error: &NotationError) -> NotationError {
    let mut shown = error.clone();
    match &mut shown {
        NotationError::Syntax { text, .. }
        | NotationError::Illegal { text, .. }
        | NotationError::Ambiguous { text, .. }
        | NotationError::Unfinished { text, .. } => *text = excerpt(text).into_owned(),
        NotationError::Finished | NotationError::TooManyTurns(_) => {}
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::movegen::legal_turns_unbounded;

    #[test]
    fn boyer_start_names_are_unique_and_read_back() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules);
        let turns = legal_turns_unbounded(&pos);
        let names = names(&pos, &turns);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), turns.len());
        for (t, n) in turns.iter().zip(&names) {
            assert_eq!(&resolve(&pos, n).unwrap(), t, "{n}");
        }
        assert!(names.contains(&"Nc3".to_owned()), "{names:?}");
    }

    #[test]
    fn forgiving_input() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules);
        let short = resolve(&pos, "Nc3").unwrap();
        assert_eq!(resolve(&pos, " Nb1-c3 ").unwrap(), short);
        assert_eq!(resolve(&pos, "Nb1c3").unwrap(), short);
        assert_eq!(resolve(&pos, "Nbc3").unwrap(), short);
    }

    #[test]
    fn turns_entered_step_by_step() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::from_fen(&rules, "9/9/3R5/9/3a5/3R5/9/9/9 w 0").unwrap();
        let moved = resolve_step(&pos, &Turn::null(), "Rc7").unwrap();
        assert!(moved.kicks().next().is_none() && can_continue(&pos, &moved));
        // A piece move alone may end a turn; no action yet is not a turn to end.
        assert!(can_stop(&pos, &moved) && !can_stop(&pos, &Turn::null()));
        let kicked = resolve_step(&pos, &moved, "d7").unwrap();
        assert_eq!(name(&pos, &kicked), "Rc7>d7");
        let passed = resolve_step(&pos, &kicked, ">f7").unwrap();
        assert_eq!(name(&pos, &passed), "Rc7>d7>f7");
        assert!(!can_continue(&pos, &passed) && can_stop(&pos, &passed));
        let e = resolve_step(&pos, &kicked, "d5").unwrap_err();
        assert!(
            matches!(&e, NotationError::Illegal { alternatives, .. } if alternatives.contains(&"Rc7>d7>e7".to_owned())),
            "{e}"
        );
        assert!(resolve_step(&pos, &moved, "Rd8").is_err(), "one piece move a turn");
        let whole = resolve_step(&pos, &Turn::null(), "Rc7>d7>e7").unwrap();
        assert_eq!(name(&pos, &whole), "Rc7>d7>e7");
    }

    #[test]
    fn errors_say_why() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let pos = Position::start(&rules);
        let e = resolve(&pos, "Nd3").unwrap_err();
        assert!(
            matches!(&e, NotationError::Illegal { alternatives, .. } if alternatives.contains(&"Nc3".to_owned())),
            "{e}"
        );
        let e = resolve(&pos, "N?3").unwrap_err();
        assert!(matches!(e, NotationError::Syntax { .. }), "{e}");
        let e = resolve(&pos, "--").unwrap_err();
        assert!(matches!(e, NotationError::Illegal { .. }), "{e}");
    }

    #[test]
    fn a_long_list_of_alternatives_is_cut_at_24() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        // A lone queen in the middle of the board has 29 moves: 32 squares in her lines, less the
        // two goals and the ball's square.
        let pos = Position::from_fen(&rules, "9/9/9/9/4Q4/9/9/9/a8 w 0").unwrap();
        let e = resolve(&pos, "Qe5").unwrap_err();
        let NotationError::Illegal { alternatives, .. } = &e else { panic!("{e}") };
        assert_eq!(alternatives.len(), 29, "{alternatives:?}");
        let text = e.to_string();
        let (_, listed) = text.split_once("; legal instead: ").expect(&text);
        let words: Vec<&str> = listed.split(' ').collect();
        assert_eq!(words.len(), 25, "{text}");
        assert_eq!(words[..24], alternatives[..24], "{text}");
        assert_eq!(words[24], "...", "{text}");
        // A list of 24 is given whole: the queen on a2 has 24 moves.
        let pos = Position::from_fen(&rules, "8a/9/9/9/9/9/9/Q8/9 w 0").unwrap();
        let e = resolve(&pos, "Qa2").unwrap_err();
        let NotationError::Illegal { alternatives, .. } = &e else { panic!("{e}") };
        assert_eq!(alternatives.len(), 24, "{alternatives:?}");
        assert!(e.to_string().ends_with(&alternatives.join(" ")), "{e}");
    }
}
