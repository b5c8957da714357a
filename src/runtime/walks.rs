//! Bounded simple walks on a grid: every path of orthogonal steps from a cell that never visits a
//! cell twice, with rules (given as cell values, so no callback runs per cell) for the cells a walk
//! may pass through and the cells it may end on — and the cells such walks reach.
//!
//! A walk of length `n` is `n + 1` cells, the start included. The start cell is never checked
//! against the rules (it usually holds the piece that walks); the `n - 1` cells in between must
//! hold a value in [`WalkRule::through`], and the last cell a value in [`WalkRule::end`].

use std::convert::Infallible;

use super::grid::{Cell, Grid};

/// Which walks to follow: their lengths and the values of the cells they pass and end on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkRule {
    /// The shortest walk wanted, in steps (at least 1).
    pub min_len: usize,
    /// The longest walk wanted, in steps.
    pub max_len: usize,
    /// The values of cells a walk may pass through (every cell but its start and end).
    pub through: Vec<i64>,
    /// The values of cells a walk may end on.
    pub end: Vec<i64>,
}

impl WalkRule {
    /// Walks of `min_len..=max_len` steps passing through `through` values and ending on `end`
    /// values.
    pub fn new(min_len: usize, max_len: usize, through: &[i64], end: &[i64]) -> Self {
        WalkRule {
            min_len: min_len.max(1),
            max_len,
            through: through.to_vec(),
            end: end.to_vec(),
        }
    }
}

/// Calls `visit` with every simple walk from `from` that `rule` allows (start cell first), in a
/// fixed order: depth first, steps tried up, right, down, left. Nothing is visited from a cell
/// off the board.
pub fn for_each_walk(grid: &Grid, from: Cell, rule: &WalkRule, mut visit: impl FnMut(&[Cell])) {
    let done: Result<(), Infallible> = try_for_each_walk(grid, from, rule, |p| {
        if let WalkStep::Walk(p) = p {
            visit(p);
        }
        Ok(())
    });
    let Ok(()) = done;
}

/// What [`try_for_each_walk`] reports at each step it explores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkStep<'a> {
    /// A step that does not end a walk the rule allows.
    Explore,
    /// A walk the rule allows (start cell first).
    Walk(&'a [Cell]),
}

