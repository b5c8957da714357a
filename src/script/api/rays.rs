//! Rays, brackets, steps and drops as scripts see them: `g.ray(c, [dx, dy], v)`,
//! `g.bracket(c, [dx, dy], between, end)`, `g.brackets(c, between, end)`,
//! `g.steps(c, [[dx, dy], …], [values])`, `g.drop_cell(x, empty)`, and their whole-board forms `g.open_columns(empty)`,
//! `g.bracketing_cells(empty, between, end)` and `g.piece_steps(piece, [[dx, dy], …], [values])`.

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT};

use super::grid::cells;
use crate::{
    runtime::{rays, Cell, Grid},
    script::sandbox,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers the ray primitives on `Grid`.
pub fn register(engine: &mut Engine) {
    engine
        .register_fn("ray", |g: &mut Grid, c: Cell, d: Array, value: INT| {
            Ok::<_, Box<EvalAltResult>>(cells(rays::ray(g, c, step(&d, "ray")?, value).into_iter()))
        })
        .register_fn(
            "bracket",
            |g: &mut Grid, c: Cell, d: Array, between: INT, end: INT| {
                let d = step(&d, "bracket")?;
                Ok::<_, Box<EvalAltResult>>(cells(rays::bracket(g, c, d, between, end).into_iter()))
            },
        )
        .register_fn(
            "brackets",
            |g: &mut Grid, c: Cell, between: INT, end: INT| {
                cells(rays::brackets(g, c, between, end).into_iter())
            },
        )
        .register_fn(
            "bracketing_cells",
            |g: &mut Grid, empty: INT, between: INT, end: INT| {
                // Each cell looks along eight rays of at most the board's length.
                sandbox::charge((g.width() * g.height()) as u64 * 8)?;
                Ok::<_, Box<EvalAltResult>>(cells(
                    rays::bracketing_cells(g, empty, between, end).into_iter(),
                ))
            },
        )
        .register_fn(
            "steps",
            |g: &mut Grid, c: Cell, deltas: Array, onto: Array| {
                let (deltas, onto) = (deltas_of(&deltas, "steps")?, values_of(&onto, "steps")?);
                Ok::<_, Box<EvalAltResult>>(cells(rays::steps(g, c, &deltas, &onto).into_iter()))
            },
        )
        .register_fn(
            "piece_steps",
            |g: &mut Grid, piece: INT, deltas: Array, onto: Array| {
                let deltas = deltas_of(&deltas, "piece_steps")?;
                let onto = values_of(&onto, "piece_steps")?;
                sandbox::charge((g.width() * g.height()) as u64 * (1 + deltas.len() as u64))?;
                let pairs = rays::piece_steps(g, piece, &deltas, &onto);
                Ok::<_, Box<EvalAltResult>>(
                    pairs
                        .into_iter()
                        .map(|(from, to)| {
                            Dynamic::from_array(vec![Dynamic::from(from), Dynamic::from(to)])
                        })
                        .collect::<Array>(),
                )
            },
        )
        .register_fn("drop_cell", |g: &mut Grid, x: INT, empty: INT| {
            rays::drop_cell(g, x, empty).map_or(Dynamic::UNIT, Dynamic::from)
        })
        .register_fn("open_columns", |g: &mut Grid, empty: INT| {
            sandbox::charge((g.width() * g.height()) as u64)?;
            let columns = rays::open_columns(g, empty);
            Ok::<_, Box<EvalAltResult>>(columns.into_iter().map(Dynamic::from).collect::<Array>())
        });
}

/// The steps `[[dx, dy], …]` a primitive named `what` was given.
fn deltas_of(deltas: &Array, what: &str) -> Fallible<Vec<(i64, i64)>> {
    deltas
        .iter()
        .map(|d| {
            d.read_lock::<Array>()
                .ok_or_else(|| format!("{what}: each step must be [dx, dy]").into())
                .and_then(|d| step(&d, what))
        })
        .collect()
}

/// The values to land on `[v, …]` a primitive named `what` was given.
fn values_of(onto: &Array, what: &str) -> Fallible<Vec<INT>> {
    onto.iter()
        .map(|v| {
            v.as_int().map_err(|t| {
                format!("{what}: the values to land on must be integers, not {t}").into()
            })
        })
        .collect()
}

/// A step `[dx, dy]` of whole numbers.
fn step(d: &Array, what: &str) -> Fallible<(i64, i64)> {
    match d.as_slice() {
        [dx, dy] => match (dx.as_int(), dy.as_int()) {
            (Ok(dx), Ok(dy)) => Ok((dx, dy)),
            _ => Err(format!("{what}: a direction is [dx, dy] of whole numbers").into()),
        },
        _ => Err(
            format!("{what}: a direction is [dx, dy], like [1, 0] (right) or [0, -1] (up)").into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use rhai::{Array, Engine};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    fn count(e: &Engine, script: &str) -> usize {
        e.eval::<Array>(script).unwrap().len()
    }

    #[test]
    fn scripts_scan_rays_brackets_steps_and_drops() {
        let e = engine();
        let setup =
            "let g = grid(4, 4); g.set(cell(1, 0), 1); g.set(cell(2, 0), 1); g.set(cell(3, 0), 2);";
        assert_eq!(
            count(&e, &format!("{setup} g.ray(cell(0, 0), [1, 0], 1)")),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.bracket(cell(0, 0), [1, 0], 1, 2)")),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.brackets(cell(0, 0), 1, 2)")),
            2
        );
        assert_eq!(
            count(
                &e,
                &format!("{setup} g.steps(cell(0, 1), [[1, -1], [0, 1], [-1, 0]], [0, 1])")
            ),
            2
        );
        assert_eq!(
            count(&e, &format!("{setup} g.bracketing_cells(0, 1, 2)")),
            1
        );
        let pairs = e
            .eval::<Array>(&format!("{setup} g.piece_steps(1, [[0, 1], [1, 1]], [0])"))
            .unwrap();
        assert_eq!(pairs.len(), 4, "{pairs:?}");
        assert_eq!(
            pairs[0]
                .clone()
                .into_typed_array::<crate::runtime::Cell>()
                .unwrap()[1],
            crate::runtime::Cell::new(1, 1)
        );
        let open =
            e.eval::<Array>("let g = grid(3, 2, 1); g.set(cell(1, 0), 0); g.open_columns(0)");
        assert_eq!(
            open.unwrap()
                .into_iter()
                .map(|x| x.as_int().unwrap())
                .collect::<Vec<_>>(),
            [1]
        );
        let drop: rhai::Dynamic = e.eval(&format!("{setup} g.drop_cell(1, 0)")).unwrap();
        assert_eq!(
            drop.cast::<crate::runtime::Cell>(),
            crate::runtime::Cell::new(1, 3)
        );
        assert!(e
            .eval::<rhai::Dynamic>("grid(2, 2, 1).drop_cell(0, 0)")
            .unwrap()
            .is_unit());
        assert!(e
            .eval::<Array>("grid(2, 2).ray(cell(0, 0), [1], 0)")
            .is_err());
    }
}
