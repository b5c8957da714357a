//! `boardrules bot`: play one move as a bot of the class referee protocol — the board comes on
//! the command line, the chosen move goes to `play.txt`.

use std::{path::Path, process::ExitCode, time::Duration};

use super::GameArgs;

type Outcome = Result<ExitCode, Vec<Diagnostic>>;
use crate::{
    diag::Diagnostic,
    driver::parse_to_move,
    search::player::{self, Level, Tuning},
};

/// How long and how deep the bot searches.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The time for the search.
    pub time: Duration,
    /// The deepest iteration, in plies.
    pub max_depth: usize,
}

/// Reads `OPPONENT_ID ME CELL…` (the cells are the position, as
/// [`ScriptedGame::from_cells`](crate::script::ScriptedGame::from_cells) reads them; `ME` the player to move), searches within `budget` and writes the move in canonical notation to `out`. With `stats`,
/// prints what the search did to stderr.
pub fn run(args: &GameArgs, budget: Budget, out: &Path, stats: bool, argv: &[String]) -> Outcome {
    let started = std::time::Instant::now();
    let game = args.load()?;
    let [_opponent, me, cells @ ..] = argv else {
        return Err(vec![Diagnostic::new(
            "usage: boardrules bot GAME OPPONENT_ID ME CELL…",
        )]);
    };
    let me = parse_to_move(&game, me).map_err(|m| vec![Diagnostic::new(m)])?;
    let state = game
        .from_cells(cells, Some(me))
        .map_err(|(e, text)| vec![crate::driver::position_error(&game, &e, "<cells>", &text)])?;
    let fail = |e| vec![game.describe(&e)];
    let budget = Tuning {
        time: Some(budget.time),
        depth: Some(budget.max_depth),
        nodes: None,
    };
    let seed = args.seed.unwrap_or(0);
    let Some(hint) =
        player::choose_tuned(&game, &state, Level::Hard, budget, seed).map_err(fail)?
    else {
        return Err(vec![Diagnostic::new("there is no legal move")]);
    };
    let text = hint.text;
    if stats {
        eprintln!(
            "{text}: {}; {} ms",
            hint.reason,
            started.elapsed().as_millis()
        );
    }
    std::fs::write(out, format!("{text}\n")).map_err(|e| {
        vec![Diagnostic::new(format!(
            "cannot write {}: {e}",
            out.display()
        ))]
    })?;
    Ok(ExitCode::SUCCESS)
}
