//! Checking a parsed position against the rules: the step from text to a legal placement.

use crate::notation::ParseError;
use std::ops::Range;

use crate::notation::fen::{CellKind, FenSetup, FieldKind, Row};
use crate::rules::{MUST_RELEASE, NO_BACKPASS, PieceKind, Placement, Rules};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;

/// What has been read of a position so far.
#[derive(Default)]
struct Reading {
    pieces: Vec<(Square, Side, PieceKind)>,
    balls: Vec<(Square, Range<usize>)>,
    /// Whether the ball read is held by the piece on its square.
    held: bool,
    /// Balls in ranks of the wrong width, which are not read further.
    unplaced_balls: Vec<Range<usize>>,
    /// Letters already reported as unknown (once each: a rank of strangers is one mistake).
    unknown: Vec<char>,
    problems: Vec<(ParseError, Option<Reason>)>,
}

impl Reading {
    /// Records a problem of the text.
    fn problem(&mut self, e: ParseError) {
        self.problems.push((e, None));
    }
}

/// Why a piece of a position was refused, where the rules (not the text) refuse it: what
/// notes on the problem can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The piece stands on a square of the goal where `scorer` scores (`goals.white` for White).
    OnGoal {
        /// Whose goal holds the square.
        scorer: Side,
    },
    /// The piece stands outside the zone of [pieces.`letter`].
    OutsideZone {
        /// White's letter of the piece.
        letter: char,
    },
    /// The letter (either case) is no piece of the variant.
    UnknownLetter {
        /// The letter as written.
        letter: char,
    },
}

/// Checks a parsed position against `rules`, reporting every problem found (spans are those of
/// the position's text).
///
/// # Errors
/// Wrong number of ranks, a rank of the wrong width, a letter that is no piece, no ball or more
/// than one, a piece on a goal square.
pub fn place(rules: &Rules, fen: &FenSetup) -> Result<Placement, Vec<ParseError>> {
    place_with_reasons(rules, fen)
        .map_err(|problems| problems.into_iter().map(|(e, _)| e).collect())
}

/// [`place`], with each problem the [`Reason`] the rules refused a piece for, if they did.
pub(crate) fn place_with_reasons(
    rules: &Rules,
    fen: &FenSetup,
) -> Result<Placement, Vec<(ParseError, Option<Reason>)>> {
    let board = rules.board();
    if fen.rows.len() != usize::from(board.ranks) {
        let e = ParseError::new(
            format!("the position has {} ranks; the board has {}", fen.rows.len(), board.ranks),
            fen.board_span.clone(),
        );
        return Err(vec![(e, None)]);
    }
    let mut reading = Reading::default();
    for (i, row) in fen.rows.iter().enumerate() {
        read_row(rules, row, board.ranks - 1 - i as u8, &mut reading);
    }
    let ball = the_ball(rules, fen, &mut reading);
    let mut problems = Vec::new();
    let extra = fields(rules, fen, &mut problems);
    reading.problems.extend(problems.into_iter().map(|e| (e, None)));
    match ball {
        Some(ball) if reading.problems.is_empty() => {
            let mut pieces = reading.pieces;
            pieces.sort_by_key(|&(s, _, _)| s);
            let (score, en_passant, steal, arranging, hand, keepers) = extra;
            // A position that leaves the arrangement field out is one where the stage has not
            // begun: every piece is still to arrange (`-` says that play has begun).
            let arranging = match arranging {
                Some(set) => set,
                None if rules.arrangement().is_some() => pieces.iter().map(|p| p.0).collect(),
                None => SquareSet::EMPTY,
            };
            if let Some(s) = arranging.iter().find(|&s| !pieces.iter().any(|p| p.0 == s)) {
                let at = fen.fields.last().map_or(fen.turns_span.clone(), |f| f.span.clone());
                let e = ParseError::new(format!("no piece stands on {s} to be arranged"), at);
                return Err(vec![(e, None)]);
            }
            Ok(Placement {
                pieces,
                ball,
                held: reading.held,
                side: fen.side,
                turns: fen.turns,
                score,
                en_passant,
                steal,
                arranging,
                // Left out, the hands are whole: the stage has not begun.
                hand: hand.unwrap_or_else(|| {
                    let whole = rules.placement_stage().map_or(0, |stage| stage.whole_hand());
                    [whole, whole]
                }),
                keepers,
            })
        }
        _ => Err(reading.problems),
    }
}

