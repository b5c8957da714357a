//! `boardrules gomocup`: a Gomocup / Piskvork brain (the `pbrain` protocol on stdin and stdout),
//! for placement games whose moves are cells. Coordinates are `x,y`, zero-based from the top left.
//! `INFO rule` sets the options the protocol's rule bits stand for, when the script has them:
//! bit 1 "exactly five" (option `exact`), bit 8 "a line blocked at both ends does not win"
//! (option `block_rule`).

use std::{io::Write, process::ExitCode, time::Duration};

use rhai::Dynamic;

use crate::{
    ai::{self, Level},
    diag::Diagnostic,
    fsio,
    runtime::{Cell, Game, History},
    script::{Library, ScriptedGame},
};

/// The longest time for a move that `INFO timeout_turn` may ask for: 10 minutes.
const MAX_TURN_MS: u64 = 600_000;

/// The protocol's `INFO rule` bits, and the option each sets.
const RULE_BITS: [(u32, &str); 2] = [(1, "exact"), (8, "block_rule")];

/// The brain: the game chosen by `START` and `INFO rule`, and the moves so far.
struct Brain {
    name: String,
    rule: Option<u32>,
    turn_time: Duration,
    game: Option<(ScriptedGame, History<ScriptedGame>)>,
    size: usize,
}

impl Brain {
    /// A new game of the current size and rule.
    fn start(&mut self, size: usize) -> Result<(), String> {
        let mut game = ScriptedGame::load(&Library::discover(), &self.name)
            .map_err(|d| d[0].message.clone())?;
        game.set_option("size", &size.to_string())
            .map_err(|e| format!("unsupported size {size}: {e}"))?;
        if let Some(rule) = self.rule {
            for (bit, option) in RULE_BITS {
                if game.options().iter().any(|o| o.name == option) {
                    game.set_option(option, if rule & bit != 0 { "true" } else { "false" })?;
                }
            }
        }
        let start = game.start().map_err(|e| e.to_string())?;
        self.size = size;
        self.game = Some((game, History::new(start)));
        Ok(())
    }

    fn game(&mut self) -> Result<&mut (ScriptedGame, History<ScriptedGame>), String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    /// The legal move at `x,y`.
    fn move_at(game: &ScriptedGame, state: &Dynamic, text: &str) -> Result<Dynamic, String> {
        let cell = parse_xy(text)?;
        let (x, y) = (cell.x, cell.y);
        game.legal_moves(state)
            .map_err(|e| e.to_string())?
            .into_iter()
            .find(|m| m.clone().try_cast::<Cell>() == Some(cell))
            .ok_or_else(|| format!("{x},{y} is not a legal move"))
    }

    fn play_at(&mut self, text: &str) -> Result<(), String> {
        let (game, history) = self.game()?;
        let mv = Self::move_at(game, history.current(), text)?;
        history.play(game, &mv).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Chooses, plays and returns our move (with a MESSAGE line saying why).
    fn reply(&mut self) -> Result<String, String> {
        let time = self.turn_time;
        let (game, history) = self.game()?;
        let seed = history.ply() as u64;
        let hint = ai::choose(game, history.current(), Level::Hard, Some(time), seed)
            .map_err(|e| e.to_string())?
            .ok_or("the game is over")?;
        let cell = hint
            .mv
            .clone()
            .try_cast::<Cell>()
            .ok_or("moves of this game are not cells")?;
        history.play(game, &hint.mv).map_err(|e| e.to_string())?;
        Ok(format!("MESSAGE {}\n{},{}", hint.reason, cell.x, cell.y))
    }

    /// Rebuilds the game from `BOARD` lines (`x,y,1` ours, `x,y,2` theirs), we being to move.
    fn board(&mut self, lines: &[String]) -> Result<(), String> {
        let size = self.size;
        self.start(size)?;
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for line in lines {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            match fields.as_slice() {
                [x, y, "1"] => ours.push(format!("{x},{y}")),
                [x, y, "2" | "3"] => theirs.push(format!("{x},{y}")),
                _ => return Err(format!("'{line}' is not x,y,1 or x,y,2")),
            }
        }
        let (first, second) = match theirs.len().checked_sub(ours.len()) {
            Some(0) => (&ours, &theirs),
            Some(1) => (&theirs, &ours),
            _ => return Err("the stone counts do not fit us being to move".into()),
        };
        for (i, stone) in first.iter().enumerate() {
            self.play_at(stone)?;
            if let Some(m) = second.get(i) {
                self.play_at(m)?;
            }
        }
        Ok(())
    }
}

/// Reads `x,y`.
fn parse_xy(text: &str) -> Result<Cell, String> {
    let mut parts = text.split(',').map(|p| p.trim().parse::<i64>());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Ok(Cell::new(x, y)),
        _ => Err(format!("'{text}' is not x,y")),
    }
}

