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

/// How long each side of the benchmark plays.
#[derive(Debug, Clone, Copy)]
pub enum Length {
    /// Playouts for this many seconds (at least one).
    Seconds(f64),
    /// Exactly this many playouts: the same games every run, so that counted instructions
    /// (`valgrind --tool=callgrind`) compare two builds or two scripts move for move.
    Playouts(u64),
}

impl Length {
    /// The most playouts `--playouts` may ask for.
    const MAX_PLAYOUTS: u64 = 1_000_000_000;

    /// The length itself, or what is wrong with it.
    fn check(self) -> Result<Self, Diagnostic> {
        match self {
            Length::Seconds(s) if !(s > 0.0 && s <= 3600.0) => Err(Diagnostic::new(
                "--seconds must be more than 0 and at most 3600",
            )),
            Length::Playouts(n) if !(1..=Self::MAX_PLAYOUTS).contains(&n) => Err(Diagnostic::new(
                format!("--playouts must be 1 to {}", Self::MAX_PLAYOUTS),
            )),
            ok => Ok(ok),
        }
    }

    /// How long each side plays, in words.
    fn describe(self) -> String {
        match self {
            Length::Seconds(s) => format!("random playouts for {s} s each"),
            Length::Playouts(n) => format!("{n} random playouts each"),
        }
    }

    /// Whether a side that has played `playouts` after `elapsed` goes on.
    fn goes_on(self, playouts: u64, elapsed: Duration) -> bool {
        match self {
            Length::Seconds(s) => playouts == 0 || elapsed < Duration::from_secs_f64(s),
            Length::Playouts(n) => playouts < n,
        }
    }

    /// When a side started at `start` must stop, however slow its playouts: its seconds and a
    /// quarter more (no limit for a number of playouts).
    fn deadline(self, start: Instant) -> Option<Instant> {
        match self {
            Length::Seconds(s) => Some(start + Duration::from_secs_f64(s * 1.25)),
            Length::Playouts(_) => None,
        }
    }
}

/// Runs `playout` repeatedly for `length`; it returns the moves it played, or `None` when it
/// was cut short by the deadline it is given (then it is not counted, and the side ends).
fn measure(
    length: Length,
    mut playout: impl FnMut(Option<Instant>) -> Result<Option<usize>, Diagnostic>,
) -> Result<Speed, Diagnostic> {
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let deadline = length.deadline(start);
    // However slow the script, none of its calls runs past the deadline.
    let _calls = crate::cancel::calls_until(deadline);
    let (mut playouts, mut moves) = (0u64, 0u64);
    while length.goes_on(playouts, start.elapsed()) {
        let played = match playout(deadline) {
            Err(_) if crate::cancel::calls_stopped() => None,
            other => other?,
        };
        let Some(played) = played else { break };
        moves += played as u64;
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
    length: Length,
    script_only: bool,
    json: bool,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let length = length.check().map_err(|d| vec![d])?;
    let game = args.load()?;
    let start = game.start().map_err(|e| vec![game.describe(&e)])?;
    let seed = args.seed.unwrap_or(0);
    let name = crate::terminal::clean(game.name());
    if !json {
        println!("{name}: {}", length.describe());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scripted = measure(length, |deadline| {
        let played = if script_only {
            game.random_playout_through_script(&start, &mut rng, deadline)
        } else {
            game.random_playout_until(&start, &mut rng, deadline)
        };
        let (outcome, plies) = played.map_err(|e| game.describe(&e))?;
        let cut = outcome.is_none() && deadline.is_some_and(crate::cancel::past);
        Ok((!cut).then_some(plies))
    })
    .map_err(|d| vec![d])?;
    // Whether the scripted side's playouts ran through the script's native form (verified).
    let native_form = !script_only && matches!(game.native(&start), Ok(Some(_)));
    if !json {
        let through = if native_form {
            "its native form"
        } else {
            "the script"
        };
        println!("{}, through {through}", scripted.line("scripted"));
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
        let mut side = scripted.json();
        side["native_form"] = native_form.into();
        println!(
            "{}",
            serde_json::json!({
                "game": game.name(),
                "scripted": side,
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
    let native = measure(length, |_| Ok(Some(reference.playout(&mut rng)))).map_err(|d| vec![d])?;
    if json {
        report(Some(&native));
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", native.line("native"));
    let rate = |s: &Speed| s.playouts as f64 / s.seconds;
    println!("ratio: {:.3}", rate(&scripted) / rate(&native));
    Ok(ExitCode::SUCCESS)
}
