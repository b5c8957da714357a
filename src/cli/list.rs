//! `boardrules list`: the games found and their options.

use std::process::ExitCode;

use crate::{
    diag::Diagnostic,
    script::{Library, ScriptedGame},
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
                println!("{name}: {}{about}", game.title());
                for o in game.options() {
                    println!(
                        "    -o {:<22} {}",
                        format!("{}={}", o.name, o.default),
                        o.help
                    );
                }
            }
            Err(ds) => println!("{name}: (does not load: {})", ds[0].message),
        }
    }
    Ok(ExitCode::SUCCESS)
}
