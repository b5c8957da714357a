//! `boardrules bench GAME`: random playouts of the scripted game and of its native reference
//! implementation (when `benches/native/` has one) in the same run, and their ratio.

use std::{
    process::ExitCode,
    time::{Duration, Instant},
};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{
    diag::Diagnostic,
    game_args::GameArgs,
    runtime::{playout, Game},
};

#[path = "../../benches/native/mod.rs"]
mod native;

/// Playouts and moves per second.
struct Speed {
    playouts: f64,
    moves: f64,
}

impl Speed {
    fn line(&self, what: &str) -> String {
        format!(
            "{what}: {:.0} playouts/s, {:.0} moves/s",
            self.playouts, self.moves
        )
    }
}

/// Runs `playout` repeatedly for `seconds`; it returns the moves it played.
fn measure(
    seconds: f64,
    mut playout: impl FnMut() -> Result<usize, Diagnostic>,
) -> Result<Speed, Diagnostic> {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let (mut playouts, mut moves) = (0u64, 0u64);
    while playouts == 0 || start.elapsed() < budget {
        moves += playout()? as u64;
        playouts += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(Speed {
        playouts: playouts as f64 / secs,
        moves: moves as f64 / secs,
    })
}

/// Runs the benchmark.
/// With `script_only`, the scripted side never uses the script's native form.
pub fn run(args: &GameArgs, seconds: f64, script_only: bool) -> Result<ExitCode, Vec<Diagnostic>> {
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(vec![Diagnostic::new(
            "--seconds must be more than 0 and at most 3600",
        )]);
    }
    let game = args.load()?;
    let start = game.start().map_err(|e| vec![game.describe(&e)])?;
    let seed = args.seed.unwrap_or(0);
    let name = crate::terminal::clean(game.name());
    println!("{name}: random playouts for {seconds} s each");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scripted = measure(seconds, || {
        let played = if script_only {
            game.record_events(false);
            playout::random_playout(&game, &start, &mut rng)
        } else {
            game.random_playout(&start, &mut rng)
        };
        Ok(played.map_err(|e| game.describe(&e))?.1)
    })
    .map_err(|d| vec![d])?;
    println!("{}", scripted.line("scripted"));
    let builtin = game.label().starts_with("builtin:")
        || game
            .label()
            .ends_with(&format!("rules/{}.rhai", game.name()));
    let reference = native::find(game.name()).filter(|_| builtin && args.options.is_empty());
    let Some(mut reference) = reference else {
        println!(
            "native: no reference implementation for {} with these options",
            game.name()
        );
        println!("ratio: n/a");
        return Ok(ExitCode::SUCCESS);
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let native = measure(seconds, || Ok(reference.playout(&mut rng))).map_err(|d| vec![d])?;
    println!("{}", native.line("native"));
    println!("ratio: {:.3}", scripted.playouts / native.playouts);
    Ok(ExitCode::SUCCESS)
}
