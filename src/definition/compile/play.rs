//! The ball and the kick, turn and end rules.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::Loc;
use crate::rules::{
    Arrangement, BallRules, Board, CarriedRules, EndRules, KickRules, PieceType, PlacementStage,
    Rules, TurnRules,
};
use crate::square_set::SquareSet;

use super::{Compiler, written_at};

impl Compiler<'_> {
    /// The ball's rules, if its symbol is one letter that no piece uses.
    pub(super) fn ball(&mut self, pieces: &[PieceType]) -> Option<BallRules> {
        let symbol = self.ball_symbol(pieces)?;
        Some(BallRules {
            symbol,
            mode: self.setting(&["ball", "mode"]),
            forbidden: SquareSet::EMPTY,
            carried: CarriedRules {
                pass: self.setting(&["ball", "pass"]),
                take_from_friend: self.setting(&["ball", "take_from_friend"]),
                steal: self.setting(&["ball", "steal"]),
                tackle_push: self.setting(&["ball", "tackle_push"]),
                holder_captures: self.setting(&["ball", "holder_captures"]),
                steal_back: self.setting(&["ball", "steal_back"]),
                shoot: self.setting(&["ball", "shoot"]),
                intercept: self.setting(&["ball", "intercept"]),
                over_friends: self.setting(&["ball", "over_friends"]),
                sweep: self.setting(&["ball", "sweep"]),
                offside: SquareSet::EMPTY,
            },
        })
    }

    /// The ball's letter: one ASCII letter, neither a piece's nor a holder's.
    fn ball_symbol(&mut self, pieces: &[PieceType]) -> Option<char> {
        let (symbol, node) = self.text_setting(&["ball", "symbol"])?;
        let at = written_at(node);
        let mut chars = symbol.chars();
        let c = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c,
            _ => {
                self.out.push(
                    Diagnostic::new(
                        Code::BadBallSymbol,
                        format!("the ball's symbol must be one ASCII letter, found \"{symbol}\""),
                        at,
                    )
                    .with_help("the ball is written `a` in vchess.club positions"),
                );
                return None;
            }
        };
        let clash = pieces.iter().find(|p| p.letter == c.to_ascii_uppercase());
        if let Some(piece) = clash {
            let (upper, lower) = (piece.letter, piece.letter.to_ascii_lowercase());
            self.out.push(
                Diagnostic::new(
                    Code::BallSymbolClash,
                    format!(
                        "the ball's symbol `{c}` is also a piece letter ({} `{upper}`/`{lower}`)",
                        piece.name
                    ),
                    at,
                )
                .with_help("choose a letter that no piece uses in either case"),
            );
            return None;
        }
        Some(c)
    }

    /// The `[arrangement]` table.
    pub(super) fn arrangement(&mut self, board: Board) -> Option<Arrangement> {
        self.node(&["arrangement"])?;
        let squares =
            self.squares(&["arrangement", "squares"], board, "the arrangement's squares")?;
        Some(Arrangement { squares: squares.into_iter().collect() })
    }

    /// The `[placement]` table: its hand, how many of it each side places, and where. A hand
    /// larger than a position can say, a count larger than the hand, or a stage beside an
    /// arrangement stage is refused (E0326).
    pub(super) fn placement_stage(&mut self, rules: &Rules) -> Option<PlacementStage> {
        self.node(&["placement"])?;
        let board = rules.board();
        let squares = self.squares(&["placement", "squares"], board, "the placement's squares");
        let (text, node) = self.str(&["placement", "pieces"])?;
        let pieces = self.letters(rules, text, Some(node), "in the placement's hand")?;
        let mut refused: Vec<(String, Loc, &str)> = Vec::new();
        if pieces.is_empty() || pieces.len() > crate::position::MAX_HAND {
            let message = format!(
                "the hand holds {} pieces; a placement stage places from 1 to {}",
                pieces.len(),
                crate::position::MAX_HAND
            );
            let help = "write the pieces each side places, e.g. pieces = \"QRRBBNN\"";
            refused.push((message, node.at.clone(), help));
        }
        let count =
            self.optional::<u32>(&["placement", "count"]).map_or(pieces.len(), |n| n as usize);
        if count > pieces.len()
            && let Some(at) = self.node(&["placement", "count"])
        {
            let message =
                format!("each side places {count} pieces, but its hand holds {}", pieces.len());
            refused.push((message, at.at.clone(), "lower the count, or add pieces to the hand"));
        }
        if let Some(arrangement) = self.node(&["arrangement"]) {
            let message = "a game has one stage before play: this one has both a placement \
                           stage and an arrangement stage";
            let help = "keep `[placement]` or `[arrangement]`";
            refused.push((message.to_owned(), arrangement.at.clone(), help));
        }
        let ok = refused.is_empty();
        for (message, at, help) in refused {
            self.out.push(Diagnostic::new(Code::BadPlacementStage, message, at).with_help(help));
        }
        let squares = squares?.into_iter().collect();
        ok.then_some(PlacementStage { pieces, count, squares })
    }

    /// The `[kick]` table.
    pub(super) fn kick_rules(&mut self) -> KickRules {
        KickRules {
            enter: self.setting(&["kick", "enter"]),
            direction: self.setting(&["kick", "direction"]),
            per_piece: self.setting(&["kick", "per_piece"]),
            leap_adjacent: self.setting(&["kick", "leap_adjacent"]),
            corner_exception: self.setting(&["kick", "corner_exception"]),
            goal_rank: self.setting(&["kick", "goal_rank"]),
            relay: self.setting(&["kick", "relay"]),
        }
    }

    /// The `[turn]` table.
    pub(super) fn turn_rules(&mut self) -> TurnRules {
        TurnRules {
            null: self.setting(&["turn", "null"]),
            no_goal_before: self.setting(&["turn", "no_goal_before"]),
            moves: self.setting(&["turn", "moves"]),
            moves_per_piece: self.setting(&["turn", "moves_per_piece"]),
            actions: self.setting(&["turn", "actions"]),
            kicks: self.setting(&["turn", "kicks"]),
            order: self.setting(&["turn", "order"]),
            end_early: self.setting(&["turn", "end_early"]),
            min_moves: self.setting(&["turn", "min_moves"]),
        }
    }

    /// The `[end]` table, checked for a match that can end.
    pub(super) fn end_rules(&mut self) -> EndRules {
        let repetition = self.setting(&["end", "repetition"]);
        if repetition == 1
            && let Some(node) = self.node(&["end", "repetition"])
        {
            self.out.push(
                Diagnostic::new(
                    Code::InstantRepetition,
                    "`end.repetition` of 1 would draw every position at once",
                    node.at.clone(),
                )
                .with_help("use 0 for no repetition rule, or 2 or more"),
            );
        }
        let rules = EndRules {
            own_goal: self.setting(&["end", "own_goal"]),
            repetition,
            repetition_draw: self.setting(&["end", "repetition_draw"]),
            max_turns: self.setting(&["end", "max_turns"]),
            goals: self.setting(&["end", "goals"]),
            after_goal: self.setting(&["end", "after_goal"]),
            next: self.setting(&["end", "next"]),
            no_moves: self.setting(&["end", "no_moves"]),
            serve: self.str(&["end", "serve"]).and_then(|(s, _)| s.chars().next()),
        };
        self.check_match(&rules);
        rules
    }

    /// A match needs a way to end: points that win it, or a turn limit.
    fn check_match(&mut self, end: &EndRules) {
        // A misspelt `after_goal` is reported once, by its own check, not read as "end" here.
        if matches!(
            self.node(&["end", "after_goal"]).map(|n| &n.value),
            Some(crate::definition::tree::Value::Invalid)
        ) {
            return;
        }
        let (keeps, goals, limit) = (end.keeps_score(), end.goals, end.max_turns);
        let problem = if !keeps && goals != 1 {
            Some((
                "goals",
                format!("`end.goals = {goals}` needs a score, but the first goal ends the game"),
                "set `end.after_goal` to \"reset\" or \"ball-to-spot\", or leave `end.goals` at 1",
            ))
        } else if keeps && goals == 0 && limit == 0 {
            Some((
                "goals",
                "a match with no winning score (`end.goals = 0`) and no turn limit never ends"
                    .to_owned(),
                "give `end.goals` a number, or `end.max_turns` a limit",
            ))
        } else {
            None
        };
        if let Some((key, message, help)) = problem {
            let at = written_at(self.node(&["end", key]));
            self.out.push(Diagnostic::new(Code::BadMatchEnd, message, at).with_help(help));
        }
    }
}
