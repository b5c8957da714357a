//! `boardrules play`: the REPL on a game, or on a saved game — a save file names its game, so
//! `boardrules play --load FILE` needs no GAME, and a different GAME given with it is an error.

use std::{path::Path, process::ExitCode};

use super::GameArgs;
use crate::{diag::Diagnostic, repl::save, script::Library};

/// The game `play` runs: `game` if given, else the one the save file `load` names; an error when
/// both are given and differ. When they name the same game but different script files (a
/// teacher's `NAME.rhai` and the built-in `NAME`, or two folders' copies), it asks first on a
/// terminal, and is an error otherwise.
pub fn game_of(game: Option<&str>, load: Option<&str>) -> Result<String, Vec<Diagnostic>> {
    let Some(path) = load else {
        return game
            .map(str::to_string)
            .ok_or_else(|| vec![Diagnostic::new("play needs a GAME or --load FILE")]);
    };
    let (text, file) = save::read(Path::new(path)).map_err(|d| vec![d])?;
    let saved = file.game.get_ref();
    let Some(given) = game.filter(|g| g != saved) else {
        return Ok(saved.clone());
    };
    let (asked, kept) = (script_of(given), script_of(saved));
    if asked.is_some() && asked == kept {
        return Ok(saved.clone());
    }
    let same_name = matches!((&asked, &kept), (Some(a), Some(k)) if a.0 == k.0);
    if !same_name {
        return Err(vec![Diagnostic::new(format!(
            "{path} is a saved game of {saved}, not {given}"
        ))
        .at(path, &text, file.game.span(), "the game this file holds")
        .note(format!(
            "leave GAME out to play the file's game: boardrules play --load {path}"
        ))]);
    }
    let ((name, asked), kept) = (asked.unwrap_or_default(), kept.unwrap_or_default().1);
    let question = format!(
        "{path} holds a game of {kept}, not of {asked} (both are called {name}). \
         Load it with {kept}? [y/N] "
    );
    if confirm(&question) {
        return Ok(saved.clone());
    }
    Err(vec![Diagnostic::new(format!(
        "{path} is a saved game of {kept}, not of {asked}: not loaded"
    ))
    .at(path, &text, file.game.span(), "the script this file names")
    .note(format!(
        "both are called {name}; to play the file's script, leave GAME out: boardrules play --load {path}"
    ))])
}

/// A game's name and where its script comes from: `builtin:NAME`, or the script file's
/// absolute path (`None` if there is no such game).
fn script_of(game: &str) -> Option<(String, String)> {
    let source = Library::discover().find(game).ok()?;
    let place = match source.dir {
        None => source.label,
        Some(_) => std::fs::canonicalize(&source.label)
            .map(|p| p.display().to_string())
            .unwrap_or(source.label),
    };
    Some((source.name, place))
}

/// Asks `question` on the terminal: whether the answer is yes (never, without a terminal).
fn confirm(question: &str) -> bool {
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        return false;
    }
    print!("{}", crate::terminal::clean(question));
    let _ = std::io::stdout().flush();
    let mut answer = String::new();
    let read = std::io::stdin().lock().read_line(&mut answer);
    read.is_ok() && answer.trim().to_lowercase().starts_with('y')
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
