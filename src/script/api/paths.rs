//! Shortest paths and reachability as scripts see them: `g.path(from, to, passable)`,
//! `g.reachable(from, passable)` (4-neighbour steps).

use rhai::{Dynamic, Engine, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::runtime::{grid::ORTHOGONAL, paths, Cell, Grid};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `path` and `reachable` on `Grid`.
pub fn register(engine: &mut Engine) {
    engine
        .register_fn(
            "path",
            |g: &mut Grid, from: Cell, to: Cell, passable: INT| -> Fallible<Dynamic> {
                let (from, to) = (on_board(g, from)?, on_board(g, to)?);
                Ok(
                    match paths::shortest_path(g, from, to, &ORTHOGONAL, passable) {
                        Some(path) => cells(path.into_iter()).into(),
                        None => Dynamic::UNIT,
                    },
                )
            },
        )
        .register_fn(
            "reachable",
            |g: &mut Grid, from: Cell, passable: INT| -> Fallible<rhai::Array> {
                let from = on_board(g, from)?;
                Ok(cells(
                    paths::reachable(g, from, &ORTHOGONAL, passable).into_iter(),
                ))
            },
        );
}
