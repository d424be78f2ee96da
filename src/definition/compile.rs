//! From a merged, schema-checked definition tree to [`Rules`], reporting every problem found.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::holders;
use crate::definition::keys::{self, FromKey, Literal};
use crate::definition::source::{FileId, Loc, Sources, span_in_string};
use crate::definition::tree::{Node, Table, Value};
use crate::notation::betza;
use crate::notation::{ParseError, fen, squares};
use crate::position::setup::{Placement, place};
use crate::rules::leg::{self, Leg};
use crate::rules::redundancy;
use crate::rules::{
    BallMode, BallRules, Board, Captures, CarriedRules, EndRules, GoalAccess, KickMode, KickRules,
    PieceKind, PieceType, Promotion, RandomSetup, Rules, SquareColour, TurnRules, VariantInfo,
};
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::square_set::SquareSet;

/// The most piece types a variant may have (one per letter, minus the ball's).
pub const MAX_PIECE_TYPES: usize = 25;

/// Reads the typed values of a checked tree and collects problems.
struct Compiler<'a> {
    sources: &'a Sources,
    root: &'a Table,
    out: Vec<Diagnostic>,
    /// Letters of pieces whose moves could not be read (not linted).
    broken: Vec<String>,
}

/// Compiles a merged definition tree into rules (none if any error was found) and every
/// problem found, warnings included.
pub(crate) fn compile(sources: &Sources, root: &Table) -> (Option<Rules>, Vec<Diagnostic>) {
    let mut c = Compiler { sources, root, out: Vec::new(), broken: Vec::new() };
    let rules = c.rules();
    let failed = c.out.iter().any(Diagnostic::is_error);
    (rules.filter(|_| !failed), c.out)
}

