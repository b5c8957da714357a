//! Line scanning: runs of equal cells along a grid's line directions (four on a square grid,
//! three on a hexagonal one), and what lies beyond them.

use super::grid::{Cell, Grid, SQUARE_LINES};

/// The four line directions of a square grid: horizontal, vertical, diagonal (↘) and
/// anti-diagonal (↗). A grid's own are [`Grid::line_directions`].
pub const LINE_DIRECTIONS: [(i64, i64); 4] = SQUARE_LINES;

/// What lies just beyond one end of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Beyond {
    /// The board edge.
    Edge,
    /// A cell holding this value (which differs from the run's value).
    Value(i64),
}

/// A maximal run of cells holding the same value along one direction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Run {
    /// The value every cell of the run holds.
    pub value: i64,
    /// The direction `(dx, dy)` the cells are listed in (one of [`Grid::line_directions`]).
    pub direction: (i64, i64),
    /// The cells, from the `before` end to the `after` end.
    pub cells: Vec<Cell>,
    /// What lies beyond the first cell.
    pub before: Beyond,
    /// What lies beyond the last cell.
    pub after: Beyond,
}

impl Run {
    /// Number of cells in the run.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the run is empty (never, for runs built by this module).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

fn beyond(grid: &Grid, cell: Cell) -> Beyond {
    grid.get(cell).map_or(Beyond::Edge, Beyond::Value)
}

/// How many cells holding `value` follow `cell` (not counting it) along `direction`.
pub fn count_from(grid: &Grid, cell: Cell, direction: (i64, i64), value: i64) -> i64 {
    let mut n = 0;
    while grid.get(cell.offset(direction, n + 1)) == Some(value) {
        n += 1;
    }
    n
}

/// For each of the grid's line directions (across, down, ↘, ↗ on a square grid), how many cells
/// within `reach` of `centre` on either side (not `centre` itself) hold `value`: how crowded each
/// line through a cell is.
pub fn counts_along(grid: &Grid, centre: Cell, value: i64, reach: usize) -> Vec<usize> {
    let reach = reach as i64;
    grid.line_directions()
        .iter()
        .map(|&d| {
            (-reach..=reach)
                .filter(|&i| i != 0 && grid.get(centre.offset(d, i)) == Some(value))
                .count()
        })
        .collect()
}

/// The values of the `2·reach + 1` cells `centre + i·direction` for `i` in `-reach..=reach`, in
/// that order (so the centre is in the middle); a cell off the board reads as `off`. The raw
/// material of pattern tests along a line (gaps, ends, what lies a few cells away).
pub fn values_along(
    grid: &Grid,
    centre: Cell,
    direction: (i64, i64),
    reach: usize,
    off: i64,
) -> Vec<i64> {
    let reach = reach as i64;
    (-reach..=reach)
        .map(|i| grid.get(centre.offset(direction, i)).unwrap_or(off))
        .collect()
}

/// The run through `cell` along `direction`, or `None` if `cell` is off the board.
pub fn run_through(grid: &Grid, cell: Cell, direction: (i64, i64)) -> Option<Run> {
    let value = grid.get(cell)?;
    let back = (-direction.0, -direction.1);
    let start = cell.offset(back, count_from(grid, cell, back, value));
    let len = 1 + count_from(grid, start, direction, value);
    Some(Run {
        value,
        direction,
        cells: (0..len).map(|i| start.offset(direction, i)).collect(),
        before: beyond(grid, start.offset(back, 1)),
        after: beyond(grid, start.offset(direction, len)),
    })
}

/// The runs through `cell`, one per line direction of the grid (empty if `cell` is off the
/// board).
pub fn runs_through(grid: &Grid, cell: Cell) -> Vec<Run> {
    grid.line_directions()
        .iter()
        .filter_map(|&d| run_through(grid, cell, d))
        .collect()
}

/// The length of the longest of the [`runs_through`] `cell` (0 if `cell` is off the board):
/// whether a placement completed a line, in one call.
pub fn longest_run_through(grid: &Grid, cell: Cell) -> usize {
    let Some(value) = grid.get(cell) else {
        return 0;
    };
    // Counted from the cell both ways: no run is made.
    grid.line_directions()
        .iter()
        .map(|&(dx, dy)| {
            1 + count_from(grid, cell, (dx, dy), value) + count_from(grid, cell, (-dx, -dy), value)
        })
        .max()
        .map_or(0, |n| n as usize)
}

/// Every maximal run of at least `min_len` cells, in every line direction, whose value is not
/// `ignore` (typically the empty value). Runs are listed direction by direction, then by start
/// cell in reading order.
pub fn all_runs(grid: &Grid, min_len: usize, ignore: i64) -> Vec<Run> {
    let mut runs = Vec::new();
    for &direction in grid.line_directions() {
        let back = (-direction.0, -direction.1);
        for cell in grid.cells() {
            let value = grid.get(cell).unwrap_or(ignore);
            let starts_run = value != ignore && grid.get(cell.offset(back, 1)) != Some(value);
            if starts_run && 1 + count_from(grid, cell, direction, value) >= min_len as i64 {
                runs.extend(run_through(grid, cell, direction));
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;
    use proptest::prelude::*;

    #[test]
    fn run_reports_both_ends() {
        let g = grid_from(&["0111120", "0000000"]);
        let run = run_through(&g, Cell::new(2, 0), (1, 0)).unwrap();
        assert_eq!(run.len(), 4);
        assert_eq!(run.cells[0], Cell::new(1, 0));
        assert_eq!(run.before, Beyond::Value(0));
        assert_eq!(run.after, Beyond::Value(2));
        let edge = run_through(&g, Cell::new(6, 0), (1, 0)).unwrap();
        assert_eq!(edge.after, Beyond::Edge);
    }

    #[test]
    fn diagonals_are_scanned() {
        let g = grid_from(&["100", "010", "001"]);
        let runs = runs_through(&g, Cell::new(1, 1));
        assert_eq!(runs.len(), 4);
        assert_eq!(runs[2].len(), 3);
        assert_eq!(
            (runs[2].before, runs[2].after),
            (Beyond::Edge, Beyond::Edge)
        );
        assert_eq!(runs[3].len(), 1);
        assert_eq!(all_runs(&g, 3, 0).len(), 1);
        assert_eq!(longest_run_through(&g, Cell::new(1, 1)), 3);
        assert_eq!(longest_run_through(&g, Cell::new(2, 0)), 2);
        assert_eq!(longest_run_through(&g, Cell::new(5, 5)), 0);
    }

    #[test]
    fn values_along_read_off_board_cells_as_off() {
        let g = grid_from(&["123", "456"]);
        assert_eq!(
            values_along(&g, Cell::new(1, 0), (1, 0), 2, -1),
            vec![-1, 1, 2, 3, -1]
        );
        assert_eq!(
            values_along(&g, Cell::new(0, 1), (1, -1), 1, 9),
            vec![9, 4, 2]
        );
        assert_eq!(values_along(&g, Cell::new(5, 5), (0, 1), 0, 7), vec![7]);
    }

    #[test]
    fn counts_along_tally_each_line_but_the_centre() {
        let g = grid_from(&["1010", "0110", "1001"]);
        // Through (1,1): across 0110 → one other 1; down 010 → none; ↘ (0,0),(2,2) → one;
        // ↗ (0,2),(2,0) → two.
        assert_eq!(counts_along(&g, Cell::new(1, 1), 1, 3), [1, 0, 1, 2]);
        assert_eq!(counts_along(&g, Cell::new(1, 1), 1, 0), [0, 0, 0, 0]);
    }

    #[test]
    fn hex_lines_run_along_three_axes() {
        // A falling diagonal is no line on a hex grid; a rising one and a column are.
        let mut g = Grid::hex(3, 3, 0);
        for i in 0..3 {
            g.set(Cell::new(i, i), 1);
            g.set(Cell::new(i, 2 - i), 2);
        }
        assert_eq!(longest_run_through(&g, Cell::new(0, 0)), 1);
        assert_eq!(longest_run_through(&g, Cell::new(0, 2)), 3);
        let runs = runs_through(&g, Cell::new(1, 1));
        assert_eq!(runs.len(), 3);
        assert_eq!(
            runs[2].cells,
            [Cell::new(0, 2), Cell::new(1, 1), Cell::new(2, 0)]
        );
        assert_eq!(counts_along(&g, Cell::new(1, 0), 2, 2), [1, 1, 0]);
        assert!(all_runs(&g, 2, 0).iter().all(|r| r.value == 2));
    }

    proptest! {
        /// Every cell of a run holds its value, the run is contiguous, and the cells beyond its
        /// ends do not hold its value.
        #[test]
        fn runs_are_maximal(values in proptest::collection::vec(0i64..3, 36), x in 0i64..6, y in 0i64..6, hex: bool) {
            let mut g = if hex { Grid::hex(6, 6, 0) } else { Grid::new(6, 6, 0) };
            for (i, v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 6, i as i64 / 6), *v);
            }
            let through = runs_through(&g, Cell::new(x, y));
            prop_assert_eq!(through.len(), g.line_directions().len());
            for run in through {
                prop_assert!(g.line_directions().contains(&run.direction));
                prop_assert!(run.cells.contains(&Cell::new(x, y)));
                for w in run.cells.windows(2) {
                    prop_assert_eq!(w[0].offset(run.direction, 1), w[1]);
                }
                prop_assert!(run.cells.iter().all(|&c| g.get(c) == Some(run.value)));
                prop_assert_ne!(run.before, Beyond::Value(run.value));
                prop_assert_ne!(run.after, Beyond::Value(run.value));
            }
            let longest = runs_through(&g, Cell::new(x, y)).iter().map(Run::len).max();
            prop_assert_eq!(longest_run_through(&g, Cell::new(x, y)), longest.unwrap_or(0));
            for run in all_runs(&g, 2, 0) {
                prop_assert!(g.line_directions().contains(&run.direction));
                prop_assert!(run.len() >= 2 && run.value != 0);
                let again = run_through(&g, run.cells[0], run.direction).unwrap();
                prop_assert_eq!(again, run);
            }
        }
    }
}
