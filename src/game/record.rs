//! Game records: writing a game as PGN-style text, reading one back turn by turn, and saving
//! atomically so that a crash never leaves a half-written record.
//!
//! ```text
//! [Variant "boyer-1951"]
//! [White "human"]
//! [Black "engine:3"]
//! [Date "2026.11.29"]
//! [Result "1-0"]
//! [Termination "goal"]
//!
//! 1. Nc3 Nf7 2. Nd5>e6 ...
//! ```

use std::convert::Infallible;
use std::ops::ControlFlow;

use crate::definition::{Origin, Sources};
use crate::game::{Ending, Game, GameError, GameResult, Ply, move_label};
use crate::notation::ParseError;
use crate::notation::record::{EMBEDDED, RecordText, TurnToken, escape};
use crate::position::{FenError, Finished, Position};
use crate::rules::Rules;
use crate::setup::{self, SetupNumber};
use crate::side::Side;
use crate::text::{excerpt, printable};
use crate::turn_text::names::notation_error;
use crate::turn_text::names::{NotationError, resolve};

mod save;
mod variant;

pub use save::{SaveError, Target, remove_strays, save_atomically, target};
pub use variant::{definition_hash, variant_tag};

/// Why a definition cannot travel inside a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unembeddable {
    /// Its text has a `}`, which would end the comment that carries it.
    #[error("its text has a `}}`, which would end the comment that carries it")]
    ClosingBrace,
    /// It extends a file, and a record carries one file only.
    #[error(
        "it extends another file (a record carries one file, which may extend shipped variants \
         only)"
    )]
    ExtendsFile,
}

/// The text a record carries for the definition read from `sources` ([`Game::definition`]),
/// or why it cannot: a record carries one file, which may extend shipped variants only, in a
/// comment that ends at the first `}`.
///
/// # Errors
/// Why the definition cannot travel inside a record.
pub fn embeddable(sources: &Sources) -> Result<String, Unembeddable> {
    let mut files = sources.files();
    let root = files.next().map(|root| root.text.clone()).unwrap_or_default();
    if root.contains('}') {
        return Err(Unembeddable::ClosingBrace);
    }
    if files.any(|f| matches!(f.origin, Origin::Disk(_))) {
        return Err(Unembeddable::ExtendsFile);
    }
    Ok(root)
}

/// The tags a game writes itself; others are kept as they were read.
const OWN_TAGS: &[&str] =
    &["Variant", "VariantHash", "SetupNumber", "SetUp", "FEN", "Result", "Termination"];

/// The width movetext is wrapped to.
const WIDTH: usize = 79;

/// The record of a game, naming its variant as the game does.
#[must_use]
pub fn write(game: &Game<'_>) -> String {
    write_naming(game, game.variant())
}

/// The record of a game to be saved in the file `path`: a definition file is named by its path
/// from the record's folder ([`variant_tag`]).
#[must_use]
pub fn write_at(game: &Game<'_>, path: &std::path::Path) -> String {
    write_naming(game, &variant_tag(game.variant(), path))
}

/// The record of a game whose variant is named `variant`.
fn write_naming(game: &Game<'_>, variant: &str) -> String {
    let mut out = String::new();
    let mut tag =
        |name: &str, value: &str| out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    tag("Variant", variant);
    if let Some(hash) = &game.variant_hash {
        tag("VariantHash", hash);
    }
    if let Some(n) = game.setup_number() {
        tag("SetupNumber", &n.to_string());
    }
    if !game.from_variant_start() {
        tag("SetUp", "1");
        tag("FEN", &game.start().fen());
    }
    for (name, value) in game.tags.iter().filter(|(name, _)| !OWN_TAGS.contains(&name.as_str())) {
        tag(name, value);
    }
    let ending = game.ending();
    let result = ending.map_or_else(|| "*".to_owned(), |e| e.result().to_string());
    tag("Result", &result);
    let termination = match ending {
        // A recorded result keeps the record's own reason, or states none.
        Some(Ending::Recorded { .. }) => kept_termination(game),
        Some(ending) => Some(ending.tag()),
        None => Some("unterminated"),
    };
    if let Some(termination) = termination {
        tag("Termination", termination);
    }
    out.push('\n');
    if let Some(definition) = &game.definition {
        out.push_str(&format!("{{{EMBEDDED}{}", definition));
        if !definition.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("}\n\n");
    }
    out.push_str(&movetext(game, &result));
    out
}

