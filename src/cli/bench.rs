//! `boardrules bench GAME`: random playouts of the scripted game and of its native reference
//! implementation (when `benches/native/` has one) in the same run, and their ratio.

use std::{
    process::ExitCode,
    time::{Duration, Instant},
};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{diag::Diagnostic, game_args::GameArgs, runtime::Game};

#[path = "../../benches/native/mod.rs"]
mod native;

/// What one side of the benchmark did: playouts and moves played, in wall-clock and CPU
/// seconds (on a loaded machine the CPU rate is the steadier one).
struct Speed {
    playouts: u64,
    moves: u64,
    seconds: f64,
    cpu_seconds: f64,
}

impl Speed {
    fn line(&self, what: &str) -> String {
        format!(
            "{what}: {:.0} playouts/s, {:.0} moves/s ({:.0} playouts per CPU second)",
            self.playouts as f64 / self.seconds,
            self.moves as f64 / self.seconds,
            self.playouts as f64 / self.cpu_seconds.max(1e-9),
        )
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "playouts": self.playouts,
            "moves": self.moves,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        })
    }
}

/// The CPU time this thread has used, in seconds.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant libc knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// Runs `playout` repeatedly for `seconds`; it returns the moves it played.
fn measure(
    seconds: f64,
    mut playout: impl FnMut() -> Result<usize, Diagnostic>,
) -> Result<Speed, Diagnostic> {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let (mut playouts, mut moves) = (0u64, 0u64);
    while playouts == 0 || start.elapsed() < budget {
        moves += playout()? as u64;
        playouts += 1;
    }
    Ok(Speed {
        playouts,
        moves,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: thread_cpu_seconds() - cpu_start,
    })
}

/// Runs the benchmark.
/// With `script_only`, the scripted side never uses the script's native form; with `json`, one
/// JSON object is printed instead of text.
pub fn run(
    args: &GameArgs,
    seconds: f64,
    script_only: bool,
    json: bool,
) -> Result<ExitCode, Vec<Diagnostic>> {
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(vec![Diagnostic::new(
            "--seconds must be more than 0 and at most 3600",
        )]);
    }
    let game = args.load()?;
    let start = game.start().map_err(|e| vec![game.describe(&e)])?;
    let seed = args.seed.unwrap_or(0);
    let name = crate::terminal::clean(game.name());
    if !json {
        println!("{name}: random playouts for {seconds} s each");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scripted = measure(seconds, || {
        let played = if script_only {
            game.random_playout_through_script(&start, &mut rng, None)
        } else {
            game.random_playout(&start, &mut rng)
        };
        Ok(played.map_err(|e| game.describe(&e))?.1)
    })
    .map_err(|d| vec![d])?;
    if !json {
        println!("{}", scripted.line("scripted"));
    }
    let builtin = game.label().starts_with("builtin:")
        || game
            .label()
            .ends_with(&format!("rules/{}.rhai", game.name()));
    let reference = native::find(game.name()).filter(|_| builtin && args.options.is_empty());
    let report = |native: Option<&Speed>| {
        let ratio = native.map(|n| {
            (scripted.playouts as f64 / scripted.seconds) / (n.playouts as f64 / n.seconds)
        });
        println!(
            "{}",
            serde_json::json!({
                "game": game.name(),
                "scripted": scripted.json(),
                "native": native.map(Speed::json),
                "ratio": ratio,
            })
        );
    };
    let Some(mut reference) = reference else {
        if json {
            report(None);
            return Ok(ExitCode::SUCCESS);
        }
        println!(
            "native: no reference implementation for {} with these options",
            game.name()
        );
        println!("ratio: n/a");
        return Ok(ExitCode::SUCCESS);
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let native = measure(seconds, || Ok(reference.playout(&mut rng))).map_err(|d| vec![d])?;
    if json {
        report(Some(&native));
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", native.line("native"));
    let rate = |s: &Speed| s.playouts as f64 / s.seconds;
    println!("ratio: {:.3}", rate(&scripted) / rate(&native));
    Ok(ExitCode::SUCCESS)
}
