//! Embedding the runtime from Rust: load a rules script, play moves, read the result.
//!
//! `cargo run --example embed`

use boardrules::{
    runtime::{Game, History},
    script::{Library, ScriptedGame},
};

fn main() {
    let mut game = match ScriptedGame::load(&Library::discover(), "caro") {
        Ok(g) => g,
        Err(errors) => {
            errors.iter().for_each(|e| eprint!("{}", e.render(false)));
            std::process::exit(1);
        }
    };
    game.set_option("size", "9")
        .expect("caro has a size option");
    let mut history = History::new(game.start().expect("a start state"));
    for mv in ["5e", "6e", "5d", "6d", "5c", "6c", "5b", "6b", "5f"] {
        if let Err(e) = history.play_text(&game, mv) {
            eprintln!("{mv}: {e}");
            std::process::exit(1);
        }
    }
    println!("{}", game.render(history.current()).expect("a rendering"));
    if let Ok(Some(outcome)) = history.outcome(&game) {
        println!("{}", game.describe_outcome(outcome));
    }
}
