//! Windows: every placement of a fixed shape — a straight line of cells, or a rectangle — on a
//! grid, tallied by how many cells of a single value it holds, the rest empty. The raw material
//! of evaluations that value "almost complete" lines and blocks (four of a colour and a gap)
//! without a script looping over cells.

use super::grid::{Cell, Grid};

/// What a window holds: `Some(k)` if `k` of its cells hold one value other than `empty` (the
/// value `only`, when given) and the rest hold `empty`; `None` if it holds two different values,
/// a value other than `only`, or runs off the board.
fn tally(
    grid: &Grid,
    cells: impl Iterator<Item = Cell>,
    empty: i64,
    only: Option<i64>,
) -> Option<usize> {
    let mut value = only;
    let mut k = 0;
    for c in cells {
        let v = grid.get(c)?;
        if v == empty {
            continue;
        }
        if value.is_some_and(|w| w != v) {
            return None;
        }
        value = Some(v);
        k += 1;
    }
    Some(k)
}

/// For each `k` in `0..=len`, how many windows of `len` cells in a row (across, down and both
/// diagonals) hold `k` cells of one value other than `empty` and `len − k` cells holding `empty`.
/// Windows holding two different values are not counted. Empty if `len` is 0.
pub fn line_windows(grid: &Grid, len: usize, empty: i64) -> Vec<u64> {
    line_windows_holding(grid, len, empty, None)
}

/// As [`line_windows`], but counting only the windows whose non-empty cells all hold `value`
/// (with `Some`): one player's near-complete lines. A window of `empty` cells only counts for
/// every value (as `k = 0`).
pub fn line_windows_of(grid: &Grid, len: usize, empty: i64, value: i64) -> Vec<u64> {
    line_windows_holding(grid, len, empty, Some(value))
}

fn line_windows_holding(grid: &Grid, len: usize, empty: i64, only: Option<i64>) -> Vec<u64> {
    let mut counts = vec![0; len + 1];
    if len == 0 {
        return Vec::new();
    }
    for &d in grid.line_directions() {
        for start in grid.cells() {
            let cells = (0..len as i64).map(|i| start.offset(d, i));
            if let Some(k) = tally(grid, cells, empty, only) {
                counts[k] += 1;
            }
        }
    }
    counts
}

/// For each `k` in `0..=width·height`, how many `width`×`height` rectangles of cells hold `k`
/// cells of one value other than `empty` and the rest `empty` (as [`line_windows`]). Empty if a
/// side is 0.
pub fn box_windows(grid: &Grid, width: usize, height: usize, empty: i64) -> Vec<u64> {
    if width == 0 || height == 0 {
        return Vec::new();
    }
    let mut counts = vec![0; width * height + 1];
    for corner in grid.cells() {
        let cells = (0..height as i64).flat_map(|dy| {
            (0..width as i64).map(move |dx| Cell::new(corner.x + dx, corner.y + dy))
        });
        if let Some(k) = tally(grid, cells, empty, None) {
            counts[k] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;
    use proptest::prelude::*;

    #[test]
    fn line_windows_count_one_value_and_gaps() {
        let g = grid_from(&["1110", "0200"]);
        let across = line_windows(&g, 3, 0);
        // Windows of 3 fit only across: 111, 110 on the top row; 020, 200 below.
        assert_eq!(across, vec![0, 2, 1, 1]);
        let mixed = grid_from(&["12000"]);
        assert_eq!(line_windows(&mixed, 2, 0), vec![2, 1, 0]);
        assert!(line_windows(&g, 0, 0).is_empty());
        assert_eq!(line_windows(&g, 9, 0), vec![0; 10]);
    }

    #[test]
    fn line_windows_of_one_value_skip_the_other() {
        let g = grid_from(&["11020"]);
        // Windows of 3 across: 110, 102, 020; of them only 110 is 1s and gaps, 020 is 2s and gaps.
        assert_eq!(line_windows_of(&g, 3, 0, 1), vec![0, 0, 1, 0]);
        assert_eq!(line_windows_of(&g, 3, 0, 2), vec![0, 1, 0, 0]);
        assert_eq!(line_windows(&g, 3, 0), vec![0, 1, 1, 0]);
        // An empty window counts for every value.
        assert_eq!(
            line_windows_of(&grid_from(&["000"]), 3, 0, 7),
            vec![1, 0, 0, 0]
        );
    }

    #[test]
    fn box_windows_count_rectangles() {
        let g = grid_from(&["110", "100", "002"]);
        // 2×2 corners: (0,0) three 1s, (1,0) one 1, (0,1) one 1, (1,1) one 2.
        assert_eq!(box_windows(&g, 2, 2, 0), vec![0, 3, 0, 1, 0]);
        // 3×2: the top two rows hold three 1s; the bottom two one 1 and one 2.
        assert_eq!(box_windows(&g, 3, 2, 0), vec![0, 0, 0, 1, 0, 0, 0]);
        assert!(box_windows(&g, 0, 2, 0).is_empty());
    }

    proptest! {
        /// Every placement that fits is counted at most once, and a board of one value
        /// throughout has every fitting window full.
        #[test]
        fn windows_are_placements(values in proptest::collection::vec(0i64..3, 30), len in 1usize..6) {
            let mut g = Grid::new(6, 5, 0);
            for (i, v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 6, i as i64 / 6), *v);
            }
            let fits = |w: i64, h: i64| ((7 - w).max(0) * (6 - h).max(0)) as u64;
            let n = len as i64;
            let placements = fits(n, 1) + fits(1, n) + 2 * fits(n, n);
            prop_assert!(line_windows(&g, len, 0).iter().sum::<u64>() <= placements);
            let full = Grid::new(6, 5, 1);
            prop_assert_eq!(line_windows(&full, len, 0)[len], placements);
            prop_assert_eq!(box_windows(&full, len, 2, 0)[2 * len], fits(n, 2));
        }
    }
}
