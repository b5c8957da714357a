//! `boardrules list`: the games found and their options.

use std::process::ExitCode;

use crate::{
    diag::Diagnostic,
    script::{Library, ScriptedGame},
    terminal::clean,
};

/// Prints every game with its title and options.
pub fn run() -> Result<ExitCode, Vec<Diagnostic>> {
    let library = Library::discover();
    for name in library.names() {
        match ScriptedGame::load(&library, &name) {
            Ok(game) => {
                let about = if game.about().is_empty() {
                    String::new()
                } else {
                    format!(" — {}", game.about())
                };
                let line = format!("{name}: {}{about}", game.title());
                println!("{}", clean(&line));
                for o in game.options() {
                    let line = format!(
                        "    -o {:<22} {}",
                        format!("{}={}", o.name, o.default),
                        o.help
                    );
                    println!("{}", clean(&line));
                }
            }
            Err(ds) => println!("{name}: (does not load: {})", clean(&ds[0].message)),
        }
    }
    Ok(ExitCode::SUCCESS)
}
