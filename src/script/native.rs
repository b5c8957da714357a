//! A script's native form. A rules script may define `native(state)` to describe a position as
//! one of the runtime's native game families; random playouts (and search) then run natively
//! from that position without entering the script once per move. Tests check that the script
//! and the native family agree.
//!
//! The one family today is `placement` (see [`crate::runtime::placement`]):
//! `#{ placement: #{ board, to_move, winner, line, exact, block_both_ends, edge_blocks, weights } }`
//! (`weights`, optional, are the search's evaluation: see [`crate::runtime::placement::search`]).

use rhai::{Dynamic, Map, INT};

use crate::runtime::{
    placement::{LineGoal, Placement},
    Grid,
};

/// Search weights: the worth of a line window holding n stones of one player only.
pub type Weights = Vec<i64>;

/// A position in a native game family.
#[derive(Debug, Clone)]
pub enum NativeGame {
    /// A placement game with a line goal.
    Placement(Placement),
}

fn field<'a>(map: &'a Map, key: &str) -> Result<&'a Dynamic, String> {
    map.get(key).ok_or_else(|| format!("`{key}` is missing"))
}

fn int(map: &Map, key: &str) -> Result<INT, String> {
    field(map, key)?
        .as_int()
        .map_err(|t| format!("`{key}` must be an integer, not {t}"))
}

fn flag(map: &Map, key: &str) -> Result<bool, String> {
    map.get(key).map_or(Ok(false), |v| {
        v.as_bool()
            .map_err(|t| format!("`{key}` must be true or false, not {t}"))
    })
}

/// Reads what `native(state)` returned, for a game of `players` players.
pub fn read(map: &Map, players: usize) -> Result<NativeGame, String> {
    let Some(placement) = map.get("placement") else {
        return Err("native(state) must return #{ placement: #{ … } }".into());
    };
    let p = placement
        .read_lock::<Map>()
        .ok_or("`placement` must be a map")?;
    let board = field(&p, "board")?
        .read_lock::<Grid>()
        .ok_or("`board` must be a grid")?
        .clone();
    let winner = match field(&p, "winner") {
        Ok(w) if !w.is_unit() => Some(int(&p, "winner")? as usize),
        _ => None,
    };
    let goal = LineGoal {
        length: int(&p, "line")?.max(0) as usize,
        exact: flag(&p, "exact")?,
        block_both_ends: flag(&p, "block_both_ends")?,
        edge_blocks: flag(&p, "edge_blocks")?,
    };
    let to_move = int(&p, "to_move")?.max(0) as usize;
    Placement::new(&board, players, to_move, winner, goal).map(NativeGame::Placement)
}

/// The search weights `native(state)` gives (`weights: [w0, w1, …]`: the worth of a line window
/// holding n stones of one player only), if any.
pub fn weights(map: &Map) -> Result<Option<Weights>, String> {
    let Some(p) = map.get("placement").and_then(|p| p.read_lock::<Map>()) else {
        return Ok(None);
    };
    let Some(w) = p.get("weights") else {
        return Ok(None);
    };
    let array = w
        .read_lock::<rhai::Array>()
        .ok_or("`weights` must be an array of integers")?;
    array
        .iter()
        .map(|v| {
            v.as_int()
                .map_err(|t| format!("`weights` must hold integers, not {t}"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
