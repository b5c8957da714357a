//! Window tallies as scripts see them: `g.line_windows(len, empty)` (or one value's,
//! `g.line_windows(len, empty, value)`) and `g.box_windows(w, h, empty)` — how many placements of a line or a rectangle hold k cells of
//! one value and the rest empty, for an evaluation in one native call.

use crate::walker::native_table::Natives;
use rhai::{Array, Dynamic, EvalAltResult, INT};

use crate::runtime::{windows, Grid};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Registers `line_windows` and `box_windows` on `Grid`.
pub fn register(engine: &mut Natives) {
    engine
        .register_reader(
            "line_windows",
            |g: &mut Grid, len: INT, empty: INT| -> Fallible<Array> {
                let len = side(len, "line_windows: the length")?;
                Ok(counts(windows::line_windows(g, len, empty)))
            },
        )
        .register_reader(
            "line_windows",
            |g: &mut Grid, len: INT, empty: INT, value: INT| -> Fallible<Array> {
                let len = side(len, "line_windows: the length")?;
                Ok(counts(windows::line_windows_of(g, len, empty, value)))
            },
        )
        .register_reader(
            "box_windows",
            |g: &mut Grid, w: INT, h: INT, empty: INT| -> Fallible<Array> {
                let (w, h) = (
                    side(w, "box_windows: the width")?,
                    side(h, "box_windows: the height")?,
                );
                Ok(counts(windows::box_windows(g, w, h, empty)))
            },
        );
}

/// A window side: 1 to 100 cells.
fn side(n: INT, what: &str) -> Fallible<usize> {
    usize::try_from(n)
        .ok()
        .filter(|n| (1..=100).contains(n))
        .ok_or_else(|| format!("{what} must be 1 to 100, not {n}").into())
}

fn counts(counts: Vec<u64>) -> Array {
    counts
        .into_iter()
        .map(|n| Dynamic::from(n as INT))
        .collect()
}

#[cfg(test)]
mod tests {
    use rhai::{Array, Engine};

    fn engine() -> Engine {
        super::super::test_engine(super::register)
    }

    #[test]
    fn scripts_get_counts_by_number_of_cells() {
        let e = engine();
        let lines: Array = e
            .eval("let g = grid(5, 1); g.set(cell(0, 0), 3); g.set(cell(1, 0), 3); g.line_windows(3, 0)")
            .unwrap();
        let lines: Vec<i64> = lines.into_iter().map(|v| v.as_int().unwrap()).collect();
        assert_eq!(lines, [1, 1, 1, 0]);
        let own: Array = e
            .eval("let g = grid(4, 1); g.set(cell(0, 0), 3); g.set(cell(3, 0), 4); g.line_windows(2, 0, 3)")
            .unwrap();
        let own: Vec<i64> = own.into_iter().map(|v| v.as_int().unwrap()).collect();
        assert_eq!(own, [1, 1, 0]);
        let boxes: Array = e.eval("grid(3, 3, 1).box_windows(2, 2, 0)").unwrap();
        assert_eq!(boxes.len(), 5);
        assert_eq!(boxes[4].as_int().unwrap(), 4);
        assert!(e.eval::<Array>("grid(3, 3).line_windows(0, 0)").is_err());
        assert!(e.eval::<Array>("grid(3, 3).box_windows(2, -1, 0)").is_err());
    }
}
