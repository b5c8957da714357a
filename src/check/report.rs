//! What `check` says about a script: the smoke test before its random games, the summary of
//! what the script is, and a failure as an ariadne report pointing into the script. Shared by
//! the `check` command and the class server's upload of a variant.

use crate::{
    check::{Failure, Property},
    diag::Diagnostic,
    runtime::Game,
    script::{contract::CONTRACT, ScriptedGame},
};

/// The smoke test before the random games: the start renders, its rendering reads back to the
/// same rendering, its moves are listed and the first one plays. Returns how many moves the
/// start has.
pub fn smoke(game: &ScriptedGame) -> Result<usize, Vec<Diagnostic>> {
    let fail = |e| vec![game.describe(&e)];
    let start = game.start().map_err(fail)?;
    let shown = game.render(&start).map_err(fail)?;
    let back = game.parse_state(&shown, None).map_err(|e| {
        vec![
            crate::driver::position_error(game, &e, "<start rendering>", &shown)
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
    Ok(moves.len())
}

/// What the script is: its name, players, options, optional functions and start.
pub fn about(game: &ScriptedGame, moves: usize) -> String {
    let optional: Vec<&str> = CONTRACT
        .iter()
        .filter(|f| !f.required && game.defines(f.name, f.params.len()))
        .map(|f| f.name)
        .collect();
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|o| {
            let value = game
                .option_values()
                .get(o.name.as_str())
                .unwrap_or(&o.default);
            format!("{}={value}", o.name)
        })
        .collect();
    let clean = crate::terminal::clean;
    format!(
        "ok: {} ({})\n  players: {}\n  options: {}\n  optional functions: {}\n  \
         start: {moves} legal moves; render → parse_state round-trips",
        clean(game.name()),
        clean(game.label()),
        clean(&game.player_names().join(", ")),
        clean(&options.join(" ")),
        if optional.is_empty() {
            "none".to_string()
        } else {
            optional.join(", ")
        }
    )
}

/// The failure, pointing into the script when the script's own error says where.
pub fn failure_report(game: &ScriptedGame, failure: &Failure) -> Diagnostic {
    let b = &failure.broken;
    let headline = format!("check failed: {} — {}", b.property.describe(), b.message);
    let at = match failure.moves.len() {
        0 => "at the start".to_string(),
        n => format!("after {n} move{}", if n == 1 { "" } else { "s" }),
    };
    let d = match (&b.error, b.property) {
        (Some(e), _) => game.describe(e).note(headline),
        (None, Property::ListedMovesPlay) => match game.definition("play") {
            Some(spot) => game.sources().diagnostic(
                &headline,
                &spot.source,
                spot.line,
                spot.column,
                "play() refuses a move moves() lists",
            ),
            None => Diagnostic::new(headline),
        },
        (None, Property::NativeAgrees) => Diagnostic::new(format!(
            "check failed: the native form disagrees with the script: {}",
            b.message
        ))
        .note("to use no native form in a variant, define `fn native(state) { () }`"),
        (None, _) => Diagnostic::new(headline),
    };
    d.note(format!(
        "{at}{}; the trace below (on stdout) reproduces it",
        if failure.found_after > failure.moves.len() {
            format!(" (shrunk from {} moves)", failure.found_after)
        } else {
            String::new()
        }
    ))
}
