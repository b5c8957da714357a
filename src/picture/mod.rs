//! Pictures of positions as SVG, for slides and handouts: the grid or track a state holds (or
//! the one the script's optional `picture(state)` names, with its hints: colours, labels, marks,
//! caption), in a theme's colours.

pub mod colors;
mod draw;
mod grid;
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

/// The height of the caption line under a board.
const CAPTION: f64 = 30.0;

/// `state` of `game` as SVG text, in the colours of `palette` (a theme's: see
/// [`Palette::new`]); `Err` when the state holds nothing to
/// draw or the script's `picture(state)` fails or gives a malformed hint.
pub fn svg(game: &ScriptedGame, state: &Dynamic, palette: &Palette) -> Result<String, GameError> {
    let hints = game.picture_hints(state)?;
    let scene = Scene::of(state, hints).map_err(|message| GameError::Rules {
        message,
        spot: None,
    })?;
    let doc = match &scene.board {
        Board::Grid(g) => grid::picture(g, &scene.hints, palette, game.player_names().len()),
        Board::Track(t) => track::picture(t, &scene.hints, palette),
    };
    Ok(doc.to_string())
}

/// An empty document of the board's size, with room for the caption (drawn) if there is one.
fn document(width: f64, height: f64, hints: &scene::Hints) -> Document {
    let full = height
        + if hints.caption.is_some() {
            CAPTION
        } else {
            0.0
        };
    let mut doc = Document::new()
        .set("width", width)
        .set("height", full)
        .set("viewBox", (0, 0, width, full))
        .add(draw::rect(0.0, 0.0, width, full, "#ffffff"));
    if let Some(caption) = &hints.caption {
        doc = doc.add(draw::text(
            width / 2.0,
            height + CAPTION / 2.0,
            caption,
            16.0,
            colors::INK,
        ));
    }
    doc
}