impl<'a> Compiler<'a> {
    fn node(&self, path: &[&str]) -> Option<&'a Node> {
        crate::definition::tree::node_at(self.root, path)
    }

    fn str(&self, path: &[&str]) -> Option<(&'a str, &'a Node)> {
        let node = self.node(path)?;
        match &node.value {
            Value::String(s) => Some((s.as_str(), node)),
            _ => None,
        }
    }

    /// The value of a key that has a default: the definition's, else the key table's default.
    /// A value the checks refused has been reported (no rules will be built); the default
    /// stands in for it so that the other parts are still checked.
    fn setting<T: FromKey + Default>(&mut self, path: &[&str]) -> T {
        let given = self.node(path).and_then(|n| Literal::of(&n.value));
        match given.or_else(|| keys::default_of(path)).and_then(T::from_literal) {
            Some(value) => value,
            None => self.bug(path),
        }
    }

    /// The value of a key without a default, if the definition gives one the checks accepted.
    fn optional<T: FromKey>(&mut self, path: &[&str]) -> Option<T> {
        let node = self.node(path)?;
        if node.value == Value::Invalid {
            return None;
        }
        let value = Literal::of(&node.value).and_then(T::from_literal);
        if value.is_none() {
            self.bug::<()>(path);
        }
        value
    }

    /// The text of a key that has a default, and where the definition wrote it (nowhere when
    /// the default stands).
    fn text_setting(&mut self, path: &[&str]) -> Option<(&'a str, Option<&'a Node>)> {
        if let Some((text, node)) = self.str(path) {
            return Some((text, Some(node)));
        }
        match keys::default_of(path) {
            Some(Literal::Str(text)) => Some((text, None)),
            _ => self.bug(path),
        }
    }

    /// Reports a key that the compiler cannot read although the checks passed it: a bug in the
    /// key table or here, never in the definition. Returns a stand-in value.
    fn bug<T: Default>(&mut self, path: &[&str]) -> T {
        self.out.push(
            Diagnostic::new(
                Code::Internal,
                format!("internal error: kickoff cannot read `{}`", path.join(".")),
                written_at(None),
            )
            .with_help("this is a bug in kickoff, not in the definition; please report it"),
        );
        T::default()
    }

    /// Reports a grammar error found inside the string value of `node`.
    fn string_error(&mut self, code: Code, node: &Node, value: &str, e: ParseError, context: &str) {
        let text = &self.sources.get(node.at.file).text;
        let span = span_in_string(text, &node.at.span, value, &e.span);
        let message = format!("{context}: {}", e.message);
        self.out.push(
            Diagnostic::new(code, message, Loc { file: node.at.file, span }).with_help_opt(e.help),
        );
    }

    /// [`Compiler::string_error`] for a text that may be a key's default, written nowhere.
    fn text_error(
        &mut self,
        code: Code,
        node: Option<&Node>,
        value: &str,
        e: ParseError,
        context: &str,
    ) {
        match node {
            Some(node) => self.string_error(code, node, value, e, context),
            None => self.bug(&[context]),
        }
    }

    /// Builds the rules from every part that could be read. Parts that failed have been
    /// reported; checks that depend on them (the position needs the board) are skipped so that
    /// one mistake is not reported several times.
    fn rules(&mut self) -> Option<Rules> {
        let info = self.info();
        let kick = self.kick_rules();
        let mut pieces = self.pieces();
        let ball = self.ball(&pieces);
        self.out.extend(holders::check(self.root, &pieces, ball.as_ref().map(|b| b.symbol)));
        let (turn, end) = (self.turn_rules(), self.end_rules());
        let capture = self.setting(&["capture", "mode"]);
        let board = self.board()?;
        let goals = self.goals(board)?;
        self.piece_squares(&mut pieces, board);
        let mut ball = ball;
        let forbidden = self.squares(&["ball", "forbidden"], board, "the ball's forbidden squares");
        if let (Some(ball), Some(list)) = (ball.as_mut(), forbidden) {
            ball.forbidden = list.into_iter().collect();
        }
        let (fen_text, fen_node) = self.str(&["setup", "fen"])?;
        let mut rules = Rules {
            info,
            board,
            goals,
            pieces,
            ball: ball?,
            capture,
            setup_fen: fen_text.to_owned(),
            start: Placement::new(Vec::new(), Square::at(0, 0), Side::White),
            random: None,
            kick,
            turn,
            end,
            tables: Default::default(),
        };
        if let Some(start) = self.check_setup(&rules, fen_text, fen_node) {
            rules.start = start;
        }
        rules.tables = std::sync::Arc::new(crate::rules::tables::Tables::build(&rules));
        self.check_holders_reach_goals(&rules);
        self.check_combinations(&rules);
        rules.random = self.random(&rules);
        self.lint_pieces(&rules);
        Some(rules)
    }

    fn info(&mut self) -> VariantInfo {
        let year = self.optional(&["variant", "year"]);
        let text = |key: &str| self.str(&["variant", key]).map(|(s, _)| s.to_owned());
        // An empty credit is no credit.
        let credit = |key: &str| text(key).filter(|s| !s.trim().is_empty());
        VariantInfo {
            name: text("name").unwrap_or_default(),
            author: credit("author"),
            year,
            description: credit("description"),
            source: credit("source"),
        }
    }

    /// The board, if both its sizes are known.
    fn board(&mut self) -> Option<Board> {
        let files = self.optional(&["board", "files"]);
        let ranks = self.optional(&["board", "ranks"]);
        let a1: SquareColour = self.setting(&["board", "a1"]);
        let mut board = Board {
            files: files?,
            ranks: ranks?,
            a1_dark: a1 == SquareColour::Dark,
            holes: SquareSet::EMPTY,
        };
        if let Some(holes) = self.squares(&["board", "holes"], board, "the board's holes") {
            board.holes = holes.into_iter().collect();
        }
        Some(board)
    }

    /// Every piece type. A piece whose name or moves are missing or wrong (already reported)
    /// keeps its letter with no moves, so that positions using it can still be checked.
    fn pieces(&mut self) -> Vec<PieceType> {
        let Some(Node { value: Value::Table(table), at, .. }) = self.node(&["pieces"]) else {
            return Vec::new();
        };
        if table.len() > MAX_PIECE_TYPES {
            self.out.push(Diagnostic::new(
                Code::TooManyPieces,
                format!("{} piece types; the limit is {MAX_PIECE_TYPES}", table.len()),
                at.clone(),
            ));
            return Vec::new();
        }
        let letters = crate::definition::tree::written_order(table);
        letters.into_iter().map(|(letter, _)| self.piece(letter)).collect()
    }

    fn piece(&mut self, letter: &str) -> PieceType {
        let key = |k| ["pieces", letter, k];
        let name = self.str(&key("name")).map_or_else(|| letter.to_owned(), |(s, _)| s.to_owned());
        let moves = self.str(&key("moves"));
        let legs = match moves {
            Some((text, node)) => self.betza(node, text, letter, "moves"),
            None => {
                self.broken.push(letter.to_owned());
                Vec::new()
            }
        };
        let moves_betza = moves.map_or("", |(text, _)| text);
        let (kick_betza, kicks) = match self.str(&key("kick")) {
            Some((text, node)) => (text, self.betza(node, text, letter, "kick")),
            None => (moves_betza, legs.clone()),
        };
        let kick_mode = match self.optional(&key("kick_mode")) {
            Some(mode) => mode,
            None => self.setting(&["kick", "mode"]),
        };
        let holder = self.str(&key("holder")).and_then(|(text, node)| {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => Some(c),
                _ => {
                    self.out.push(
                        Diagnostic::new(
                            Code::BadHolder,
                            format!(
                                "a holder letter must be one uppercase letter, found \"{text}\""
                            ),
                            node.at.clone(),
                        )
                        .with_help("e.g. holder = \"S\": White writes it S, Black s"),
                    );
                    None
                }
            }
        });
        PieceType {
            letter: letter.chars().next().unwrap_or('?'),
            name,
            moves_betza: moves_betza.to_owned(),
            kick_betza: kick_betza.to_owned(),
            moves: legs,
            kicks,
            corner_jump: self.setting(&key("corner_jump")),
            kick_mode,
            zone: None,
            goals: self.setting(&key("goals")),
            royal: self.setting(&key("royal")),
            promotion: None,
            holder,
        }
    }

    /// The square lists of each piece (its zone and promotion squares), once the board is known.
    fn piece_squares(&mut self, pieces: &mut [PieceType], board: Board) {
        let letters = pieces_letters(pieces);
        for piece in pieces.iter_mut() {
            let letter = piece.letter.to_string();
            let key = |k| ["pieces", letter.as_str(), k];
            let what = format!("the zone of piece {letter}");
            if let Some(zone) = self.squares(&key("zone"), board, &what) {
                piece.zone = Some(zone.into_iter().collect());
            }
            let what = format!("the promotion squares of piece {letter}");
            let Some(squares) = self.squares(&key("promotion"), board, &what) else { continue };
            let to = match self.str(&key("promote_to")) {
                Some((text, node)) => self.piece_letters(letters.clone(), text, node),
                None => {
                    let node = self.node(&key("promotion"));
                    self.out.push(
                        Diagnostic::new(Code::NoPromotion,
                            format!("piece {letter} has promotion squares but no `promote_to`"),
                            written_at(node),
                        )
                        .with_help("say what it becomes, e.g. promote_to = \"Q\" (or \"QRBN\" for a choice)"),
                    );
                    continue;
                }
            };
            piece.promotion = Some(Promotion { squares: squares.into_iter().collect(), to });
        }
    }

    /// The kinds named by `text`, one letter each, checked against the piece letters.
    fn piece_letters(&mut self, letters: Vec<char>, text: &str, node: &Node) -> Vec<PieceKind> {
        let mut out = Vec::new();
        for c in text.chars() {
            match letters.iter().position(|&l| l == c) {
                Some(i) => out.push(PieceKind(i as u8)),
                None => {
                    self.out.push(
                        Diagnostic::new(
                            Code::UnknownPiece,
                            format!("`{c}` is not a piece of this variant"),
                            node.at.clone(),
                        )
                        .with_help(format!(
                            "the pieces are {}",
                            letters.iter().collect::<String>()
                        )),
                    );
                }
            }
        }
        out
    }

    /// The legs of a Betza string; none (after reporting) when it does not parse. A string that
    /// parses may still earn warnings: redundancies, and modalities that do nothing here.
    fn betza(&mut self, node: &Node, text: &str, letter: &str, key: &str) -> Vec<Leg> {
        // An empty kick pattern: the piece never kicks.
        if text.is_empty() && key == "kick" {
            return Vec::new();
        }
        let context = format!("in the {key} of piece {letter}");
        let parsed = betza::parse(text).and_then(|b| leg::legs(&b).map(|legs| (b, legs)));
        match parsed {
            Ok((parsed, legs)) => {
                let mut notes = redundancy::redundancies(&parsed, text);
                if key == "moves"
                    && self.setting::<Captures>(&["capture", "mode"]) == Captures::None
                {
                    let carried = self.setting::<BallMode>(&["ball", "mode"]) == BallMode::Carried;
                    notes.extend(redundancy::without_captures(&parsed, text, carried));
                }
                if key == "kick" {
                    notes.extend(redundancy::kick_modalities(&parsed, text));
                }
                for note in notes {
                    self.string_error(note.kind.into(), node, text, note.detail, &context);
                }
                legs
            }
            Err(e) => {
                self.string_error(e.kind.into(), node, text, e.detail, &context);
                self.broken.push(letter.to_owned());
                Vec::new()
            }
        }
    }

    fn ball(&mut self, pieces: &[PieceType]) -> Option<BallRules> {
        let symbol = self.ball_symbol(pieces)?;
        Some(BallRules {
            symbol,
            mode: self.setting(&["ball", "mode"]),
            forbidden: SquareSet::EMPTY,
            carried: CarriedRules {
                pass: self.setting(&["ball", "pass"]),
                take_from_friend: self.setting(&["ball", "take_from_friend"]),
                steal: self.setting(&["ball", "steal"]),
                holder_captures: self.setting(&["ball", "holder_captures"]),
                steal_back: self.setting(&["ball", "steal_back"]),
            },
        })
    }

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

    fn goals(&mut self, board: Board) -> Option<BySide<Vec<Square>>> {
        let white = self.squares(&["goals", "white"], board, "White's goal");
        let black = self.squares(&["goals", "black"], board, "Black's goal");
        let (white, black) = (white?, black?);
        if let Some(both) = white.iter().find(|s| black.contains(s)) {
            let node = self.node(&["goals", "black"])?;
            self.out.push(Diagnostic::new(
                Code::SharedGoal,
                format!("{both} is a goal of both White and Black"),
                node.at.clone(),
            ));
            return None;
        }
        Some(BySide { white, black })
    }

    fn squares(&mut self, path: &[&str], board: Board, what: &str) -> Option<Vec<Square>> {
        let (text, node) = self.str(path)?;
        let parsed = squares::parse(text)
            .and_then(|items| squares::expand(&items, board.files, board.ranks));
        match parsed {
            Ok(list) => Some(list),
            Err(e) => {
                self.string_error(Code::BadSquares, node, text, e, &format!("in {what}"));
                None
            }
        }
    }

    fn kick_rules(&mut self) -> KickRules {
        KickRules {
            enter: self.setting(&["kick", "enter"]),
            direction: self.setting(&["kick", "direction"]),
            per_piece: self.setting(&["kick", "per_piece"]),
            leap_adjacent: self.setting(&["kick", "leap_adjacent"]),
            corner_exception: self.setting(&["kick", "corner_exception"]),
            goal_rank: self.setting(&["kick", "goal_rank"]),
        }
    }

    fn turn_rules(&mut self) -> TurnRules {
        TurnRules {
            null: self.setting(&["turn", "null"]),
            no_goal_before: self.setting(&["turn", "no_goal_before"]),
            moves: self.setting(&["turn", "moves"]),
            kicks: self.setting(&["turn", "kicks"]),
            order: self.setting(&["turn", "order"]),
            end_early: self.setting(&["turn", "end_early"]),
        }
    }

    fn end_rules(&mut self) -> EndRules {
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
        };
        self.check_match(&rules);
        rules
    }

    /// A match needs a way to end: points that win it, or a turn limit.
    fn check_match(&mut self, end: &EndRules) {
        // A misspelt `after_goal` is reported once, by its own check, not read as "end" here.
        if matches!(self.node(&["end", "after_goal"]).map(|n| &n.value), Some(Value::Invalid)) {
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

    /// With a carried ball a side scores by holding it on a goal square: some piece of each
    /// side must be able to stand on one.
    fn check_holders_reach_goals(&mut self, rules: &Rules) {
        if rules.ball().mode != BallMode::Carried {
            return;
        }
        let t = rules.tables();
        for side in Side::ALL {
            let reachable = (0..rules.pieces().len()).any(|kind| {
                let key = t.piece_key(side, kind);
                rules
                    .goals(side)
                    .iter()
                    .any(|&g| t.stand[key].contains(g) || t.capture_on[key].contains(g))
            });
            if !reachable {
                let key = if side == Side::White { "white" } else { "black" };
                self.out.push(
                    Diagnostic::new(Code::NoHolderOnGoal,
                        format!(
                            "with a carried ball {} scores by holding it on a goal square, but no \
                             piece may stand on one",
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
    fn check_combinations(&mut self, rules: &Rules) {
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
        if rules.ball().mode != BallMode::Carried {
            self.carried_keys_on_kicked_ball(rules);
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
    fn carried_keys_on_kicked_ball(&mut self, rules: &Rules) {
        // A key written with its default value asks for nothing: only the others are refused.
        let mut nodes: Vec<(String, Loc)> = Vec::new();
        for key in ["pass", "take_from_friend", "steal", "holder_captures", "steal_back"] {
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
        }
        for (key, at) in nodes {
            let message = format!("`{key}` is a rule of a carried ball, but this ball is kicked");
            let help = "set `[ball] mode = \"carried\"`, or leave the key out";
            self.out
                .push(Diagnostic::new(Code::CarriedKeyOnKickedBall, message, at).with_help(help));
        }
    }

    /// Checks `setup.fen` against the rules; the start position if it is one.
    fn check_setup(&mut self, rules: &Rules, text: &str, node: &Node) -> Option<Placement> {
        let parsed = match fen::parse(text) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.string_error(Code::BadStartPosition, node, text, e, "in the start position");
                return None;
            }
        };
        match place(rules, &parsed) {
            Ok(placement) => {
                if let Some(side) = rules.scorer(placement.ball)
                    && !placement.held
                {
                    self.out.push(Diagnostic::new(
                        Code::StartOnGoal,
                        format!(
                            "the start position has the ball on {}, a goal of {}",
                            placement.ball,
                            side.name()
                        ),
                        node.at.clone(),
                    ));
                }
                Some(placement)
            }
            Err(problems) => {
                for e in problems {
                    self.string_error(
                        Code::BadStartPosition,
                        node,
                        text,
                        e,
                        "in the start position",
                    );
                }
                None
            }
        }
    }

    /// Reads and checks `[setup.random]`.
    fn random(&mut self, rules: &Rules) -> Option<RandomSetup> {
        self.node(&["setup", "random"])?;
        let board = rules.board();
        let mut squares =
            self.squares(&["setup", "random", "squares"], board, "the random setup's squares")?;
        // Numbers must not depend on the order the squares were written in.
        squares.sort();
        let (letters, letters_node) = self.str(&["setup", "random", "pieces"])?;
        // Pieces are put on the random squares: the ball must stand elsewhere.
        let ball = crate::notation::fen::parse(rules.setup_fen())
            .ok()
            .and_then(|parsed| crate::position::place(rules, &parsed).ok())
            .map(|placement| placement.ball);
        let mut ok = true;
        // Goal squares are fine where every piece may stand on one (a carried ball's games).
        let on_goals = rules.pieces().iter().all(|p| p.goals == GoalAccess::Always);
        let goal = |s: Square| rules.scorer(s).is_some() && !on_goals;
        for &s in &squares {
            let mirrored = board.mirror(s);
            let problem = if goal(s) {
                Some(format!("{s} is a goal square"))
            } else if let Some(b) = ball.filter(|&b| b == s || b == mirrored) {
                let node = self.node(&["setup", "fen"])?;
                self.out.push(Diagnostic::new(Code::BallOnRandomSquare,
                    format!("the ball starts on {b}, a square of the random setup"),
                    node.at.clone(),
                ).with_help("a piece is placed on every square of `setup.random.squares` and on their mirrors: start the ball elsewhere"));
                ok = false;
                None
            } else if squares.contains(&mirrored) {
                Some(format!("{s} and its mirror {mirrored} are both White's squares"))
            } else if goal(mirrored) {
                Some(format!("Black's square {mirrored} (the mirror of {s}) is a goal square"))
            } else {
                None
            };
            if let Some(problem) = problem {
                let node = self.node(&["setup", "random", "squares"])?;
                self.out.push(Diagnostic::new(
                    Code::BadRandomSetup,
                    format!("in the random setup: {problem}"),
                    node.at.clone(),
                ));
                ok = false;
            }
        }
        let pieces = self.letters(rules, letters, Some(letters_node))?;
        // Every piece may land on every random square (and Black's on its mirror): a zone or
        // a goal the piece may not stand on would make some setups impossible positions.
        let misplaced = pieces.iter().find_map(|&kind| {
            let s = squares.iter().find(|&&s| {
                !rules.may_stand(Side::White, kind, s)
                    || !rules.may_stand(Side::Black, kind, board.mirror(s))
            })?;
            Some((kind, *s))
        });
        if let Some((kind, s)) = misplaced {
            let node = self.node(&["setup", "random", "squares"])?;
            self.out.push(
                Diagnostic::new(
                    Code::BadRandomSetup,
                    format!(
                        "in the random setup: the {} may not stand on {s} (its zone or its goal \
                         access), but every random square may receive every random piece",
                        rules.piece(kind).name
                    ),
                    node.at.clone(),
                )
                .with_help("take the square out of `setup.random.squares`, or widen the zone"),
            );
            ok = false;
        }
        if pieces.len() != squares.len() {
            self.out.push(Diagnostic::new(
                Code::RandomCount,
                format!(
                    "the random setup places {} pieces on {} squares; they must be as many",
                    pieces.len(),
                    squares.len()
                ),
                letters_node.at.clone(),
            ));
            ok = false;
        }
        if squares.len() > crate::setup::MAX_SQUARES {
            let node = self.node(&["setup", "random", "squares"])?;
            self.out.push(Diagnostic::new(
                Code::RandomTooLarge,
                format!(
                    "the random setup has {} squares; the limit is {}",
                    squares.len(),
                    crate::setup::MAX_SQUARES
                ),
                node.at.clone(),
            ));
            return None;
        }
        let opposite = self.opposite_colors(rules, &pieces, &squares)?;
        let black = self.setting(&["setup", "random", "black"]);
        ok.then_some(RandomSetup { squares, pieces, opposite_colors: opposite, black })
    }

    /// The piece kinds named by a string of letters.
    fn letters(
        &mut self,
        rules: &Rules,
        text: &str,
        node: Option<&Node>,
    ) -> Option<Vec<PieceKind>> {
        let mut kinds = Vec::new();
        let mut ok = true;
        for (i, c) in text.char_indices() {
            match rules.kind_of(c) {
                Some(kind) => kinds.push(kind),
                None => {
                    let message = if c.is_ascii_lowercase()
                        && rules.kind_of(c.to_ascii_uppercase()).is_some()
                    {
                        format!("`{c}`: write White's letters, in uppercase")
                    } else {
                        format!("`{c}` is not a piece of this variant")
                    };
                    let e = ParseError::new(message, i..i + c.len_utf8());
                    self.text_error(Code::UnknownPiece, node, text, e, "in the random setup");
                    ok = false;
                }
            }
        }
        ok.then_some(kinds)
    }

    /// Reads `opposite_colors` and checks that the constraint can be met.
    fn opposite_colors(
        &mut self,
        rules: &Rules,
        pieces: &[PieceKind],
        squares: &[Square],
    ) -> Option<Vec<PieceKind>> {
        let (text, node) = self.text_setting(&["setup", "random", "opposite_colors"])?;
        let kinds = self.letters(rules, text, node)?;
        let mut ok = true;
        for (i, &kind) in kinds.iter().enumerate() {
            let copies = pieces.iter().filter(|&&k| k == kind).count();
            if copies != 2 {
                let letter = rules.piece(kind).letter;
                let e = ParseError::new(
                    format!(
                        "`{letter}` has {copies} copies in `pieces`; opposite colours need exactly 2"
                    ),
                    i..i + 1,
                );
                self.text_error(Code::RandomColours, node, text, e, "in the random setup");
                ok = false;
            }
        }
        let dark = squares.iter().filter(|&&s| rules.board().is_dark(s)).count();
        let light = squares.len() - dark;
        let need = kinds.len();
        if ok && (dark < need || light < need) {
            self.out.push(Diagnostic::new(
                Code::RandomColours,
                format!(
                    "the random setup's colour constraints cannot be met: {} a dark and a light \
                     square each, but the squares are {dark} dark and {light} light",
                    if need == 1 {
                        "1 letter needs".to_owned()
                    } else {
                        format!("{need} letters need")
                    }
                ),
                written_at(node),
            ));
            ok = false;
        }
        ok.then_some(kinds)
    }

    /// Warns about pieces that can never move on this board.
    fn lint_pieces(&mut self, rules: &Rules) {
        let board = rules.board();
        for piece in rules.pieces() {
            if self.broken.contains(&piece.letter.to_string()) {
                continue;
            }
            let can_move = board.squares().any(|s| {
                piece.moves.iter().any(|leg| {
                    s.offset(leg.step.0.into(), leg.step.1.into(), board.files, board.ranks)
                        .is_some()
                })
            });
            if !can_move {
                let letter = piece.letter.to_string();
                if let Some(node) = self.node(&["pieces", &letter, "moves"]) {
                    self.out.push(Diagnostic::new(
                        Code::NoMoves,
                        format!(
                            "the {} (`{}`) has no move at all on a {}x{} board",
                            piece.name, piece.letter, board.files, board.ranks
                        ),
                        node.at.clone(),
                    ));
                }
            }
        }
    }
}

/// Where a value was written; for a default, written nowhere, the top of the definition.
/// The White letters of the pieces, in kind order.
fn pieces_letters(pieces: &[PieceType]) -> Vec<char> {
    pieces.iter().map(|p| p.letter).collect()
}

fn written_at(node: Option<&Node>) -> Loc {
    node.map_or(Loc { file: FileId(0), span: 0..0 }, |n| n.at.clone())
}

#[cfg(test)]
mod tests {
    use crate::definition::keys::{Given, Literal, leaves};
    use crate::definition::load_text;

    /// A definition that gives every required key and nothing else.
    const BARE: &str = "\
[variant]
name = \"bare\"
[board]
files = 5
ranks = 5
[goals]
white = \"c5\"
black = \"c1\"
[pieces.K]
name = \"king\"
moves = \"K\"
[pieces.B]
name = \"bishop\"
moves = \"B\"
[setup]
fen = \"kb3/5/2a2/5/KB3 w 0\"
[setup.random]
squares = \"a1-b1\"
pieces = \"KB\"
";

    /// `BARE` with the key at `path` set to `value` (a piece's key on the king).
    fn with_key(path: &[&str], value: &str) -> String {
        let path: Vec<&str> = path.iter().map(|&p| if p == "X" { "K" } else { p }).collect();
        let (key, table) = path.split_last().unwrap();
        let line = format!("{key} = {value}");
        if table.is_empty() {
            return format!("{line}\n{BARE}");
        }
        let header = format!("[{}]", table.join("."));
        match BARE.find(&format!("{header}\n")) {
            Some(at) => {
                let after = at + header.len() + 1;
                format!("{}{line}\n{}", &BARE[..after], &BARE[after..])
            }
            None => format!("{BARE}{header}\n{line}\n"),
        }
    }

    /// Everything a definition decides, for comparing two of them.
    fn decided(text: &str) -> String {
        let def = load_text("bare.toml", text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let r = &def.rules;
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
            r.board(),
            r.kick(),
            r.turn(),
            r.end(),
            r.pieces(),
            r.random_setup(),
            r.info(),
            r.ball_symbol()
        )
    }

    /// Leaving a key out is the same as writing its default: the compiler reads the defaults of
    /// the key table, which the docs and the JSON Schema show.
    #[test]
    fn a_left_out_key_takes_the_default_of_the_key_table() {
        let bare = decided(BARE);
        let mut checked = 0;
        for (path, key) in leaves() {
            let Given::Default(default) = key.given else { continue };
            let value = match default {
                Literal::Int(n) => n.to_string(),
                Literal::Bool(b) => b.to_string(),
                Literal::Str(s) => format!("\"{s}\""),
            };
            assert_eq!(decided(&with_key(&path, &value)), bare, "`{}`", path.join("."));
            checked += 1;
        }
        assert!(checked >= 15, "only {checked} defaults");
    }

    #[test]
    fn the_defaults_are_the_rules_of_boyers_game() {
        // Boyer's definition writes every option out; docs/rules.md promises that a definition
        // that leaves them out plays by the same rules.
        let boyer = crate::definition::load_shipped("boyer-1951").unwrap().rules;
        let bare = load_text("bare.toml", BARE).unwrap().rules;
        assert_eq!(bare.kick(), boyer.kick());
        assert_eq!(bare.turn(), boyer.turn());
        assert_eq!(bare.end(), boyer.end());
        assert_eq!(bare.board().a1_dark, boyer.board().a1_dark);
    }
}
