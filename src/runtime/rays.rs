//! Rays from a cell: the cells in one direction while they hold a value; a bracket (a line of
//! one value closed by another: the stones a placement turns over); the steps and jumps of a piece; and where a
//! piece dropped into a column lands. Directions are steps `(dx, dy)` with `y` down.

use super::grid::{Cell, Grid};

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

/// Every [`bracket`] around `from` in the directions of the cells touching it (the eight king
/// directions clockwise from up on a square grid, the six of a hexagonal one), joined.
pub fn brackets(grid: &Grid, from: Cell, between: i64, end: i64) -> Vec<Cell> {
    grid.touching_steps()
        .iter()
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
            grid.touching_steps()
                .iter()
                .any(|&d| !bracket(grid, c, d, between, end).is_empty())
        })
        .collect()
}

/// Every step `(from, to)` of the pieces holding one of `pieces`, row by row (and in the order
/// of `steps` from each): [`steps`] from every such piece, in one call.
pub fn piece_steps(grid: &Grid, pieces: &[i64], steps: &[PieceStep]) -> Vec<(Cell, Cell)> {
    steps_of_pieces(grid, |v| pieces.contains(&v).then_some(steps))
}

/// Every step `(from, to)` of the pieces holding a value `each` names, each with the steps named
/// with its value (men forward, kings both ways), row by row (and in the order of its steps from
/// each): [`piece_steps`] for pieces that move differently, in one pass. A value named twice
/// moves as its first entry says.
pub fn piece_steps_each(grid: &Grid, each: &[(i64, &[PieceStep])]) -> Vec<(Cell, Cell)> {
    steps_of_pieces(grid, |v| moves_of(each, v))
}

/// The steps from every cell whose value `steps_of` gives steps for, row by row.
fn steps_of_pieces<'s>(
    grid: &Grid,
    steps_of: impl Fn(i64) -> Option<&'s [PieceStep<'s>]>,
) -> Vec<(Cell, Cell)> {
    grid.cells()
        .filter_map(|from| Some((from, steps_of(grid.get(from)?)?)))
        .flat_map(|(from, steps)| {
            steps
                .iter()
                .filter_map(move |s| s.from(grid, from).map(|to| (from, to)))
        })
        .collect()
}

/// The moves `each` names for the piece value `v` (the first entry naming it).
fn moves_of<'e, T>(each: &[(i64, &'e [T])], v: i64) -> Option<&'e [T]> {
    each.iter().find(|(piece, _)| *piece == v).map(|(_, m)| *m)
}

/// A jump: a piece at `from` leaps over the cell `over` next to it onto the cell `to` just
/// beyond, in a straight line (a capture in draughts, a leap in Chinese checkers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// Where the piece starts.
    pub from: Cell,
    /// The cell it leaps over.
    pub over: Cell,
    /// Where it lands.
    pub to: Cell,
}

/// The jumps from `from`, in the order of `directions`: for each `(dx, dy)`, the cell one step
/// away must hold one of `over` and the cell two steps away one of `onto` (both on the board).
pub fn jumps(
    grid: &Grid,
    from: Cell,
    directions: &[(i64, i64)],
    over: &[i64],
    onto: &[i64],
) -> Vec<Jump> {
    let holds = |c: Cell, values: &[i64]| grid.get(c).is_some_and(|v| values.contains(&v));
    directions
        .iter()
        .filter(|&&d| d != (0, 0))
        .map(|&d| Jump {
            from,
            over: from.offset(d, 1),
            to: from.offset(d, 2),
        })
        .filter(|j| holds(j.over, over) && holds(j.to, onto))
        .collect()
}

/// Every [`jumps`] of the pieces holding one of `pieces`, row by row (and in the order of
/// `directions` from each): all the captures of one side, in one call.
pub fn piece_jumps(
    grid: &Grid,
    pieces: &[i64],
    directions: &[(i64, i64)],
    over: &[i64],
    onto: &[i64],
) -> Vec<Jump> {
    jumps_of_pieces(
        grid,
        |v| pieces.contains(&v).then_some(directions),
        over,
        onto,
    )
}

/// Every [`jumps`] of the pieces holding a value `each` names, each in the directions named with
/// its value (men forward, kings both ways), row by row: [`piece_jumps`] for pieces that capture
/// differently, in one pass. A value named twice jumps as its first entry says.
pub fn piece_jumps_each(
    grid: &Grid,
    each: &[(i64, &[(i64, i64)])],
    over: &[i64],
    onto: &[i64],
) -> Vec<Jump> {
    jumps_of_pieces(grid, |v| moves_of(each, v), over, onto)
}

