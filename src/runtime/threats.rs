//! Threats along lines: for a stone of one value on a cell, what one or two more stones of that
//! value along each line through it would make — the facts that forbidden-move and threat rules
//! of n-in-a-row games are written with (a run made, the cells that complete a line, the cells
//! that make a line both of whose ends complete it).

use super::{
    grid::{Cell, Grid},
    lines,
};

/// The longest line a threat scan looks for.
pub const MAX_LENGTH: usize = 20;

/// What a threat scan looks for: runs of `length` stones of `value` (exactly `length`, or at
/// least), where one more stone may go only on a cell holding `empty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineGoal {
    /// The stones' value.
    pub value: i64,
    /// The run length that completes a line (2 to [`MAX_LENGTH`]).
    pub length: usize,
    /// The value of a cell a stone may be put on.
    pub empty: i64,
    /// Whether a completed line is exactly `length` long (longer runs do not complete it).
    pub exact: bool,
}

/// The threats along one line direction through a cell holding (or imagined holding) a stone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineThreats {
    /// The direction `(dx, dy)` (one of [`Grid::line_directions`]).
    pub direction: (i64, i64),
    /// The length of the run of the stone's value through the cell, the cell included.
    pub run: usize,
    /// The empty cells within `length − 1` of the cell where one more stone makes the run through
    /// the cell complete a line, in line order.
    pub wins: Vec<Cell>,
    /// How many distinct threats `wins` are: one per cell, except that the two ends of one
    /// straight (a run of `length − 1` that either end completes) count once.
    pub threats: usize,
    /// The empty cells within `length − 2` of the cell where one more stone makes a straight
    /// through it: exactly two `wins`, `length` cells apart. In line order.
    pub straights: Vec<Cell>,
}

/// What a cell along a scanned line holds, as the scan sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A stone of the scanned value.
    Own,
    /// A cell a stone may be put on.
    Empty,
    /// Another value, or off the board.
    Blocked,
}

/// What a stone makes along one line, as [`line_threats`] counts it, without the cells (no
/// allocation): for a screen that only needs to know how many threats a stone makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineShape {
    /// The run through the cell, the cell included, within `length + 1` cells each way: a
    /// longer run may read shorter, but still longer than `length`.
    pub run: usize,
    /// As [`LineThreats::threats`].
    pub threats: usize,
    /// Whether [`LineThreats::straights`] has a cell, on a line with no threat (on the others,
    /// `false`: not looked for).
    pub straight: bool,
}

/// The threats along each of `grid`'s line directions for a stone of `goal.value` on `centre`
/// (whatever `centre` holds now), or `None` if `centre` is off the board or `goal.length` is
/// not 2 to [`MAX_LENGTH`].
pub fn line_threats(grid: &Grid, centre: Cell, goal: LineGoal) -> Option<Vec<LineThreats>> {
    if !grid.contains(centre) || !(2..=MAX_LENGTH).contains(&goal.length) {
        return None;
    }
    let threats = grid
        .line_directions()
        .iter()
        .map(|&direction| {
            let slot = |i: i64| match grid.get(centre.offset(direction, i)) {
                Some(v) if v == goal.value => Slot::Own,
                Some(v) if v == goal.empty => Slot::Empty,
                _ => Slot::Blocked,
            };
            let mut scan = Scan::read(slot, goal.length, goal.exact);
            let (wins, threats, straights) = scan.threats();
            let cells = |mask: u64| -> Vec<Cell> {
                ones(mask)
                    .map(|k| centre.offset(direction, k as i64 - scan.reach as i64))
                    .collect()
            };
            LineThreats {
                direction,
                run: true_run(grid, centre, direction, goal.value),
                wins: cells(wins),
                threats,
                straights: cells(straights),
            }
        })
        .collect();
    Some(threats)
}