/// The fields after the turn count that `rules` has, in this order: the score (a match), the
/// en-passant square (a variant with en passant or a carried ball), the last in-place steal
/// (a carried ball), the pieces still to arrange (an arrangement stage). Fields left out at the
/// end take their empty value, but the arrangement's: left out, every piece is to arrange.
pub fn fields_of(rules: &Rules) -> Vec<&'static str> {
    let mut out = Vec::new();
    if rules.end().keeps_score() {
        out.push("score");
    }
    let carried = rules.carried_ball();
    if carried || rules.pieces().iter().any(|p| p.moves.iter().any(|l| l.en_passant)) {
        out.push("en passant");
    }
    if carried || rules.has_tacklers() {
        out.push("steal");
    }
    if rules.arrangement().is_some() {
        out.push("arrangement");
    }
    if rules.placement_stage().is_some() {
        out.push("hand");
    }
    if rules.has_keepers() {
        out.push("keepers");
    }
    out
}

/// The letters of the keepers' field, with their bits: `R` (`r`), White's (Black's) keeper
/// must give the ball up this turn; `P` (`p`), White's (Black's) keepers may not be passed the
/// ball back.
const KEEPER_LETTERS: [(char, u8); 4] =
    [('R', MUST_RELEASE[0]), ('P', NO_BACKPASS[0]), ('r', MUST_RELEASE[1]), ('p', NO_BACKPASS[1])];

/// The keepers' field written as letters (`RPrp`, each at most once).
fn keepers(letters: &str, at: &Range<usize>) -> Result<u8, ParseError> {
    let mut bits = 0;
    for (i, c) in letters.char_indices() {
        let letter_at = at.start + i..at.start + i + c.len_utf8();
        let Some(&(_, bit)) = KEEPER_LETTERS.iter().find(|(l, _)| *l == c) else {
            let e = ParseError::new(format!("`{c}` is not a keeper's state"), letter_at)
                .with_help("write `R`/`r` (must give the ball up), `P`/`p` (no backpass), or `-`");
            return Err(e);
        };
        if bits & bit != 0 {
            return Err(ParseError::new(format!("`{c}` is written twice"), letter_at));
        }
        bits |= bit;
    }
    Ok(bits)
}

/// The fields read: the score, en passant, the steal, the pieces still to arrange and the hands
/// of a placement stage (none when the field is left out).
type Extra =
    ([u16; 2], Option<Square>, Option<(Square, Square)>, Option<SquareSet>, Option<[u32; 2]>, u8);

/// Reads the fields after the turn count.
fn fields(rules: &Rules, fen: &FenSetup, problems: &mut Vec<ParseError>) -> Extra {
    let expected = fields_of(rules);
    let mut extra: Extra = ([0, 0], None, None, None, None, 0);
    let board = rules.board();
    let on_board = |name: crate::notation::squares::SquareName, at: &Range<usize>| {
        name.on_board(board.files, board.ranks).filter(|&s| board.contains(s)).ok_or_else(|| {
            ParseError::new(format!("{name} is not a square of the board"), at.clone())
        })
    };
    for (i, field) in fen.fields.iter().enumerate() {
        let at = &field.span;
        let Some(&what) = expected.get(i) else {
            let help = if expected.is_empty() {
                "this variant's positions end with the turn count".to_owned()
            } else {
                format!("this variant's positions end with: {}", expected.join(", "))
            };
            problems.push(ParseError::new("one field too many", at.clone()).with_help(help));
            return extra;
        };
        let read = match (what, &field.kind) {
            ("score", FieldKind::Score(w, b)) => {
                match (u16::try_from(*w), u16::try_from(*b)) {
                    (Ok(w), Ok(b)) => extra.0 = [w, b],
                    _ => problems.push(ParseError::new("the score is too large", at.clone())),
                }
                true
            }
            ("en passant" | "steal", FieldKind::None) => true,
            ("arrangement", FieldKind::None) => {
                extra.3 = Some(SquareSet::EMPTY);
                true
            }
            ("keepers", FieldKind::None) => true,
            ("keepers", FieldKind::Letters(letters)) => {
                match keepers(letters, at) {
                    Ok(bits) => extra.5 = bits,
                    Err(e) => problems.push(e),
                }
                true
            }
            ("hand", FieldKind::None) => {
                extra.4 = Some([0, 0]);
                true
            }
            ("hand", FieldKind::Letters(letters)) => {
                match hands(rules, letters, at) {
                    Ok(hand) => extra.4 = Some(hand),
                    Err(e) => problems.push(e),
                }
                true
            }
            ("en passant", FieldKind::Square(s)) => {
                match on_board(*s, at) {
                    Ok(s) => extra.1 = Some(s),
                    Err(e) => problems.push(e),
                }
                true
            }
            ("steal", FieldKind::Squares(a, b)) => {
                match (on_board(*a, at), on_board(*b, at)) {
                    (Ok(a), Ok(b)) => extra.2 = Some((a, b)),
                    (Err(e), _) | (_, Err(e)) => problems.push(e),
                }
                true
            }
            ("arrangement", kind) if !kind.squares().is_empty() => {
                let mut set = SquareSet::EMPTY;
                for name in kind.squares() {
                    match on_board(name, at) {
                        Ok(s) => {
                            set.insert(s);
                        }
                        Err(e) => problems.push(e),
                    }
                }
                extra.3 = Some(set);
                true
            }
            _ => false,
        };
        if !read {
            let example = match what {
                "score" => "the score, e.g. `2-1`",
                "en passant" => "an en-passant square, e.g. `e3`, or `-`",
                "arrangement" => {
                    "the squares of the pieces still to arrange, e.g. `a1b1c1`, or `-`"
                }
                "hand" => "the pieces still in hand, White's then Black's, e.g. `QRqr`, or `-`",
                "keepers" => "the keepers' state, e.g. `Rp`, or `-`",
                _ if rules.has_tacklers() => {
                    "the last turn's tackle (the tackler's square, the tackled piece's), e.g. \
                     `d4d5`, or `-`"
                }
                _ => "an in-place steal, e.g. `b8a9`, or `-`",
            };
            problems.push(ParseError::new(format!("expected {example}"), at.clone()));
        }
    }
    extra
}

