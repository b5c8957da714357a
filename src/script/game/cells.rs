//! The position as the class bot protocol's cells — one command-line word per cell — and back.
//!
//! A script may say how, with `bot_cells(state)` (an array: one element per word) and
//! `from_bot_cells(cells, opts, turn)` (the state those words show, `turn` the player to move).
//! Without them the cells are the values of the state's grid (row by row from the top) or, with
//! no grid, of its track (in ring order), read back by filling the start state's board and
//! reading its rendering with `parse_state`; a state with neither is written as the words of
//! its rendering, read back by `parse_state` from the words joined by spaces.

use rhai::{Array, Dynamic, Map, INT};

use super::ScriptedGame;
use crate::runtime::{Game, GameError, Grid, Track};

/// A state's board, as the default cells see it.
enum Board<'a> {
    Grid(&'a mut Grid),
    Track(&'a mut Track),
}

impl Board<'_> {
    fn values(&self) -> Vec<i64> {
        match self {
            Board::Grid(g) => g.cells().filter_map(|c| g.get(c)).collect(),
            Board::Track(t) => t.values().to_vec(),
        }
    }

    fn fill(&mut self, values: &[i64]) {
        match self {
            Board::Grid(g) => {
                let cells: Vec<_> = g.cells().collect();
                for (c, &v) in cells.into_iter().zip(values) {
                    g.set(c, v);
                }
            }
            Board::Track(t) => values.iter().enumerate().for_each(|(p, &v)| t.set(p, v)),
        }
    }
}

/// Calls `f` on the first grid among the state's fields, or else the first track.
fn with_board<R>(state: &mut Dynamic, f: impl FnOnce(Board) -> R) -> Option<R> {
    let mut map = state.write_lock::<Map>()?;
    if let Some(g) = map.values_mut().find(|v| v.is::<Grid>()) {
        let mut grid = g.write_lock::<Grid>()?;
        return Some(f(Board::Grid(&mut grid)));
    }
    let t = map.values_mut().find(|v| v.is::<Track>())?;
    let mut track = t.write_lock::<Track>()?;
    Some(f(Board::Track(&mut track)))
}

impl ScriptedGame {
    /// The words the class protocol passes a bot for `state` (see the module's documentation).
    pub fn cells(&self, state: &Dynamic) -> Result<Vec<String>, GameError> {
        if self.defines("bot_cells", 1) {
            let cells: Array = self.call_as(
                "bot_cells",
                (state.clone(),),
                GameError::BadText,
                "an array",
            )?;
            return Ok(cells.iter().map(Dynamic::to_string).collect());
        }
        match with_board(&mut state.clone(), |b| b.values()) {
            Some(values) => Ok(values.iter().map(i64::to_string).collect()),
            None => Ok(self
                .render(state)?
                .split_whitespace()
                .map(str::to_string)
                .collect()),
        }
    }

    /// The state that the protocol's `cells` show, with player `turn` to move (`None`: as the
    /// script's `parse_state` decides). On an error, also the text the error is about: the cells
    /// joined by spaces, or the rendering they were read through.
    pub fn from_cells(
        &self,
        cells: &[String],
        turn: Option<usize>,
    ) -> Result<Dynamic, (GameError, String)> {
        let joined = cells.join(" ");
        if self.defines("from_bot_cells", 3) {
            let words: Array = cells.iter().map(|c| Dynamic::from(c.clone())).collect();
            let turn = turn.map_or(Dynamic::UNIT, |p| Dynamic::from(p as INT));
            let state = self
                .call("from_bot_cells", (words, self.opts.clone(), turn))
                .map_err(|e| (self.failure(&e, GameError::BadText), joined.clone()))?;
            return self
                .state_value("from_bot_cells", state)
                .map_err(|e| (e, joined));
        }
        let values: Option<Vec<i64>> = cells.iter().map(|c| c.parse().ok()).collect();
        let mut start = self.start().map_err(|e| (e, joined.clone()))?;
        let filled = values.and_then(|values| {
            with_board(&mut start, |mut b| {
                (b.values().len() == values.len()).then(|| b.fill(&values))
            })?
        });
        let text = match filled {
            Some(()) => self.render(&start).map_err(|e| (e, joined))?,
            None => joined,
        };
        self.parse_state(&text, turn).map_err(|e| (e, text))
    }
}
