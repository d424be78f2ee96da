//! From a merged, schema-checked definition tree to [`Rules`], reporting every problem found.

use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::{Loc, Sources, span_in_string};
use crate::definition::tree::{Node, Table, Value};
use crate::notation::betza::{self, Leg};
use crate::notation::{ParseError, fen, squares};
use crate::position::setup::place;
use crate::rules::{
    BlackSetup, Board, EndRules, GoalRank, KickDirection, KickRules, NullTurn, OwnGoal, PieceKind,
    PieceType, RandomSetup, Rules, TurnRules, VariantInfo,
};
use crate::side::BySide;
use crate::square::Square;

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
        let (last, init) = path.split_last()?;
        let mut table = self.root;
        for key in init {
            match &table.get(*key)?.value {
                Value::Table(t) => table = t,
                _ => return None,
            }
        }
        table.get(*last)
    }

    fn str(&self, path: &[&str]) -> Option<(&'a str, &'a Node)> {
        let node = self.node(path)?;
        match &node.value {
            Value::String(s) => Some((s.as_str(), node)),
            _ => None,
        }
    }

    fn int(&self, path: &[&str], default: i64) -> i64 {
        match self.node(path).map(|n| &n.value) {
            Some(Value::Integer(n)) => i64::try_from(*n).unwrap_or(default),
            _ => default,
        }
    }

    fn bool(&self, path: &[&str]) -> bool {
        matches!(self.node(path).map(|n| &n.value), Some(Value::Boolean(true)))
    }

    fn choice(&self, path: &[&str], default: &'static str) -> &'a str {
        self.str(path).map_or(default, |(s, _)| s)
    }

    /// Reports a grammar error found inside the string value of `node`.
    fn string_error(&mut self, node: &Node, value: &str, e: ParseError, context: &str) {
        let text = &self.sources.get(node.at.file).text;
        let span = span_in_string(text, &node.at.span, value, &e.span);
        let message = format!("{context}: {}", e.message);
        self.out.push(
            Diagnostic::error(message, Loc { file: node.at.file, span }).with_help_opt(e.help),
        );
    }

    /// Builds the rules from every part that could be read. Parts that failed have been
    /// reported; checks that depend on them (the position needs the board) are skipped so that
    /// one mistake is not reported several times.
    fn rules(&mut self) -> Option<Rules> {
        let info = self.info();
        let pieces = self.pieces();
        let ball = self.ball(&pieces);
        let kick = self.kick_rules();
        let (turn, end) = (self.turn_rules(), self.end_rules());
        let board = self.board()?;
        let goals = self.goals(board)?;
        let (fen_text, fen_node) = self.str(&["setup", "fen"])?;
        let mut rules = Rules {
            info,
            board,
            goals,
            pieces,
            ball: ball?,
            setup_fen: fen_text.to_owned(),
            random: None,
            kick,
            turn,
            end,
            tables: Default::default(),
        };
        rules.tables = std::sync::Arc::new(crate::movegen::tables::Tables::build(&rules));
        self.check_setup(&rules, fen_text, fen_node);
        rules.random = self.random(&rules);
        self.lint_pieces(&rules);
        Some(rules)
    }

    fn info(&self) -> VariantInfo {
        let text = |key: &str| self.str(&["variant", key]).map(|(s, _)| s.to_owned());
        VariantInfo {
            name: text("name").unwrap_or_default(),
            author: text("author"),
            year: self.node(&["variant", "year"]).map(|_| self.int(&["variant", "year"], 0)),
            description: text("description"),
            source: text("source"),
        }
    }

    /// The board, if both its sizes are known.
    fn board(&self) -> Option<Board> {
        let size = |key: &str| match self.node(&["board", key]).map(|n| &n.value) {
            Some(Value::Integer(n)) => u8::try_from(*n).ok(),
            _ => None,
        };
        Some(Board {
            files: size("files")?,
            ranks: size("ranks")?,
            a1_dark: self.choice(&["board", "a1"], "dark") == "dark",
        })
    }

    /// Every piece type. A piece whose name or moves are missing or wrong (already reported)
    /// keeps its letter with no moves, so that positions using it can still be checked.
    fn pieces(&mut self) -> Vec<PieceType> {
        let Some(Node { value: Value::Table(table), at, .. }) = self.node(&["pieces"]) else {
            return Vec::new();
        };
        if table.len() > MAX_PIECE_TYPES {
            self.out.push(Diagnostic::error(
                format!("{} piece types; the limit is {MAX_PIECE_TYPES}", table.len()),
                at.clone(),
            ));
            return Vec::new();
        }
        // In the order they were written, the parent's first.
        let mut letters: Vec<(&String, &Node)> = table.iter().collect();
        letters.sort_by_key(|(_, n)| (std::cmp::Reverse(n.key_at.file.0), n.key_at.span.start));
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
        PieceType {
            letter: letter.chars().next().unwrap_or('?'),
            name,
            moves_betza: moves_betza.to_owned(),
            kick_betza: kick_betza.to_owned(),
            moves: legs,
            kicks,
            corner_jump: self.bool(&key("corner_jump")),
        }
    }

    /// The legs of a Betza string; none (after reporting) when it does not parse.
    fn betza(&mut self, node: &Node, text: &str, letter: &str, key: &str) -> Vec<Leg> {
        match betza::parse(text) {
            Ok(b) => b.legs(),
            Err(e) => {
                self.string_error(node, text, e, &format!("in the {key} of piece {letter}"));
                self.broken.push(letter.to_owned());
                Vec::new()
            }
        }
    }

    fn ball(&mut self, pieces: &[PieceType]) -> Option<char> {
        let Some((symbol, node)) = self.str(&["ball", "symbol"]) else {
            return Some('a');
        };
        let mut chars = symbol.chars();
        let c = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c,
            _ => {
                self.out.push(
                    Diagnostic::error(
                        format!("the ball's symbol must be one ASCII letter, found \"{symbol}\""),
                        node.at.clone(),
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
                Diagnostic::error(
                    format!(
                        "the ball's symbol `{c}` is also a piece letter ({} `{upper}`/`{lower}`)",
                        piece.name
                    ),
                    node.at.clone(),
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
            self.out.push(Diagnostic::error(
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
                self.string_error(node, text, e, &format!("in {what}"));
                None
            }
        }
    }

    fn kick_rules(&self) -> KickRules {
        KickRules {
            direction: match self.choice(&["kick", "direction"], "away") {
                "line" => KickDirection::Line,
                _ => KickDirection::Away,
            },
            per_piece: self.int(&["kick", "per_piece"], 1) as u8,
            leap_adjacent: self.bool(&["kick", "leap_adjacent"]),
            corner_exception: self.bool(&["kick", "corner_exception"]),
            goal_rank: match self.choice(&["kick", "goal_rank"], "no-slide") {
                "allowed" => GoalRank::Allowed,
                _ => GoalRank::NoSlide,
            },
        }
    }

    fn turn_rules(&self) -> TurnRules {
        TurnRules {
            null: match self.choice(&["turn", "null"], "never") {
                "always" => NullTurn::Always,
                "when-adjacent" => NullTurn::WhenAdjacent,
                _ => NullTurn::Never,
            },
            no_goal_before: self.int(&["turn", "no_goal_before"], 0) as u32,
        }
    }

    fn end_rules(&mut self) -> EndRules {
        let repetition = self.int(&["end", "repetition"], 3) as u32;
        if repetition == 1
            && let Some(node) = self.node(&["end", "repetition"])
        {
            self.out.push(
                Diagnostic::error(
                    "`end.repetition` of 1 would draw every position at once",
                    node.at.clone(),
                )
                .with_help("use 0 for no repetition rule, or 2 or more"),
            );
        }
        EndRules {
            own_goal: match self.choice(&["end", "own_goal"], "counts") {
                "forbidden" => OwnGoal::Forbidden,
                _ => OwnGoal::Counts,
            },
            repetition,
            max_turns: self.int(&["end", "max_turns"], 0) as u32,
        }
    }

    /// Checks `setup.fen` against the rules.
    fn check_setup(&mut self, rules: &Rules, text: &str, node: &Node) {
        let parsed = match fen::parse(text) {
            Ok(parsed) => parsed,
            Err(e) => return self.string_error(node, text, e, "in the start position"),
        };
        match place(rules, &parsed) {
            Ok(placement) => {
                if let Some(side) = rules.scorer(placement.ball) {
                    self.out.push(Diagnostic::error(
                        format!(
                            "the start position has the ball on {}, a goal of {}",
                            placement.ball,
                            side.name()
                        ),
                        node.at.clone(),
                    ));
                }
            }
            Err(problems) => {
                for e in problems {
                    self.string_error(node, text, e, "in the start position");
                }
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
        for &s in &squares {
            let mirrored = board.mirror(s);
            let problem = if rules.scorer(s).is_some() {
                Some(format!("{s} is a goal square"))
            } else if let Some(b) = ball.filter(|&b| b == s || b == mirrored) {
                let node = self.node(&["setup", "fen"])?;
                self.out.push(Diagnostic::error(
                    format!("the ball starts on {b}, a square of the random setup"),
                    node.at.clone(),
                ).with_help("a piece is placed on every square of `setup.random.squares` and on their mirrors: start the ball elsewhere"));
                ok = false;
                None
            } else if squares.contains(&mirrored) {
                Some(format!("{s} and its mirror {mirrored} are both White's squares"))
            } else if rules.scorer(mirrored).is_some() {
                Some(format!("Black's square {mirrored} (the mirror of {s}) is a goal square"))
            } else {
                None
            };
            if let Some(problem) = problem {
                let node = self.node(&["setup", "random", "squares"])?;
                self.out.push(Diagnostic::error(
                    format!("in the random setup: {problem}"),
                    node.at.clone(),
                ));
                ok = false;
            }
        }
        let pieces = self.letters(rules, letters, letters_node)?;
        if pieces.len() != squares.len() {
            self.out.push(Diagnostic::error(
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
            self.out.push(Diagnostic::error(
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
        let black = match self.choice(&["setup", "random", "black"], "mirror") {
            "independent" => BlackSetup::Independent,
            _ => BlackSetup::Mirror,
        };
        ok.then_some(RandomSetup { squares, pieces, opposite_colors: opposite, black })
    }

    /// The piece kinds named by a string of letters.
    fn letters(&mut self, rules: &Rules, text: &str, node: &Node) -> Option<Vec<PieceKind>> {
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
                    self.string_error(node, text, e, "in the random setup");
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
        let Some((text, node)) = self.str(&["setup", "random", "opposite_colors"]) else {
            return Some(Vec::new());
        };
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
                self.string_error(node, text, e, "in the random setup");
                ok = false;
            }
        }
        let dark = squares.iter().filter(|&&s| rules.board().is_dark(s)).count();
        let light = squares.len() - dark;
        let need = kinds.len();
        if ok && (dark < need || light < need) {
            self.out.push(Diagnostic::error(
                format!(
                    "the random setup's colour constraints cannot be met: {} a dark and a light \
                     square each, but the squares are {dark} dark and {light} light",
                    if need == 1 {
                        "1 letter needs".to_owned()
                    } else {
                        format!("{need} letters need")
                    }
                ),
                node.at.clone(),
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
                    self.out.push(Diagnostic::warning(
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