/// [`LineShape`] of a stone on a line whose cells `slot(i)` gives, `i` steps from the stone's
/// cell (from `-(length + 1)` to `length + 1`; the stone's own cell is not read), for a line
/// of `length` stones (2 to [`MAX_LENGTH`]; exactly `length` if `exact`).
pub fn line_shape(slot: impl Fn(i64) -> Slot, length: usize, exact: bool) -> LineShape {
    let length = length.clamp(2, MAX_LENGTH);
    Scan::read(slot, length, exact).shape()
}

/// [`line_shape`] of a line its caller has read as bit masks: bit `k` of `own` (of `empty`) is
/// set when the cell `k - (length + 1)` steps from the stone's cell holds a stone of the
/// scanned value (a cell a stone may be put on), for `k` from 0 to `2 * (length + 1)`; the
/// stone's own bit and any bit beyond are ignored. `length` is 2 to [`MAX_LENGTH`].
pub fn line_shape_of(own: u64, empty: u64, length: usize, exact: bool) -> LineShape {
    debug_assert!((2..=MAX_LENGTH).contains(&length));
    let reach = length + 1;
    let line = (1u64 << (2 * reach + 1)) - 1;
    let centre = 1 << reach;
    Scan {
        own: (own | centre) & line,
        empty: empty & line & !centre,
        reach,
        length,
        exact,
    }
    .shape()
}

/// The indices of the bits set in `mask`, lowest first.
fn ones(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            k
        })
    })
}

/// The run of `value` through `centre` (counted as holding it) in `direction`, however far it
/// reaches.
fn true_run(grid: &Grid, centre: Cell, d: (i64, i64), value: i64) -> usize {
    let back = lines::count_from(grid, centre, (-d.0, -d.1), value);
    (1 + back + lines::count_from(grid, centre, d, value)) as usize
}

/// The cells of one line around the centre, `reach` each way: enough to tell a run of exactly
/// `length` after two more stones from a longer one. Sets of cells are bit masks of their
/// indices (at most `2 * (MAX_LENGTH + 1) + 1` < 64 of them), the line itself too: a scan is a
/// few shifts and counts of bits, with no loop over the cells once they are read.
struct Scan {
    /// The indices holding the scanned value (the centre among them).
    own: u64,
    /// The indices holding a cell a stone may be put on.
    empty: u64,
    reach: usize,
    length: usize,
    exact: bool,
}

impl Scan {
    fn read(slot: impl Fn(i64) -> Slot, length: usize, exact: bool) -> Scan {
        let reach = length + 1;
        let (mut own, mut empty) = (1 << reach, 0);
        for k in (0..=2 * reach).filter(|&k| k != reach) {
            match slot(k as i64 - reach as i64) {
                Slot::Own => own |= 1 << k,
                Slot::Empty => empty |= 1 << k,
                Slot::Blocked => {}
            }
        }
        Scan {
            own,
            empty,
            reach,
            length,
            exact,
        }
    }

    /// [`LineShape`] of the stone on the centre.
    fn shape(mut self) -> LineShape {
        let (_, threats) = self.wins_and_threats();
        LineShape {
            run: self.run(),
            threats,
            straight: threats == 0 && self.straights() != 0,
        }
    }

    /// How many cells from index `from` on, stepping by `step` (1 or -1), hold the scanned
    /// value.
    fn own_from(&self, from: isize, step: isize) -> usize {
        if from < 0 || from > 2 * self.reach as isize {
            0
        } else if step > 0 {
            (self.own >> from).trailing_ones() as usize
        } else {
            // Index `from` becomes the top bit: the run down from it is the leading ones.
            (self.own << (63 - from)).leading_ones() as usize
        }
    }

    /// The run through the centre within the scanned cells, and the indices just before and
    /// just after it (which may lie outside the scanned cells).
    fn run_bounds(&self) -> (usize, isize, isize) {
        let centre = self.reach as isize;
        let (back, ahead) = (self.own_from(centre - 1, -1), self.own_from(centre + 1, 1));
        (
            1 + back + ahead,
            centre - 1 - back as isize,
            centre + 1 + ahead as isize,
        )
    }

