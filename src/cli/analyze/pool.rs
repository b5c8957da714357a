//! Plays every variant's games on worker threads (each loads its own copy of each script),
//! with a progress bar on a terminal.

use std::{
    io::IsTerminal,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
};

use indicatif::{ProgressBar, ProgressStyle};

use super::{
    selfplay::{self, Plan, Record},
    variant::Variant,
};
use crate::{
    diag::Diagnostic,
    script::{sandbox, ScriptedGame},
};

/// Plays `games` games of each variant on `jobs` threads: the records, variant by variant, in
/// game order (so a seed gives the same report whatever the number of jobs).
pub fn play_all(
    variants: &[Variant],
    games: usize,
    plan: &Plan,
    jobs: usize,
) -> Result<Vec<Vec<Record>>, Vec<Diagnostic>> {
    let total = variants.len() * games;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let records = Mutex::new(vec![vec![Record::default(); games]; variants.len()]);
    let errors = Mutex::new(Vec::new());
    let bar = progress_bar(total);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, total.max(1)) {
            let worker = std::thread::Builder::new().stack_size(sandbox::thread_stack());
            let spawned = worker.spawn_scoped(scope, || {
                let mut loaded: Vec<Option<ScriptedGame>> = variants.iter().map(|_| None).collect();
                while !failed.load(Ordering::Relaxed) {
                    let task = next.fetch_add(1, Ordering::Relaxed);
                    if task >= total {
                        break;
                    }
                    let (v, g) = (task % variants.len(), task / variants.len());
                    let result = match &mut loaded[v] {
                        Some(game) => one(game, plan, g),
                        slot => variants[v].args.load().and_then(|game| {
                            let game = slot.insert(game);
                            one(game, plan, g)
                        }),
                    };
                    match result {
                        Ok(record) => {
                            records.lock().expect("no panic holds the lock")[v][g] = record
                        }
                        Err(d) => {
                            failed.store(true, Ordering::Relaxed);
                            errors.lock().expect("no panic holds the lock").extend(d);
                        }
                    }
                    bar.inc(1);
                }
            });
            if let Err(e) = spawned {
                failed.store(true, Ordering::Relaxed);
                errors
                    .lock()
                    .expect("no panic holds the lock")
                    .push(Diagnostic::new(format!("cannot start a thread: {e}")));
            }
        }
    });
    bar.finish_and_clear();
    let errors = errors.into_inner().expect("no panic holds the lock");
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(records.into_inner().expect("no panic holds the lock"))
}

fn one(game: &mut ScriptedGame, plan: &Plan, g: usize) -> Result<Record, Vec<Diagnostic>> {
    selfplay::play(game, plan, g as u64).map_err(|e| {
        vec![game.describe(&e).note(format!(
            "in self-play game {} (seed {})",
            g + 1,
            plan.seed + g as u64
        ))]
    })
}

/// A bar of games, hidden when stderr is not a terminal.
fn progress_bar(total: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed}")
            .expect("a valid template"),
    )
}
