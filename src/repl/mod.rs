//! The `play` REPL: type a move to play it, or a command (`help` lists them). Interactive on a
//! terminal (rustyline, with completion, hints and a history file; Ctrl-C drops the line or stops
//! the computer's search, Ctrl-D leaves, and the game in progress is kept for the next session);
//! line by line with no prompts or colours when piped, exiting non-zero if any line failed, so a
//! session can be a test.

mod autosave;
mod clock;
pub mod command;
mod files;
mod helper;
pub mod i18n;
mod kept;
mod outcome;
mod previous;
mod replay;
mod rules;
pub mod save;
mod session;
pub mod settings;
pub mod theme;
mod ui;

use std::{io::IsTerminal, path::PathBuf, process::ExitCode};

use rustyline::{error::ReadlineError, history::DefaultHistory, Editor};

use crate::{diag::Diagnostic, fsio, game_args::GameArgs, script::Library, terminal};
use helper::{ReplHelper, Words};
use outcome::{Choice, Failure, Flow};
use session::Session;
use ui::Ui;

/// Runs the REPL on the game `args` names, or on the saved game `load`, with the computer
/// playing at level `vs` if given.
pub fn run(
    args: &GameArgs,
    load: Option<&str>,
    vs: Option<crate::search::player::Level>,
) -> Result<ExitCode, Vec<Diagnostic>> {
    let interactive = std::io::stdin().is_terminal();
    let (ui, notes) = Ui::new(interactive);
    for n in notes {
        eprintln!("{n}");
    }
    let choice = Choice {
        game: crate::script::library::lasting_name(&args.game),
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
        session
            .versus(vs.map(|l| (None, l)))
            .map_err(|Failure(ds)| ds)?;
    }
    if interactive {
        crate::cancel::catch_interrupts();
        interactive_loop(&mut session, load.is_none())
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
                ds.iter()
                    .for_each(|d| eprint!("{}", session.ui().report(d)));
            }
        }
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Where the REPL keeps its line history: `$BOARDRULES_HISTORY`, or its data folder.
fn history_file() -> Option<PathBuf> {
    std::env::var_os("BOARDRULES_HISTORY")
        .map(PathBuf::from)
        .or_else(|| autosave::data_dir().map(|d| d.join("history.txt")))
}

/// Offers to resume the game of this session's game kept from a session before, and loads it if
/// the answer is yes; says where the other kept games of it are.
fn offer_to_resume(
    editor: &mut Editor<ReplHelper, DefaultHistory>,
    session: &mut Session,
    keeper: &mut autosave::Keeper,
) {
    let game = session.choice.game.clone();
    let path = match keeper.slot(&game) {
        Ok((path, shared)) => {
            if shared {
                let shown = path.display();
                println!("{}", session.ui().t("autosave-shared", &[("path", &shown)]));
            }
            path
        }
        Err(why) => {
            eprintln!("{}", session.ui().t("autosave-failed", &[("why", &why)]));
            return;
        }
    };
    let mention = |file: &std::path::Path, key: &str| {
        if let Some((kept, moves)) = autosave::kept_in(file) {
            let shown = file.display();
            let kept = terminal::clean(&kept);
            println!(
                "{}",
                session
                    .ui()
                    .t_n(key, moves, &[("game", &kept), ("path", &shown)])
            );
        }
    };
    for other in keeper.others(&game, &path) {
        mention(&other, "kept-elsewhere");
    }
    if let Some(old) = autosave::old_single_file() {
        mention(&old, "kept-by-earlier-version");
    }
    let Some((kept, moves)) = path.is_file().then(|| autosave::kept_in(&path)).flatten() else {
        return;
    };
    let question = if kept == game {
        session
            .ui()
            .t_n("resume-ask", moves, &[("game", &terminal::clean(&kept))])
    } else {
        // Only a damaged or hand-edited file names another script: ask before loading it.
        session.ui().t_n(
            "resume-ask-other",
            moves,
            &[
                ("game", &terminal::clean(&kept)),
                ("asked", &terminal::clean(&game)),
            ],
        )
    };
    let answer = editor.readline(&question).unwrap_or_else(|_| "n".into());
    let answer = answer.trim().to_lowercase();
    let yes = answer.starts_with('y') || answer.starts_with(&session.ui().t("yes", &[]));
    if yes || (answer.is_empty() && kept == game) {
        if let Err(Failure(ds)) = session.load(&path.to_string_lossy()) {
            ds.iter()
                .for_each(|d| eprint!("{}", session.ui().report(d)));
        }
    } else {
        println!("{}", session.ui().t("resume-declined", &[]));
    }
}

/// Whether `path` is a regular file itself (not a symlink to one).
fn is_regular(path: &std::path::Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// Writes the line history as saves are written: into a file beside it, renamed over it, and
/// never through a symlink or into a FIFO or device.
fn save_history(
    editor: &mut Editor<ReplHelper, DefaultHistory>,
    path: &std::path::Path,
) -> Result<(), String> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.is_file() {
            return Err(format!("it is {}, not a regular file", fsio::kind(&meta)));
        }
    }
    let dir = save::folder_of(path);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let tmp = tempfile::Builder::new()
        .prefix(".boardrules-history-")
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    editor.save_history(tmp.path()).map_err(|e| e.to_string())?;
    tmp.persist(path).map_err(|e| e.error.to_string())?;
    Ok(())
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

fn interactive_loop(session: &mut Session, offer: bool) -> Result<ExitCode, Vec<Diagnostic>> {
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
    // A first run has no history yet; a history "file" that is a symlink, a FIFO or a device is
    // neither read nor written.
    if let Some(path) = history.as_ref().filter(|p| is_regular(p)) {
        let _ = editor.load_history(path);
    }
    let mut keeper = autosave::Keeper::default();
    if offer {
        offer_to_resume(&mut editor, session, &mut keeper);
    }
    println!(
        "{}",
        session.ui().t("welcome", &[("title", &session.title())])
    );
    let show = session.show_board();
    if let Err(Failure(ds)) = show {
        ds.iter()
            .for_each(|d| eprint!("{}", session.ui().report(d)));
    }
    loop {
        refresh(&mut words.borrow_mut(), session);
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let flow = session.execute(&line);
                for note in session.autosave(&mut keeper) {
                    eprintln!("{note}");
                }
                match flow {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Continue) => {}
                    Err(Failure(ds)) => {
                        ds.iter()
                            .for_each(|d| eprint!("{}", session.ui().report(d)));
                    }
                }
            }
            Err(ReadlineError::Interrupted) => println!("{}", session.ui().t("interrupted", &[])),
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(vec![Diagnostic::new(format!("cannot read input: {e}"))]),
        }
    }
    if let Some(path) = &history {
        if let Err(e) = save_history(&mut editor, path) {
            eprintln!(
                "note: could not save the line history to {}: {e}",
                path.display()
            );
        }
    }
    if let Some(path) = keeper.kept() {
        let path = path.display();
        println!("{}", session.ui().t("kept-on-exit", &[("path", &path)]));
    } else if let Some(why) = keeper.failure() {
        eprintln!("{}", session.ui().t("not-kept-on-exit", &[("why", &why)]));
    }
    Ok(ExitCode::SUCCESS)
}
