//! `boardrules profile SCRIPT`: where a script's time goes. Random playouts run under the
//! walker with every statement recording its cost ([`crate::walker::profile`]); the report
//! gives the cost of each function and each line (operations and share of time), what Rhai's
//! interpreter runs rather than the walker and why, and the primitives that fit the hot loops
//! ([`hints`]).

mod hints;
mod report;

use std::{
    process::ExitCode,
    time::{Duration, Instant},
};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{diag::Diagnostic, game_args::GameArgs, runtime::Game, walker::profile};

pub use report::Profile;

/// The longest a profile may run.
const MAX_SECONDS: f64 = 600.0;

/// Profiles `args`'s game for `seconds` of random playouts and prints the report (JSON with
/// `json`).
pub fn run(args: &GameArgs, seconds: f64, json: bool) -> Result<ExitCode, Vec<Diagnostic>> {
    if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(vec![Diagnostic::new(format!(
            "--seconds must be more than 0 and at most {MAX_SECONDS}"
        ))]);
    }
    let mut game = args.load()?;
    game.profile_statements();
    let start = game.start().map_err(|e| vec![game.describe(&e)])?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.unwrap_or(0));
    let began = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    let (mut playouts, mut moves) = (0u64, 0u64);
    profile::start();
    while playouts == 0 || began.elapsed() < budget {
        let played = game.random_playout_through_script(&start, &mut rng, Some(began + budget));
        match played {
            Ok((_, plies)) => moves += plies as u64,
            Err(e) => {
                profile::finish();
                return Err(vec![game.describe(&e)]);
            }
        }
        playouts += 1;
    }
    let lines = profile::finish();
    let text = game.sources().get(game.label()).unwrap_or_default();
    let profile = Profile::new(
        &game,
        &text,
        lines,
        report::Run {
            playouts,
            moves,
            seconds: began.elapsed().as_secs_f64(),
        },
    );
    if json {
        println!("{}", profile.json());
    } else {
        print!("{}", profile.text(crate::cli::stdout_color()));
    }
    Ok(ExitCode::SUCCESS)
}
