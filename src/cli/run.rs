//! `boardrules run` and `boardrules moves`: play a list of moves without a REPL.

use std::process::ExitCode;

use serde_json::json;

use super::{GameArgs, PositionArgs};
use crate::{
    diag::Diagnostic,
    driver::{move_error, MoveList},
    runtime::{Game, History},
    script::ScriptedGame,
    terminal::clean,
};

type Outcome = Result<ExitCode, Vec<Diagnostic>>;

/// Prints the start state, then `> MOVE`, the new state and `* event` lines for each move, then
/// `result: …` if the game is over. With `json`, one object per state per line instead.
pub fn run(args: &GameArgs, position: &PositionArgs, json: bool, moves: &[String]) -> Outcome {
    let game = args.load()?;
    let start = position.start(&game)?;
    let list = MoveList::from_args(&game, moves).map_err(|d| vec![d])?;
    let mut history = History::new(start);
    let print = |history: &History<ScriptedGame>| -> Result<(), Vec<Diagnostic>> {
        let line = if json {
            json_line(&game, history)
        } else {
            text_block(&game, history)
        };
        println!("{}", line.map_err(|e| vec![game.describe(&e)])?);
        Ok(())
    };
    print(&history)?;
    for (mv, span) in &list.moves {
        if let Err(e) = history.play_text(&game, mv) {
            return Err(vec![move_error(
                &game,
                &e,
                "<moves>",
                &list.text,
                span.clone(),
                mv,
            )]);
        }
        print(&history)?;
    }
    if !json {
        if let Some(outcome) = history
            .outcome(&game)
            .map_err(|e| vec![game.describe(&e)])?
        {
            println!("result: {}", clean(&game.describe_outcome(outcome)));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The text form of the current state: `> MOVE` (after a move), the rendering, the events.
fn text_block(
    game: &ScriptedGame,
    history: &History<ScriptedGame>,
) -> Result<String, crate::runtime::GameError> {
    let mut out = String::new();
    if let Some(step) = history.steps().last() {
        out += &format!("> {}\n", step.text);
    }
    out += &game.render(history.current())?;
    if let Some(step) = history.steps().last() {
        for e in &step.events {
            out += &format!("\n* {e}");
        }
    }
    Ok(clean(&out).into_owned())
}

/// The JSON form of the current state: ply, move, to_move, state, events, result, and the legal
/// moves in canonical notation, so a checker outside needs no REPL (the script's texts
/// [cleaned](clean): JSON leaves C1 controls and bidi overrides as they are).
fn json_line(
    game: &ScriptedGame,
    history: &History<ScriptedGame>,
) -> Result<String, crate::runtime::GameError> {
    let state = history.current();
    let step = history.steps().last();
    let outcome = game.outcome(state)?;
    let to_move = match &outcome {
        Some(_) => None,
        None => Some(game.player_name(game.to_move(state)?)),
    };
    let text = |s: &str| clean(s).into_owned();
    Ok(json!({
        "ply": history.ply(),
        "move": step.map(|s| text(&s.text)),
        "to_move": to_move.as_deref().map(text),
        "state": text(&game.render(state)?),
        "events": step.map(|s| s.events.iter().map(|e| text(&e.text)).collect::<Vec<_>>()).unwrap_or_default(),
        "result": outcome.map(|o| text(&game.describe_outcome(o))),
        "moves": match outcome {
            Some(_) => Vec::new(),
            None => legal_texts(game, state)?.iter().map(|m| text(m)).collect(),
        },
    })
    .to_string())
}

/// The legal moves of `state` in canonical notation, in the order the script lists them.
fn legal_texts(
    game: &ScriptedGame,
    state: &rhai::Dynamic,
) -> Result<Vec<String>, crate::runtime::GameError> {
    game.legal_moves(state)?
        .iter()
        .map(|mv| game.format_move(state, mv))
        .collect()
}

/// The game, and its history after the given moves from the given position (played without
/// their events, which no caller shows: a script's snapshots are not rendered).
pub fn position_after(
    args: &GameArgs,
    position: &PositionArgs,
    moves: &[String],
) -> Result<(ScriptedGame, History<ScriptedGame>), Vec<Diagnostic>> {
    let game = args.load()?;
    let start = position.start(&game)?;
    let list = MoveList::from_args(&game, moves).map_err(|d| vec![d])?;
    let mut history = History::new(start);
    game.record_events(false);
    for (mv, span) in &list.moves {
        if let Err(e) = history.play_text(&game, mv) {
            let span = span.clone();
            return Err(vec![move_error(&game, &e, "<moves>", &list.text, span, mv)]);
        }
    }
    game.record_events(true);
    Ok((game, history))
}

/// `boardrules moves`.
pub fn moves(args: &GameArgs, position: &PositionArgs, moves: &[String]) -> Outcome {
    let (game, history) = position_after(args, position, moves)?;
    let state = history.current();
    let fail = |e| vec![game.describe(&e)];
    if history.outcome(&game).map_err(fail)?.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    for text in legal_texts(&game, state).map_err(fail)? {
        println!("{}", clean(&text));
    }
    Ok(ExitCode::SUCCESS)
}
