//! The random setup, `[setup.random]`.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::tree::Node;
use crate::notation::ParseError;
use crate::rules::{GoalAccess, PieceKind, RandomSetup, Rules};
use crate::side::Side;
use crate::square::Square;

use super::{Compiler, written_at};

impl Compiler<'_> {
    /// Reads and checks `[setup.random]`.
    pub(super) fn random(&mut self, rules: &Rules) -> Option<RandomSetup> {
        let table = self.node(&["setup", "random"])?;
        let squares_node = self.node(&["setup", "random", "squares"]);
        let mut squares = match squares_node {
            Some(_) => self.squares(
                &["setup", "random", "squares"],
                rules.board(),
                "the random setup's squares",
            )?,
            None => Vec::new(),
        };
        // Numbers must not depend on the order the squares were written in.
        squares.sort();
        let pieces_text = self.str(&["setup", "random", "pieces"]);
        let mut ok = self.check_random_squares(rules, &squares)?;
        let pieces = match pieces_text {
            Some((letters, node)) => {
                self.letters(rules, letters, Some(node), "in the random setup")?
            }
            None => Vec::new(),
        };
        ok &= self.check_random_pieces_stand(rules, &pieces, &squares)?;
        if let Some(node) = pieces_text.map(|(_, node)| node).or(squares_node) {
            ok &= self.check_random_count(&pieces, &squares, node);
        }
        self.check_random_size(&squares)?;
        let opposite = self.opposite_colors(rules, &pieces, &squares)?;
        let black = self.setting(&["setup", "random", "black"]);
        let balls = self.random_balls(rules, &squares)?;
        if squares.is_empty() && balls.is_empty() {
            self.out.push(
                Diagnostic::new(
                    Code::BadRandomSetup,
                    "the random setup changes nothing: it has no squares and no ball squares",
                    table.at.clone(),
                )
                .with_help("give `squares` and `pieces`, or `ball`, or leave the table out"),
            );
            return None;
        }
        ok.then_some(RandomSetup { squares, pieces, opposite_colors: opposite, black, balls })
    }

    /// Reads `ball`: squares of the board, none a goal, a random square (or its mirror) or a
    /// square where `setup.fen` puts a piece.
    fn random_balls(&mut self, rules: &Rules, squares: &[Square]) -> Option<Vec<Square>> {
        let Some(node) = self.node(&["setup", "random", "ball"]) else { return Some(Vec::new()) };
        let at = node.at.clone();
        let what = "the random setup's ball squares";
        let mut balls = self.squares(&["setup", "random", "ball"], rules.board(), what)?;
        balls.sort();
        balls.dedup();
        let board = rules.board();
        for &b in &balls {
            let random = squares.iter().any(|&s| s == b || board.mirror(s) == b);
            let problem = if rules.scorer(b).is_some() {
                Some("it is a goal square".to_owned())
            } else if random {
                Some("a random piece is put there".to_owned())
            } else if rules.start().pieces.iter().any(|p| p.0 == b) {
                Some("a piece of `setup.fen` stands there".to_owned())
            } else {
                None
            };
            if let Some(problem) = problem {
                self.out.push(Diagnostic::new(
                    Code::BadRandomSetup,
                    format!("in the random setup: the ball may not start on {b}: {problem}"),
                    at,
                ));
                return None;
            }
        }
        Some(balls)
    }

    /// Whether every random square, and its mirror for Black, may receive a piece: neither a
    /// goal nor the ball's start, and not the mirror of another random square.
    fn check_random_squares(&mut self, rules: &Rules, squares: &[Square]) -> Option<bool> {
        let board = rules.board();
        // Pieces are put on the random squares: the ball must stand elsewhere.
        let ball = crate::notation::fen::parse(rules.setup_fen())
            .ok()
            .and_then(|parsed| crate::position::place(rules, &parsed).ok())
            .and_then(|placement| placement.ball);
        let mut ok = true;
        // Goal squares are fine where every piece may stand on one (a carried ball's games).
        let on_goals = rules.pieces().iter().all(|p| p.goals == GoalAccess::Always);
        let goal = |s: Square| rules.scorer(s).is_some() && !on_goals;
        for &s in squares {
            let mirrored = board.mirror(s);
            let problem = if goal(s) {
                Some(format!("{s} is a goal square"))
            } else if let Some(b) = ball.filter(|&b| b == s || b == mirrored) {
                self.ball_on_random_square(b)?;
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
        Some(ok)
    }

    /// Reports the ball starting on `ball`, a random square or the mirror of one.
    fn ball_on_random_square(&mut self, ball: Square) -> Option<()> {
        let node = self.node(&["setup", "fen"])?;
        self.out.push(Diagnostic::new(Code::BallOnRandomSquare,
            format!("the ball starts on {ball}, a square of the random setup"),
            node.at.clone(),
        ).with_help("a piece is placed on every square of `setup.random.squares` and on their mirrors: start the ball elsewhere"));
        Some(())
    }

    /// Whether every piece may land on every random square (and Black's on its mirror): a zone
    /// or a goal the piece may not stand on would make some setups impossible positions.
    fn check_random_pieces_stand(
        &mut self,
        rules: &Rules,
        pieces: &[PieceKind],
        squares: &[Square],
    ) -> Option<bool> {
        let board = rules.board();
        let misplaced = pieces.iter().find_map(|&kind| {
            let s = squares.iter().find(|&&s| {
                !rules.may_stand(Side::White, kind, s)
                    || !rules.may_stand(Side::Black, kind, board.mirror(s))
            })?;
            Some((kind, *s))
        });
        let Some((kind, s)) = misplaced else { return Some(true) };
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
        Some(false)
    }

    /// Whether there are as many random pieces as random squares.
    fn check_random_count(
        &mut self,
        pieces: &[PieceKind],
        squares: &[Square],
        node: &Node,
    ) -> bool {
        if pieces.len() == squares.len() {
            return true;
        }
        self.out.push(Diagnostic::new(
            Code::RandomCount,
            format!(
                "the random setup places {} pieces on {} squares; they must be as many",
                pieces.len(),
                squares.len()
            ),
            node.at.clone(),
        ));
        false
    }

    /// `None` (after reporting) when there are more random squares than setups can number.
    fn check_random_size(&mut self, squares: &[Square]) -> Option<()> {
        if squares.len() <= crate::setup::MAX_SQUARES {
            return Some(());
        }
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
        None
    }

    /// The piece kinds named by a string of letters (of the key said by `context`, e.g. "in
    /// the random setup").
    pub(super) fn letters(
        &mut self,
        rules: &Rules,
        text: &str,
        node: Option<&Node>,
        context: &str,
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
                    self.text_error(Code::UnknownPiece, node, text, e, context);
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
        let kinds = self.letters(rules, text, node, "in the random setup")?;
        let mut ok = true;
        for (i, &kind) in kinds.iter().enumerate() {
            let copies = pieces.iter().filter(|&&k| k == kind).count();
            if copies != 2 {
                let letter = rules.piece(kind).letter;
                let has =
                    if copies == 1 { "1 copy".to_owned() } else { format!("{copies} copies") };
                let e = ParseError::new(
                    format!("`{letter}` has {has} in `pieces`; opposite colours need exactly 2"),
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
}
