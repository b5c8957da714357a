//! Paths through a grid: breadth-first shortest paths and reachability through the cells that
//! hold one value (typically the empty value), joined by a set of steps.

use std::collections::VecDeque;

use super::grid::{Cell, Grid};

/// A shortest path from `from` to `to` moving by `steps`, every cell after `from` holding
/// `passable` (`from` itself may hold anything). The path lists both ends; `None` if there is
/// none or a cell is off the board. Ties between shortest paths are broken by the order of
/// `steps`, so the result is deterministic.
pub fn shortest_path(
    grid: &Grid,
    from: Cell,
    to: Cell,
    steps: &[(i64, i64)],
    passable: i64,
) -> Option<Vec<Cell>> {
    if !grid.contains(from) || !grid.contains(to) {
        return None;
    }
    if from == to {
        return Some(vec![from]);
    }
    let came_from = search(grid, from, steps, passable, Some(to));
    came_from[index(grid, to)]?;
    let mut path = vec![to];
    let mut cell = to;
    while cell != from {
        cell = came_from[index(grid, cell)].expect("on the search tree");
        path.push(cell);
    }
    path.reverse();
    Some(path)
}

/// The cells holding `passable` that can be reached from `from` by `steps` through cells holding
/// `passable`, in reading order, not counting `from`. Empty if `from` is off the board.
pub fn reachable(grid: &Grid, from: Cell, steps: &[(i64, i64)], passable: i64) -> Vec<Cell> {
    if !grid.contains(from) {
        return Vec::new();
    }
    let came_from = search(grid, from, steps, passable, None);
    grid.cells()
        .filter(|&c| c != from && came_from[index(grid, c)].is_some())
        .collect()
}

/// Every move of a piece along a free path: each cell not holding `passable` (a piece), paired
/// with each `passable` cell it can reach through `passable` cells by `steps`. Pieces come in
/// reading order, and for each piece its destinations in reading order. Costs one flood fill of
/// the board plus the pairs listed, not one search per piece.
pub fn reachable_pairs(grid: &Grid, steps: &[(i64, i64)], passable: i64) -> Vec<(Cell, Cell)> {
    PassableRegions::of(grid, steps, passable).pairs().collect()
}

/// The regions of `passable` cells of a grid (joined by `steps`), and the pieces next to them:
/// the moves of [`reachable_pairs`], counted and each found by its number without listing the
/// others ([`PassableRegions::pair`]). Holds a copy of the grid (its cells are shared until one
/// of the two changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassableRegions {
    grid: Grid,
    steps: Vec<(i64, i64)>,
    /// Each cell's region (`usize::MAX` for a piece).
    label: Vec<usize>,
    /// The cells of each region, in reading order.
    regions: Vec<Vec<Cell>>,
    /// Each piece that can move, in reading order, with the number of its first pair.
    pieces: Vec<(Cell, usize)>,
    /// How many pairs there are.
    pairs: usize,
}

impl PassableRegions {
    /// Labels the regions of `passable` cells (one flood fill of the board) and counts each
    /// piece's destinations.
    pub fn of(grid: &Grid, steps: &[(i64, i64)], passable: i64) -> Self {
        let values = grid.values();
        let mut label = vec![usize::MAX; values.len()];
        // Regions are numbered in the reading order of their first cells.
        let mut count = 0;
        let mut stack = Vec::new();
        for start in 0..values.len() {
            if values[start] != passable || label[start] != usize::MAX {
                continue;
            }
            label[start] = count;
            stack.push(start);
            while let Some(i) = stack.pop() {
                for j in neighbour_indices(grid, i, steps) {
                    if label[j] == usize::MAX && values[j] == passable {
                        label[j] = count;
                        stack.push(j);
                    }
                }
            }
            count += 1;
        }
        // Each region's cells in reading order: the labels read in that order.
        let mut regions = vec![Vec::new(); count];
        for (i, &l) in label.iter().enumerate() {
            if l != usize::MAX {
                regions[l].push(cell_at(grid, i));
            }
        }
        let mut regions = PassableRegions {
            grid: grid.clone(),
            steps: steps.to_vec(),
            label,
            regions,
            pieces: Vec::new(),
            pairs: 0,
        };
        let mut next_to = Vec::new();
        for i in (0..values.len()).filter(|&i| values[i] != passable) {
            regions.next_to(i, &mut next_to);
            let reach: usize = next_to.iter().map(|&l| regions.regions[l].len()).sum();
            if reach > 0 {
                regions.pieces.push((cell_at(grid, i), regions.pairs));
                regions.pairs += reach;
            }
        }
        regions
    }