    /// The run through the centre within the scanned cells.
    fn run(&self) -> usize {
        self.run_bounds().0
    }

    fn completes(&self, run: usize) -> bool {
        if self.exact {
            run == self.length
        } else {
            run >= self.length
        }
    }

    /// The scanned indices within `distance` of the centre holding an empty cell, as a mask.
    fn empties_within(&self, distance: usize) -> u64 {
        let span = (1u64 << (2 * distance + 1)) - 1;
        self.empty & (span << (self.reach - distance))
    }

    /// The empty cells where one more stone completes the run through the centre, as a mask.
    /// A stone lengthens the run only on the empty cell just before or just after it (joining
    /// the stones beyond); elsewhere the run stays as it is.
    fn wins(&self) -> u64 {
        self.wins_around(self.run_bounds())
    }

    /// [`Self::wins`], the run being `bounds` ([`Self::run_bounds`]).
    fn wins_around(&self, bounds: (usize, isize, isize)) -> u64 {
        let near = self.empties_within(self.length - 1);
        let mut wins = if self.completes(bounds.0) { near } else { 0 };
        for end in [bounds.1, bounds.2] {
            if end >= 0 && (near >> end) & 1 == 1 {
                let completes = self.completes(self.run_with(end as usize, bounds));
                wins = (wins & !(1 << end)) | (u64::from(completes) << end);
            }
        }
        wins
    }

    /// The run through the centre once a stone is put on the empty index `k`, the run being
    /// `(run, before, after)` ([`Self::run_bounds`]).
    fn run_with(&self, k: usize, (run, before, after): (usize, isize, isize)) -> usize {
        match k as isize {
            k if k == before => run + 1 + self.own_from(k - 1, -1),
            k if k == after => run + 1 + self.own_from(k + 1, 1),
            _ => run,
        }
    }

    /// Whether `wins` are exactly two cells `length` apart.
    fn is_straight(&self, wins: u64) -> bool {
        wins.count_ones() == 2
            && (63 - wins.leading_zeros()) - wins.trailing_zeros() == self.length as u32
    }

    /// The winning cells (a mask), how many threats they are, and the cells that make a
    /// straight (a mask).
    fn threats(&mut self) -> (u64, usize, u64) {
        let (wins, threats) = self.wins_and_threats();
        (wins, threats, self.straights())
    }

    /// The winning cells (a mask) and how many threats they are.
    fn wins_and_threats(&self) -> (u64, usize) {
        let wins = self.wins();
        let threats = if self.is_straight(wins) {
            1
        } else {
            wins.count_ones() as usize
        };
        (wins, threats)
    }

