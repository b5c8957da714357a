//! `boardrules referee`: runs two bots against each other by the class protocol — each bot is a
//! program run as `PROGRAM OPPONENT_ID ME CELL…` (the cells as
//! [`ScriptedGame::cells`] writes them) in its own temporary folder, and must write its
//! move to `play.txt` there within the time limit. Every move is checked by the rules script; a
//! bot that is too slow, fails, writes nothing or writes a bad or illegal move loses. Bots are
//! untrusted: see [`sandbox`] for how each is contained.

mod sandbox;

use std::{
    path::Path,
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressStyle};
use rhai::Dynamic;

use super::GameArgs;
use crate::{
    diag::Diagnostic,
    runtime::{legality, Game, Outcome as End},
    script::ScriptedGame,
    search::player::{self, Level},
    terminal::clean,
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
    let players = game.player_names().len();
    if players != 2 {
        return Err(vec![Diagnostic::new(format!(
            "the referee plays two-player games, and {} with these options has {players} players",
            game.name()
        ))
        .note("choose two players with -o (see `boardrules list`)")]);
    }
    let mut sides = [side(&m.sides[0])?, side(&m.sides[1])?];
    let programs = sides.iter().any(|s| matches!(s, Side::Program { .. }));
    if programs && !sandbox::landlock_available() {
        eprintln!("note: this kernel has no Landlock: bots can write outside their own folders");
    }
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
            println!("{}", clean(&line));
            if m.show_moves {
                println!("  moves: {}", clean(&record.moves.join(" | ")));
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

/// The command made runnable from the bot's own folder: the program `boardrules` is this very
/// program, and a word that is a relative path to a file here (the program, or a script it is
/// given, as in `boardrules bot rules/my_game.rhai`) becomes absolute.
fn resolve(spec: &str) -> String {
    let spec = spec.trim();
    let (program, rest) = spec.split_once(' ').unwrap_or((spec, ""));
    let program = if program == "boardrules" {
        std::env::current_exe().ok().map(|p| quote(&p))
    } else {
        absolute(program)
    }
    .unwrap_or_else(|| program.to_string());
    let rest: Vec<String> = rest
        .split(' ')
        .map(|word| absolute(word).unwrap_or_else(|| word.to_string()))
        .collect();
    format!("{program} {}", rest.join(" "))
        .trim_end()
        .to_string()
}

/// `word` as a quoted absolute path, if it is a relative path (with a `/` or ending in `.rhai`)
/// to a file that exists here.
fn absolute(word: &str) -> Option<String> {
    let path = Path::new(word);
    let looks_like_a_path = word.contains('/') || word.ends_with(".rhai");
    (looks_like_a_path && path.is_relative() && path.is_file())
        .then(|| path.canonicalize().ok())
        .flatten()
        .map(|p| quote(&p))
}

/// A path quoted for `sh`.
fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
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
        if p > 1 {
            return Err(Diagnostic::new(format!(
                "the rules say player {} is to move in a two-player game",
                p + 1
            )));
        }
        let lose = |moves: Vec<String>, why: String| Record {
            moves,
            winner: Some(1 - p),
            reason: format!("{} {why}", game.player_name(p)),
        };
        let text = match ask(game, &state, &*players[p], p, ids[1 - p], m.timeout, seed) {
            Ok(t) => t,
            Err(why) => return Ok(lose(moves, why)),
        };
        let played = game.parse_move(&state, &text).and_then(|mv| {
            let canonical = game.format_move(&state, &mv)?;
            let next = legality::play_listed(game, &state, &mv, &canonical)?;
            Ok((canonical, next))
        });
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
        Side::Builtin(level) => match player::choose(game, state, *level, None, seed) {
            Ok(Some(hint)) => Ok(hint.text),
            Ok(None) => Err("has no move".into()),
            Err(e) => Err(format!("failed: {e}")),
        },
        Side::Program { command, dir } => {
            let cells = game.cells(state).map_err(|e| e.to_string())?;
            run_bot(command, dir.path(), opponent, me, &cells, timeout)
        }
    }
}

/// Runs a bot program in `dir`, contained (see [`sandbox`]), and reads the `play.txt` it writes.
/// `$BOARDRULES_BIN` names this program for the bot (so a bot can call boardrules when it is not
/// on the `PATH`).
fn run_bot(
    command: &str,
    dir: &Path,
    opponent: &str,
    me: usize,
    cells: &[String],
    timeout: Duration,
) -> Result<String, String> {
    sandbox::clear_play(dir);
    let stderr = tempfile::tempfile().map_err(|e| format!("could not be started: {e}"))?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("{command} \"$@\""))
        .arg("sh")
        .arg(opponent)
        .arg((me + 1).to_string())
        .args(cells)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(
            stderr
                .try_clone()
                .map_err(|e| format!("could not be started: {e}"))?,
        );
    if let Ok(me) = std::env::current_exe() {
        cmd.env("BOARDRULES_BIN", me);
    }
    let start = Instant::now();
    let mut child =
        sandbox::spawn(&mut cmd, dir).map_err(|e| format!("could not be started: {e}"))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                sandbox::kill_tree(&mut child);
                return Err(format!("took longer than {} ms", timeout.as_millis()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                sandbox::kill_tree(&mut child);
                return Err(format!("could not be waited for: {e}"));
            }
        }
    };
    // Whatever the bot left running dies before its play is read.
    sandbox::kill_tree(&mut child);
    let failed = |why: String| why + stderr_tail(&stderr).as_str();
    if !status.success() {
        return Err(failed(format!("exited with {status}")));
    }
    Ok(sandbox::read_play(dir).map_err(failed)?.trim().to_string())
}

/// The end of what a bot wrote to stderr (at most 10 lines of 2 000 bytes), each line indented
/// and with control characters escaped, after a `; its stderr:` line; empty if it wrote nothing.
fn stderr_tail(mut file: &std::fs::File) -> String {
    use std::io::{Read, Seek, SeekFrom};
    const MAX_BYTES: u64 = 2000;
    const MAX_LINES: usize = 10;
    let len = file.seek(SeekFrom::End(0)).unwrap_or(0);
    let mut bytes = Vec::new();
    if file
        .seek(SeekFrom::Start(len.saturating_sub(MAX_BYTES)))
        .is_err()
        || file.read_to_end(&mut bytes).is_err()
    {
        return String::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return String::new();
    }
    let shown = &lines[lines.len().saturating_sub(MAX_LINES)..];
    let cut = if len > MAX_BYTES || shown.len() < lines.len() {
        "\n  | …"
    } else {
        ""
    };
    let body: String = shown
        .iter()
        .map(|l| format!("\n  | {}", crate::terminal::clean(l)))
        .collect();
    format!("; its stderr:{cut}{body}")
}
