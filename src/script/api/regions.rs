//! Flood fill as scripts see it: `g.region(c)`, `g.regions(ignore)` and their 8-neighbour forms.

use crate::walker::native_table::Natives;
use rhai::{Array, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::runtime::{regions, Cell, Grid};

/// Registers `region`, `region8`, `regions` and `regions8` on `Grid`.
pub fn register(engine: &mut Natives) {
    engine
        .register_reader("region", |g: &mut Grid, c: Cell| {
            region(g, c, g.side_steps())
        })
        .register_reader("region8", |g: &mut Grid, c: Cell| {
            region(g, c, g.touching_steps())
        })
        .register_reader("regions", |g: &mut Grid, ignore: INT| {
            all(g, g.side_steps(), ignore)
        })
        .register_reader("regions8", |g: &mut Grid, ignore: INT| {
            all(g, g.touching_steps(), ignore)
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

#[cfg(test)]
mod tests {
    use rhai::INT;

    #[test]
    fn regions_from_scripts() {
        let e = super::super::test_engine(super::register);
        let setup = "let g = grid(3, 3); g.set(cell(0, 0), 1); g.set(cell(1, 1), 1); ";
        let four: INT = e
            .eval(&format!("{setup} g.region(cell(0, 0)).len"))
            .unwrap();
        let eight: INT = e
            .eval(&format!("{setup} g.region8(cell(0, 0)).len"))
            .unwrap();
        assert_eq!((four, eight), (1, 2));
        let all: INT = e.eval(&format!("{setup} g.regions(0).len")).unwrap();
        let all8: INT = e.eval(&format!("{setup} g.regions8(0).len")).unwrap();
        assert_eq!((all, all8), (2, 1));
    }
}
