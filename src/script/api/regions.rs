//! Flood fill as scripts see it: `g.region(c)`, `g.regions(ignore)` and their 8-neighbour forms.

use rhai::{Array, Engine, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::runtime::{
    grid::{KING, ORTHOGONAL},
    regions, Cell, Grid,
};

/// Registers `region`, `region8`, `regions` and `regions8` on `Grid`.
pub fn register(engine: &mut Engine) {
    engine
        .register_fn("region", |g: &mut Grid, c: Cell| region(g, c, &ORTHOGONAL))
        .register_fn("region8", |g: &mut Grid, c: Cell| region(g, c, &KING))
        .register_fn("regions", |g: &mut Grid, ignore: INT| {
            all(g, &ORTHOGONAL, ignore)
        })
        .register_fn("regions8", |g: &mut Grid, ignore: INT| {
            all(g, &KING, ignore)
        });
}

fn region(g: &Grid, c: Cell, steps: &[(i64, i64)]) -> Result<Array, Box<EvalAltResult>> {
    let c = on_board(g, c)?;
    Ok(cells(regions::region(g, c, steps).into_iter()))
}

fn all(g: &Grid, steps: &[(i64, i64)], ignore: INT) -> Array {
    regions::regions(g, steps, ignore)
        .into_iter()
        .map(|r| cells(r.into_iter()).into())
        .collect()
}