/// [`for_each_walk`], calling `step` at every step explored (walk or not), so a caller can
/// meter the work (the number of simple walks grows exponentially with their length) and stop
/// it with an error, which is returned.
pub fn try_for_each_walk<E>(
    grid: &Grid,
    from: Cell,
    rule: &WalkRule,
    mut step: impl FnMut(WalkStep<'_>) -> Result<(), E>,
) -> Result<(), E> {
    if !grid.contains(from) || rule.max_len == 0 {
        return Ok(());
    }
    let mut seen = vec![false; grid.values().len()];
    let index = |c: Cell| (c.y * grid.width() + c.x) as usize;
    seen[index(from)] = true;
    let mut path = vec![from];
    extend(grid, rule, &mut seen, &mut path, &mut step)
}

fn extend<E>(
    grid: &Grid,
    rule: &WalkRule,
    seen: &mut [bool],
    path: &mut Vec<Cell>,
    step: &mut impl FnMut(WalkStep<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let here = *path.last().expect("a walk has its start");
    let len = path.len(); // the length of the walk after one more step
    for next in grid.neighbours(here, grid.side_steps()) {
        let i = (next.y * grid.width() + next.x) as usize;
        if seen[i] {
            continue;
        }
        let value = grid.values()[i];
        path.push(next);
        if len >= rule.min_len && rule.end.contains(&value) {
            step(WalkStep::Walk(path))?;
        } else {
            step(WalkStep::Explore)?;
        }
        if len < rule.max_len && rule.through.contains(&value) {
            seen[i] = true;
            let deeper = extend(grid, rule, seen, path, step);
            seen[i] = false;
            deeper?;
        }
        path.pop();
    }
    Ok(())
}

/// Every simple walk from `from` that `rule` allows, as cell paths (start first).
pub fn walks(grid: &Grid, from: Cell, rule: &WalkRule) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    for_each_walk(grid, from, rule, |p| out.push(p.to_vec()));
    out
}

/// The cells some walk allowed by `rule` ends on, in reading order (top row first), each once.
/// With `min_len == max_len == k` these are the cells reachable in exactly `k` steps; with
/// `min_len == 1` those reachable in at most `max_len`.
pub fn reachable(grid: &Grid, from: Cell, rule: &WalkRule) -> Vec<Cell> {
    let found: Result<_, Infallible> = try_reachable(grid, from, rule, || Ok(()));
    let Ok(found) = found;
    found
}

/// [`reachable`], calling `step` at every step explored, whose error stops the search and is
/// returned.
pub fn try_reachable<E>(
    grid: &Grid,
    from: Cell,
    rule: &WalkRule,
    mut step: impl FnMut() -> Result<(), E>,
) -> Result<Vec<Cell>, E> {
    let mut hit = vec![false; grid.values().len()];
    try_for_each_walk(grid, from, rule, |s| {
        if let WalkStep::Walk(p) = s {
            let c = p[p.len() - 1];
            hit[(c.y * grid.width() + c.x) as usize] = true;
        }
        step()
    })?;
    Ok(grid
        .cells()
        .zip(hit)
        .filter_map(|(c, h)| h.then_some(c))
        .collect())
}

/// How many cells the pieces holding `value` reach under `rule` ([`reachable`] from each piece),
/// summed over the pieces: a piece game's mobility. `step` is called as in [`try_reachable`].
pub fn try_mobility<E>(
    grid: &Grid,
    value: i64,
    rule: &WalkRule,
    mut step: impl FnMut() -> Result<(), E>,
) -> Result<usize, E> {
    let mut total = 0;
    for piece in grid.cells_with(value) {
        total += try_reachable(grid, piece, rule, &mut step)?.len();
    }
    Ok(total)
}

/// Checks that `path` (start cell first) is a walk `rule` allows: its length, every cell on the
/// board, each step orthogonal, no cell twice, the cells between start and end in `through`, the
/// last in `end`. The error says, in words, the first thing wrong.
pub fn check_walk(grid: &Grid, path: &[Cell], rule: &WalkRule) -> Result<(), String> {
    let steps = path.len().saturating_sub(1);
    if steps < rule.min_len || steps > rule.max_len {
        return Err(format!(
            "a walk here is {} to {} steps, not {steps}",
            rule.min_len, rule.max_len
        ));
    }
    for (i, &c) in path.iter().enumerate() {
        let Some(value) = grid.get(c) else {
            return Err(format!("{c} is off the board"));
        };
        if i == 0 {
            continue;
        }
        let a = path[i - 1];
        if (a.x - c.x).abs() + (a.y - c.y).abs() != 1 {
            return Err(format!(
                "{a} to {c} is not one step up, down, left or right"
            ));
        }
        if path[..i].contains(&c) {
            return Err(format!("the path visits {c} twice"));
        }
        if i < steps && !rule.through.contains(&value) {
            return Err(format!(
                "the path cannot pass through {c}, which holds {value}"
            ));
        }
        if i == steps && !rule.end.contains(&value) {
            return Err(format!("the walk cannot end on {c}, which holds {value}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as board;

    #[test]
    fn single_steps_are_the_empty_neighbours() {
        let g = board(&["000", "010", "020"]);
        let rule = WalkRule::new(1, 1, &[0], &[0]);
        let ends: Vec<Cell> = walks(&g, Cell::new(1, 1), &rule)
            .into_iter()
            .map(|p| {
                assert_eq!(p.len(), 2);
                p[1]
            })
            .collect();
        assert_eq!(
            ends,
            vec![Cell::new(1, 0), Cell::new(2, 1), Cell::new(0, 1)]
        );
    }

    #[test]
    fn walks_never_revisit_and_respect_lengths() {
        let g = Grid::new(3, 3, 0);
        let rule = WalkRule::new(2, 4, &[0], &[0]);
        let all = walks(&g, Cell::new(0, 0), &rule);
        assert!(!all.is_empty());
        for p in &all {
            assert!((3..=5).contains(&p.len()));
            let mut sorted = p.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), p.len(), "{p:?} revisits a cell");
        }
        // From a corner of an empty 3×3 board: 2 walks of 1 step, 4 of 2, 8 of 3 (no revisit).
        assert_eq!(
            walks(&g, Cell::new(0, 0), &WalkRule::new(1, 1, &[0], &[0])).len(),
            2
        );
        assert_eq!(
            walks(&g, Cell::new(0, 0), &WalkRule::new(2, 2, &[0], &[0])).len(),
            4
        );
    }

    #[test]
    fn a_capture_only_at_the_last_step() {
        // 1 at the top left; 2 next to it. Walks that end on 2 must have exactly 3 steps.
        let g = board(&["12", "00"]);
        let one = walks(&g, Cell::new(0, 0), &WalkRule::new(1, 1, &[0], &[2]));
        assert_eq!(one, vec![vec![Cell::new(0, 0), Cell::new(1, 0)]]);
        let three = walks(&g, Cell::new(0, 0), &WalkRule::new(3, 3, &[0], &[2]));
        assert_eq!(
            three,
            vec![vec![
                Cell::new(0, 0),
                Cell::new(0, 1),
                Cell::new(1, 1),
                Cell::new(1, 0)
            ]]
        );
        // The piece at (1,0) blocks passing through it.
        let past = reachable(&g, Cell::new(0, 0), &WalkRule::new(1, 3, &[0], &[0]));
        assert_eq!(past, vec![Cell::new(0, 1), Cell::new(1, 1)]);
    }

    #[test]
    fn check_walk_accepts_the_walks_listed_and_says_what_is_wrong() {
        let g = board(&["120", "000", "000"]);
        let rule = WalkRule::new(1, 3, &[0], &[0, 2]);
        for p in walks(&g, Cell::new(0, 0), &rule) {
            assert_eq!(check_walk(&g, &p, &rule), Ok(()));
        }
        let c = Cell::new;
        let err = |p: &[Cell]| check_walk(&g, p, &rule).unwrap_err();
        assert!(err(&[c(0, 0)]).contains("1 to 3 steps, not 0"));
        assert!(err(&[c(0, 0), c(1, 1)]).contains("not one step"));
        assert!(err(&[c(0, 0), c(0, 1), c(0, 0)]).contains("visits (0,0) twice"));
        assert!(err(&[c(0, 0), c(1, 0), c(2, 0)]).contains("pass through (1,0)"));
        assert!(err(&[c(0, 0), c(0, -1)]).contains("off the board"));
        let no_capture = WalkRule::new(1, 3, &[0], &[0]);
        assert!(check_walk(&g, &[c(0, 0), c(1, 0)], &no_capture)
            .unwrap_err()
            .contains("cannot end on (1,0), which holds 2"));
    }

    #[test]
    fn mobility_sums_what_each_piece_reaches() {
        let g = board(&["102", "000", "201"]);
        let rule = WalkRule::new(1, 2, &[0], &[0]);
        let each: usize = g.cells_with(1).map(|c| reachable(&g, c, &rule).len()).sum();
        let total: Result<usize, Infallible> = try_mobility(&g, 1, &rule, || Ok(()));
        assert_eq!(total, Ok(each));
        assert_eq!(each, 6); // each corner piece reaches its two neighbours and the centre
        let none: Result<usize, Infallible> = try_mobility(&g, 7, &rule, || Ok(()));
        assert_eq!(none, Ok(0));
    }

    #[test]
    fn parity_of_exact_lengths() {
        let g = Grid::new(5, 5, 0);
        for c in reachable(&g, Cell::new(2, 2), &WalkRule::new(3, 3, &[0], &[0])) {
            assert_eq!((c.x + c.y) % 2, 1);
        }
    }

    #[test]
    fn an_error_at_a_step_stops_the_walks_and_is_returned() {
        let g = Grid::new(9, 9, 0);
        let rule = WalkRule::new(1, 30, &[0], &[5]); // no walk ends anywhere: all exploration
        let mut steps = 0;
        let stopped = try_for_each_walk(&g, Cell::new(4, 4), &rule, |step| {
            assert_eq!(step, WalkStep::Explore);
            steps += 1;
            if steps == 1000 {
                Err("enough")
            } else {
                Ok(())
            }
        });
        assert_eq!((stopped, steps), (Err("enough"), 1000));
        let mut seen = 0;
        let found = try_reachable(
            &g,
            Cell::new(0, 0),
            &WalkRule::new(1, 2, &[0], &[0]),
            || {
                seen += 1;
                Ok::<_, ()>(())
            },
        );
        assert_eq!(found.unwrap().len(), 5);
        assert_eq!(seen, 2 + 4, "two first steps, then two from each");
    }

    #[test]
    fn nothing_from_off_the_board() {
        let g = Grid::new(2, 2, 0);
        assert!(walks(&g, Cell::new(5, 0), &WalkRule::new(1, 3, &[0], &[0])).is_empty());
        assert!(walks(&g, Cell::new(0, 0), &WalkRule::new(1, 0, &[0], &[0])).is_empty());
    }
}
