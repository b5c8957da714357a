//! Rays, brackets, steps and drops as scripts see them: `g.ray(c, [dx, dy], v)`,
//! `g.bracket(c, [dx, dy], between, end)`, `g.brackets(c, between, end)`,
//! `g.steps(c, [[dx, dy], …], [values])` and `g.drop_cell(x, empty)`.

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT};

use super::grid::cells;
use crate::runtime::{rays, Cell, Grid};

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
            "steps",
            |g: &mut Grid, c: Cell, deltas: Array, onto: Array| {
                let deltas = deltas
                    .iter()
                    .map(|d| {
                        d.read_lock::<Array>()
                            .ok_or_else(|| "steps: each step must be [dx, dy]".into())
                            .and_then(|d| step(&d, "steps"))
                    })
                    .collect::<Fallible<Vec<_>>>()?;
                let onto = onto
                    .iter()
                    .map(|v| {
                        v.as_int().map_err(|t| {
                            format!("steps: the values to land on must be integers, not {t}").into()
                        })
                    })
                    .collect::<Fallible<Vec<_>>>()?;
                Ok::<_, Box<EvalAltResult>>(cells(rays::steps(g, c, &deltas, &onto).into_iter()))
            },
        )
        .register_fn("drop_cell", |g: &mut Grid, x: INT, empty: INT| {
            rays::drop_cell(g, x, empty).map_or(Dynamic::UNIT, Dynamic::from)
        });
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
        let mut e = Engine::new();
        crate::script::api::grid::register(&mut e);
        super::register(&mut e);
        e
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