/// `1. Nc3 Nf7 {comment} 2. ...` wrapped to [`WIDTH`], ending with the result.
fn movetext(game: &Game<'_>, result: &str) -> String {
    let mut words: Vec<String> = game.leading_comments.iter().map(|c| format!("{{{c}}}")).collect();
    for (i, ply) in game.plies().iter().enumerate() {
        if game.side_at(i) == Side::White || i == 0 {
            words.push(game.label(i));
        }
        words.push(ply.name.clone());
        words.extend(ply.comments.iter().map(|c| format!("{{{c}}}")));
        if let Some(score) = score_after(game, i)
            && !ply.comments.contains(&score)
        {
            words.push(format!("{{{score}}}"));
        }
    }
    words.push(result.to_owned());
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// "score 2-1" after a turn that scored in a match (a game that keeps a score), so that a
/// reader of the record sees the score without replaying it; a record read back keeps it as a
/// comment.
fn score_after(game: &Game<'_>, i: usize) -> Option<String> {
    if !game.rules().end().keeps_score() || !game.plies()[i].name.ends_with('#') {
        return None;
    }
    let [white, black] = game.position_at(i + 1).score();
    Some(format!("score {white}-{black}"))
}

/// Why a record cannot be read to its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The record's text is malformed.
    #[error("the record is malformed: {0}")]
    Syntax(ParseError),
    /// The `FEN` tag is not a position of the variant.
    #[error("the FEN tag is not a position of this variant: {}", printable(&.0.to_string()))]
    BadFen(FenError),
    /// The `FEN` tag's position is finished: a goal, a match won, a royal piece captured.
    #[error("the FEN tag's game is over ({0}): a game cannot start from a finished position")]
    FinishedStart(Finished),
    /// The `SetupNumber` tag is not a setup of the variant.
    #[error("the SetupNumber tag: {0}")]
    BadSetup(String),
    /// A turn is not legal where it stands.
    #[error("turn {label} `{}`: {}", excerpt(.token), notation_error(.error))]
    Turn {
        /// `12.` or `12...`.
        label: String,
        /// The token as written.
        token: String,
        /// Its bytes in the record.
        span: std::ops::Range<usize>,
        /// Why it is not legal.
        error: Box<NotationError>,
    },
    /// A turn after the game ended.
    #[error("turn {label} `{}` comes after the end of the game ({ending})", excerpt(.token))]
    AfterEnd {
        /// `12.` or `12...`.
        label: String,
        /// The token as written.
        token: String,
        /// Its bytes in the record.
        span: std::ops::Range<usize>,
        /// How the game had ended.
        ending: Ending,
    },
}

/// A record that breaks somewhere: the game up to the break, and why it breaks.
#[derive(Clone, Debug)]
pub struct BrokenRecord<'r> {
    /// The game as far as the record could be read (none when the start itself is bad).
    pub game: Option<Box<Game<'r>>>,
    /// Why reading stopped.
    pub error: RecordError,
}

/// The start position a record gives: its `FEN` tag, else its `SetupNumber`, else the variant's.
fn start<'r>(
    rules: &'r Rules,
    record: &RecordText,
) -> Result<(Position<'r>, Option<SetupNumber>), RecordError> {
    let number = match (record.tag("SetupNumber"), rules.random_setup()) {
        (None, _) => None,
        (Some(text), Some(random)) => {
            let n = SetupNumber::parse(text, random.black_independent())
                .map_err(|e| RecordError::BadSetup(e.to_string()))?;
            Some((
                n,
                setup::placement(rules, random, n)
                    .map_err(|e| RecordError::BadSetup(e.to_string()))?,
            ))
        }
        (Some(_), None) => {
            return Err(RecordError::BadSetup("this variant has no random setup".to_owned()));
        }
    };
    if let Some(fen) = record.tag("FEN") {
        let pos = Position::from_fen(rules, fen).map_err(RecordError::BadFen)?;
        if let Some(finished) = pos.finished().filter(|_| pos.is_goal()) {
            return Err(RecordError::FinishedStart(finished));
        }
        return Ok((pos, number.map(|(n, _)| n)));
    }
    match number {
        Some((n, placement)) => Ok((Position::from_checked(rules, &placement), Some(n))),
        None => {
            let pos = Position::from_fen(rules, rules.setup_fen()).map_err(RecordError::BadFen)?;
            Ok((pos, None))
        }
    }
}

