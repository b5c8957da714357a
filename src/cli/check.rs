//! `boardrules check SCRIPT`: load a script, check the contract, and try it on its start.

use std::process::ExitCode;

use crate::{
    diag::Diagnostic,
    runtime::Game,
    script::{contract::CONTRACT, Library, ScriptedGame},
};

/// Loads `script` and runs a smoke test: start, render, parse the rendering back, list moves,
/// play the first one.
pub fn run(script: &str) -> Result<ExitCode, Vec<Diagnostic>> {
    let game = ScriptedGame::load(&Library::discover(), script)?;
    let fail = |e| vec![game.describe(&e)];
    let start = game.start().map_err(fail)?;
    let shown = game.render(&start).map_err(fail)?;
    let back = game.parse_state(&shown, None).map_err(|e| {
        vec![
            crate::driver::position_error(&game, &e, "<start rendering>", &shown)
                .note("parse_state could not read what render wrote"),
        ]
    })?;
    if game.render(&back).map_err(fail)? != shown {
        return Err(vec![Diagnostic::new(
            "render(parse_state(render(start))) differs from render(start)",
        )]);
    }
    let moves = game.legal_moves(&start).map_err(fail)?;
    if let Some(first) = moves.first() {
        game.play(&start, first).map_err(fail)?;
    }
    let optional: Vec<&str> = CONTRACT
        .iter()
        .filter(|f| !f.required && game.defines(f.name, f.params.len()))
        .map(|f| f.name)
        .collect();
    let clean = crate::terminal::clean;
    println!("ok: {} ({})", clean(game.name()), clean(game.label()));
    println!("  players: {}", clean(&game.player_names().join(", ")));
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|o| format!("{}={}", o.name, o.default))
        .collect();
    println!("  options: {}", clean(&options.join(" ")));
    println!(
        "  optional functions: {}",
        if optional.is_empty() {
            "none".into()
        } else {
            optional.join(", ")
        }
    );
    println!(
        "  start: {} legal moves; render → parse_state round-trips",
        moves.len()
    );
    Ok(ExitCode::SUCCESS)
}
