//! Where each cell or pit of a picture is drawn, with what it holds: what a click on the picture
//! is matched against (a page finds the moves that change the spot clicked).

use rhai::Dynamic;

use super::{grid, scene::Board, track, Scene};
use crate::{
    runtime::{Cell, GameError},
    script::ScriptedGame,
};

/// A cell or pit: its centre in the picture and its value (a cell's value, a pit's count).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Spot {
    /// The centre's x, in the picture's coordinates.
    pub x: f64,
    /// The centre's y.
    pub y: f64,
    /// What the cell or pit holds.
    pub value: i64,
}

/// The spots of `state`'s picture, in board order (a grid row by row from the top, a track in
/// track order); `Err` as for [`super::svg`].
pub fn spots(game: &ScriptedGame, state: &Dynamic) -> Result<Vec<Spot>, GameError> {
    let hints = game.picture_hints(state, None)?;
    let scene = Scene::of(state, None, hints).map_err(|message| GameError::Rules {
        message,
        spot: None,
    })?;
    Ok(match &scene.board {
        Board::Grid(g) => (0..g.height())
            .flat_map(|y| (0..g.width()).map(move |x| Cell { x, y }))
            .map(|cell| {
                let (x, y) = grid::centre(cell);
                Spot {
                    x,
                    y,
                    value: g.get(cell).unwrap_or_default(),
                }
            })
            .collect(),
        Board::Track(t) => track::layout(t)
            .0
            .iter()
            .enumerate()
            .map(|(pit, place)| Spot {
                x: place.x,
                y: place.y,
                value: t.get(pit),
            })
            .collect(),
    })
}