    /// The pieces (cells not holding `passable`) that can move, in reading order.
    pub fn pieces(&self) -> impl Iterator<Item = Cell> + '_ {
        self.pieces.iter().map(|&(piece, _)| piece)
    }

    /// Puts the regions next to the piece at index `piece` in `next_to`, each once, in label
    /// order.
    fn next_to(&self, piece: usize, next_to: &mut Vec<usize>) {
        next_to.clear();
        next_to.extend(
            neighbour_indices(&self.grid, piece, &self.steps)
                .map(|j| self.label[j])
                .filter(|&l| l != usize::MAX),
        );
        next_to.sort_unstable();
        next_to.dedup();
    }

    /// How many (piece, destination) pairs there are.
    pub fn pair_count(&self) -> usize {
        self.pairs
    }

    /// The cells `piece` can reach, in reading order.
    pub fn destinations(&self, piece: Cell) -> Vec<Cell> {
        let mut next_to = Vec::new();
        self.next_to(index(&self.grid, piece), &mut next_to);
        let mut to: Vec<Cell> = next_to
            .iter()
            .flat_map(|&l| self.regions[l].iter().copied())
            .collect();
        if next_to.len() > 1 {
            to.sort_by_key(|c| (c.y, c.x));
        }
        to
    }

    /// Every (piece, destination) pair, pieces in reading order and each piece's destinations
    /// in reading order: [`reachable_pairs`]' list.
    pub fn pairs(&self) -> impl Iterator<Item = (Cell, Cell)> + '_ {
        self.pieces().flat_map(|piece| {
            let to = self.destinations(piece);
            to.into_iter().map(move |to| (piece, to))
        })
    }

    /// Pair `i` (from 0) of [`Self::pairs`], found without listing the others.
    pub fn pair(&self, i: usize) -> Option<(Cell, Cell)> {
        let k = self.pieces.partition_point(|&(_, first)| first <= i);
        let &(piece, first) = self.pieces.get(k.checked_sub(1)?)?;
        let to = *self.destinations(piece).get(i - first)?;
        Some((piece, to))
    }
}

fn index(grid: &Grid, cell: Cell) -> usize {
    (cell.y * grid.width() + cell.x) as usize
}

/// The cell at index `i` of `grid`'s values.
fn cell_at(grid: &Grid, i: usize) -> Cell {
    let i = i as i64;
    Cell::new(i % grid.width(), i / grid.width())
}

/// The indices of the on-board cells one of `steps` away from the cell at index `i`.
fn neighbour_indices<'s>(
    grid: &Grid,
    i: usize,
    steps: &'s [(i64, i64)],
) -> impl Iterator<Item = usize> + 's {
    let (w, h) = (grid.width(), grid.height());
    let (x, y) = (i as i64 % w, i as i64 / w);
    steps.iter().filter_map(move |&(dx, dy)| {
        let (nx, ny) = (x + dx, y + dy);
        (nx >= 0 && ny >= 0 && nx < w && ny < h).then_some((ny * w + nx) as usize)
    })
}

