//! `kickoff setup VARIANT`: random setups and their numbers.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::commands::{CommandError, CommandResult, load_variant, no_random_setup};
use kickoff::definition::LoadOptions;
use kickoff::rules::{RandomSetup, Rules};
use kickoff::setup::{self, SetupNumber};

/// The arguments of `kickoff setup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// Show setup N (N/M when Black is drawn independently).
    #[arg(long, value_name = "N", conflicts_with_all = ["seed", "count"])]
    pub number: Option<String>,
    /// Pick a setup at random from this seed (the same pick on every machine).
    #[arg(long, value_name = "S", conflicts_with = "count")]
    pub seed: Option<u64>,
    /// Draw Black's pieces independently of White's.
    #[arg(long)]
    pub asymmetric: bool,
    /// Print how many setups there are.
    #[arg(long)]
    pub count: bool,
    /// Draw only setups where neither side forces a goal within N turns.
    #[arg(long, value_name = "N", conflicts_with_all = ["number", "count", "asymmetric"], value_parser = clap::value_parser!(u32).range(1..=8))]
    pub fair: Option<u32>,
}

/// Prints a setup's number and position, or the number of setups.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let rules = &def.rules;
    let random = rules.random_setup().ok_or_else(|| no_random_setup(&args.variant))?;
    let independent = args.asymmetric || random.black_independent();
    let count = setup::count(rules, random);
    if args.count {
        if independent {
            println!("{}", count * count);
        } else {
            println!("{count}");
        }
        return Ok(());
    }
    if let Some(turns) = args.fair {
        let seed = args.seed.unwrap_or_else(fresh_seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let number = kickoff::analysis::fair::draw_fair(&def, turns, &mut rng)
            .map_err(CommandError::failure)?;
        return show(rules, random, number);
    }
    let number = match (&args.number, args.seed) {
        (Some(text), _) => SetupNumber::parse(text, independent).map_err(CommandError::failure)?,
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

fn show(rules: &Rules, random: &RandomSetup, number: SetupNumber) -> CommandResult {
    let placement = setup::placement(rules, random, number).map_err(CommandError::failure)?;
    println!("{number}");
    println!("{}", placement.fen(rules));
    Ok(())
}