/// The jumps from every cell whose value `directions_of` gives directions for, row by row.
fn jumps_of_pieces<'d>(
    grid: &Grid,
    directions_of: impl Fn(i64) -> Option<&'d [(i64, i64)]>,
    over: &[i64],
    onto: &[i64],
) -> Vec<Jump> {
    grid.cells()
        .filter_map(|from| Some((from, directions_of(grid.get(from)?)?)))
        .flat_map(|(from, directions)| jumps(grid, from, directions, over, onto))
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
            piece_steps(&g, &[1], &up(&[0])),
            [
                (Cell::new(0, 2), Cell::new(0, 1)),
                (Cell::new(2, 2), Cell::new(2, 1)),
            ]
        );
        assert_eq!(piece_steps(&g, &[1], &up(&[2])).len(), 2);
        assert!(piece_steps(&g, &[2], &[PieceStep::new((0, 5), &[0])]).is_empty());
        // Two values at once: the 2 in the middle row comes first, then the 1s below.
        assert_eq!(
            piece_steps(&g, &[1, 2], &up(&[0])),
            [
                (Cell::new(1, 1), Cell::new(0, 0)),
                (Cell::new(1, 1), Cell::new(1, 0)),
                (Cell::new(1, 1), Cell::new(2, 0)),
                (Cell::new(0, 2), Cell::new(0, 1)),
                (Cell::new(2, 2), Cell::new(2, 1)),
            ]
        );
        assert!(piece_steps(&g, &[], &up(&[0])).is_empty());
    }

    #[test]
    fn a_jump_needs_a_piece_to_leap_over_and_room_to_land() {
        // 1 at (0,4) and (4,4); 2s at (1,3) and (3,3); (4,2) is taken by a 1, (2,2) empty.
        let g = grid_from(&["00000", "00000", "00001", "02020", "10001"]);
        let diagonals = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
        let jump = |from: (i64, i64), over: (i64, i64), to: (i64, i64)| Jump {
            from: Cell::new(from.0, from.1),
            over: Cell::new(over.0, over.1),
            to: Cell::new(to.0, to.1),
        };
        assert_eq!(
            jumps(&g, Cell::new(0, 4), &diagonals, &[2], &[0]),
            [jump((0, 4), (1, 3), (2, 2))]
        );
        // From (2,4) both diagonals up leap a 2, but (4,2) is taken: one jump.
        assert_eq!(
            jumps(&g, Cell::new(2, 4), &diagonals, &[2], &[0]),
            [jump((2, 4), (1, 3), (0, 2))]
        );
        // No 2 next to (2,0): nothing to leap over.
        assert!(jumps(&g, Cell::new(2, 0), &diagonals, &[2], &[0]).is_empty());
        // Off the board: no jump, and the zero direction is ignored.
        assert!(jumps(&g, Cell::new(4, 4), &[(1, -1), (0, 0)], &[0, 1, 2], &[0]).is_empty());
        // From (4,4) the 2 at (3,3) is jumped onto (2,2); with (4,2) allowed, (4,2)'s 1 too.
        assert_eq!(
            piece_jumps(&g, &[1], &diagonals, &[2], &[0]),
            [
                jump((4, 2), (3, 3), (2, 4)),
                jump((0, 4), (1, 3), (2, 2)),
                jump((4, 4), (3, 3), (2, 2)),
            ]
        );
    }

    #[test]
    fn each_piece_value_steps_and_jumps_its_own_way() {
        // Men (1) step up only, the king (3) up and down; the 2s are the opponent's.
        let g = grid_from(&["00000", "01000", "00300", "02000", "00000"]);
        let (up, all) = ([(-1, -1), (1, -1)], [(-1, -1), (1, -1), (-1, 1), (1, 1)]);
        let steps = |ds: &[(i64, i64)]| -> Vec<PieceStep<'static>> {
            ds.iter().map(|&d| PieceStep::new(d, &[0])).collect()
        };
        let (man, king) = (steps(&up), steps(&all));
        let pair = |a: (i64, i64), b: (i64, i64)| (Cell::new(a.0, a.1), Cell::new(b.0, b.1));
        // Row by row: the man at (1,1) first, then the king at (2,2), blocked up-left by the
        // man and down-left by a 2.
        assert_eq!(
            piece_steps_each(&g, &[(1, &man), (3, &king)]),
            [
                pair((1, 1), (0, 0)),
                pair((1, 1), (2, 0)),
                pair((2, 2), (3, 1)),
                pair((2, 2), (3, 3)),
            ]
        );
        // A value not named does not move; the first entry of a value named twice holds.
        assert_eq!(piece_steps_each(&g, &[(3, &king)]).len(), 2);
        assert_eq!(
            piece_steps_each(&g, &[(3, &man), (3, &king)]),
            [pair((2, 2), (3, 1))]
        );
        assert!(piece_steps_each(&g, &[]).is_empty());
        // Each as `piece_steps` of its value alone, merged row by row.
        let mut merged = [piece_steps(&g, &[1], &man), piece_steps(&g, &[3], &king)].concat();
        merged.sort_by_key(|(from, _)| (from.y, from.x));
        assert_eq!(piece_steps_each(&g, &[(1, &man), (3, &king)]), merged);
        // The king jumps the 2 down-left of it; with the men's directions (up only) it would
        // not, nor would the man with the king's.
        let jump = Jump {
            from: Cell::new(2, 2),
            over: Cell::new(1, 3),
            to: Cell::new(0, 4),
        };
        assert_eq!(
            piece_jumps_each(&g, &[(1, &up), (3, &all)], &[2], &[0]),
            [jump]
        );
        assert!(piece_jumps_each(&g, &[(1, &all), (3, &up)], &[2], &[0]).is_empty());
        assert!(piece_jumps_each(&g, &[(3, &all)], &[2], &[1]).is_empty());
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

    mod props {
        use super::*;
        use proptest::prelude::*;

        const DIAGONALS: [(i64, i64); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

        fn board(values: &[i64]) -> Grid {
            let mut g = Grid::new(5, 5, 0);
            for (i, &v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 5, i as i64 / 5), v);
            }
            g
        }

        proptest! {
            /// Every jump leaps a cell holding an `over` value onto one holding an `onto` value,
            /// two steps along one direction; and the board's jumps are each piece's, in reading
            /// order.
            #[test]
            fn jumps_are_checked_both_ways(values in proptest::collection::vec(0i64..4, 25)) {
                let g = board(&values);
                let (pieces, over, onto) = ([1, 3], [2], [0]);
                let mut each = Vec::new();
                for from in g.cells() {
                    let found = jumps(&g, from, &DIAGONALS, &over, &onto);
                    for j in &found {
                        let d = (j.over.x - from.x, j.over.y - from.y);
                        prop_assert!(DIAGONALS.contains(&d));
                        prop_assert_eq!(j.to, from.offset(d, 2));
                        prop_assert_eq!(g.get(j.over), Some(2));
                        prop_assert_eq!(g.get(j.to), Some(0));
                    }
                    let possible = DIAGONALS.iter().filter(|&&d| {
                        g.get(from.offset(d, 1)) == Some(2) && g.get(from.offset(d, 2)) == Some(0)
                    });
                    prop_assert_eq!(found.len(), possible.count());
                    if pieces.contains(&g.get(from).unwrap()) {
                        each.extend(found);
                    }
                }
                prop_assert_eq!(piece_jumps(&g, &pieces, &DIAGONALS, &over, &onto), each);
            }

            /// Steps of several pieces are the steps of each, merged in reading order.
            #[test]
            fn several_pieces_step_as_each_does(values in proptest::collection::vec(0i64..4, 25)) {
                let g = board(&values);
                let steps: Vec<PieceStep> = DIAGONALS.iter().map(|&d| PieceStep::new(d, &[0])).collect();
                let mut each = [piece_steps(&g, &[1], &steps), piece_steps(&g, &[3], &steps)].concat();
                each.sort_by_key(|(from, _)| (from.y, from.x));
                prop_assert_eq!(piece_steps(&g, &[1, 3], &steps), each);
            }

            /// Pieces that move each their own way move as each alone, merged in reading order.
            #[test]
            fn each_value_moves_as_it_alone_does(values in proptest::collection::vec(0i64..4, 25)) {
                let g = board(&values);
                let (up, all) = (&DIAGONALS[..2], &DIAGONALS[..]);
                let steps = |ds: &[(i64, i64)]| -> Vec<PieceStep<'static>> {
                    ds.iter().map(|&d| PieceStep::new(d, &[0])).collect()
                };
                let (man, king) = (steps(up), steps(all));
                let by_row = |(from, _): &(Cell, Cell)| (from.y, from.x);
                let mut each = [piece_steps(&g, &[1], &man), piece_steps(&g, &[3], &king)].concat();
                each.sort_by_key(by_row);
                prop_assert_eq!(piece_steps_each(&g, &[(1, &man), (3, &king)]), each);
                let mut each = [
                    piece_jumps(&g, &[1], up, &[2], &[0]),
                    piece_jumps(&g, &[3], all, &[2], &[0]),
                ]
                .concat();
                each.sort_by_key(|j| (j.from.y, j.from.x));
                prop_assert_eq!(piece_jumps_each(&g, &[(1, up), (3, all)], &[2], &[0]), each);
            }
        }
    }
}