/// Replays a record's turns under `rules`. `variant` names the variant in the game.
///
/// ```
/// use kickoff::game::record;
/// use kickoff::notation::record::parse;
///
/// let def = kickoff::load("boyer-1951")?;
/// let text = parse("[Variant \"boyer-1951\"]\n\n1. Nc3 Nc7 2. Nb1 *\n")?;
/// let game = record::read(&def.rules, "boyer-1951", &text).map_err(|e| e.error)?;
/// assert_eq!(game.plies().len(), 3);
/// assert_eq!(game.position().fen(), "r1bq1kbnr/9/2n6/9/4a4/9/9/9/RNBQ1KBNR b 3");
/// // Writing the game gives a record that reads back the same.
/// let again = record::read(&def.rules, "boyer-1951", &parse(&record::write(&game))?);
/// assert_eq!(again.map_err(|e| e.error)?.position(), game.position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A bad start, or a turn that is not legal where it stands (the game up to it is returned).
pub fn read<'r>(
    rules: &'r Rules,
    variant: &str,
    record: &RecordText,
) -> Result<Game<'r>, BrokenRecord<'r>> {
    read_while(rules, variant, record, |_| ControlFlow::<Infallible>::Continue(()))
        .map(|(game, _)| game)
}

/// [`read`], asking `go_on` after every turn replayed (its comments attached) whether to read
/// on: a reader with a clock or a budget stops there, and gets the game up to that turn (with
/// no ending) and what `go_on` said.
///
/// # Errors
/// As [`read`].
pub fn read_while<'r, B>(
    rules: &'r Rules,
    variant: &str,
    record: &RecordText,
    mut go_on: impl FnMut(&Game<'r>) -> ControlFlow<B>,
) -> Result<(Game<'r>, Option<B>), BrokenRecord<'r>> {
    let (pos, number) = start(rules, record).map_err(|error| BrokenRecord { game: None, error })?;
    let mut game = Game::new(variant, pos, number);
    game.tags = record
        .tags
        .iter()
        .filter(|t| !OWN_TAGS.contains(&t.name.as_str()))
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    game.leading_comments = record.leading_comments.clone();
    game.definition = record.definition.as_ref().map(|d| d.text.clone());
    for token in &record.turns {
        if let Err(error) = replay_token(&mut game, token) {
            return Err(BrokenRecord { game: Some(Box::new(game)), error });
        }
        if let ControlFlow::Break(stopped) = go_on(&game) {
            return Ok((game, Some(stopped)));
        }
    }
    if game.ending().is_none()
        && let Some(ending) = declared_ending(record, &game)
    {
        game.declare(ending);
        if let (Ending::Recorded { .. }, Some(termination)) = (ending, record.tag("Termination")) {
            game.tags.push(("Termination".to_owned(), termination.to_owned()));
        }
    }
    Ok((game, None))
}

fn replay_token(game: &mut Game<'_>, token: &TurnToken) -> Result<(), RecordError> {
    let label = move_label(game.position());
    let (text, span) = (token.text.clone(), token.span.clone());
    if let Some(ending) = game.ending() {
        return Err(RecordError::AfterEnd { label, token: text, span, ending });
    }
    let turn = resolve(game.position(), &token.text).map_err(|error| RecordError::Turn {
        label: label.clone(),
        token: text.clone(),
        span: span.clone(),
        error: Box::new(error),
    })?;
    game.play(turn).map_err(|e| match e {
        GameError::Over(ending) => RecordError::AfterEnd { label, token: text, span, ending },
        GameError::Notation(error) => {
            RecordError::Turn { label, token: text, span, error: Box::new(error) }
        }
        GameError::Play(_) | GameError::NoClaim => {
            unreachable!("replay_token: a resolved turn is legal")
        }
    })?;
    if let Some(last) = game.plies.last_mut() {
        last.comments = token.comments.clone();
    }
    Ok(())
}

/// An ending the turns cannot show, taken from the tags: a resignation, an agreed draw, a
/// match's turn cap, or any other result with a reason kickoff does not check (a time
/// forfeit ...) or with none. A reason kickoff checks (a goal, a repetition, the turn limit)
/// that the turns do not show is not believed.
fn declared_ending(record: &RecordText, game: &Game<'_>) -> Option<Ending> {
    let result = match record.tag("Result")? {
        "1-0" => GameResult::WhiteWins,
        "0-1" => GameResult::BlackWins,
        "1/2-1/2" => GameResult::Draw,
        _ => return None,
    };
    match (record.tag("Termination"), result) {
        (Some("resignation"), GameResult::WhiteWins) => {
            Some(Ending::Resignation { loser: Side::Black })
        }
        (Some("resignation"), GameResult::BlackWins) => {
            Some(Ending::Resignation { loser: Side::White })
        }
        (Some("time forfeit"), GameResult::WhiteWins) => Some(Ending::Time { loser: Side::Black }),
        (Some("time forfeit"), GameResult::BlackWins) => Some(Ending::Time { loser: Side::White }),
        (Some("agreement"), GameResult::Draw) => Some(Ending::Agreement),
        (Some("turn cap"), GameResult::Draw) => Some(Ending::TurnCap),
        (Some("repetition"), GameResult::Draw) if game.may_claim_repetition() => {
            Some(Ending::Repetition)
        }
        (Some(checked), _) if CHECKED_TERMINATIONS.contains(&checked) => None,
        _ => Some(Ending::Recorded { result }),
    }
}

/// The `Termination` tags of endings the turns themselves show.
const CHECKED_TERMINATIONS: &[&str] = &[
    "goal",
    "own goal",
    "repetition",
    "turn limit",
    "no moves",
    "resignation",
    "agreement",
    "turn cap",
    "unterminated",
];

/// The `Termination` a record gave for a result kickoff does not check, kept among the game's
/// tags when it was read.
fn kept_termination<'g>(game: &'g Game<'_>) -> Option<&'g str> {
    game.tags.iter().find(|(name, _)| name == "Termination").map(|(_, value)| value.as_str())
}

impl<'r> Game<'r> {
    /// The turns of the game as records name them, with their labels.
    #[must_use]
    pub fn movetext(&self) -> String {
        let result = self.ending().map_or_else(|| "*".to_owned(), |e| e.result().to_string());
        movetext(self, &result)
    }

    /// The plies, mutable, for attaching comments.
    pub fn plies_mut(&mut self) -> &mut [Ply] {
        &mut self.plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::notation::record::parse;
    use crate::square::Square;

    #[test]
    fn write_then_read_gives_the_same_game() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let mut game = Game::new("boyer-1951", Position::start(&rules), None);
        game.tags.push(("White".into(), "Ann".into()));
        for t in ["Nc3", "Nc7", "Nd5", "Ne6", "Nb6"] {
            game.play_text(t).unwrap();
        }
        game.plies_mut()[1].comments.push("a quiet reply".into());
        let text = write(&game);
        assert!(
            text.starts_with("[Variant \"boyer-1951\"]\n[White \"Ann\"]\n[Result \"*\"]\n"),
            "{text}"
        );
        assert!(text.contains("1. Nc3 Nc7 {a quiet reply} 2. Nd5 Ne6 3. Nb6 *"), "{text}");
        let again = read(&rules, "boyer-1951", &parse(&text).unwrap()).unwrap();
        assert_eq!(write(&again), text);
        assert_eq!(again.position(), game.position());
    }

    #[test]
    fn a_resignation_read_from_a_record_names_the_side_that_lost() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        for (result, loser) in [("1-0", Side::Black), ("0-1", Side::White)] {
            let text = format!(
                "[Variant \"boyer-1951\"]\n[Result \"{result}\"]\n[Termination \"resignation\"]\n\n\
                 1. Nc3 Nc7 {result}\n"
            );
            let game = read(&rules, "boyer-1951", &parse(&text).unwrap()).unwrap();
            assert_eq!(game.ending(), Some(Ending::Resignation { loser }), "{result}");
            assert_eq!(write(&game), text, "{result}");
        }
        let drawn = "[Variant \"boyer-1951\"]\n[Result \"1/2-1/2\"]\n[Termination \"agreement\"]\n\
                     1. Nc3 1/2-1/2\n";
        let game = read(&rules, "boyer-1951", &parse(drawn).unwrap()).unwrap();
        assert_eq!(game.ending(), Some(Ending::Agreement));
    }

    #[test]
    fn a_match_turn_cap_is_read_back_as_itself() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let capped = "[Variant \"boyer-1951\"]\n[Result \"1/2-1/2\"]\n[Termination \"turn cap\"]\n\n\
                      1. Nc3 1/2-1/2\n";
        let game = read(&rules, "boyer-1951", &parse(capped).unwrap()).unwrap();
        assert_eq!(game.ending(), Some(Ending::TurnCap));
        assert_eq!(write(&game), capped);
        let won = capped.replace("1/2-1/2", "1-0");
        let game = read(&rules, "boyer-1951", &parse(&won).unwrap()).unwrap();
        assert_eq!(game.ending(), None, "a turn cap that is not a draw is not believed");
    }

    #[test]
    fn a_broken_record_keeps_the_game_up_to_the_break() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let record = parse("[Variant \"boyer-1951\"]\n1. Nc3 Nc7 2. Nd3 Ne6\n").unwrap();
        let broken = read(&rules, "boyer-1951", &record).unwrap_err();
        assert_eq!(broken.game.unwrap().plies().len(), 2);
        let message = broken.error.to_string();
        assert!(
            message.starts_with("turn 2. `Nd3`: `Nd3` is not legal here; legal instead:"),
            "{message}"
        );
        assert!(message.contains("Nd5"), "{message}");
    }

    #[test]
    fn other_starts() {
        let rules = load_shipped("football-960").unwrap().rules;
        let record = parse("[Variant \"football-960\"]\n[SetupNumber \"0\"]\n1. Nc3 *").unwrap();
        let game = read(&rules, "football-960", &record).unwrap();
        assert!(game.start().fen().starts_with("bbkn1nqrr/"));
        assert!(write(&game).contains("[SetupNumber \"0\"]\n[SetUp \"1\"]\n[FEN \"bbkn1nqrr/"));
        let record = parse("[SetUp \"1\"]\n[FEN \"9/9/9/9/9 w 0\"]\n").unwrap();
        assert!(matches!(
            read(&rules, "football-960", &record).unwrap_err().error,
            RecordError::BadFen(_)
        ));
        let record = parse("[SetupNumber \"9999\"]\n").unwrap();
        assert!(matches!(
            read(&rules, "football-960", &record).unwrap_err().error,
            RecordError::BadSetup(_)
        ));
    }

    #[test]
    fn results_the_turns_cannot_show_are_kept() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let read_with = |tags: &str| {
            let text = format!("[Variant \"boyer-1951\"]\n{tags}\n1. Nc3 Nc7 *\n");
            read(&rules, "boyer-1951", &parse(&text).unwrap()).unwrap()
        };
        let forfeit = read_with("[Result \"1-0\"]\n[Termination \"time forfeit\"]");
        assert_eq!(forfeit.ending(), Some(Ending::Time { loser: Side::Black }));
        assert!(write(&forfeit).contains("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n"));
        let bare = read_with("[Result \"1/2-1/2\"]");
        assert_eq!(bare.ending(), Some(Ending::Recorded { result: GameResult::Draw }));
        assert!(write(&bare).contains("[Result \"1/2-1/2\"]\n\n1. Nc3 Nc7 1/2-1/2"));
        // A goal the turns do not show is not believed.
        assert_eq!(read_with("[Result \"0-1\"]\n[Termination \"goal\"]").ending(), None);
        let mut resumed = read_with("[Result \"0-1\"]\n[Termination \"adjudication\"]");
        assert!(resumed.undo(), "a recorded result can be taken back");
        assert!(write(&resumed).contains("[Result \"*\"]\n[Termination \"unterminated\"]"));
    }

    #[test]
    fn a_finished_position_is_no_start() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let text = "[SetUp \"1\"]\n[FEN \"rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 0\"]\n1. Nc3 *";
        let error = read(&rules, "boyer-1951", &parse(text).unwrap()).unwrap_err().error;
        let RecordError::FinishedStart(finished) = error else { panic!("{error}") };
        assert_eq!(finished.ball, Some(Square::at(4, 8)));
        assert_eq!(
            error.to_string(),
            "the FEN tag's game is over (White has scored by an own goal of Black, the ball on \
             e9): a game cannot start from a finished position"
        );
    }
}
