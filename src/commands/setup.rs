//! `kickoff setup VARIANT`: random setups and their numbers.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::commands::{Exit, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::rules::{RandomSetup, Rules};
use kickoff::setup::{self, SetupNumber};
use kickoff::text::printable;

/// What `kickoff setup` was asked for.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--number N` or `--number N/M`.
    pub number: Option<String>,
    /// `--seed S`.
    pub seed: Option<u64>,
    /// `--asymmetric`.
    pub asymmetric: bool,
    /// `--count`.
    pub count: bool,
    /// `--fair N`.
    pub fair: Option<u32>,
}

/// Prints a setup's number and position, or the number of setups.
pub fn run(variant: &str, request: &Request, options: LoadOptions) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let rules = &def.rules;
    let Some(random) = rules.random_setup() else {
        eprintln!(
            "error: {} has no random setup (no [setup.random] in its definition)",
            printable(variant)
        );
        return Exit::Failure;
    };
    let independent = request.asymmetric || setup::independent_by_default(random);
    let count = setup::count(rules, random);
    if request.count {
        if independent {
            println!("{}", count * count);
        } else {
            println!("{count}");
        }
        return Exit::Success;
    }
    if let Some(turns) = request.fair {
        let seed = request.seed.unwrap_or_else(fresh_seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        return match kickoff::analysis::fair::draw_fair(&def, turns, &mut rng) {
            Ok(number) => show(rules, random, number),
            Err(e) => {
                eprintln!("error: {e}");
                Exit::Failure
            }
        };
    }
    let number = match (&request.number, request.seed) {
        (Some(text), _) => match SetupNumber::parse(text, independent) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Failure;
            }
        },
        (None, seed) => pick(count, independent, seed.unwrap_or_else(fresh_seed)),
    };
    show(rules, random, number)
}

/// A uniform pick among the setups, reproducible from `seed` on every platform.
fn pick(count: u128, independent: bool, seed: u64) -> SetupNumber {
    SetupNumber::draw(count, independent, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// A seed nobody chose: the standard library's per-process random hashing keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::hash::RandomState::new().build_hasher().finish()
}

fn show(rules: &Rules, random: &RandomSetup, number: SetupNumber) -> Exit {
    match setup::placement(rules, random, number) {
        Ok(placement) => {
            println!("{number}");
            println!("{}", placement.fen(rules));
            Exit::Success
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}
