//! Rays from a cell: the cells in one direction while they hold a value; a bracket (a line of
//! one value closed by another: the stones a placement turns over); the steps and jumps of a piece; and where a
//! piece dropped into a column lands. Directions are steps `(dx, dy)` with `y` down.

use super::grid::{Cell, Grid, KING};

/// The cells after `from` in direction `d` (one step at a time) while they hold `value`.
/// Empty if `d` is `(0, 0)`.
pub fn ray(grid: &Grid, from: Cell, d: (i64, i64), value: i64) -> Vec<Cell> {
    let mut cells = Vec::new();
    if d == (0, 0) {
        return cells;
    }
    let mut c = from.offset(d, 1);
    while grid.get(c) == Some(value) {
        cells.push(c);
        c = c.offset(d, 1);
    }
    cells
}

/// The cells of [`ray`]`(from, d, between)` when there is at least one and the cell just after
/// them holds `end`; otherwise none. (The opponent's stones a placement turns over in direction `d`.)
pub fn bracket(grid: &Grid, from: Cell, d: (i64, i64), between: i64, end: i64) -> Vec<Cell> {
    let cells = ray(grid, from, d, between);
    let closed = cells
        .last()
        .is_some_and(|last| grid.get(last.offset(d, 1)) == Some(end));
    if closed {
        cells
    } else {
        Vec::new()
    }
}

/// Every [`bracket`] around `from` in the eight king directions (clockwise from up), joined.
pub fn brackets(grid: &Grid, from: Cell, between: i64, end: i64) -> Vec<Cell> {
    KING.iter()
        .flat_map(|&d| bracket(grid, from, d, between, end))
        .collect()
}

/// The cells `from + delta`, for each delta in order, that are on the board and hold one of the
/// values in `onto`: a piece's steps or jumps (a pawn's forward steps, a knight's jumps).
pub fn steps(grid: &Grid, from: Cell, deltas: &[(i64, i64)], onto: &[i64]) -> Vec<Cell> {
    deltas
        .iter()
        .map(|&d| from.offset(d, 1))
        .filter(|&c| grid.get(c).is_some_and(|v| onto.contains(&v)))
        .collect()
}

/// The lowest cell of column `x` (the largest `y`) holding `empty`: where a piece dropped into
/// the column comes to rest, if the column has room (gravity).
pub fn drop_cell(grid: &Grid, x: i64, empty: i64) -> Option<Cell> {
    (0..grid.height())
        .rev()
        .map(|y| Cell::new(x, y))
        .find(|&c| grid.get(c) == Some(empty))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;

    #[test]
    fn rays_stop_at_another_value_or_the_edge() {
        let g = grid_from(&["01120", "00000"]);
        assert_eq!(
            ray(&g, Cell::new(0, 0), (1, 0), 1),
            [Cell::new(1, 0), Cell::new(2, 0)]
        );
        assert!(ray(&g, Cell::new(0, 0), (0, 0), 0).is_empty());
        assert_eq!(ray(&g, Cell::new(2, 1), (1, 0), 0).len(), 2);
    }

    #[test]
    fn brackets_are_closed_lines() {
        // 2 plays at (0,0); the 1s at (1,0), (2,0) are closed by the 2 at (3,0).
        let g = grid_from(&["01120", "01000", "02000"]);
        let across = bracket(&g, Cell::new(0, 0), (1, 0), 1, 2);
        assert_eq!(across, [Cell::new(1, 0), Cell::new(2, 0)]);
        // Down from (1,0): (1,1) holds 1, then (1,2) holds 2 — closed.
        assert_eq!(
            bracket(&g, Cell::new(1, 0), (0, 1), 1, 2),
            [Cell::new(1, 1)]
        );
        // Nothing between, or not closed: no bracket.
        assert!(bracket(&g, Cell::new(2, 0), (1, 0), 1, 2).is_empty());
        assert!(bracket(&g, Cell::new(4, 0), (-1, 0), 1, 2).is_empty());
        let all = brackets(&g, Cell::new(0, 0), 1, 2);
        assert_eq!(all, [Cell::new(1, 0), Cell::new(2, 0)]);
    }

    #[test]
    fn steps_land_on_the_board_on_allowed_values() {
        let g = grid_from(&["000", "020", "010"]);
        // The 1 at (1,2) steps up-left, up, up-right onto empty or 2.
        let forward = [(-1, -1), (0, -1), (1, -1)];
        assert_eq!(
            steps(&g, Cell::new(1, 2), &forward, &[0]),
            [Cell::new(0, 1), Cell::new(2, 1)]
        );
        assert_eq!(steps(&g, Cell::new(1, 2), &forward, &[0, 2]).len(), 3);
        assert!(steps(&g, Cell::new(0, 0), &forward, &[0]).is_empty());
    }

    #[test]
    fn drops_land_on_the_lowest_empty_cell() {
        let g = grid_from(&["010", "010", "210"]);
        assert_eq!(drop_cell(&g, 0, 0), Some(Cell::new(0, 1)));
        assert_eq!(drop_cell(&g, 1, 0), None);
        assert_eq!(drop_cell(&g, 2, 0), Some(Cell::new(2, 2)));
        assert_eq!(drop_cell(&g, 7, 0), None);
    }
}
