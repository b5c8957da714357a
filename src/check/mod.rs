//! Property tests for any rules script — what proptest or Hypothesis do for code, for rules:
//! seeded random games through the script, checking after every move that every listed move
//! plays, that moves and positions round-trip through their text, that `result` and `moves`
//! agree, that the same move gives the same state, that the native form (if any) agrees, and that
//! no script error or limit is hit. A failure is shrunk to the shortest move sequence that
//! still shows it (see [`shrink`]) and written as a trace file.

pub mod properties;
pub mod report;
pub mod shrink;

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

pub use properties::{Broken, Property};

use crate::{
    runtime::{Game, GameError},
    script::{verify, ScriptedGame},
};

/// A game longer than this is cut short (its positions so far are still checked).
const MAX_PLIES: usize = 1000;

/// The fewest random games a check with a [`Budget::floor`] plays (unless it checked
/// [`MIN_POSITIONS`] positions first), however long they take.
pub const MIN_GAMES: usize = 20;
/// See [`MIN_GAMES`].
pub const MIN_POSITIONS: usize = 2000;
/// How far the floor ([`MIN_GAMES`] games or [`MIN_POSITIONS`] positions) may stretch a
/// check's time: to this many times its CPU time, and by the clock twice that (a backstop on a
/// busy machine), where a script call still running is stopped. A script so slow that the
/// floor takes longer is checked as far as that goes, and the report says so.
pub const FLOOR_STRETCH: u32 = 5;

/// How long to test.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// At most this many random games (`None`: as many as the time allows).
    pub games: Option<usize>,
    /// No new game starts once the check has used this much CPU time (`None`: no time limit;
    /// then `games` must be given). CPU time, so that a busy machine does not test less.
    pub time: Option<Duration>,
    /// Whether the time may run over until [`MIN_GAMES`] games or [`MIN_POSITIONS`] positions
    /// are checked (the default budget); without it, the time is kept within a quarter more,
    /// however slow the script (its calls are stopped, and the game in progress cut short).
    pub floor: bool,
    /// The first game's seed; game `g` uses `seed + g`.
    pub seed: u64,
}

/// The CPU time this thread has used (the wall-clock time where it cannot be read).
fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the clock id is a constant libc knows.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed()
}

/// What the random games covered.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    /// Games played.
    pub games: usize,
    /// Positions checked.
    pub positions: usize,
    /// Listed moves tried (played and round-tripped).
    pub moves: usize,
    /// Games cut short at [`MAX_PLIES`] or when the time was up.
    pub cut_short: usize,
    /// Whether a native form was verified.
    pub native: bool,
}

impl Coverage {
    /// Whether it reached the floor: [`MIN_GAMES`] games or [`MIN_POSITIONS`] positions.
    pub fn reached_floor(&self) -> bool {
        self.games >= MIN_GAMES || self.positions >= MIN_POSITIONS
    }
}

/// A property that failed, with the moves (canonical texts, from the start) that lead to it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// What broke.
    pub broken: Broken,
    /// The moves before the position where it broke.
    pub moves: Vec<String>,
    /// How many moves the random game had played before shrinking.
    pub found_after: usize,
}

/// Runs random games within `budget`, calling `progress` after each with the coverage so far.
/// Returns the coverage, or the first failure found (shrunk).
pub fn run(
    game: &ScriptedGame,
    budget: Budget,
    mut progress: impl FnMut(&Coverage),
) -> Result<Coverage, Box<Failure>> {
    game.record_events(false);
    let result = run_games(game, budget, &mut progress);
    game.record_events(true);
    result.map_err(|f| Box::new(shrink::shrink(game, *f)))
}

