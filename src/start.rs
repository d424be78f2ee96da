//! Which start a game begins from: the variant's own start position, a position in FEN, a random
//! setup by its number, one drawn at random, or one drawn among the fair ones. [`StartChoice`]
//! reads the text people write for a setup (`--setup N|random|fair`) and
//! [`StartChoice::resolve`] turns a choice into a position, each problem a [`StartError`].

use rand::Rng;

use crate::analysis::fair::{self, FairError};
use crate::definition::Definition;
use crate::position::{FenError, Position};
use crate::rules::{RandomSetup, Rules};
use crate::setup::{self, BadSetupNumber, OutOfRange, SetupNumber};

/// Which start a game begins from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartChoice {
    /// The variant's own start position (`setup.fen`), also in a variant with random setups.
    Standard,
    /// A position in FEN, checked against the rules when resolved.
    Fen(String),
    /// The random setup of this number.
    Setup(SetupNumber),
    /// A random setup drawn uniformly.
    Random,
    /// A random setup drawn uniformly among the fair ones: those where neither side forces a
    /// goal within `turns` of its turns ([`fair::draw_fair`]).
    Fair {
        /// The turns within which no forced goal is allowed.
        turns: u32,
    },
}

/// Why a start cannot be chosen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// A random setup was asked of a variant that has none.
    #[error("this variant has no random setup (no [setup.random] in its definition)")]
    NoRandomSetup,
    /// A setup number that cannot be read.
    #[error(transparent)]
    BadNumber(#[from] BadSetupNumber),
    /// A fair setup asked for with a number of turns that is not 1 to 8.
    #[error("bad fair setup `{0}`: write fair or fair:N with N from 1 to 8")]
    BadFair(String),
    /// A setup number beyond the variant's setups.
    #[error(transparent)]
    OutOfRange(#[from] OutOfRange),
    /// No fair setup was found.
    #[error(transparent)]
    NoFairSetup(#[from] FairError),
    /// A position that cannot be read or that the rules do not allow.
    #[error("bad position: {0}")]
    Fen(#[from] FenError),
}

impl StartChoice {
    /// Reads a random setup as people write it for `rules`: a setup number (`N`, or `N/M` where
    /// Black is drawn independently), `random`, `fair` (within
    /// [`fair::DEFAULT_FAIR_TURNS`] turns) or `fair:N`.
    ///
    /// # Errors
    /// The rules have no random setup, or the text is none of those.
    pub fn parse_setup(text: &str, rules: &Rules) -> Result<StartChoice, StartError> {
        let random = rules.random_setup().ok_or(StartError::NoRandomSetup)?;
        if text == "random" {
            return Ok(StartChoice::Random);
        }
        match parse_fair(text) {
            Some(turns) => turns.map(|turns| StartChoice::Fair { turns }),
            None => number(text, random),
        }
    }

    /// Reads a setup number alone (`N`, or `N/M` where Black is drawn independently), as the
    /// commands that look at one position take it.
    ///
    /// # Errors
    /// The rules have no random setup, or the text is no setup number.
    pub fn parse_number(text: &str, rules: &Rules) -> Result<StartChoice, StartError> {
        number(text, rules.random_setup().ok_or(StartError::NoRandomSetup)?)
    }

    /// Whether the choice is drawn (a random or a fair setup) rather than given.
    #[must_use]
    pub fn is_drawn(&self) -> bool {
        matches!(self, StartChoice::Random | StartChoice::Fair { .. })
    }

    /// The start position chosen, with its setup number where it is a random setup; `rng`
    /// draws a random or fair setup (nothing else reads it).
    ///
    /// # Errors
    /// A position the rules refuse, a random setup of a variant that has none, a setup number
    /// out of range, no fair setup found.
    pub fn resolve<'r>(
        &self,
        def: &'r Definition,
        rng: &mut impl Rng,
    ) -> Result<(Position<'r>, Option<SetupNumber>), StartError> {
        let rules = &def.rules;
        let number = match self {
            StartChoice::Standard => return Ok((Position::start(rules), None)),
            StartChoice::Fen(text) => return Ok((Position::from_fen(rules, text)?, None)),
            StartChoice::Setup(number) => *number,
            StartChoice::Random => {
                let random = rules.random_setup().ok_or(StartError::NoRandomSetup)?;
                let independent = random.black_independent();
                SetupNumber::draw(setup::count(rules, random), independent, rng)
            }
            StartChoice::Fair { turns } => {
                rules.random_setup().ok_or(StartError::NoRandomSetup)?;
                fair::draw_fair(def, *turns, rng)?
            }
        };
        let random = rules.random_setup().ok_or(StartError::NoRandomSetup)?;
        Ok((setup::position(rules, random, number)?, Some(number)))
    }
}

/// A setup number of `random`.
fn number(text: &str, random: &RandomSetup) -> Result<StartChoice, StartError> {
    let independent = random.black_independent();
    Ok(StartChoice::Setup(SetupNumber::parse(text, independent)?))
}

/// Reads a fair setup's request: `fair` (within [`fair::DEFAULT_FAIR_TURNS`] turns) or
/// `fair:N`; none for any other text. The error: a number that is not 1 to 8.
fn parse_fair(text: &str) -> Option<Result<u32, StartError>> {
    if text == "fair" {
        return Some(Ok(fair::DEFAULT_FAIR_TURNS));
    }
    let n = text.strip_prefix("fair:")?;
    Some(
        n.parse::<u32>()
            .ok()
            .filter(|n| (1..=8).contains(n))
            .ok_or_else(|| StartError::BadFair(crate::text::excerpt(text).into_owned())),
    )
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::{StartChoice, StartError};
    use crate::definition::load_shipped;
    use crate::setup::SetupNumber;

    /// Every way of writing a setup is read, and each mistake is named as the command line
    /// shows it.
    #[test]
    fn setups_as_written() {
        let def = load_shipped("football-960").unwrap();
        let rules = &def.rules;
        let read = |text| StartChoice::parse_setup(text, rules);
        assert_eq!(read("random"), Ok(StartChoice::Random));
        assert_eq!(read("fair"), Ok(StartChoice::Fair { turns: 2 }));
        assert_eq!(read("fair:3"), Ok(StartChoice::Fair { turns: 3 }));
        let number = SetupNumber { white: 518, black: None };
        assert_eq!(read("518"), Ok(StartChoice::Setup(number)));
        assert_eq!(
            read("fair:9").unwrap_err().to_string(),
            "bad fair setup `fair:9`: write fair or fair:N with N from 1 to 8"
        );
        assert!(matches!(read("x"), Err(StartError::BadNumber(_))));
        assert!(matches!(
            StartChoice::parse_number("random", rules),
            Err(StartError::BadNumber(_))
        ));
        let boyer = load_shipped("boyer-1951").unwrap();
        assert_eq!(StartChoice::parse_setup("1", &boyer.rules), Err(StartError::NoRandomSetup));
    }

    /// A choice resolves into its position, with the setup's number where it is one; a drawn
    /// setup is the one the seed draws.
    #[test]
    fn choices_resolve() {
        let def = load_shipped("football-960").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (standard, none) = StartChoice::Standard.resolve(&def, &mut rng).unwrap();
        assert_eq!((standard.placement(), none), (def.rules.start().clone(), None));
        let number = SetupNumber { white: 518, black: None };
        let (pos, n) = StartChoice::Setup(number).resolve(&def, &mut rng).unwrap();
        assert_eq!(n, Some(number));
        let (fen, _) = StartChoice::Fen(pos.fen()).resolve(&def, &mut rng).unwrap();
        assert_eq!(fen.fen(), pos.fen());
        let drawn = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            StartChoice::Random.resolve(&def, &mut rng).unwrap().1
        };
        assert_eq!(drawn(7), drawn(7));
        let far = SetupNumber { white: 1 << 40, black: None };
        assert!(matches!(
            StartChoice::Setup(far).resolve(&def, &mut rng),
            Err(StartError::OutOfRange(_))
        ));
        assert!(matches!(
            StartChoice::Fen("x".into()).resolve(&def, &mut rng),
            Err(StartError::Fen(_))
        ));
    }
}