/// Breadth-first search from `from` through `passable` cells, stopping early at `target`. Each
/// reached cell records the cell it was reached from (`from` records itself).
fn search(
    grid: &Grid,
    from: Cell,
    steps: &[(i64, i64)],
    passable: i64,
    target: Option<Cell>,
) -> Vec<Option<Cell>> {
    let mut came_from = vec![None; grid.values().len()];
    came_from[index(grid, from)] = Some(from);
    let mut queue = VecDeque::from([from]);
    while let Some(cell) = queue.pop_front() {
        for n in grid.neighbours(cell, steps) {
            let i = index(grid, n);
            if came_from[i].is_none() && grid.get(n) == Some(passable) {
                came_from[i] = Some(cell);
                if Some(n) == target {
                    return came_from;
                }
                queue.push_back(n);
            }
        }
    }
    came_from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;
    use crate::runtime::grid::ORTHOGONAL;
    use proptest::prelude::*;

    #[test]
    fn path_goes_around_walls() {
        let g = grid_from(&["2010", "0010", "0000"]);
        let path = shortest_path(&g, Cell::new(0, 0), Cell::new(3, 0), &ORTHOGONAL, 0).unwrap();
        assert_eq!(path.len(), 8);
        assert_eq!(path[0], Cell::new(0, 0));
        assert_eq!(path[7], Cell::new(3, 0));
        for w in path.windows(2) {
            assert_eq!((w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs(), 1);
        }
        assert!(path[1..].iter().all(|&c| g.get(c) == Some(0)));
    }

    #[test]
    fn no_path_through_a_wall() {
        let g = grid_from(&["2100", "1000"]);
        assert_eq!(
            shortest_path(&g, Cell::new(0, 0), Cell::new(3, 1), &ORTHOGONAL, 0),
            None
        );
        assert!(reachable(&g, Cell::new(0, 0), &ORTHOGONAL, 0).is_empty());
        assert_eq!(reachable(&g, Cell::new(1, 0), &ORTHOGONAL, 0).len(), 5);
        // The destination must be passable too.
        assert_eq!(
            shortest_path(&g, Cell::new(2, 0), Cell::new(1, 0), &ORTHOGONAL, 0),
            None
        );
        assert_eq!(
            shortest_path(&g, Cell::new(2, 0), Cell::new(9, 0), &ORTHOGONAL, 0),
            None
        );
    }

    proptest! {
        /// The pairs are exactly every piece with every cell `reachable` from it.
        #[test]
        fn pairs_agree_with_reachable(values in proptest::collection::vec(0i64..3, 35)) {
            let mut g = Grid::new(7, 5, 0);
            for (i, v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 7, i as i64 / 7), *v);
            }
            let expected: Vec<(Cell, Cell)> = g
                .cells()
                .filter(|&c| g.get(c) != Some(0))
                .flat_map(|p| reachable(&g, p, &ORTHOGONAL, 0).into_iter().map(move |t| (p, t)))
                .collect();
            let regions = PassableRegions::of(&g, &ORTHOGONAL, 0);
            prop_assert_eq!(regions.pair_count(), expected.len());
            for (i, &pair) in expected.iter().enumerate() {
                prop_assert_eq!(regions.pair(i), Some(pair));
            }
            prop_assert_eq!(regions.pair(expected.len()), None);
            prop_assert_eq!(reachable_pairs(&g, &ORTHOGONAL, 0), expected);
        }

        /// A path exists exactly when the destination is reachable; it is made of steps through
        /// passable cells, and no path is shorter than the Manhattan distance.
        #[test]
        fn paths_agree_with_reachability(values in proptest::collection::vec(0i64..2, 36), a in 0usize..36, b in 0usize..36) {
            let mut g = Grid::new(6, 6, 0);
            for (i, v) in values.iter().enumerate() {
                g.set(Cell::new(i as i64 % 6, i as i64 / 6), *v);
            }
            let from = Cell::new(a as i64 % 6, a as i64 / 6);
            let to = Cell::new(b as i64 % 6, b as i64 / 6);
            let reach = reachable(&g, from, &ORTHOGONAL, 0);
            match shortest_path(&g, from, to, &ORTHOGONAL, 0) {
                Some(path) => {
                    prop_assert!(from == to || reach.contains(&to));
                    prop_assert_eq!(path[0], from);
                    prop_assert_eq!(*path.last().unwrap(), to);
                    let manhattan = (from.x - to.x).abs() + (from.y - to.y).abs();
                    prop_assert!(path.len() as i64 > manhattan);
                    prop_assert!(path[1..].iter().all(|&c| g.get(c) == Some(0)));
                    for w in path.windows(2) {
                        prop_assert_eq!((w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs(), 1);
                    }
                }
                None => prop_assert!(!reach.contains(&to)),
            }
        }
    }
}
