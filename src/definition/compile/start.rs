//! The start position, `setup.fen`.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::tree::Node;
use crate::notation::fen;
use crate::position::placement::place_with_reasons;
use crate::rules::Placement;
use crate::rules::Rules;

use super::Compiler;

impl Compiler<'_> {
    /// Checks `setup.fen` against the rules; the start position if it is one.
    pub(super) fn check_setup(
        &mut self,
        rules: &Rules,
        text: &str,
        node: &Node,
    ) -> Option<Placement> {
        let parsed = match fen::parse(text) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.string_error(Code::BadStartPosition, node, text, e, "in the start position");
                return None;
            }
        };
        match place_with_reasons(rules, &parsed) {
            Ok(placement) => {
                let on_goal = match placement.ball {
                    Some(ball) if !placement.held => rules
                        .scorer(ball)
                        .map(|side| format!("the ball on {ball}, a goal of {}", side.name())),
                    Some(_) => None,
                    // Without a ball, a piece on its own side's scoring square has scored.
                    None => placement.pieces.iter().find_map(|&(square, side, _)| {
                        let name = side.name();
                        rules
                            .goals(side)
                            .contains(&square)
                            .then(|| format!("{name}'s piece on {square}, a goal of {name}"))
                    }),
                };
                if let Some(what) = on_goal {
                    self.out.push(Diagnostic::new(
                        Code::StartOnGoal,
                        format!("the start position has {what}"),
                        node.at.clone(),
                    ));
                }
                Some(placement)
            }
            Err(problems) => {
                for (e, reason) in problems {
                    let context = "in the start position";
                    let d = self.string_diagnostic(Code::BadStartPosition, node, text, e, context);
                    self.out.push(Diagnostic { reason, ..d });
                }
                None
            }
        }
    }
}
