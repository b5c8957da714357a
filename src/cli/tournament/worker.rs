//! A worker process of a tournament: it plays the games it is sent on stdin, one at a time, and
//! writes each finished game to stdout. Each worker is a referee of its own (the bots it starts
//! are its children, which the [sandbox](super::super::referee::sandbox) kills after each move),
//! so workers never kill each other's bots.

use std::{
    io::{BufRead, Write},
    process::ExitCode,
    time::Duration,
};

use serde::{Deserialize, Serialize};

use super::{
    journal::{Entry, FaultEntry},
    schedule::{Bot, Pairing},
};
use crate::{
    cli::{
        referee::{self, Side},
        GameArgs,
    },
    diag::Diagnostic,
};

/// What a worker is told before its first game (the first line on its stdin).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    /// The game, its options and seed.
    pub game: String,
    /// `KEY=VALUE` options.
    pub options: Vec<String>,
    /// The game's seed, if given.
    pub seed: Option<u64>,
    /// The bots.
    pub bots: Vec<Bot>,
    /// The time a bot has for a move.
    pub time_ms: u64,
    /// A draw after this many plies.
    pub max_plies: usize,
}

/// Runs a worker: reads the setup, then plays each game sent until stdin ends.
pub fn run() -> Result<ExitCode, Vec<Diagnostic>> {
    die_with_parent();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let bad = |e: String| vec![Diagnostic::new(format!("tournament worker: {e}"))];
    let first = lines
        .next()
        .ok_or_else(|| bad("no setup".into()))?
        .map_err(|e| bad(e.to_string()))?;
    let setup: Setup = serde_json::from_str(&first).map_err(|e| bad(e.to_string()))?;
    let game = GameArgs {
        game: setup.game.clone(),
        options: setup.options.clone(),
        seed: setup.seed,
    }
    .load()?;
    let mut sides = setup
        .bots
        .iter()
        .map(|b| referee::side(&b.command))
        .collect::<Result<Vec<Side>, _>>()?;
    let mut out = std::io::stdout().lock();
    for line in lines {
        let line = line.map_err(|e| bad(e.to_string()))?;
        let pairing: Pairing = serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
        let [a, b] = pairing.sides;
        if a == b || a.max(b) >= sides.len() {
            return Err(bad(format!("no such pairing: {line}")));
        }
        let record = {
            // Two distinct sides borrowed at once: split the list between them.
            let (low, high) = sides.split_at_mut(a.max(b));
            let (x, y) = (&mut low[a.min(b)], &mut high[0]);
            let players = if a < b { [x, y] } else { [y, x] };
            referee::play_game(
                &game,
                players,
                Duration::from_millis(setup.time_ms),
                setup.max_plies,
                pairing.seed,
            )
            .map_err(|d| vec![d])?
        };
        let names = [setup.bots[a].name.clone(), setup.bots[b].name.clone()];
        let faults = record
            .fault
            .map(|f| FaultEntry {
                bot: names[f.player].clone(),
                kind: f.kind,
                detail: f.detail,
            })
            .into_iter()
            .collect();
        let entry = Entry {
            game: pairing.id,
            rules: game.name().to_string(),
            options: setup.options.clone(),
            players: names,
            seed: pairing.seed,
            result: match record.winner {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            }
            .to_string(),
            reason: record.reason,
            moves: record.moves,
            faults,
        };
        let text = serde_json::to_string(&entry).map_err(|e| bad(e.to_string()))?;
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            break; // the tournament is gone
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Ends this worker when the tournament that started it ends, even by `kill -9` (Linux).
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(2) with PR_SET_PDEATHSIG takes one signal number.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM, 0, 0, 0);
    }
}
