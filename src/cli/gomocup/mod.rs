//! `boardrules gomocup`: a Gomocup / Piskvork brain (the `pbrain` protocol on stdin and stdout),
//! for placement games whose moves are cells. Coordinates are `x,y`, zero-based from the top
//! left. `INFO rule` is what the script's `gomocup_rule(rule)` says (it may name another script
//! to play, for renju), or else bits 1 and 8 set the options `exact` and `block_rule`; a rule the game
//! cannot play is an `ERROR` at once. The time for a move comes from `INFO timeout_turn`,
//! `timeout_match` and `time_left` ([`clock`]); `YXSTOP` ends the search at once.

mod brain;
mod clock;
mod input;

use std::{
    io::{BufReader, Write},
    process::ExitCode,
    sync::mpsc::Receiver,
};

use brain::{clip, Brain};
use input::Arrived;

use crate::{cancel, diag::Diagnostic, script::library::Library, search::player::Level};

/// What a command asks of the protocol loop.
enum Flow {
    /// Answer this line (if any) and go on.
    Answer(Option<String>),
    /// `END`: stop.
    End,
}

/// Run as a manager runs a brain — a binary or link named `pbrain-…` (`pbrain-boardrules`,
/// `pbrain-boardrules.exe`) started with no arguments — the brain for the first built-in game
/// whose script answers `INFO rule` itself (defines `gomocup_rule`), until `INFO rule` says
/// otherwise: its exit code; `None` under any other name or with arguments.
pub fn as_pbrain() -> Option<ExitCode> {
    let mut args = std::env::args_os();
    let program = std::path::PathBuf::from(args.next()?);
    let stem = program.file_stem()?.to_str()?.to_ascii_lowercase();
    if !stem.starts_with("pbrain-") || args.next().is_some() {
        return None;
    }
    let game = Library::first_builtin_defining("gomocup_rule")?;
    Some(match run(game) {
        Ok(code) => code,
        Err(diagnostics) => {
            for d in diagnostics {
                eprintln!("{}", d.message);
            }
            ExitCode::FAILURE
        }
    })
}

/// Speaks the protocol until `END` or the end of input.
pub fn run(name: &str) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut brain = Brain::new(name)?;
    // `YXSTOP` stops a running search the moment it arrives (its line is handled after the move).
    let lines = input::spawn(BufReader::new(std::io::stdin()), |line| {
        if line
            .as_ref()
            .is_ok_and(|t| t.eq_ignore_ascii_case("YXSTOP"))
        {
            cancel::request();
        }
    });
    let mut out = std::io::stdout().lock();
    while let Ok((arrived, line)) = lines.recv() {
        let answer = match line {
            Err(why) => Some(format!("ERROR {why}")),
            Ok(text) => match command(&mut brain, &text, arrived, &lines) {
                Flow::End => break,
                Flow::Answer(answer) => answer,
            },
        };
        let Some(text) = answer else { continue };
        if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Carries out one command line, which `arrived` then (reading the lines of a `BOARD` from
/// `lines`).
fn command(
    brain: &mut Brain,
    line: &str,
    arrived: std::time::Instant,
    lines: &Receiver<Arrived>,
) -> Flow {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let began = std::time::Instant::now();
    let reply = |brain: &mut Brain| {
        brain
            .reply(Level::Hard.budget(), (arrived, began))
            .map(|(cell, why)| Some(format!("MESSAGE {why}\n{},{}", cell.x, cell.y)))
    };
    let answer: Result<Option<String>, String> = match word.to_ascii_uppercase().as_str() {
        "" => Ok(None),
        "YXSTOP" => {
            cancel::take(); // it stopped the search it came during, if any; it stops no other
            Ok(None)
        }
        "END" => return Flow::End,
        "START" => match rest.parse::<usize>() {
            Ok(size) => brain.start(size).map(|_| Some("OK".into())),
            Err(_) => Err(format!("unsupported size '{}'", clip(rest))),
        },
        "RESTART" => brain.restart().map(|_| Some("OK".into())),
        "INFO" => info(brain, rest).map(|_| None),
        "BEGIN" => reply(brain),
        "TURN" => brain.play_at(rest).and_then(|_| reply(brain)),
        "BOARD" => {
            let stones = until_done(lines);
            brain.board(&stones).and_then(|_| reply(brain))
        }
        "SWAP2BOARD" => {
            let stones = until_done(lines);
            brain.swap2(&stones, Level::Hard.budget()).map(Some)
        }
        "TAKEBACK" => brain.take_back(rest).map(|_| Some("OK".into())),
        "ABOUT" => Ok(Some(format!(
            "name=\"boardrules\", version=\"{}\", author=\"the boardrules developers\", country=\"VN\"",
            env!("CARGO_PKG_VERSION")
        ))),
        _ => Ok(Some(format!("UNKNOWN {}", clip(word)))),
    };
    Flow::Answer(match answer {
        Ok(answer) => answer,
        Err(e) => Some(format!("ERROR {e}")),
    })
}

/// The deepest search `INFO max_depth` may ask for, in moves.
const MAX_DEPTH: usize = 64;

/// `INFO KEY VALUE`: time settings, the deepest search (`max_depth`, which managers send to
/// limit an engine's depth), the most positions a move's search visits (`max_node`) and the
/// rule; other keys are accepted and ignored.
fn info(brain: &mut Brain, rest: &str) -> Result<(), String> {
    let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
    let key = key.to_ascii_lowercase();
    if brain.clock.set(&key, value)? {
        return Ok(());
    }
    if key == "max_depth" {
        brain.max_depth = match value.trim().parse::<usize>() {
            Ok(0) => None,
            Ok(depth) if depth <= MAX_DEPTH => Some(depth),
            _ => {
                return Err(format!(
                    "INFO max_depth {}: a depth from 0 (no limit) to {MAX_DEPTH} is expected",
                    clip(value)
                ))
            }
        };
        return Ok(());
    }
    if key == "max_node" {
        brain.max_nodes = match value.trim().parse::<i64>() {
            Ok(n) if n <= 0 => None,
            Ok(n) => Some(n as u64),
            _ => {
                return Err(format!(
                    "INFO max_node {}: a number of positions (0: no limit) is expected",
                    clip(value)
                ))
            }
        };
        return Ok(());
    }
    if key == "rule" {
        let rule = value
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("INFO rule {}: not a rule number", clip(value)))?;
        return brain.set_rule(rule);
    }
    Ok(())
}

/// The most lines of a `BOARD` or `SWAP2BOARD` kept (a board has at most 32×32 = 1024 cells);
/// lines past them are read and dropped.
const MAX_BOARD_LINES: usize = 1024;

/// The lines up to `DONE` (or the end of input); a line that is not text stays as a line that
/// names it, so that `BOARD` reports it, and so does a line past [`MAX_BOARD_LINES`].
fn until_done(lines: &Receiver<Arrived>) -> Vec<String> {
    let mut taken = Vec::new();
    while let Ok((_, line)) = lines.recv() {
        let kept = match line {
            Ok(t) if t.eq_ignore_ascii_case("DONE") => break,
            Ok(t) => t,
            Err(_) => "(a line that is not text)".into(),
        };
        if taken.len() < MAX_BOARD_LINES {
            taken.push(kept);
        } else if taken.len() == MAX_BOARD_LINES {
            taken.push(format!("(more than {MAX_BOARD_LINES} lines)"));
        }
    }
    taken
}
