//! The teacher's upload of a student's variant: the script is loaded and put through the same
//! checks as `boardrules check` (the sandbox's limits, random games within a time budget) and,
//! only if it passes, stored in the data file under a validated name, from where the rules
//! library offers it like any other game. Nothing is ever written to a path a client chose.

use std::time::Duration;

use serde_json::{json, Value};

use super::{short, store::Store, Failure};
use crate::{
    check::{
        self,
        report::{about, failure_report, smoke},
        Budget,
    },
    diag::Diagnostic,
    script::{library::is_name, Library, ScriptSource, ScriptedGame},
    terminal::clean,
};

/// The largest script accepted, in bytes.
pub const MAX_SCRIPT: usize = 32 * 1024;
/// The longest name accepted.
pub const MAX_NAME: usize = 40;
/// The CPU time the random games of the check may take (kept within a quarter more).
const CHECK_TIME: Duration = Duration::from_secs(2);

/// Checks `text` as the script of a game named `name` and stores it (replacing an earlier
/// upload of the same name). Answers the game's name and title and the check's summary; a
/// script that fails is refused (422) with the check's report as text.
pub fn upload(library: &Library, store: &Store, name: &str, text: &str) -> Result<Value, Failure> {
    if !is_name(name) || name.len() > MAX_NAME {
        return Err(Failure::Invalid(format!(
            "'{}' is not a name for a variant: use up to {MAX_NAME} letters, digits, _ and -",
            short(name)
        )));
    }
    if text.len() > MAX_SCRIPT {
        return Err(Failure::Invalid(format!(
            "the script has {} bytes: at most {MAX_SCRIPT} are accepted",
            text.len()
        )));
    }
    if !library.is_added(name) && library.names().iter().any(|n| n == name) {
        return Err(Failure::Conflict(format!(
            "there is already a game named '{name}' in the rules: choose another name"
        )));
    }
    let source = ScriptSource {
        name: name.to_string(),
        label: format!("{name}.rhai"),
        dir: None,
        text: text.to_string(),
    };
    let game = ScriptedGame::from_source(library, source).map_err(refused)?;
    let moves = smoke(&game).map_err(refused)?;
    let budget = Budget {
        games: None,
        time: Some(CHECK_TIME),
        floor: false,
        seed: 0,
    };
    let seen = check::run(&game, budget, |_| {}).map_err(|failure| {
        let mut report = refused(vec![failure_report(&game, &failure)]);
        if let Failure::Illegal(text) = &mut report {
            *text = text.replace(" (on stdout)", "");
            text.push('\n');
            text.push_str(&clean(&check::trace_text(name, &[], &failure, &budget)));
        }
        report
    })?;
    store.add_variant(name, text).map_err(Failure::Broken)?;
    library.add(name, text);
    Ok(json!({
        "name": name,
        "title": clean(game.title()),
        "check": clean(&format!(
            "{}\n  random games: {} games, {} positions: every property holds",
            about(&game, moves),
            seen.games,
            seen.positions
        )),
    }))
}

/// Adds the variants stored in the data file to `library` (when the server starts).
pub fn restore(library: &Library, store: &Store) -> Result<(), String> {
    for (name, text) in store.variants()? {
        library.add(&name, &text);
    }
    Ok(())
}

/// A refusal carrying the check's report, as plain text.
fn refused(report: Vec<Diagnostic>) -> Failure {
    let text: Vec<String> = report
        .iter()
        .map(|d| clean(&d.render(false)).into_owned())
        .collect();
    Failure::Illegal(text.join("\n"))
}
