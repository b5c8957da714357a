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

/// One step of a piece: where it goes from its cell, and what the cell it lands on may hold
/// (a pawn steps forward onto an empty cell, but diagonally onto an opponent's piece).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceStep<'a> {
    /// `(dx, dy)`, with `y` down.
    pub delta: (i64, i64),
    /// The values the cell it lands on may hold.
    pub onto: &'a [i64],
}

impl<'a> PieceStep<'a> {
    /// A step by `delta` onto a cell holding one of `onto`.
    pub fn new(delta: (i64, i64), onto: &'a [i64]) -> Self {
        PieceStep { delta, onto }
    }

    /// Where this step from `from` lands, if that cell is on the board and may be landed on.
    fn from(&self, grid: &Grid, from: Cell) -> Option<Cell> {
        let to = from.offset(self.delta, 1);
        grid.get(to)
            .is_some_and(|v| self.onto.contains(&v))
            .then_some(to)
    }
}

/// The cells each step in order lands on from `from` (see [`PieceStep`]): a piece's steps or
/// jumps (a pawn's forward steps, a knight's jumps).
pub fn steps(grid: &Grid, from: Cell, steps: &[PieceStep]) -> Vec<Cell> {
    steps.iter().filter_map(|s| s.from(grid, from)).collect()
}

/// Every cell holding `empty` that [`brackets`] something from, row by row: the cells where a
/// placement brackets a line of `between`s closed by an `end`. One call for a whole list of
/// placements (it stops looking around a cell at its first bracket).
pub fn bracketing_cells(grid: &Grid, empty: i64, between: i64, end: i64) -> Vec<Cell> {
    grid.cells_with(empty)
        .filter(|&c| {
            KING.iter()
                .any(|&d| !bracket(grid, c, d, between, end).is_empty())
        })
        .collect()
}

/// Every step `(from, to)` of the pieces holding `piece`, row by row (and in the order of
/// `steps` from each): [`steps`] from every such piece, in one call.
pub fn piece_steps(grid: &Grid, piece: i64, steps: &[PieceStep]) -> Vec<(Cell, Cell)> {
    grid.cells_with(piece)
        .flat_map(|from| {
            steps
                .iter()
                .filter_map(move |s| s.from(grid, from).map(|to| (from, to)))
        })
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

/// The columns `x`, left to right, where [`drop_cell`] finds room: the drops open now.
pub fn open_columns(grid: &Grid, empty: i64) -> Vec<i64> {
    (0..grid.width())
        .filter(|&x| drop_cell(grid, x, empty).is_some())
        .collect()
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
        fn forward(onto: &[i64]) -> Vec<PieceStep<'_>> {
            [(-1, -1), (0, -1), (1, -1)]
                .map(|d| PieceStep::new(d, onto))
                .to_vec()
        }
        assert_eq!(
            steps(&g, Cell::new(1, 2), &forward(&[0])),
            [Cell::new(0, 1), Cell::new(2, 1)]
        );
        assert_eq!(steps(&g, Cell::new(1, 2), &forward(&[0, 2])).len(), 3);
        assert!(steps(&g, Cell::new(0, 0), &forward(&[0])).is_empty());
        // A pawn: straight onto an empty cell only, diagonally onto a 2 only.
        let pawn = [
            PieceStep::new((-1, -1), &[2]),
            PieceStep::new((0, -1), &[0]),
            PieceStep::new((1, -1), &[2]),
        ];
        assert!(steps(&g, Cell::new(1, 2), &pawn).is_empty());
        assert_eq!(
            steps(&g, Cell::new(0, 2), &pawn),
            [Cell::new(0, 1), Cell::new(1, 1)]
        );
    }

    #[test]
    fn bracketing_cells_are_the_empty_cells_with_a_bracket() {
        // For 2: (0,0) brackets the 1s across, closed by the 2 at (3,0); (1,2) brackets the 1
        // at (2,1) up-right, closed by the same 2. The lines from (0,2) and (3,1) are not closed.
        let g = grid_from(&["01120", "01100", "00000"]);
        assert_eq!(
            bracketing_cells(&g, 0, 1, 2),
            [Cell::new(0, 0), Cell::new(1, 2)]
        );
        assert_eq!(bracketing_cells(&g, 0, 2, 1), [Cell::new(4, 0)]);
    }

    #[test]
    fn piece_steps_pair_every_piece_with_its_steps() {
        let g = grid_from(&["000", "020", "101"]);
        fn up(onto: &[i64]) -> Vec<PieceStep<'_>> {
            [(-1, -1), (0, -1), (1, -1)]
                .map(|d| PieceStep::new(d, onto))
                .to_vec()
        }
        assert_eq!(
            piece_steps(&g, 1, &up(&[0])),
            [
                (Cell::new(0, 2), Cell::new(0, 1)),
                (Cell::new(2, 2), Cell::new(2, 1)),
            ]
        );
        assert_eq!(piece_steps(&g, 1, &up(&[2])).len(), 2);
        assert!(piece_steps(&g, 2, &[PieceStep::new((0, 5), &[0])]).is_empty());
    }

    #[test]
    fn drops_land_on_the_lowest_empty_cell() {
        let g = grid_from(&["010", "010", "210"]);
        assert_eq!(drop_cell(&g, 0, 0), Some(Cell::new(0, 1)));
        assert_eq!(drop_cell(&g, 1, 0), None);
        assert_eq!(drop_cell(&g, 2, 0), Some(Cell::new(2, 2)));
        assert_eq!(drop_cell(&g, 7, 0), None);
        assert_eq!(open_columns(&g, 0), [0, 2]);
        assert_eq!(open_columns(&g, 2), [0]);
    }
}