/// The hands of a placement stage written as letters (`QRRqr`), as bits of the stage's hand
/// ([`crate::rules::PlacementStage`]). A side holds the whole hand, or what is left of it while
/// it still has pieces to place, or nothing. A mistake is shown at its letter.
fn hands(rules: &Rules, letters: &str, at: &Range<usize>) -> Result<[u32; 2], ParseError> {
    let Some(stage) = rules.placement_stage() else { return Ok([0, 0]) };
    let mut hand = [0u32; 2];
    for (i, c) in letters.char_indices() {
        let letter_at = at.start + i..at.start + i + c.len_utf8();
        let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
        let Some(kind) = rules.kind_of(c.to_ascii_uppercase()) else {
            let e = ParseError::new(format!("`{c}` is not a piece of this variant"), letter_at);
            return Err(e);
        };
        // The first copy of the kind not yet read.
        let free = stage.held(!hand[side.index()]).find(|&(_, k)| k == kind);
        let Some((j, _)) = free else {
            let held: String = stage.pieces.iter().map(|&k| rules.piece(k).letter).collect();
            return Err(ParseError::new(
                format!("`{c}`: {}'s hand holds no more of it (the hand is {held})", side.name()),
                letter_at,
            ));
        };
        hand[side.index()] |= 1 << j;
    }
    for side in Side::ALL {
        let bits = hand[side.index()];
        if bits != 0 && stage.left_to_place(bits) == 0 {
            let placed = stage.pieces.len() - bits.count_ones() as usize;
            return Err(ParseError::new(
                format!(
                    "{} has placed {placed} pieces, all it places: its letters are left out",
                    side.name()
                ),
                at.clone(),
            )
            .with_help(format!(
                "each side places {} of the {} pieces of its hand",
                stage.count,
                stage.pieces.len()
            )));
        }
    }
    Ok(hand)
}

/// Reads one rank (from 0) of the position.
fn read_row(rules: &Rules, row: &Row, rank: u8, reading: &mut Reading) {
    let files = rules.board().files;
    let width = row.width();
    if width != u64::from(files) {
        let at =
            if row.span.is_empty() { row.span.start..row.span.start + 1 } else { row.span.clone() };
        reading.problem(ParseError::new(
            format!("rank {} has {width} squares; the board has {files} files", rank + 1),
            at,
        ));
        // Its ball still counts: a rank of the wrong width is not also a position with no ball.
        let ball = CellKind::Letter(rules.ball_symbol());
        reading.unplaced_balls.extend(
            row.cells.iter().filter(|cell| cell.kind == ball).map(|cell| cell.span.clone()),
        );
        return;
    }
    let mut file = 0u8;
    let board = rules.board();
    for cell in &row.cells {
        let at = Square::at(file, rank);
        let (len, hole) = match cell.kind {
            CellKind::Empty(n) => (n as u8, false),
            CellKind::Letter(c) => {
                if !board.is_hole(at) {
                    read_letter(rules, c, at, cell.span.clone(), reading);
                }
                (1, false)
            }
            CellKind::Hole => (1, true),
        };
        for f in file..file + len {
            let s = Square::at(f, rank);
            if board.is_hole(s) != hole {
                let message = if hole {
                    format!("`*` on {s}, which is a square of the board (holes are written `*`)")
                } else {
                    format!("{s} is a hole of this board: write it `*`")
                };
                reading.problem(ParseError::new(message, cell.span.clone()));
            }
        }
        file += len;
    }
}

