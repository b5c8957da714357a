//! Shortest paths and reachability as scripts see them: `g.path(from, to, passable)`,
//! `g.reachable(from, passable)`, `g.reachable_pairs(passable)` (4-neighbour steps).

use crate::walker::native_table::Natives;
use rhai::{Dynamic, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::{
    runtime::{paths, Cell, Grid},
    script::sandbox,
    walker::lists::NativeList,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `path`, `reachable` and `reachable_pairs` on `Grid`.
pub fn register(engine: &mut Natives) {
    engine
        .register_reader(
            "path",
            |g: &mut Grid, from: Cell, to: Cell, passable: INT| -> Fallible<Dynamic> {
                let (from, to) = (on_board(g, from)?, on_board(g, to)?);
                Ok(
                    match paths::shortest_path(g, from, to, g.side_steps(), passable) {
                        Some(path) => cells(path.into_iter()).into(),
                        None => Dynamic::UNIT,
                    },
                )
            },
        )
        .register_reader("reachable_pairs", |g: &mut Grid, passable: INT| {
            reachable_pairs(g, passable).map(NativeList::into_array)
        })
        .register_list_fn("reachable_pairs", reachable_pairs)
        .register_reader(
            "reachable",
            |g: &mut Grid, from: Cell, passable: INT| -> Fallible<rhai::Array> {
                let from = on_board(g, from)?;
                Ok(cells(
                    paths::reachable(g, from, g.side_steps(), passable).into_iter(),
                ))
            },
        );
}

/// `g.reachable_pairs(passable)`: every piece with every empty cell it can reach, as a list
/// that finds each pair when it is asked for.
fn reachable_pairs(g: &mut Grid, passable: INT) -> Fallible<NativeList> {
    let regions = paths::PassableRegions::of(g, g.side_steps(), passable);
    let count = regions.pair_count();
    // Each pair is a two-cell array in the script: about 100 bytes.
    sandbox::charge(count as u64)?;
    sandbox::reserve(count.saturating_mul(100))?;
    Ok(NativeList::Reachable(Box::new(regions)))
}

#[cfg(test)]
mod tests {
    use rhai::{Engine, INT};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    #[test]
    fn paths_and_reachability_from_scripts() {
        let e = engine();
        let setup = "let g = grid(3, 2); g.set(cell(1, 0), 5); ";
        let len: INT = e
            .eval(&format!("{setup} g.path(cell(0, 0), cell(2, 0), 0).len"))
            .unwrap();
        assert_eq!(len, 5);
        let blocked: bool = e
            .eval(&format!(
                "{setup} g.set(cell(1, 1), 5); g.path(cell(0, 0), cell(2, 0), 0) == ()"
            ))
            .unwrap();
        assert!(blocked);
        let reach: INT = e
            .eval(&format!("{setup} g.reachable(cell(1, 0), 0).len"))
            .unwrap();
        assert_eq!(reach, 5);
        let pairs: INT = e
            .eval(&format!("{setup} g.reachable_pairs(0).len"))
            .unwrap();
        assert_eq!(pairs, 5);
        assert!(e
            .eval::<INT>(&format!("{setup} g.reachable(cell(3, 0), 0).len"))
            .is_err());
    }
}
