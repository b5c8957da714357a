//! `boardrules referee`: runs two bots against each other by the class protocol — each bot is a
//! program run as `PROGRAM OPPONENT_ID ME CELL…` in its own temporary folder, and must write its
//! move to `play.txt` there within the time limit. Every move is checked by the rules script; a
//! bot that is too slow, fails, writes nothing or writes a bad or illegal move loses.

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressStyle};
use rhai::Dynamic;

use super::GameArgs;
use crate::{
    ai::{self, Level},
    diag::Diagnostic,
    runtime::{Game, Outcome as End},
    script::ScriptedGame,
    words::count,
};

type Outcome = Result<ExitCode, Vec<Diagnostic>>;

/// How the referee runs a match.
#[derive(Debug, Clone)]
pub struct Match {
    /// The two sides: a command line, or `builtin:LEVEL`.
    pub sides: [String; 2],
    /// How many games (the sides take turns to start).
    pub games: usize,
    /// The time a bot has for a move.
    pub timeout: Duration,
    /// A draw after this many plies.
    pub max_plies: usize,
    /// Print every game's moves.
    pub show_moves: bool,
}

/// One side of a match.
enum Side {
    /// The computer at a level (the game's best search, as `hint` uses).
    Builtin(Level),
    Program {
        command: String,
        dir: tempfile::TempDir,
    },
}

/// How one game ended.
struct Record {
    moves: Vec<String>,
    /// The winning player (0 or 1), `None` for a draw.
    winner: Option<usize>,
    reason: String,
}

/// Runs the match and prints each game and the totals.
pub fn run(args: &GameArgs, m: &Match) -> Outcome {
    let game = args.load()?;
    let mut sides = [side(&m.sides[0])?, side(&m.sides[1])?];
    let mut wins = [0usize; 2];
    let mut draws = 0;
    let bar = ProgressBar::new(m.games as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}").expect("a valid template"),
    );
    for g in 0..m.games {
        // Side A is player 1 in even games, player 2 in odd ones.
        let first = g % 2;
        let seed = args.seed.unwrap_or(0) + g as u64;
        let record = {
            let [a, b] = &mut sides;
            let players: [&mut Side; 2] = if first == 0 { [a, b] } else { [b, a] };
            play_game(&game, players, m, seed).map_err(|d| vec![d])?
        };
        let winner_side = record.winner.map(|p| (p + first) % 2);
        match winner_side {
            Some(s) => wins[s] += 1,
            None => draws += 1,
        }
        let name = |s: usize| format!("p{} ({})", s + 1, m.sides[s]);
        let result = match winner_side {
            Some(s) => format!("{} wins", name(s)),
            None => "draw".to_string(),
        };
        let line = format!(
            "game {}: {} starts; {result}: {}; {}",
            g + 1,
            name(first),
            record.reason,
            count(record.moves.len(), "ply", "plies")
        );
        bar.suspend(|| {
            println!("{line}");
            if m.show_moves {
                println!("  moves: {}", record.moves.join(" | "));
            }
        });
        bar.set_message(format!("p1 {} · p2 {} · draws {draws}", wins[0], wins[1]));
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "totals over {}: p1 ({}) {}, p2 ({}) {}, {}",
        count(m.games, "game", "games"),
        m.sides[0],
        count(wins[0], "win", "wins"),
        m.sides[1],
        count(wins[1], "win", "wins"),
        count(draws, "draw", "draws")
    );
    Ok(ExitCode::SUCCESS)
}

fn side(spec: &str) -> Result<Side, Vec<Diagnostic>> {
    if let Some(level) = spec.strip_prefix("builtin:") {
        return Level::parse(level).map(Side::Builtin).ok_or_else(|| {
            vec![Diagnostic::new(format!(
                "unknown level '{level}': use builtin:easy, builtin:medium or builtin:hard"
            ))]
        });
    }
    let dir = tempfile::tempdir().map_err(|e| {
        vec![Diagnostic::new(format!(
            "cannot make a folder for a bot: {e}"
        ))]
    })?;
    Ok(Side::Program {
        command: resolve(spec),
        dir,
    })
}

