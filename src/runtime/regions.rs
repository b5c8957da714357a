//! Flood fill: connected regions of equal cells.
//!
//! Connectivity is given by a set of steps, e.g. [`ORTHOGONAL`](super::grid::ORTHOGONAL) for
//! 4-neighbour regions or [`KING`](super::grid::KING) for 8-neighbour regions.

use super::grid::{Cell, Grid};

/// The connected region of cells holding the same value as `start` and containing it, joined by
/// `steps`, in reading order (top row first). Empty if `start` is off the board.
pub fn region(grid: &Grid, start: Cell, steps: &[(i64, i64)]) -> Vec<Cell> {
    let Some(value) = grid.get(start) else {
        return Vec::new();
    };
    let mut seen = vec![false; grid.values().len()];
    let mut cells = fill(grid, start, value, steps, &mut seen);
    cells.sort_by_key(|c| (c.y, c.x));
    cells
}

/// Every connected region of equal cells whose value is not `ignore`, joined by `steps`. Regions
/// come in reading order of their first cell, and each lists its cells in reading order.
pub fn regions(grid: &Grid, steps: &[(i64, i64)], ignore: i64) -> Vec<Vec<Cell>> {
    let mut seen = vec![false; grid.values().len()];
    let mut out = Vec::new();
    for cell in grid.cells() {
        let value = grid.get(cell).expect("on board");
        if value != ignore && !seen[index(grid, cell)] {
            let mut cells = fill(grid, cell, value, steps, &mut seen);
            cells.sort_by_key(|c| (c.y, c.x));
            out.push(cells);
        }
    }
    out
}

fn index(grid: &Grid, cell: Cell) -> usize {
    (cell.y * grid.width() + cell.x) as usize
}

/// The cells holding `value` connected to `start` (which holds it), marking them in `seen`.
fn fill(
    grid: &Grid,
    start: Cell,
    value: i64,
    steps: &[(i64, i64)],
    seen: &mut [bool],
) -> Vec<Cell> {
    seen[index(grid, start)] = true;
    let mut cells = vec![start];
    let mut next = 0;
    while next < cells.len() {
        let cell = cells[next];
        next += 1;
        for n in grid.neighbours(cell, steps) {
            if grid.get(n) == Some(value) && !seen[index(grid, n)] {
                seen[index(grid, n)] = true;
                cells.push(n);
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;
    use crate::runtime::grid::{HEX, KING, ORTHOGONAL};
    use proptest::prelude::*;

    #[test]
    fn four_and_eight_neighbour_regions() {
        let g = grid_from(&["1100", "0110", "0001"]);
        let four = region(&g, Cell::new(0, 0), &ORTHOGONAL);
        assert_eq!(
            four,
            vec![
                Cell::new(0, 0),
                Cell::new(1, 0),
                Cell::new(1, 1),
                Cell::new(2, 1)
            ]
        );
        assert_eq!(region(&g, Cell::new(0, 0), &KING).len(), 5);
        assert_eq!(
            region(&g, Cell::new(3, 2), &ORTHOGONAL),
            vec![Cell::new(3, 2)]
        );
        assert!(region(&g, Cell::new(4, 0), &ORTHOGONAL).is_empty());
    }

    #[test]
    fn all_regions_skip_the_ignored_value() {
        let g = grid_from(&["1100", "0110", "0021"]);
        let r = regions(&g, &ORTHOGONAL, 0);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].len(), 4);
        assert_eq!(r[1], vec![Cell::new(2, 2)]);
        assert_eq!(r[2], vec![Cell::new(3, 2)]);
        // The empty cells split into two 4-neighbour regions.
        assert_eq!(regions(&g, &ORTHOGONAL, 9).len(), 5);
    }

    #[test]
    fn hex_regions_join_along_the_six_sides() {
        // (1,0) and (0,1) share a side on a hex grid; (0,0) and (1,1) do not.
        let rising = grid_from(&["01", "10"]);
        assert_eq!(regions(&rising, &ORTHOGONAL, 0).len(), 2);
        assert_eq!(regions(&rising, &HEX, 0).len(), 1);
        let falling = grid_from(&["10", "01"]);
        assert_eq!(regions(&falling, &KING, 0).len(), 1);
        assert_eq!(regions(&falling, &HEX, 0).len(), 2);
    }

    proptest! {
        /// Regions partition the non-ignored cells; each holds one value, is connected, and no
        /// neighbour outside it holds that value.
        #[test]
        fn regions_partition_the_board(values in proptest::collection::vec(0i64..3, 30), eight: bool, hex: bool) {
            let mut g = if hex { Grid::hex(6, 5, 0) } else { Grid::new(6, 5, 0) };
            for (i, v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 6, i as i64 / 6), *v);
            }
            let steps = if eight { g.touching_steps() } else { g.side_steps() };
            let all = regions(&g, steps, 0);
            let total: usize = all.iter().map(Vec::len).sum();
            prop_assert_eq!(total, 30 - g.count(0));
            for r in &all {
                let value = g.get(r[0]).unwrap();
                prop_assert_eq!(&region(&g, r[0], steps), r);
                for &c in r {
                    prop_assert_eq!(g.get(c), Some(value));
                    for n in g.neighbours(c, steps) {
                        prop_assert!(g.get(n) != Some(value) || r.contains(&n));
                    }
                }
            }
        }
    }
}
