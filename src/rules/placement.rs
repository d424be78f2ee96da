//! A checked position as plain values: what [`crate::rules::Rules::start`] holds, what random
//! setups build, and what a position is made from and gives back.

use crate::rules::Board;
use crate::rules::PieceKind;
use crate::side::Side;
use crate::square::Square;
use crate::square_set::SquareSet;

/// A checked position: every piece on the board, the ball, the side to move, the turn count,
/// and the state some variants keep (the score, an en-passant square, the last in-place steal).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The pieces and their squares, from a1 upwards rank by rank.
    pub pieces: Vec<(Square, Side, PieceKind)>,
    /// The ball's square; `None` in a game without a ball.
    pub ball: Option<Square>,
    /// Whether the piece on the ball's square holds it (a carried ball).
    pub held: bool,
    /// The side to move.
    pub side: Side,
    /// Completed turns.
    pub turns: u32,
    /// Goals (points) scored, White's first; always 0-0 where the first goal ends the game.
    pub score: [u16; 2],
    /// The square a piece has just skipped with a double step, which may be captured en passant.
    pub en_passant: Option<Square>,
    /// The last turn's in-place steal (stealer's square, robbed piece's square), which may not
    /// be reversed at once.
    pub steal: Option<(Square, Square)>,
    /// The squares of the pieces still to make their move of the arrangement stage (none once
    /// play has begun, or where the variant has no such stage).
    pub arranging: SquareSet,
    /// Per side (White's first), the pieces of the placement stage's hand still to place, as
    /// bits of [`crate::rules::PlacementStage::pieces`] (bit `i`: the `i`-th piece written);
    /// 0 once the side has placed all it places, and where the variant has no such stage.
    pub hand: [u32; 2],
    /// The keepers' state (rule: `docs/rules.md#the-keeper`), as bits: [`MUST_RELEASE`] and
    /// [`NO_BACKPASS`] of each side.
    pub keepers: u8,
}

/// Bits of [`Placement::keepers`], by side: the side's keeper ended the side's last turn
/// holding the ball, and must give it up this turn (`hold = "one-turn"`).
pub const MUST_RELEASE: [u8; 2] = [1, 2];

/// Bits of [`Placement::keepers`], by side: the side's keepers gave the ball up, and may not be
/// passed it back until an enemy has held it (`backpass = false`).
pub const NO_BACKPASS: [u8; 2] = [4, 8];

impl Placement {
    /// This placement in a mirror held along the files ([`Board::reflect`]): every square
    /// reflected, the pieces in board order again.
    #[must_use]
    pub fn reflected(&self, board: Board) -> Placement {
        let mut pieces: Vec<_> =
            self.pieces.iter().map(|&(s, side, kind)| (board.reflect(s), side, kind)).collect();
        pieces.sort_by_key(|&(s, _, _)| s);
        Placement {
            pieces,
            ball: self.ball.map(|b| board.reflect(b)),
            en_passant: self.en_passant.map(|s| board.reflect(s)),
            steal: self.steal.map(|(a, b)| (board.reflect(a), board.reflect(b))),
            arranging: board.reflect_set(self.arranging),
            ..self.clone()
        }
    }

    /// A placement of `pieces` and a free ball (`None` in a game without a ball) with no score
    /// and nothing pending.
    #[must_use]
    pub fn new(
        pieces: Vec<(Square, Side, PieceKind)>,
        ball: Option<Square>,
        side: Side,
    ) -> Placement {
        Placement {
            pieces,
            ball,
            held: false,
            side,
            turns: 0,
            score: [0, 0],
            en_passant: None,
            steal: None,
            arranging: SquareSet::EMPTY,
            hand: [0, 0],
            keepers: 0,
        }
    }
}
