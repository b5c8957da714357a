//! The `play` REPL: type a move to play it, or a command (`help` lists them). Interactive on a
//! terminal (rustyline, with a history file); line by line with no prompts when piped, exiting
//! non-zero if any line failed, so a session can be a test.

pub mod command;
mod session;

use std::{
    io::{BufRead, IsTerminal},
    path::PathBuf,
    process::ExitCode,
};

use rustyline::{error::ReadlineError, DefaultEditor};

use crate::{cli::GameArgs, diag::Diagnostic};
use session::{Flow, Session};

/// Runs the REPL on the game `args` names.
pub fn run(args: &GameArgs) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut session = Session::new(args.load()?)?;
    if std::io::stdin().is_terminal() {
        interactive(&mut session)
    } else {
        piped(&mut session)
    }
}

fn piped(session: &mut Session) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut failures = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| vec![Diagnostic::new(format!("cannot read input: {e}"))])?;
        match session.execute(&line) {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(d) => {
                failures += 1;
                eprint!("{}", d.render(false));
            }
        }
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Where the REPL keeps its line history: `$BOARDRULES_HISTORY`, or the user's data folder.
fn history_file() -> Option<PathBuf> {
    std::env::var_os("BOARDRULES_HISTORY")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("boardrules").join("history.txt")))
}

fn interactive(session: &mut Session) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut editor = DefaultEditor::new().map_err(|e| {
        vec![Diagnostic::new(format!(
            "cannot start the line editor: {e}"
        ))]
    })?;
    let history = history_file();
    if let Some(path) = &history {
        let _ = editor.load_history(path); // a first run has none yet
    }
    println!("{} — type a move, or `help`.", session.title());
    session.show_board();
    let color = crate::cli::stderr_color();
    loop {
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                match session.execute(&line) {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Continue) => {}
                    Err(d) => eprint!("{}", d.render(color)),
                }
            }
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => break,
            Err(e) => return Err(vec![Diagnostic::new(format!("cannot read input: {e}"))]),
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = editor.save_history(path) {
            eprintln!(
                "note: could not save the line history to {}: {e}",
                path.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