    /// The cells that make a straight (a mask).
    fn straights(&mut self) -> u64 {
        let bounds = self.run_bounds();
        let mut near = self.empties_within(self.length - 2);
        if bounds.0 + 1 < self.length {
            // Only a stone just before or just after the run can lengthen it.
            let before = if bounds.1 >= 0 { 1 << bounds.1 } else { 0 };
            near &= before | (1 << bounds.2);
        }
        let mut straights = 0;
        for k in ones(near) {
            // A straight's two winning cells are a line apart: just beyond a run one short of
            // the line, or (where the run completes already) the only empty cells. A stone that
            // leaves a shorter run makes none.
            let run = self.run_with(k, bounds);
            if run + 1 < self.length {
                continue;
            }
            // The run once the stone is put: it reaches as far as the stones it joins.
            let (_, before, after) = bounds;
            let moved = match k as isize {
                k if k == before => (run, before - 1 - (run - bounds.0 - 1) as isize, after),
                k if k == after => (run, before, after + 1 + (run - bounds.0 - 1) as isize),
                _ => bounds,
            };
            let (own, empty) = (self.own, self.empty);
            self.own |= 1 << k;
            self.empty &= !(1 << k);
            if self.is_straight(self.wins_around(moved)) {
                straights |= 1 << k;
            }
            (self.own, self.empty) = (own, empty);
        }
        straights
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::grid::from_digits as grid_from;
    use proptest::prelude::*;

    const FIVE: LineGoal = LineGoal {
        value: 1,
        length: 5,
        empty: 0,
        exact: true,
    };

    fn across(g: &Grid, c: Cell, goal: LineGoal) -> LineThreats {
        line_threats(g, c, goal).unwrap().remove(0)
    }

    #[test]
    fn a_broken_four_has_one_win_in_its_gap() {
        // X X . X [X] . : only the gap at 2 makes five; 5 makes a run of three.
        let g = grid_from(&["1101000000"]);
        let t = across(&g, Cell::new(4, 0), FIVE);
        assert_eq!((t.run, t.threats), (2, 1));
        assert_eq!(t.wins, vec![Cell::new(2, 0)]);
    }

    #[test]
    fn an_open_four_is_one_threat_and_a_split_one_two() {
        // . X X X [X] . : both ends complete — one straight, one threat.
        let g = grid_from(&["0011100000"]);
        let t = across(&g, Cell::new(5, 0), FIVE);
        assert_eq!((t.run, t.threats), (4, 1));
        assert_eq!(t.wins, vec![Cell::new(1, 0), Cell::new(6, 0)]);
        // X . X [X] X . X : 1 and 5 each make exactly five — two threats on one line.
        let g = grid_from(&["0101010100"]);
        let t = across(&g, Cell::new(4, 0), FIVE);
        assert_eq!((t.wins.len(), t.threats), (2, 2));
    }

    #[test]
    fn exactness_refuses_overlines_and_at_least_takes_them() {
        // X X X [X] . X: filling 5 makes six.
        let g = grid_from(&["1110010"]);
        let t = across(&g, Cell::new(3, 0), FIVE);
        assert!(t.wins.is_empty());
        let t = across(
            &g,
            Cell::new(3, 0),
            LineGoal {
                exact: false,
                ..FIVE
            },
        );
        assert_eq!(t.wins, vec![Cell::new(4, 0)]);
    }

    #[test]
    fn straights_are_the_cells_making_an_open_line_of_four() {
        // . . X X [X] . . . : 1 or 5 makes . X X X X . inside the board (0 and 5, 1 and 6).
        let g = grid_from(&["00110000"]);
        let t = across(&g, Cell::new(4, 0), FIVE);
        assert_eq!(t.straights, vec![Cell::new(1, 0), Cell::new(5, 0)]);
        // A wall (2) at 0 leaves only 5: . X X X X . needs both ends.
        let g = grid_from(&["20110000"]);
        let t = across(&g, Cell::new(4, 0), FIVE);
        assert_eq!(t.straights, vec![Cell::new(5, 0)]);
    }

    #[test]
    fn every_line_direction_is_scanned_and_bad_calls_refused() {
        let g = grid_from(&["000", "000", "000"]);
        assert_eq!(line_threats(&g, Cell::new(1, 1), FIVE).unwrap().len(), 4);
        assert!(line_threats(&g, Cell::new(3, 1), FIVE).is_none());
        assert!(line_threats(&g, Cell::new(1, 1), LineGoal { length: 1, ..FIVE }).is_none());
        let hex = Grid::hex(5, 5, 0);
        assert_eq!(line_threats(&hex, Cell::new(2, 2), FIVE).unwrap().len(), 3);
    }

    /// The reference: stones put on a copy of the grid, runs measured by the grid's own scans.
    fn reference(g: &Grid, c: Cell, goal: LineGoal) -> Vec<LineThreats> {
        let mut g = g.clone();
        g.set(c, goal.value);
        let completes = |run: usize| {
            if goal.exact {
                run == goal.length
            } else {
                run >= goal.length
            }
        };
        let run_at = |g: &Grid, d| lines::run_through(g, c, d).unwrap().len();
        let wins_of = |g: &Grid, d: (i64, i64)| -> Vec<Cell> {
            let near = goal.length as i64 - 1;
            (-near..=near)
                .map(|i| c.offset(d, i))
                .filter(|&e| g.get(e) == Some(goal.empty) && e != c)
                .filter(|&e| {
                    let mut h = g.clone();
                    h.set(e, goal.value);
                    completes(run_at(&h, d))
                })
                .collect()
        };
        let straight = |wins: &[Cell], d: (i64, i64)| {
            wins.len() == 2 && wins[0].offset(d, goal.length as i64) == wins[1]
        };
        g.line_directions()
            .iter()
            .map(|&d| {
                let wins = wins_of(&g, d);
                let near = goal.length as i64 - 2;
                let straights = (-near..=near)
                    .map(|i| c.offset(d, i))
                    .filter(|&e| g.get(e) == Some(goal.empty) && e != c)
                    .filter(|&e| {
                        let mut h = g.clone();
                        h.set(e, goal.value);
                        straight(&wins_of(&h, d), d)
                    })
                    .collect();
                LineThreats {
                    direction: d,
                    run: run_at(&g, d),
                    threats: if straight(&wins, d) { 1 } else { wins.len() },
                    wins,
                    straights,
                }
            })
            .collect()
    }

    proptest! {
        #[test]
        fn threats_agree_with_stones_put_on_the_grid(
            cells in proptest::collection::vec(0i64..3, 81),
            x in 0i64..9, y in 0i64..9, length in 2usize..7, exact: bool, hex: bool,
        ) {
            let mut g = if hex { Grid::hex(9, 9, 0) } else { Grid::new(9, 9, 0) };
            for (i, v) in cells.into_iter().enumerate() {
                g.set(Cell::new(i as i64 % 9, i as i64 / 9), v);
            }
            let goal = LineGoal { value: 1, length, empty: 0, exact };
            let c = Cell::new(x, y);
            prop_assert_eq!(line_threats(&g, c, goal).unwrap(), reference(&g, c, goal));
        }

        #[test]
        fn a_line_shape_counts_as_line_threats(
            cells in proptest::collection::vec(0i64..3, 81),
            x in 0i64..9, y in 0i64..9, length in 2usize..7, exact: bool,
        ) {
            let mut g = Grid::new(9, 9, 0);
            for (i, v) in cells.into_iter().enumerate() {
                g.set(Cell::new(i as i64 % 9, i as i64 / 9), v);
            }
            let goal = LineGoal { value: 1, length, empty: 0, exact };
            let c = Cell::new(x, y);
            for t in line_threats(&g, c, goal).unwrap() {
                let slot = |i: i64| match g.get(c.offset(t.direction, i)) {
                    Some(1) => Slot::Own,
                    Some(0) => Slot::Empty,
                    _ => Slot::Blocked,
                };
                let shape = line_shape(slot, length, exact);
                // The same line read as masks by the caller, with noise on the ignored bits.
                let reach = length as i64 + 1;
                let (mut own, mut empty) = (!0u64 << (2 * reach + 1), 1 << reach);
                for i in (-reach..=reach).filter(|&i| i != 0) {
                    match slot(i) {
                        Slot::Own => own |= 1 << (i + reach),
                        Slot::Empty => empty |= 1 << (i + reach),
                        Slot::Blocked => {}
                    }
                }
                prop_assert_eq!(line_shape_of(own, empty, length, exact), shape);
                prop_assert_eq!(shape.threats, t.threats);
                prop_assert_eq!(shape.straight, t.threats == 0 && !t.straights.is_empty());
                prop_assert_eq!(shape.run > length, t.run > length);
            }
        }
    }
}
