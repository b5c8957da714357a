//! `boardrules play`: the REPL on a game, or on a saved game — a save file names its game, so
//! `boardrules play --load FILE` needs no GAME, and a different GAME given with it is an error.

use std::{path::Path, process::ExitCode};

use super::GameArgs;
use crate::{diag::Diagnostic, repl::save};

/// The game `play` runs: `game` if given, else the one the save file `load` names; an error when
/// both are given and differ.
pub fn game_of(game: Option<&str>, load: Option<&str>) -> Result<String, Vec<Diagnostic>> {
    let Some(path) = load else {
        return game
            .map(str::to_string)
            .ok_or_else(|| vec![Diagnostic::new("play needs a GAME or --load FILE")]);
    };
    let (text, file) = save::read(Path::new(path)).map_err(|d| vec![d])?;
    let saved = file.game.get_ref();
    match game {
        Some(given) if !same_game(given, saved) => Err(vec![Diagnostic::new(format!(
            "{path} is a saved game of {saved}, not {given}"
        ))
        .at(path, &text, file.game.span(), "the game this file holds")
        .note(format!(
            "leave GAME out to play the file's game: boardrules play --load {path}"
        ))]),
        _ => Ok(saved.clone()),
    }
}

/// Whether two game names (built-in names or script paths) load the same rules.
fn same_game(a: &str, b: &str) -> bool {
    let name = |g: &str| {
        GameArgs {
            game: g.to_string(),
            options: Vec::new(),
            seed: None,
        }
        .load()
        .ok()
        .map(|game| game.name().to_string())
    };
    a == b || name(a).is_some_and(|n| Some(n) == name(b))
}

/// Runs the REPL (see [`crate::repl::run`]) on the game [`game_of`] finds.
pub fn run(
    game: Option<&str>,
    options: Vec<String>,
    seed: Option<u64>,
    load: Option<&str>,
    vs: Option<crate::search::player::Level>,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let args = GameArgs {
        game: game_of(game, load)?,
        options,
        seed,
    };
    crate::repl::run(&args, load, vs)
}
