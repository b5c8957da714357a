//! The `play` REPL: type a move to play it, or a command (`help` lists them). Interactive on a
//! terminal (rustyline, with completion, hints and a history file); line by line with no prompts
//! or colours when piped, exiting non-zero if any line failed, so a session can be a test.

mod clock;
pub mod command;
mod files;
mod helper;
pub mod i18n;
mod replay;
mod rules;
pub mod save;
mod session;
pub mod settings;
pub mod theme;
mod ui;

use std::{io::IsTerminal, path::PathBuf, process::ExitCode};

use rustyline::{error::ReadlineError, history::DefaultHistory, Editor};

use crate::{cli::GameArgs, diag::Diagnostic, fsio, script::Library};
use helper::{ReplHelper, Words};
use session::{Choice, Failure, Flow, Session};
use ui::Ui;

/// Runs the REPL on the game `args` names, or on the saved game `load`, with the computer
/// playing at level `vs` if given.
pub fn run(
    args: &GameArgs,
    load: Option<&str>,
    vs: Option<crate::ai::Level>,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let interactive = std::io::stdin().is_terminal();
    let (ui, notes) = Ui::new(interactive);
    for n in notes {
        eprintln!("{n}");
    }
    let choice = Choice {
        game: args.game.clone(),
        options: args
            .options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (o.clone(), String::new()),
            })
            .collect(),
        seed: args.seed.unwrap_or(0),
    };
    let mut session = Session::new(args.load()?, choice, ui)?;
    if let Some(path) = load {
        session.load(path).map_err(|Failure(ds)| ds)?;
    }
    if vs.is_some() {
        session.versus(vs).map_err(|Failure(ds)| ds)?;
    }
    if interactive {
        interactive_loop(&mut session)
    } else {
        piped(&mut session)
    }
}

fn piped(session: &mut Session) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut failures = 0;
    let mut input = std::io::stdin().lock();
    let cannot = |e| vec![Diagnostic::new(format!("cannot read input: {e}"))];
    let mut number = 0;
    while let Some(line) = fsio::next_line(&mut input, fsio::MAX_LINE).map_err(cannot)? {
        number += 1;
        let line = match line {
            Ok(line) => line,
            Err(why) => {
                // A bad line is reported and skipped; the session goes on.
                failures += 1;
                eprint!(
                    "{}",
                    Diagnostic::new(format!("input line {number}: {why}")).render(false)
                );
                continue;
            }
        };
        match session.execute(&line) {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(Failure(ds)) => {
                failures += 1;
                ds.iter().for_each(|d| eprint!("{}", d.render(false)));
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

/// Refreshes what completion offers after a command.
fn refresh(words: &mut Words, session: &Session) {
    words.moves = session.completions();
    words.options = session
        .game()
        .options()
        .iter()
        .map(|o| o.name.clone())
        .collect();
    words.options.push("seed".into());
    words.color = session.ui().color();
}

fn interactive_loop(session: &mut Session) -> Result<ExitCode, Vec<Diagnostic>> {
    let cannot = |e: ReadlineError| {
        vec![Diagnostic::new(format!(
            "cannot start the line editor: {e}"
        ))]
    };
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::new().map_err(cannot)?;
    let helper = ReplHelper::default();
    let words = std::rc::Rc::clone(&helper.words);
    {
        let mut w = words.borrow_mut();
        w.languages = i18n::Catalog::languages();
        w.themes = theme::Theme::built_in().map(String::from).collect();
        w.games = Library::discover().names();
    }
    editor.set_helper(Some(helper));
    let history = history_file();
    // A first run has no history yet; a history "file" that is a FIFO or a device is not read.
    if let Some(path) = history.as_ref().filter(|p| p.is_file()) {
        let _ = editor.load_history(path);
    }
    println!(
        "{}",
        session.ui().t("welcome", &[("title", &session.title())])
    );
    let show = session.show_board();
    if let Err(Failure(ds)) = show {
        ds.iter()
            .for_each(|d| eprint!("{}", d.render(session.ui().color())));
    }
    loop {
        refresh(&mut words.borrow_mut(), session);
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                match session.execute(&line) {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Continue) => {}
                    Err(Failure(ds)) => {
                        let color = session.ui().color();
                        ds.iter().for_each(|d| eprint!("{}", d.render(color)));
                    }
                }
            }
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => break,
            Err(e) => return Err(vec![Diagnostic::new(format!("cannot read input: {e}"))]),
        }
    }
    if let Some(path) = history.as_ref().filter(|p| !p.exists() || p.is_file()) {
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
