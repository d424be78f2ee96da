//! Keys that each make sense alone but contradict another, checked on the built rules.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::keys::{self, Literal};
use crate::definition::source::Loc;
use crate::notation::ParseError;
use crate::rules::{
    AfterGoal, BallMode, Captures, Hold, KickMode, PieceType, Rules, Steal, TacklePush,
};
use crate::side::Side;

use super::{Compiler, written_at};

impl Compiler<'_> {
    /// With a carried ball a side scores by holding it on a goal square, and without a ball by
    /// a piece standing on one: some piece of each side must be able to stand on one.
    pub(super) fn check_holders_reach_goals(&mut self, rules: &Rules) {
        let (with, how) = match rules.ball().mode {
            BallMode::Kicked => return,
            BallMode::Carried => ("with a carried ball", "by holding it on a goal square"),
            BallMode::None => ("without a ball", "by a piece reaching a goal square"),
        };
        let t = rules.tables();
        for side in Side::ALL {
            if rules.goals(side).is_empty() && rules.tables().has_targets {
                // The side scores on the enemy's goal piece (`check_targets`).
                continue;
            }
            let reachable = (0..rules.pieces().len()).any(|kind| {
                let key = t.piece_key(side, kind);
                rules.goals(side).iter().any(|&g| {
                    t.stand[key].contains(g)
                        || t.capture_on[key].contains(g)
                        || t.score_on[key].contains(g)
                })
            });
            if !reachable {
                let key = side.key();
                self.out.push(
                    Diagnostic::new(Code::NoHolderOnGoal,
                        format!(
                            "{with} {} scores {how}, but no piece may stand on one",
                            side.name()
                        ),
                        written_at(self.node(&["goals", key])),
                    )
                    .with_help("let pieces stand on goal squares: goals = \"always\" (and zones that include them)"),
                );
            }
        }
    }

    /// Keys that each make sense alone but contradict another: an entering kicker with no
    /// kick pattern, a royal piece where nothing is captured, a carried ball's options on a
    /// kicked ball, a promotion on squares the piece never reaches.
    pub(super) fn check_combinations(&mut self, rules: &Rules) {
        for piece in rules.pieces() {
            let letter = piece.letter.to_string();
            if piece.kick_mode == KickMode::Enter
                && piece.kicks.is_empty()
                && self.node(&["pieces", &letter, "kick_mode"]).is_some()
                && let Some(node) = self
                    .node(&["pieces", &letter, "kick"])
                    .or_else(|| self.node(&["pieces", &letter, "kick_mode"]))
            {
                let message = format!(
                    "the {} kicks by entering the ball's square (`kick_mode = \"enter\"`), but its \
                     kick pattern is empty: it would step onto the ball and could not kick it",
                    piece.name
                );
                let help = "give it a kick pattern (`kick = \"Q\"`), or leave `kick_mode` out so \
                            that it never kicks";
                self.out.push(
                    Diagnostic::new(Code::EnterWithoutKick, message, node.at.clone())
                        .with_help(help),
                );
            }
            if piece.royal
                && rules.captures() == Captures::None
                && let Some(node) = self.node(&["pieces", &letter, "royal"])
            {
                let message = format!(
                    "the {} is royal, but nothing is ever captured (`capture.mode = \"none\"`)",
                    piece.name
                );
                let help = "set `[capture] mode = \"replace\"`, or leave `royal` out";
                self.out.push(
                    Diagnostic::new(Code::RoyalWithoutCaptures, message, node.at.clone())
                        .with_help(help),
                );
            }
            self.check_promotion(rules, piece, &letter);
        }
        self.check_placement_squares(rules);
        self.check_turn_budget(rules);
        self.check_targets(rules);
        self.check_offside(rules);
        self.check_serve(rules);
        self.check_keepers(rules);
        self.check_specials(rules);
        self.check_min_moves(rules);
        self.check_tackle_push(rules);
        if rules.ball().mode == BallMode::None {
            self.ball_rules_without_ball(rules);
        } else if rules.ball().mode != BallMode::Carried {
            self.carried_keys_on_kicked_ball(rules);
        } else if rules.kick().relay
            && let Some(node) = self.node(&["kick", "relay"])
        {
            let message = "`kick.relay` lets a kicked ball pass through teammates, but this \
                           ball is carried: its holders pass it to friends by `ball.pass`";
            let help = "leave `kick.relay` out, or set `[ball] mode = \"kicked\"`";
            self.out.push(
                Diagnostic::new(Code::RelayWithCarriedBall, message, node.at.clone())
                    .with_help(help),
            );
        }
    }

    /// Interception without shots to intercept (E0328), and goal pieces (`target`) that no shot
    /// scores on (E0329): a goal piece scores only by an intercepted shot, and only in a match (the score
    /// says the point; `end.after_goal` other than "end").
    fn check_targets(&mut self, rules: &Rules) {
        let ball = rules.ball();
        let shots = ball.mode == BallMode::Carried && ball.carried.shoot;
        // On a kicked ball or without one, E0323 and E0325 refuse `intercept`.
        if ball.mode == BallMode::Carried
            && ball.carried.intercept
            && !ball.carried.shoot
            && let Some(node) = self.node(&["ball", "intercept"])
        {
            let message = "`ball.intercept` lets the first enemy in a shot's way take the ball, \
                           but holders never shoot (`ball.shoot = false`)";
            let help = "set `[ball] shoot = true`, or leave `intercept` out";
            self.out.push(
                Diagnostic::new(Code::InterceptWithoutShots, message, node.at.clone())
                    .with_help(help),
            );
        }
        for piece in rules.pieces().iter().filter(|p| p.target) {
            let letter = piece.letter.to_string();
            let Some(node) = self.node(&["pieces", &letter, "target"]) else { continue };
            let (why, help) = if !(shots && ball.carried.intercept) {
                (
                    "only a shot that may be intercepted reaches a piece, and this game has none",
                    "set `[ball] mode = \"carried\"`, `shoot = true` and `intercept = true`, or \
                     leave `target` out",
                )
            } else if !rules.end().keeps_score() {
                (
                    "its goals are counted in the score, and this game keeps none \
                     (`end.after_goal = \"end\"`)",
                    "set `[end] after_goal = \"reset\"` (with `goals = 1` the first goal still \
                     wins), or leave `target` out",
                )
            } else {
                continue;
            };
            let message = format!("the {} is its side's goal (`target`), but {why}", piece.name);
            self.out.push(
                Diagnostic::new(Code::TargetCannotScore, message, node.at.clone()).with_help(help),
            );
        }
    }

    /// Where a tackled holder goes (`ball.tackle_push`), where no holder is tackled (on a
    /// kicked ball or without one, E0323 and E0325 refuse it).
    fn check_tackle_push(&mut self, rules: &Rules) {
        let ball = rules.ball();
        if ball.mode == BallMode::Carried
            && ball.carried.steal != Steal::Tackle
            && ball.carried.tackle_push != TacklePush::On
            && let Some(node) = self.node(&["ball", "tackle_push"])
        {
            let message = "`ball.tackle_push` says where a holder robbed by a tackle goes, but \
                           holders are never robbed by a tackle here (`ball.steal` is not \
                           \"tackle\")";
            let help = "set `[ball] steal = \"tackle\"`, or leave `tackle_push` out";
            self.out.push(
                Diagnostic::new(Code::TacklePushWithoutTackle, message, node.at.clone())
                    .with_help(help),
            );
        }
    }

    /// Offside squares (`ball.offside`) where no piece is a goal to hand the ball to (on a
    /// kicked ball or without one, E0323 and E0325 refuse it).
    fn check_offside(&mut self, rules: &Rules) {
        if rules.carried_ball()
            && !rules.tables().has_targets
            && let Some(node) = self.node(&["ball", "offside"])
        {
            let message = "`ball.offside` hands the ball to the enemy's goal piece, but no piece \
                           is a goal (`target`)";
            let help = "make a piece its side's goal (`[pieces.K] target = true`), or leave \
                        `offside` out";
            self.out.push(
                Diagnostic::new(Code::OffsideWithoutTarget, message, node.at.clone())
                    .with_help(help),
            );
        }
    }

    /// A keeper's rules (`hold = "one-turn"`, `backpass = false`) say how a piece keeps and
    /// gives up a carried ball: refused where no ball is carried (E0343).
    fn check_keepers(&mut self, rules: &Rules) {
        if rules.carried_ball() {
            return;
        }
        let set = |p: &PieceType| [("hold", p.hold != Hold::Any), ("backpass", !p.backpass)];
        for (name, key, at) in self.piece_keys_set(rules, set) {
            let message = format!(
                "`{key}` says how the {name} keeps and gives up a carried ball, but this ball is \
                 not carried"
            );
            let help = format!("set `[ball] mode = \"carried\"`, or leave `{key}` out");
            self.out
                .push(Diagnostic::new(Code::KeeperWithoutCarriedBall, message, at).with_help(help));
        }
    }

    /// Sprints and dribbles are actions that are not moves: only action points bound them
    /// (E0344).
    fn check_specials(&mut self, rules: &Rules) {
        if rules.turn().actions != 0 {
            return;
        }
        let set = |p: &PieceType| [("sprint", !p.sprint.is_empty()), ("dribble", p.dribble)];
        for (name, key, at) in self.piece_keys_set(rules, set) {
            let message = format!(
                "the {name}'s `{key}` is an action that is not a move, and only action points \
                 count those, but this game has none"
            );
            let help = "set `[turn] actions` (e.g. 2), or leave the key out";
            self.out.push(
                Diagnostic::new(Code::SpecialWithoutActionPoints, message, at).with_help(help),
            );
        }
    }

    /// The keys of each piece that `set` says it sets (away from their defaults), where the
    /// file writes them: the piece's name, the key, and where.
    fn piece_keys_set<const N: usize>(
        &self,
        rules: &Rules,
        set: impl Fn(&PieceType) -> [(&'static str, bool); N],
    ) -> Vec<(String, &'static str, Loc)> {
        let mut out = Vec::new();
        for piece in rules.pieces() {
            let letter = piece.letter.to_string();
            for (key, on) in set(piece) {
                if let Some(node) = self.node(&["pieces", &letter, key]).filter(|_| on) {
                    out.push((piece.name.clone(), key, node.at.clone()));
                }
            }
        }
        out
    }

    /// A turn that must make more moves (`turn.min_moves`) than it may (`turn.moves`, or its
    /// action points) (E0327).
    fn check_min_moves(&mut self, rules: &Rules) {
        let turn = rules.turn();
        let Some(node) = self.node(&["turn", "min_moves"]) else { return };
        let points = if turn.actions == 0 { u8::MAX } else { turn.actions };
        let limit = turn.moves.min(points);
        if turn.min_moves <= limit {
            return;
        }
        let what = if limit == turn.moves {
            format!("`turn.moves = {}`", turn.moves)
        } else {
            format!("`turn.actions = {}` (action points)", turn.actions)
        };
        let message = format!(
            "`turn.min_moves = {}` asks for more moves than {what} allows in a turn",
            turn.min_moves
        );
        self.out.push(
            Diagnostic::new(Code::BadTurnBudget, message, node.at.clone())
                .with_help(format!("lower `turn.min_moves` to {limit} at most")),
        );
    }

    /// The serve (`end.serve`): a piece's letter, in a carried-ball game whose goals reset
    /// the board (E0342).
    fn check_serve(&mut self, rules: &Rules) {
        let Some((text, node)) = self.str(&["end", "serve"]) else { return };
        let text = text.to_owned();
        let Some(kinds) = self.letters(rules, &text, Some(node), "in `end.serve`") else { return };
        if kinds.len() != 1 {
            let e = ParseError::new("write one piece letter, e.g. \"Q\"", 0..text.len());
            self.text_error(Code::UnknownPiece, Some(node), &text, e, "in `end.serve`");
            return;
        }
        if rules.carried_ball() && rules.end().after_goal == AfterGoal::Reset {
            return;
        }
        let message = "`end.serve` gives the ball to a piece when a goal resets the board, but \
                       this game has no carried ball whose goals reset it";
        let help = "set `[ball] mode = \"carried\"` and `[end] after_goal = \"reset\"`, or leave \
                    `serve` out";
        self.out.push(
            Diagnostic::new(Code::ServeWithoutReset, message, node.at.clone()).with_help(help),
        );
    }

    /// A piece allowed more moves a turn (`turn.moves_per_piece`) than the whole turn has
    /// (`turn.moves`), or more than its action points allow: the extra moves never come.
    fn check_turn_budget(&mut self, rules: &Rules) {
        let turn = rules.turn();
        let Some(node) = self.node(&["turn", "moves_per_piece"]) else { return };
        // The tighter bound: the action points where they are no more than the moves.
        let by_points = turn.actions != 0 && turn.actions <= turn.moves;
        let (limit, what, help) = if by_points {
            (
                turn.actions,
                format!("`turn.actions = {}` (action points)", turn.actions),
                "raise `turn.actions`, or lower `turn.moves_per_piece`",
            )
        } else {
            (
                turn.moves,
                format!("`turn.moves = {}`", turn.moves),
                "raise `turn.moves`, or lower `turn.moves_per_piece`",
            )
        };
        if turn.moves_per_piece <= limit.max(1) {
            return;
        }
        let moves = if limit == 1 { "move" } else { "moves" };
        let message = format!(
            "`turn.moves_per_piece = {}` lets a piece move {} times a turn, but {what} allows only {limit} {moves} a turn",
            turn.moves_per_piece, turn.moves_per_piece
        );
        self.out
            .push(Diagnostic::new(Code::BadTurnBudget, message, node.at.clone()).with_help(help));
    }

    /// Each piece of a placement stage's hand needs a placement square it may stand on; a
    /// piece's `place` needs a placement stage.
    fn check_placement_squares(&mut self, rules: &Rules) {
        let Some(stage) = rules.placement_stage() else {
            for piece in rules.pieces() {
                let letter = piece.letter.to_string();
                if let Some(node) = self.node(&["pieces", &letter, "place"]) {
                    let message = format!(
                        "the {} has placement squares (`place`), but the game has no placement \
                         stage",
                        piece.name
                    );
                    self.out.push(
                        Diagnostic::new(Code::BadPlacementStage, message, node.at.clone())
                            .with_help("add a `[placement]` table, or leave `place` out"),
                    );
                }
            }
            return;
        };
        let t = rules.tables();
        let mut seen = Vec::new();
        for &kind in &stage.pieces {
            let key = t.piece_key(Side::White, kind.index());
            if seen.contains(&kind) || !t.place_on[key].is_empty() {
                continue;
            }
            seen.push(kind);
            let piece = rules.piece(kind);
            let message = format!(
                "the hand holds a {}, but it may stand on none of the squares where it may be placed",
                piece.name
            );
            self.out.push(
                Diagnostic::new(
                    Code::BadPlacementStage,
                    message,
                    written_at(
                        self.node(&["pieces", &piece.letter.to_string(), "place"])
                            .or_else(|| self.node(&["placement", "squares"])),
                    ),
                )
                .with_help(
                    "add squares where it may stand (to `placement.squares`, or its `place`), \
                     or take it out of the hand",
                ),
            );
        }
    }

    /// A promotion needs a promotion square that the piece may stand on.
    fn check_promotion(&mut self, rules: &Rules, piece: &PieceType, letter: &str) {
        let Some(promotion) = &piece.promotion else { return };
        let Some(kind) = rules.pieces().iter().position(|p| p.letter == piece.letter) else {
            return;
        };
        let t = rules.tables();
        let key = t.piece_key(Side::White, kind);
        let reached = rules
            .board()
            .squares()
            .filter(|&s| promotion.squares.contains(s))
            .any(|s| t.stand[key].contains(s) || t.capture_on[key].contains(s));
        if reached {
            return;
        }
        // The zone is the likelier slip (promotion squares usually sit on the far ranks).
        let Some(node) = self
            .node(&["pieces", letter, "zone"])
            .or_else(|| self.node(&["pieces", letter, "promotion"]))
        else {
            return;
        };
        let message = format!(
            "the {} promotes on squares it may never stand on: its zone (or its goal access) \
             leaves out every promotion square",
            piece.name
        );
        let help = "put the promotion squares inside the piece's zone, or widen the zone";
        self.out.push(
            Diagnostic::new(Code::PromotionOutOfReach, message, node.at.clone()).with_help(help),
        );
    }

    /// Passes, steals and holders belong to a carried ball: with a kicked ball they would do
    /// nothing, which is surely not what the author meant.
    /// Without a ball (`ball.mode = "none"`), the keys that only say what the ball does: the
    /// kick table, the pieces' kicks, the ball's own rules, its random start squares, and the
    /// values of the turn and end rules that name it.
    fn ball_rules_without_ball(&mut self, rules: &Rules) {
        let mut nodes: Vec<(String, Loc)> = Vec::new();
        let written = |path: &[&str], nodes: &mut Vec<(String, Loc)>| {
            if let Some(node) = self.node(path) {
                nodes.push((path.join("."), node.at.clone()));
            }
        };
        for (path, _) in keys::leaves() {
            if path.len() == 2 && path[0] == "kick" {
                written(&path, &mut nodes);
            }
        }
        for key in std::iter::once(&"forbidden").chain(CARRIED_BALL_KEYS) {
            written(&["ball", key], &mut nodes);
        }
        written(&["setup", "random", "ball"], &mut nodes);
        if rules.captures() == Captures::Holder
            && let Some(node) = self.node(&["capture", "mode"])
        {
            nodes.push(("capture.mode = \"holder\"".to_owned(), node.at.clone()));
        }
        for piece in rules.pieces() {
            let letter = piece.letter.to_string();
            for key in ["kick", "kick_mode", "corner_jump", "holder", "dribble", "lob"] {
                written(&["pieces", &letter, key], &mut nodes);
            }
        }
        let end = rules.end();
        if end.after_goal == crate::rules::AfterGoal::BallToSpot {
            written(&["end", "after_goal"], &mut nodes);
        }
        if rules.turn().null == crate::rules::NullTurn::WhenAdjacent {
            written(&["turn", "null"], &mut nodes);
        }
        if rules.turn().kicks != 0 {
            written(&["turn", "kicks"], &mut nodes);
        }
        for (key, at) in nodes {
            let message = format!(
                "`{key}` is a rule of the ball, but this game has none (`ball.mode = \"none\"`)"
            );
            let help = "leave the key out, or give the game a ball: `[ball] mode = \"kicked\"`";
            self.out.push(Diagnostic::new(Code::BallRuleWithoutBall, message, at).with_help(help));
        }
    }

    fn carried_keys_on_kicked_ball(&mut self, rules: &Rules) {
        // A key written with its default value asks for nothing: only the others are refused.
        let mut nodes: Vec<(String, Loc)> = Vec::new();
        for key in CARRIED_BALL_KEYS {
            if let Some(node) = self.node(&["ball", key])
                && Literal::of(&node.value) != keys::default_of(&["ball", key])
            {
                nodes.push((format!("ball.{key}"), node.at.clone()));
            }
        }
        for piece in rules.pieces() {
            let letter = piece.letter.to_string();
            if let Some(node) = self.node(&["pieces", &letter, "holder"]) {
                nodes.push((format!("pieces.{letter}.holder"), node.at.clone()));
            }
            let asked = [
                ("dribble", piece.dribble),
                ("lob", piece.lob),
                ("goals", piece.goals == crate::rules::GoalAccess::Holder),
            ];
            for (key, set) in asked {
                if let Some(node) = self.node(&["pieces", &letter, key]).filter(|_| set) {
                    nodes.push((format!("pieces.{letter}.{key}"), node.at.clone()));
                }
            }
        }
        if rules.captures() == Captures::Holder
            && let Some(node) = self.node(&["capture", "mode"])
        {
            nodes.push(("capture.mode = \"holder\"".to_owned(), node.at.clone()));
        }
        for (key, at) in nodes {
            let message = format!("`{key}` is a rule of a carried ball, but this ball is kicked");
            let help = "set `[ball] mode = \"carried\"`, or leave the key out";
            self.out
                .push(Diagnostic::new(Code::CarriedKeyOnKickedBall, message, at).with_help(help));
        }
    }
}

/// The keys of `[ball]` that say what may be done with a carried ball.
const CARRIED_BALL_KEYS: &[&str] = &[
    "pass",
    "take_from_friend",
    "steal",
    "tackle_push",
    "holder_captures",
    "steal_back",
    "shoot",
    "intercept",
    "sweep",
    "offside",
    "over_friends",
];
