//! Bounded simple walks as scripts see them: `g.walks(from, min, max, through, end)` and
//! `g.reachable(from, min, max, through, end)`, `g.mobility(piece, min, max, through, end)`,
//! `g.check_walk(path, min, max, through, end)`.

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT};

use super::grid::{cells, on_board};
use crate::{
    runtime::{
        walks::{self, WalkStep},
        Cell, Grid, WalkRule,
    },
    script::sandbox::{self, limits, Work},
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `walks`, `reachable`, `mobility` and `check_walk` on `Grid`.
pub fn register(engine: &mut Engine) {
    engine
        .register_fn(
            "walks",
            |g: &mut Grid, from: Cell, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut out = Array::new();
                let mut items = 0; // walks and their cells: Rhai's array size counts both
                let mut work = Work::default();
                walks::try_for_each_walk(g, on_board(g, from)?, &rule, |step| {
                    if let WalkStep::Walk(p) = step {
                        items += 1 + p.len();
                        if items > limits::ARRAY_SIZE {
                            return Err(sandbox::over_limit(format!(
                                "walks(): the walks hold more than {} cells; ask for shorter ones",
                                limits::ARRAY_SIZE
                            )));
                        }
                        out.push(Dynamic::from(cells(p.iter().copied())));
                        work.add(p.len() as u64)?;
                    }
                    work.add(1)
                })?;
                Ok::<_, Box<EvalAltResult>>(out)
            },
        )
        .register_fn(
            "reachable",
            |g: &mut Grid, from: Cell, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut work = Work::default();
                let found = walks::try_reachable(g, on_board(g, from)?, &rule, || work.add(1))?;
                Ok::<_, Box<EvalAltResult>>(cells(found.into_iter()))
            },
        )
        .register_fn(
            "mobility",
            |g: &mut Grid, piece: INT, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let mut work = Work::default();
                let total = walks::try_mobility(g, piece, &rule, || work.add(1))?;
                Ok::<_, Box<EvalAltResult>>(total as INT)
            },
        )
        .register_fn(
            "check_walk",
            |g: &mut Grid, path: Array, min: INT, max: INT, through: Array, end: Array| {
                let rule = rule(min, max, &through, &end)?;
                let path: Vec<Cell> = path
                    .into_iter()
                    .map(|c| c.try_cast::<Cell>().ok_or("a path is an array of cells"))
                    .collect::<Result<_, _>>()?;
                Ok::<_, Box<EvalAltResult>>(
                    walks::check_walk(g, &path, &rule).err().unwrap_or_default(),
                )
            },
        );
}

/// A walk rule from script values: lengths `min..=max` (1 to 64 steps) and two arrays of values.
fn rule(min: INT, max: INT, through: &Array, end: &Array) -> Fallible<WalkRule> {
    if min < 1 || max < min || max > 64 {
        return Err(format!("walk lengths {min}..{max} must satisfy 1 <= min <= max <= 64").into());
    }
    let values = |a: &Array, what: &str| -> Fallible<Vec<i64>> {
        a.iter()
            .map(|v| {
                v.as_int()
                    .map_err(|_| format!("{what} must be an array of integers").into())
            })
            .collect()
    };
    Ok(WalkRule::new(
        min as usize,
        max as usize,
        &values(through, "through")?,
        &values(end, "end")?,
    ))
}

#[cfg(test)]
mod tests {
    use rhai::{Engine, INT};

    fn engine() -> Engine {
        let mut e = Engine::new();
        super::super::grid::register(&mut e);
        super::register(&mut e);
        e
    }

    #[test]
    fn mobility_is_what_reachable_finds_from_every_piece() {
        let e = engine();
        let setup = "let g = grid(3, 3); g.set(cell(0, 0), 1); g.set(cell(2, 2), 1); \
                     g.set(cell(2, 0), 2); g.set(cell(0, 2), 2);";
        let (mobility, summed): (INT, INT) = (
            e.eval(&format!("{setup} g.mobility(1, 1, 2, [0], [0])"))
                .unwrap(),
            e.eval(&format!(
                "{setup} let n = 0; for p in g.cells_with(1) {{ n += g.reachable(p, 1, 2, [0], [0]).len; }} n"
            ))
            .unwrap(),
        );
        assert_eq!(mobility, summed);
        assert_eq!(mobility, 6);
        let stuck: INT = e
            .eval(&format!("{setup} g.mobility(1, 1, 1, [0], [])"))
            .unwrap();
        assert_eq!(stuck, 0);
        let bad = e.eval::<INT>(&format!("{setup} g.mobility(1, 0, 2, [0], [0])"));
        assert!(bad.unwrap_err().to_string().contains("walk lengths"));
    }
}
