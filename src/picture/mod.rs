//! Pictures of positions as SVG (and PNG), for slides, handouts and projectors: the grid or track
//! a state holds (or the one the script's optional `picture(state, last)` names, with its hints:
//! colours, labels, marks, who is who, the game's numbers, coordinate labels, caption), the last
//! move marked, and under the board whose turn it is, in a theme's colours.

pub mod colors;
pub mod draw;
mod grid;
pub mod output;
mod panel;
mod scene;
mod spots;
mod track;

use rhai::Dynamic;
use svg::Document;

use crate::{
    runtime::{Game, GameError},
    script::ScriptedGame,
};
pub use colors::Palette;
pub use scene::{Board, Scene};
pub use spots::{spots, Spot};

/// `state` of `game`, reached by the move `last` when it is known, as SVG text at its natural
/// size, in the colours of `palette` (a theme's: see [`Palette::new`]); `Err` when the state
/// holds nothing to draw or the script's `picture(state, last)` fails or gives a malformed
/// hint.
pub fn svg(
    game: &ScriptedGame,
    state: &Dynamic,
    last: Option<&Dynamic>,
    palette: &Palette,
) -> Result<String, GameError> {
    let hints = game.picture_hints(state, last)?;
    let scene = Scene::of(state, last, hints).map_err(|message| GameError::Rules {
        message,
        spot: None,
    })?;
    let names = game.player_names();
    let (board, width, height) = match &scene.board {
        Board::Grid(g) => grid::picture(g, &scene.hints, palette, names.len()),
        Board::Track(t) => track::picture(t, &scene.hints, palette),
    };
    let (status, to_move) = match game.outcome(state)? {
        Some(outcome) => (
            Some(format!("game over: {}", game.describe_outcome(outcome))),
            None,
        ),
        None if names.len() >= 2 => {
            let p = game.to_move(state)?;
            (Some(format!("{} to move", game.player_name(p))), Some(p))
        }
        None => (None, None),
    };
    let panel = panel::of(&scene.hints, status, names, to_move);
    let full_width = width.max(panel.width()).ceil();
    let full_height = height + panel.height();
    let piece = |x: f64, y: f64, r: f64, value: i64| {
        grid::piece(x, y, r, value, &scene.hints, palette, names.len())
    };
    let doc = Document::new()
        .set("width", full_width)
        .set("height", full_height)
        .set("viewBox", (0, 0, full_width, full_height))
        .add(draw::rect(0.0, 0.0, full_width, full_height, "#ffffff"))
        .add(board)
        .add(panel.draw(height, &piece));
    Ok(doc.to_string())
}