/// Speaks the protocol until `END` or the end of input.
pub fn run(name: &str) -> Result<ExitCode, Vec<Diagnostic>> {
    ScriptedGame::load(&Library::discover(), name)?;
    let mut brain = Brain {
        name: name.to_string(),
        rule: None,
        turn_time: Level::Hard.budget(),
        game: None,
        size: 15,
    };
    let mut input = std::io::stdin().lock();
    // The next line; a line that is not UTF-8 text (or too long) comes as `Err` and is answered
    // with an ERROR, and the brain goes on. A read error ends the input.
    let mut next = move || fsio::next_line(&mut input, fsio::MAX_LINE).ok().flatten();
    let mut out = std::io::stdout().lock();
    while let Some(line) = next() {
        let line = match line {
            Ok(line) => line.trim().to_string(),
            Err(why) => {
                if writeln!(out, "ERROR {why}")
                    .and_then(|_| out.flush())
                    .is_err()
                {
                    break;
                }
                continue;
            }
        };
        let (word, rest) = line.split_once(' ').unwrap_or((&line, ""));
        let rest = rest.trim();
        let answer: Result<Option<String>, String> = match word.to_ascii_uppercase().as_str() {
            "" => Ok(None),
            "START" => match rest.parse::<usize>() {
                Ok(size) => brain.start(size).map(|_| Some("OK".into())),
                Err(_) => Err(format!("unsupported size '{rest}'")),
            },
            "RESTART" => brain.start(brain.size).map(|_| Some("OK".into())),
            "INFO" => {
                let mut return_error = None;
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                match (key.to_ascii_lowercase().as_str(), value.trim().parse::<u64>()) {
                    ("timeout_turn", Ok(ms)) if ms > MAX_TURN_MS => {
                        return_error = Some(format!(
                            "timeout_turn {ms} is more than {MAX_TURN_MS} ms: keeping {} ms",
                            brain.turn_time.as_millis()
                        ));
                    }
                    ("timeout_turn", Ok(ms)) if ms > 0 => {
                        brain.turn_time = Duration::from_millis(ms.saturating_sub(ms / 5 + 30).max(10));
                    }
                    ("rule", Ok(rule)) => {
                        brain.rule = Some(rule as u32);
                        if brain.game.as_ref().is_some_and(|(_, h)| h.ply() == 0) {
                            let size = brain.size;
                            brain.start(size).ok();
                        }
                    }
                    _ => {}
                }
                return_error.map_or(Ok(None), Err)
            }
            "BEGIN" => brain.reply().map(Some),
            "TURN" => brain.play_at(rest).and_then(|_| brain.reply()).map(Some),
            "BOARD" => {
                let mut stones = Vec::new();
                while let Some(l) = next() {
                    let l = l.unwrap_or_default();
                    if l.trim().eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    stones.push(l.trim().to_string());
                }
                brain.board(&stones).and_then(|_| brain.reply()).map(Some)
            }
            "TAKEBACK" => parse_xy(rest).and_then(|cell| {
                let (_, history) = brain.game()?;
                let last = history.steps().last().and_then(|s| s.mv.clone().try_cast::<Cell>());
                if last != Some(cell) {
                    return Err(format!("{rest} is not the last move"));
                }
                history.undo();
                Ok(Some("OK".into()))
            }),
            "ABOUT" => Ok(Some(format!(
                "name=\"boardrules\", version=\"{}\", author=\"the boardrules developers\", country=\"VN\"",
                env!("CARGO_PKG_VERSION")
            ))),
            "END" => break,
            _ => Ok(Some(format!("UNKNOWN {line}"))),
        };
        let text = match answer {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(e) => format!("ERROR {e}"),
        };
        if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