/// Reads one letter: the ball, or a piece that may stand there.
fn read_letter(rules: &Rules, c: char, square: Square, span: Range<usize>, reading: &mut Reading) {
    if c == rules.ball_symbol() {
        reading.balls.push((square, span));
        return;
    }
    let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
    let upper = c.to_ascii_uppercase();
    let (kind, held) = match (rules.kind_of(upper), rules.kind_of_holder(upper)) {
        (Some(kind), _) => (kind, false),
        (None, Some(kind)) => (kind, true),
        (None, None) => {
            if !reading.unknown.contains(&upper) {
                reading.unknown.push(upper);
                let reason = Reason::UnknownLetter { letter: c };
                reading.problems.push((unknown_letter(rules, c, span), Some(reason)));
            }
            return;
        }
    };
    if let Some((message, help, reason)) = misplaced(rules, side, kind, square) {
        reading.problems.push((ParseError::new(message, span).with_help(help), Some(reason)));
        return;
    }
    if held {
        reading.balls.push((square, span));
        reading.held = true;
    }
    reading.pieces.push((square, side, kind));
}

/// Why the piece may not stand on `square`, with a hint, if it may not.
fn misplaced(
    rules: &Rules,
    side: Side,
    kind: PieceKind,
    square: Square,
) -> Option<(String, String, Reason)> {
    if rules.may_stand(side, kind, square) {
        return None;
    }
    let piece = rules.piece(kind);
    let who = piece_words(rules, side, kind);
    if let Some(scorer) = rules.scorer(square)
        && rules.barred_from_goal(side, piece, square)
    {
        let never = if piece.never_on_goals() {
            "never stands on a goal square"
        } else {
            "stands on a goal square only carrying the ball into the enemy's"
        };
        return Some((
            format!("{who} stands on the goal square {square}"),
            format!(
                "a {} {never}; to let it, set `goals` in [pieces.{}]",
                piece.name, piece.letter
            ),
            Reason::OnGoal { scorer },
        ));
    }
    let own = if side == Side::White { square } else { rules.board().mirror(square) };
    if piece.zone.is_some_and(|zone| !zone.contains(own)) {
        return Some((
            format!("{who} stands on {square}, outside its zone"),
            format!(
                "`zone` of [pieces.{}] is written for White, and mirrored for Black: {own} is \
                 outside it",
                piece.letter
            ),
            Reason::OutsideZone { letter: piece.letter },
        ));
    }
    None
}

/// The ball's square (`Some(None)` in a game without a ball), if there is exactly one ball
/// (free, or held by a piece), or none in a game without one; otherwise reports the problem.
fn the_ball(rules: &Rules, fen: &FenSetup, reading: &mut Reading) -> Option<Option<Square>> {
    if !rules.has_ball() {
        let first = reading.balls.iter().map(|(_, span)| span.clone());
        let first = first.chain(reading.unplaced_balls.iter().cloned()).min_by_key(|s| s.start);
        if let Some(span) = first {
            reading.problem(
                ParseError::new(
                    format!(
                        "this game has no ball (`ball.mode = \"none\"`), and `{}` is no piece of it",
                        rules.ball_symbol()
                    ),
                    span,
                )
                .with_help("take it out of the position: pieces score by reaching a goal square"),
            );
            return None;
        }
        return Some(None);
    }
    if !reading.unplaced_balls.is_empty() {
        let mut spans: Vec<Range<usize>> =
            reading.balls.iter().map(|(_, span)| span.clone()).collect();
        spans.extend(reading.unplaced_balls.iter().cloned());
        spans.sort_by_key(|span| span.start);
        if let [_, second, ..] = spans.as_slice() {
            reading.problem(ParseError::new(
                format!("the position has {} balls; there must be exactly one", spans.len()),
                second.clone(),
            ));
        }
        return None;
    }
    match reading.balls.as_slice() {
        [(square, _)] => Some(Some(*square)),
        [] => {
            reading.problem(ParseError::new(
                format!("the position has no ball (`{}`)", rules.ball_symbol()),
                fen.board_span.clone(),
            ));
            None
        }
        [_, (_, second), ..] => {
            reading.problem(ParseError::new(
                format!(
                    "the position has {} balls; there must be exactly one",
                    reading.balls.len()
                ),
                second.clone(),
            ));
            None
        }
    }
}

