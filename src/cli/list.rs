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
    println!();
    println!("{}", clean(&where_found(&library)));
    Ok(ExitCode::SUCCESS)
}

/// Where `list` looked, and how to run a script it does not list.
fn where_found(library: &Library) -> String {
    let found = match library.rules_dir() {
        Some(dir) => {
            let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            format!(
                "Games built in, and the scripts of ./rules/ ({}), which override a built-in \
                 game of the same name.",
                dir.display()
            )
        }
        None => {
            "Games built in; the scripts of a ./rules/ folder here would be listed too.".to_string()
        }
    };
    format!("{found}\nA script anywhere else runs by its path: boardrules play path/to/game.rhai")
}
