//! The piece types: names, Betza moves and kicks, holders, zones and promotions.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::tree::{Node, Value};
use crate::notation::ParseError;
use crate::notation::betza::{self, Problem, ProblemKind};
use crate::rules::leg::{self, Leg};
use crate::rules::redundancy;
use crate::rules::{BallMode, Board, Captures, KickMode, PieceKind, PieceType, Promotion, Rules};

use super::{Compiler, written_at};

/// The most piece types a variant may have (one per letter, minus the ball's).
pub const MAX_PIECE_TYPES: usize = 25;

impl Compiler<'_> {
    /// Every piece type. A piece whose name or moves are missing or wrong (already reported)
    /// keeps its letter with no moves, so that positions using it can still be checked.
    pub(super) fn pieces(&mut self) -> Vec<PieceType> {
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
        let no_captures = (self.setting::<Captures>(&["capture", "mode"]) == Captures::None)
            .then(|| self.setting::<BallMode>(&["ball", "mode"]) == BallMode::Carried);
        letters.into_iter().map(|(letter, _)| self.piece(letter, no_captures)).collect()
    }

    /// The piece `letter`; `no_captures` is, when the variant has no captures, whether the ball
    /// is carried.
    fn piece(&mut self, letter: &str, no_captures: Option<bool>) -> PieceType {
        let key = |k| ["pieces", letter, k];
        let name = self.str(&key("name")).map_or_else(|| letter.to_owned(), |(s, _)| s.to_owned());
        let moves = self.str(&key("moves"));
        let legs = match moves {
            Some((text, node)) => {
                self.betza(node, text, letter, "moves", no_captures, Some(HOP_IN_MOVES))
            }
            None => {
                self.broken.push(letter.to_owned());
                Vec::new()
            }
        };
        let moves_betza = moves.map_or("", |(text, _)| text);
        let kick_mode = match self.optional(&key("kick_mode")) {
            Some(mode) => mode,
            None => self.setting(&["kick", "mode"]),
        };
        // Kicks from beside the ball follow the kicker-to-ball line: no hopper there.
        let carried = self.setting::<BallMode>(&["ball", "mode"]) == BallMode::Carried;
        let hops = (kick_mode == KickMode::Beside && !carried).then_some(HOP_BESIDE);
        let (kick_betza, kicks) = match self.str(&key("kick")) {
            Some((text, node)) => (text, self.betza(node, text, letter, "kick", no_captures, hops)),
            None => (moves_betza, legs.clone()),
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
        let (sprint_betza, sprint) = match self.str(&key("sprint")) {
            Some((text, node)) => {
                (text, self.betza(node, text, letter, "sprint", no_captures, Some(HOP_IN_MOVES)))
            }
            None => ("", Vec::new()),
        };
        PieceType {
            letter: letter.chars().next().unwrap_or('?'),
            name,
            moves_betza: moves_betza.to_owned(),
            kick_betza: kick_betza.to_owned(),
            moves: legs,
            kicks,
            corner_jump: self.setting(&key("corner_jump")),
            jump: self.setting(&key("jump")),
            tackle: self.setting(&key("tackle")),
            kick_mode,
            zone: None,
            place: None,
            goals: self.setting(&key("goals")),
            royal: self.setting(&key("royal")),
            target: self.setting(&key("target")),
            hold: self.setting(&key("hold")),
            backpass: self.setting(&key("backpass")),
            promotion: None,
            goal_promotion: None,
            holder,
            sprint_betza: sprint_betza.to_owned(),
            sprint,
            dribble: self.setting(&key("dribble")),
            lob: self.setting(&key("lob")),
        }
    }

    /// The square lists of each piece (its zone and promotion squares), once the board is known.
    pub(super) fn piece_squares(&mut self, pieces: &mut [PieceType], board: Board) {
        let letters = pieces_letters(pieces);
        for piece in pieces.iter_mut() {
            let letter = piece.letter.to_string();
            let key = |k| ["pieces", letter.as_str(), k];
            let what = format!("the zone of piece {letter}");
            if let Some(zone) = self.squares(&key("zone"), board, &what) {
                piece.zone = Some(zone.into_iter().collect());
            }
            let what = format!("the placement squares of piece {letter}");
            if let Some(place) = self.squares(&key("place"), board, &what) {
                piece.place = Some(place.into_iter().collect());
            }
            if let Some((text, node)) = self.str(&key("goal_promotion")) {
                piece.goal_promotion = self.one_letter(letters.clone(), text, node);
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

    /// The one kind named by `text` (`goal_promotion`), checked against the piece letters; more
    /// or fewer letters are refused as `end.serve`'s are, with a caret under them.
    fn one_letter(&mut self, letters: Vec<char>, text: &str, node: &Node) -> Option<PieceKind> {
        let kinds = self.piece_letters(letters, text, node);
        if text.chars().count() == 1 {
            return kinds.first().copied();
        }
        let e = ParseError::new("write one piece letter, e.g. \"S\"", 0..text.len());
        self.text_error(Code::UnknownPiece, Some(node), text, e, "in `goal_promotion`");
        None
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
    /// parses may still earn warnings: redundancies, and modalities that do nothing here
    /// (capturing moves when `no_captures`, which says whether the ball is carried). A hopper
    /// (`p`) is refused where `refused_hop` says why (E0330): moves keep none of their legs
    /// then, kicks keep theirs.
    fn betza(
        &mut self,
        node: &Node,
        text: &str,
        letter: &str,
        key: &str,
        no_captures: Option<bool>,
        refused_hop: Option<(&str, &str)>,
    ) -> Vec<Leg> {
        // An empty kick pattern: the piece never kicks.
        if text.is_empty() && key == "kick" {
            return Vec::new();
        }
        let context = format!("in the {key} of piece {letter}");
        let parsed = betza::parse(text).and_then(|b| leg::legs(&b).map(|legs| (b, legs)));
        match parsed {
            Ok((parsed, legs)) => {
                let hop = parsed.groups.iter().find(|g| g.modalities.hop);
                let refusal = refused_hop.zip(hop).map(|((message, help), group)| {
                    Problem::new(ProblemKind::Hopper, message, group.span.clone(), help)
                });
                if (key == "moves" || key == "sprint")
                    && let Some(p) = refusal
                {
                    self.string_error(p.kind.into(), node, text, p.detail, &context);
                    self.broken.push(letter.to_owned());
                    return Vec::new();
                }
                let mut notes = redundancy::redundancies(&parsed, text);
                if key == "moves"
                    && let Some(carried) = no_captures
                {
                    notes.extend(redundancy::without_captures(&parsed, text, carried));
                }
                if key == "kick" {
                    notes.extend(redundancy::kick_modalities(&parsed, text));
                }
                for note in notes.into_iter().chain(refusal) {
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

    /// Warns about pieces that can never move on this board.
    pub(super) fn lint_pieces(&mut self, rules: &Rules) {
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

/// Why a hopper (`p`) is refused in a piece's moves: its message and help (E0330).
const HOP_IN_MOVES: (&str, &str) = (
    "`p` (a hopper) is read in kick patterns, as the cannon's kick; a piece's moves never hop",
    "move it with atoms that leap over everything (\"D\") or slides that stop at the first piece (\"R\"); write the hopper in `kick`",
);

/// Why a hopper (`p`) is refused in the kick of a piece that kicks from beside the ball.
const HOP_BESIDE: (&str, &str) = (
    "`p` (a hopper) kicks from the ball's square, and this piece kicks from beside it (`kick_mode = \"beside\"`)",
    "set the piece's `kick_mode = \"from-ball\"` or `\"enter\"`, or give the game a carried ball that holders shoot",
);

/// The White letters of the pieces, in kind order.
fn pieces_letters(pieces: &[PieceType]) -> Vec<char> {
    pieces.iter().map(|p| p.letter).collect()
}