/// The command with its program made runnable from another folder: `boardrules` is this very
/// program, and a relative path that exists here becomes absolute.
fn resolve(spec: &str) -> String {
    let spec = spec.trim();
    let (program, rest) = spec.split_once(' ').unwrap_or((spec, ""));
    let path: Option<PathBuf> = if program == "boardrules" {
        std::env::current_exe().ok()
    } else if program.contains('/') && Path::new(program).is_relative() {
        Path::new(program).canonicalize().ok()
    } else {
        None
    };
    match path {
        Some(p) => format!(
            "'{}' {rest}",
            p.display().to_string().replace('\'', r"'\''")
        ),
        None => spec.to_string(),
    }
}

fn play_game(
    game: &ScriptedGame,
    players: [&mut Side; 2],
    m: &Match,
    seed: u64,
) -> Result<Record, Diagnostic> {
    let fail = |e| game.describe(&e);
    let mut state = game.start().map_err(fail)?;
    let mut moves = Vec::new();
    let ids = ["1000001", "1000002"];
    loop {
        if let Some(end) = game.outcome(&state).map_err(fail)? {
            let (winner, reason) = match end {
                End::Win(p) => (
                    Some(p),
                    format!("{} lost by the rules", game.player_name(1 - p)),
                ),
                End::Draw => (None, "the rules say draw".to_string()),
            };
            return Ok(Record {
                moves,
                winner,
                reason,
            });
        }
        if moves.len() >= m.max_plies {
            return Ok(Record {
                moves,
                winner: None,
                reason: format!("{} played", count(m.max_plies, "ply", "plies")),
            });
        }
        let p = game.to_move(&state).map_err(fail)?;
        let lose = |moves: Vec<String>, why: String| Record {
            moves,
            winner: Some(1 - p),
            reason: format!("{} {why}", game.player_name(p)),
        };
        let text = match ask(game, &state, &*players[p], p, ids[1 - p], m.timeout, seed) {
            Ok(t) => t,
            Err(why) => return Ok(lose(moves, why)),
        };
        let played = game
            .parse_move(&state, &text)
            .and_then(|mv| Ok((game.format_move(&state, &mv)?, game.play(&state, &mv)?)));
        match played {
            Ok((canonical, next)) => {
                moves.push(canonical);
                state = next.state;
            }
            Err(e) => return Ok(lose(moves, format!("played '{text}': {e}"))),
        }
    }
}

/// The move text side `me` gives for `state`, or why it forfeits.
fn ask(
    game: &ScriptedGame,
    state: &Dynamic,
    side: &Side,
    me: usize,
    opponent: &str,
    timeout: Duration,
    seed: u64,
) -> Result<String, String> {
    match side {
        Side::Builtin(level) => match ai::choose(game, state, *level, None, seed) {
            Ok(Some(hint)) => Ok(hint.text),
            Ok(None) => Err("has no move".into()),
            Err(e) => Err(format!("failed: {e}")),
        },
        Side::Program { command, dir } => {
            let board = game.render(state).map_err(|e| e.to_string())?;
            run_bot(command, dir.path(), opponent, me, &board, timeout)
        }
    }
}

/// Runs a bot program in `dir` and reads the `play.txt` it writes.
fn run_bot(
    command: &str,
    dir: &Path,
    opponent: &str,
    me: usize,
    board: &str,
    timeout: Duration,
) -> Result<String, String> {
    let out = dir.join("play.txt");
    let _ = std::fs::remove_file(&out);
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("{command} \"$@\""))
        .arg("sh")
        .arg(opponent)
        .arg((me + 1).to_string())
        .args(board.split_whitespace())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not be started: {e}"))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                kill(&mut child);
                return Err(format!("took longer than {} ms", timeout.as_millis()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("could not be waited for: {e}")),
        }
    };
    if !status.success() {
        return Err(format!("exited with {status}"));
    }
    let text = std::fs::read_to_string(&out).map_err(|_| "wrote no play.txt".to_string())?;
    Ok(text.trim().to_string())
}

/// Kills a bot and everything it started (it runs in its own process group).
fn kill(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
