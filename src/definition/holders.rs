//! Holder letters (a piece's `holder` key, carried-ball games): a position writes a piece that
//! holds the ball by its holder letter, so the letter must tell that piece apart from every other
//! piece, held or not, and from the ball itself, in either case.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::tree::{Table, node_at};
use crate::rules::PieceType;

/// Every holder letter of `pieces` that a position could not tell apart from another piece's
/// letter, another holder letter or the ball's `symbol`, reported at the `holder` value.
pub(crate) fn check(root: &Table, pieces: &[PieceType], symbol: Option<char>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let Some(holder) = piece.holder else { continue };
        let holder_at = ["pieces", &piece.letter.to_string(), "holder"];
        let Some(node) = node_at(root, &holder_at) else { continue };
        if let Some(other) = pieces[..i].iter().find(|p| p.holder == Some(holder)) {
            out.push(
                Diagnostic::new(
                    Code::SharedHolder,
                    format!(
                        "the {} holds the ball as `{holder}`, as the {} does",
                        piece.name, other.name
                    ),
                    node.at.clone(),
                )
                .with_help(
                    "give each piece its own holder letter: a position could not tell them apart",
                ),
            );
        }
        if let Some(other) = pieces.iter().find(|p| p.letter == holder) {
            out.push(
                Diagnostic::new(
                    Code::HolderIsPiece,
                    format!(
                        "the {}'s holder letter `{holder}` is also the letter of the {}",
                        piece.name, other.name
                    ),
                    node.at.clone(),
                )
                .with_help(format!(
                    "choose a holder letter that no piece uses: a position could not tell the {} \
                     holding the ball from the {}",
                    piece.name, other.name
                )),
            );
        }
        if let Some(symbol) = symbol.filter(|s| s.to_ascii_uppercase() == holder) {
            out.push(
                Diagnostic::new(
                    Code::HolderIsBall,
                    format!(
                        "the {}'s holder letter `{holder}` is also the ball's symbol `{symbol}`",
                        piece.name
                    ),
                    node.at.clone(),
                )
                .with_help("choose another holder letter, or another `[ball] symbol`"),
            );
        }
    }
    out
}