fn run_games(
    game: &ScriptedGame,
    budget: Budget,
    progress: &mut impl FnMut(&Coverage),
) -> Result<Coverage, Box<Failure>> {
    let cpu = thread_cpu();
    // No script call runs past the time and a quarter more (wall-clock: a slow call is
    // stopped, and the game in progress cut short); with a floor, past twice the time the
    // floor may stretch it to.
    let stop = budget.time.map(|t| {
        let by_the_clock = if budget.floor {
            2 * FLOOR_STRETCH * t
        } else {
            t + t / 4
        };
        Instant::now() + by_the_clock
    });
    let _calls = crate::cancel::calls_until(stop);
    let time_up = |seen: &Coverage| time_up(&budget, thread_cpu() - cpu, seen);
    let start = game.start().map_err(|e| fail(e, Vec::new()))?;
    let mut seen = Coverage::default();
    if let Some(failure) = native_differs(game, &start, &[], verify::FROM_START)? {
        return Err(failure);
    }
    seen.native = game.native_form(&start).ok().flatten().is_some();
    loop {
        let more_games = budget.games.is_none_or(|n| seen.games < n);
        if !more_games || time_up(&seen) || crate::cancel::calls_stopped() {
            return Ok(seen);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(budget.seed.wrapping_add(seen.games as u64));
        let positions = random_game(game, &start, &time_up, &mut rng, &mut seen)?;
        if positions.is_empty() {
            return Ok(seen); // stopped at the check's time before a position was checked
        }
        // The native form, again from a position of this game.
        let (k, state) = &positions[rng.random_range(0..positions.len())];
        if let Some(failure) = native_differs(game, state, k, verify::FROM_POSITION)? {
            return Err(failure);
        }
        seen.games += 1;
        progress(&seen);
    }
}

/// Whether a check within `budget` that used `used` of CPU time and covered `seen` is over:
/// past its time, and (for a budget with a floor) past the floor or the floor's stretch.
fn time_up(budget: &Budget, used: Duration, seen: &Coverage) -> bool {
    budget.time.is_some_and(|t| {
        used >= t && (!budget.floor || seen.reached_floor()) || used >= FLOOR_STRETCH * t
    })
}

/// One random game from `start` (cut short once `time_up` says so, or a script call is stopped
/// at the check's time), checking every position; returns the positions it went through, each
/// with the moves that lead to it.
fn random_game(
    game: &ScriptedGame,
    start: &Dynamic,
    time_up: &dyn Fn(&Coverage) -> bool,
    rng: &mut ChaCha8Rng,
    seen: &mut Coverage,
) -> Result<Vec<(Vec<String>, Dynamic)>, Box<Failure>> {
    let mut state = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut positions = Vec::new();
    loop {
        // A call stopped at the check's time is no failure: the game ends here.
        let checked = properties::check_position(game, &state, Some(&mut *rng));
        match checked {
            Ok(n) => seen.moves += n,
            Err(_) if crate::cancel::calls_stopped() => {
                seen.cut_short += 1;
                return Ok(positions);
            }
            Err(b) => {
                return Err(Box::new(Failure {
                    broken: b,
                    found_after: moves.len(),
                    moves,
                }))
            }
        }
        seen.positions += 1;
        positions.push((moves.clone(), state.clone()));
        let next = (|| {
            let legal = game.legal_moves(&state)?;
            if legal.is_empty() {
                return Ok(None);
            }
            if moves.len() >= MAX_PLIES || time_up(seen) {
                return Ok(Some(None));
            }
            let mv = &legal[rng.random_range(0..legal.len())];
            let text = game.format_move(&state, mv)?;
            Ok(Some(Some((text, game.play(&state, mv)?.state))))
        })();
        match next {
            Ok(Some(Some((text, after)))) => {
                moves.push(text);
                state = after;
            }
            Ok(None) => return Ok(positions),
            Ok(Some(None)) => {
                seen.cut_short += 1;
                return Ok(positions);
            }
            Err(_) if crate::cancel::calls_stopped() => {
                seen.cut_short += 1;
                return Ok(positions);
            }
            Err(e) => return Err(fail(e, moves.clone())),
        }
    }
}

/// A failure for a script error after `moves`.
fn fail(error: GameError, moves: Vec<String>) -> Box<Failure> {
    Box::new(Failure {
        broken: Broken {
            property: Property::NoScriptError,
            message: error.to_string(),
            mv: None,
            error: Some(error),
        },
        found_after: moves.len(),
        moves,
    })
}

/// A failure when the native form differs from the script from `state` (reached by `moves`).
fn native_differs(
    game: &ScriptedGame,
    state: &Dynamic,
    moves: &[String],
    effort: verify::Effort,
) -> Result<Option<Box<Failure>>, Box<Failure>> {
    let Some(d) = verify::compare(game, state, effort) else {
        return Ok(None);
    };
    if crate::cancel::calls_stopped() {
        return Ok(None); // a call stopped at the check's time is no disagreement
    }
    let all: Vec<String> = moves.iter().chain(&d.moves).cloned().collect();
    // A listed move `play` refuses is the script's own fault: reported (and shrunk) as such.
    let property = if d.refused {
        Property::ListedMovesPlay
    } else {
        Property::NativeAgrees
    };
    Ok(Some(Box::new(Failure {
        broken: Broken {
            property,
            message: d.what,
            mv: None,
            error: None,
        },
        found_after: all.len(),
        moves: all,
    })))
}

/// The failure as a trace file to paste into the script's tests: the game, the moves, and for
/// a listed move that `play` refuses, that move (which must then play).
pub fn trace_text(
    game_arg: &str,
    options: &[String],
    failure: &Failure,
    budget: &Budget,
) -> String {
    let mut out = format!(
        "# boardrules check --seed {}: {} — {}\n",
        budget.seed,
        failure.broken.property.describe(),
        failure.broken.message.replace('\n', " ")
    );
    if failure.found_after != failure.moves.len() {
        out += &format!(
            "# (shrunk from {} moves to {})\n",
            failure.found_after,
            failure.moves.len()
        );
    }
    out += &format!("game: {game_arg}\n");
    for option in options {
        out += &format!("option: {option}\n");
    }
    for mv in &failure.moves {
        out += &format!("> {mv}\n");
    }
    if let Some(mv) = &failure.broken.mv {
        if failure.broken.property == Property::ListedMovesPlay {
            out += &format!("> {mv}\n");
        } else {
            out += &format!("# … then the move {mv}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(floor: bool) -> Budget {
        Budget {
            games: None,
            time: Some(Duration::from_secs(3)),
            floor,
            seed: 0,
        }
    }

    fn seen(games: usize, positions: usize) -> Coverage {
        Coverage {
            games,
            positions,
            ..Coverage::default()
        }
    }

    #[test]
    fn the_floor_holds_past_the_time_until_it_is_reached_or_stretched_five_times() {
        let secs = Duration::from_secs_f64;
        let (few, enough) = (seen(3, 100), seen(MIN_GAMES, 100));
        let positions = seen(1, MIN_POSITIONS);
        // Within the time, no budget is up.
        assert!(!time_up(&budget(true), secs(2.9), &enough));
        assert!(!time_up(&budget(false), secs(2.9), &few));
        // Past it: without a floor, at once; with one, once 20 games or 2 000 positions were
        // checked, or at five times the time.
        assert!(time_up(&budget(false), secs(3.0), &few));
        assert!(!time_up(&budget(true), secs(3.0), &few));
        assert!(!time_up(&budget(true), secs(14.9), &few));
        assert!(time_up(&budget(true), secs(3.0), &enough));
        assert!(time_up(&budget(true), secs(3.0), &positions));
        assert!(time_up(&budget(true), secs(15.0), &few));
        // With no time (`--games N` alone), the games decide.
        let games = Budget {
            time: None,
            ..budget(false)
        };
        assert!(!time_up(&games, secs(1000.0), &few));
    }
}
