//! A turn: the actions of one side in order, each a piece move or a kick. In Boyer's family a
//! turn is an optional piece move, then kicks; other games interleave them or allow several
//! moves. These are the values the turn generator produces; their text (the long form that
//! `Display` writes, and the short names people type) is written and read in
//! [`crate::turn_text`] and nowhere else.

use crate::square::Square;

/// What a piece move does besides moving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// It moves to `to` (capturing what stands there, where the variant captures).
    #[default]
    Plain,
    /// It captures en passant: it moves to the skipped square `to` and removes the piece that
    /// skipped it.
    EnPassant,
    /// Nobody moves: a carried ball changes hands between the pieces on `from` and `to` (a
    /// pass, a take from a friend, or an in-place steal).
    InPlace,
    /// A piece from the mover's hand is placed on `to` (a placement stage); `from` is `to`.
    Drop,
}

/// A piece's move from one square to another. Its `Display` is the long form of a move
/// ([`crate::turn_text::long`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceMove {
    /// The piece's White (uppercase) letter.
    pub letter: char,
    /// Where it stands.
    pub from: Square,
    /// Where it goes (or, in place, the square of the other piece).
    pub to: Square,
    /// The White letter of the piece it becomes, when it promotes.
    pub promotion: Option<char>,
    /// What kind of move it is.
    pub kind: MoveKind,
}

impl PieceMove {
    /// A plain move.
    #[must_use]
    pub fn new(letter: char, from: Square, to: Square) -> PieceMove {
        PieceMove { letter, from, to, promotion: None, kind: MoveKind::Plain }
    }

    /// A piece of the placement stage's hand placed on `to`.
    #[must_use]
    pub fn drop(letter: char, to: Square) -> PieceMove {
        PieceMove { letter, from: to, to, promotion: None, kind: MoveKind::Drop }
    }
}

/// One kick: the piece on `kicker` sends the ball to `to` (an entering kicker first steps onto
/// the ball's square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kick {
    /// The kicking piece's square.
    pub kicker: Square,
    /// The ball's destination.
    pub to: Square,
}

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves (or, with a carried ball, acts in place).
    Move(PieceMove),
    /// A piece kicks the ball.
    Kick(Kick),
}

/// One side's whole turn. With no action it is the null turn (or a forced pass). Its `Display`
/// is the long form ([`crate::turn_text::long`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The actions, in order.
    pub actions: Vec<Action>,
}

impl Turn {
    /// The null turn (also written for a forced pass).
    #[must_use]
    pub fn null() -> Turn {
        Turn::default()
    }

    /// A turn of Boyer's family: an optional piece move, then kicks.
    #[must_use]
    pub fn new(piece_move: Option<PieceMove>, kicks: &[Kick]) -> Turn {
        let actions = piece_move.map(Action::Move).into_iter();
        Turn { actions: actions.chain(kicks.iter().map(|&k| Action::Kick(k))).collect() }
    }

    /// Whether the turn does nothing.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.actions.is_empty()
    }

    /// The piece moves, in order.
    pub fn moves(&self) -> impl Iterator<Item = &PieceMove> {
        self.actions.iter().filter_map(|a| match a {
            Action::Move(m) => Some(m),
            Action::Kick(_) => None,
        })
    }

    /// The kicks, in order.
    pub fn kicks(&self) -> impl Iterator<Item = &Kick> {
        self.actions.iter().filter_map(|a| match a {
            Action::Kick(k) => Some(k),
            Action::Move(_) => None,
        })
    }

    /// The first piece move, if the turn has one.
    #[must_use]
    pub fn first_move(&self) -> Option<PieceMove> {
        self.moves().next().copied()
    }
}