/// "White's knight" / "Black's queen".
fn piece_words(rules: &Rules, side: Side, kind: PieceKind) -> String {
    format!("{}'s {}", side.name(), rules.piece(kind).name)
}

fn unknown_letter(rules: &Rules, c: char, span: Range<usize>) -> ParseError {
    let letters: String = rules.pieces().iter().map(|p| p.letter).collect();
    let ball = if rules.has_ball() {
        format!("; the ball is `{}`", rules.ball_symbol())
    } else {
        "; there is no ball".to_string()
    };
    ParseError::new(format!("`{c}` is not a piece of this variant"), span).with_help(format!(
        "the pieces are {letters} (White) and {} (Black){ball}",
        letters.to_ascii_lowercase(),
    ))
}

impl Placement {
    /// The position's text: ranks from the top, runs of empty squares as decimal numbers, `*`
    /// for holes, the pieces' letters (a holder's own letter for a carried ball), the ball's
    /// symbol, the side to move, the turn count, then the variant's extra fields.
    #[must_use]
    pub fn fen(&self, rules: &Rules) -> String {
        let mut cells = vec![None; SQUARES];
        for &(square, side, kind) in &self.pieces {
            let held = self.held && Some(square) == self.ball;
            cells[square.index()] = Some(piece_letter(rules, side, kind, held));
        }
        if let Some(ball) = self.ball
            && !self.held
        {
            cells[ball.index()] = Some(rules.ball_symbol());
        }
        write_fen(rules, |s| cells[s.index()], self)
    }
}

/// The letter of a piece in positions: its own, or its holder letter while it holds the ball;
/// lowercase for Black.
#[must_use]
pub fn piece_letter(rules: &Rules, side: Side, kind: PieceKind, held: bool) -> char {
    let piece = rules.piece(kind);
    let letter = if held { piece.holder.unwrap_or(piece.letter) } else { piece.letter };
    if side == Side::White { letter } else { letter.to_ascii_lowercase() }
}

/// Writes a position: `letter` gives what stands on each square; the rest comes from `state`
/// (its pieces are not read).
pub(crate) fn write_fen(
    rules: &Rules,
    letter: impl Fn(Square) -> Option<char>,
    state: &Placement,
) -> String {
    let board = rules.board();
    let mut out = String::with_capacity(128);
    for rank in (0..board.ranks).rev() {
        let mut empty = 0;
        for file in 0..board.files {
            let square = Square::at(file, rank);
            let c = if board.is_hole(square) { Some('*') } else { letter(square) };
            match c {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(state.side.fen_char());
    out.push(' ');
    out.push_str(&state.turns.to_string());
    for field in fields_of(rules) {
        out.push(' ');
        match field {
            "score" => out.push_str(&format!("{}-{}", state.score[0], state.score[1])),
            "en passant" => match state.en_passant {
                Some(s) => out.push_str(&s.to_string()),
                None => out.push('-'),
            },
            "hand" if state.hand == [0, 0] => out.push('-'),
            "hand" => {
                let stage = rules.placement_stage();
                for side in Side::ALL {
                    let held = stage.into_iter().flat_map(|s| s.held(state.hand[side.index()]));
                    out.extend(held.map(|(_, kind)| piece_letter(rules, side, kind, false)));
                }
            }
            "keepers" if state.keepers == 0 => out.push('-'),
            "keepers" => {
                for (letter, bit) in KEEPER_LETTERS {
                    if state.keepers & bit != 0 {
                        out.push(letter);
                    }
                }
            }
            "arrangement" if state.arranging.is_empty() => out.push('-'),
            "arrangement" => {
                for s in state.arranging.iter() {
                    out.push_str(&s.to_string());
                }
            }
            _ => match state.steal {
                Some((a, b)) => out.push_str(&format!("{a}{b}")),
                None => out.push('-'),
            },
        }
    }
    out
}
