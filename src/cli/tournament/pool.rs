//! Plays games on worker processes (`boardrules tournament-worker`), as many at once as there
//! are workers, handing each worker its next game as soon as it is free.

use std::{
    collections::VecDeque,
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    sync::{mpsc, Arc, Mutex},
};

use super::{journal::Entry, schedule::Pairing, worker::Setup};

/// Plays `games` on `jobs` workers set up by `setup`, calling `done` with each finished game as
/// it comes (in the order they finish). Stops handing out games after the first error, which it
/// returns once the games under way are finished.
pub fn play(
    setup: &Setup,
    games: Vec<Pairing>,
    jobs: usize,
    mut done: impl FnMut(Entry) -> Result<(), String>,
) -> Result<(), String> {
    let jobs = jobs.min(games.len()); // no worker is started for nothing
    let queue = Arc::new(Mutex::new(VecDeque::from(games)));
    let setup_line = serde_json::to_string(setup).map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel::<Result<Entry, String>>();
    let workers: Vec<_> = (0..jobs)
        .map(|_| {
            let (queue, tx, setup_line) = (queue.clone(), tx.clone(), setup_line.clone());
            std::thread::spawn(move || {
                if let Err(e) = work(&queue, &setup_line, &tx) {
                    let _ = tx.send(Err(e));
                }
            })
        })
        .collect();
    drop(tx);
    let mut error = None;
    for message in rx {
        let result = message.and_then(&mut done);
        if let Err(e) = result {
            queue.lock().map(|mut q| q.clear()).ok();
            error.get_or_insert(e);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    error.map_or(Ok(()), Err)
}

/// One worker's loop: start the process, then send it games until none are left.
fn work(
    queue: &Mutex<VecDeque<Pairing>>,
    setup_line: &str,
    tx: &mpsc::Sender<Result<Entry, String>>,
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut child = Command::new(exe)
        .arg("tournament-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start a worker: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("a worker has no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("a worker has no stdout")?);
    let lost = |e: std::io::Error| format!("a worker stopped: {e}");
    writeln!(stdin, "{setup_line}").map_err(lost)?;
    let result = loop {
        let Some(game) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break Ok(());
        };
        let line = serde_json::to_string(&game).map_err(|e| e.to_string())?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(lost)?;
        let mut answer = String::new();
        match stdout.read_line(&mut answer) {
            Ok(0) => break Err(format!("a worker stopped during game {}", game.id + 1)),
            Ok(_) => {}
            Err(e) => break Err(lost(e)),
        }
        let entry = serde_json::from_str(&answer)
            .map_err(|e| format!("a worker's answer is not a game: {e}"))?;
        if tx.send(Ok(entry)).is_err() {
            break Ok(());
        }
    };
    drop(stdin);
    let _ = child.wait();
    result
}
