//! The windows of a placement board — every `length` cells in a row along a line — with how
//! many stones of each player each holds, kept up to date as the search puts stones down and
//! takes them back. The search's evaluation, move ordering and threat scan read these counts
//! instead of the cells (a stone touches at most `4 × length` windows).

use super::threat_search::Scan;
use crate::native_games::placement::{Placement, CLOSED};
use crate::runtime::lines::LINE_DIRECTIONS;

/// Every window of a board, with its stone counts.
pub(super) struct WindowCounts {
    length: usize,
    /// Window `i`'s cells are `cells[i * length..(i + 1) * length]`.
    cells: Vec<u32>,
    /// Window `i`'s stones of the first and the second player, and its closed cells.
    counts: Vec<[u8; 3]>,
    /// The windows through cell `c` are `through[starts[c]..starts[c + 1]]`.
    through: Vec<u32>,
    starts: Vec<u32>,
}

impl WindowCounts {
    /// The windows of `position`'s board, counted.
    pub fn new(position: &Placement) -> WindowCounts {
        let k = position.goal.length as isize;
        let (w, h) = (position.width as isize, position.height as isize);
        let mut cells = Vec::new();
        let mut counts = Vec::new();
        let mut of_cell: Vec<Vec<u32>> = vec![Vec::new(); position.cells.len()];
        for &(dx, dy) in &LINE_DIRECTIONS {
            let (dx, dy) = (dx as isize, dy as isize);
            for start in 0..w * h {
                let (x, y) = (start % w, start / w);
                let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                if ex < 0 || ey < 0 || ex >= w || ey >= h {
                    continue;
                }
                let window = counts.len() as u32;
                let mut count = [0u8; 3];
                for i in 0..k {
                    let c = ((y + dy * i) * w + x + dx * i) as usize;
                    cells.push(c as u32);
                    of_cell[c].push(window);
                    match position.cells[c] {
                        0 => {}
                        CLOSED => count[2] += 1,
                        v => count[usize::from(v.min(2)) - 1] += 1,
                    }
                }
                counts.push(count);
            }
        }
        let mut starts = Vec::with_capacity(of_cell.len() + 1);
        let mut through = Vec::new();
        for list in of_cell {
            starts.push(through.len() as u32);
            through.extend(list);
        }
        starts.push(through.len() as u32);
        WindowCounts {
            length: k as usize,
            cells,
            counts,
            through,
            starts,
        }
    }

    fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// A stone of `stone` (1 or 2) has been put on `cell`.
    pub fn put(&mut self, cell: usize, stone: u8) {
        let p = usize::from(stone - 1);
        for i in self.starts[cell] as usize..self.starts[cell + 1] as usize {
            self.counts[self.through[i] as usize][p] += 1;
        }
    }

    /// The stone of `stone` on `cell` has been taken back.
    pub fn take(&mut self, cell: usize, stone: u8) {
        let p = usize::from(stone - 1);
        for i in self.starts[cell] as usize..self.starts[cell + 1] as usize {
            self.counts[self.through[i] as usize][p] -= 1;
        }
    }

    /// What a stone of `stone` on the empty cell `cell` does, as [`Placement::gain_parts`]:
    /// `(attack, defence)`.
    pub fn gain(&self, cell: usize, stone: u8, weights: &[i64]) -> (i64, i64) {
        let (me, them) = (usize::from(stone - 1), usize::from(2 - stone));
        let top = weights.len() - 1;
        let (mut attack, mut defence) = (0, 0);
        for &window in self.through(cell) {
            let count = self.counts[window as usize];
            if count[2] > 0 {
                continue;
            }
            let (own, other) = (usize::from(count[me]), usize::from(count[them]));
            if other == 0 {
                attack += weights[(own + 1).min(top)] - weights[own.min(top)];
            } else if own == 0 {
                defence += weights[(other + 1).min(top)] - weights[other.min(top)];
            }
        }
        (attack, defence)
    }

    /// How much a stone of `stone` on the empty cell `cell` changes the window score of its
    /// player minus the other's (see [`Placement::evaluate`]).
    pub fn delta(&self, cell: usize, stone: u8, weights: &[i64]) -> i64 {
        let (me, them) = (usize::from(stone - 1), usize::from(2 - stone));
        let top = weights.len() - 1;
        let mut delta = 0;
        for &window in self.through(cell) {
            let count = self.counts[window as usize];
            if count[2] > 0 {
                continue;
            }
            let (own, other) = (usize::from(count[me]), usize::from(count[them]));
            if other == 0 {
                let before = if own > 0 { weights[own.min(top)] } else { 0 };
                delta += weights[(own + 1).min(top)] - before;
            } else if own == 0 {
                delta += weights[other.min(top)];
            }
        }
        delta
    }

    /// The empty cells where a stone of `stone` makes a three: those of the windows holding
    /// `length - 3` of its stones and nothing else, the cells in the most such windows first.
    pub fn three_moves(&self, board: &[u8], stone: u8) -> Vec<usize> {
        let k = self.length;
        let p = usize::from(stone - 1);
        let mut windows_of = vec![0u16; board.len()];
        for (i, count) in self.counts.iter().enumerate() {
            if count[2] > 0 || count[1 - p] > 0 || usize::from(count[p]) + 3 != k {
                continue;
            }
            for &c in &self.cells[i * k..(i + 1) * k] {
                if board[c as usize] == 0 {
                    windows_of[c as usize] += 1;
                }
            }
        }
        let mut moves: Vec<usize> = (0..board.len()).filter(|&c| windows_of[c] > 0).collect();
        moves.sort_by_key(|&c| std::cmp::Reverse(windows_of[c]));
        moves
    }

    /// As a scan's `fours` for `stone`, on the windows through `cell` only: `(move, threat)`,
    /// a stone on `move` leaving a window of `length - 1` stones whose empty cell is `threat`.
    pub fn fours_through(&self, board: &[u8], cell: usize, stone: u8) -> Vec<(usize, usize)> {
        let k = self.length;
        let p = usize::from(stone - 1);
        let mut fours = Vec::new();
        for &window in self.through(cell) {
            let (i, count) = (window as usize, self.counts[window as usize]);
            if count[2] > 0 || count[1 - p] > 0 || usize::from(count[p]) + 2 != k {
                continue;
            }
            let mut empty = self.cells[i * k..(i + 1) * k]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| board[c] == 0);
            if let (Some(a), Some(b)) = (empty.next(), empty.next()) {
                fours.extend([(a, b), (b, a)]);
            }
        }
        fours
    }

    /// For both players, where they could win at once and which moves make a four (cells are
    /// the board's, to find a window's empty cells).
    pub fn scan(&self, board: &[u8]) -> Scan {
        let k = self.length;
        let mut scan = Scan::default();
        for (i, count) in self.counts.iter().enumerate() {
            if count[2] > 0 || usize::from(count[0].max(count[1])) + 2 < k {
                continue;
            }
            for p in 0..2 {
                let (own, other) = (usize::from(count[p]), count[1 - p]);
                if other > 0 || own + 2 < k || own == k {
                    continue;
                }
                let window = &self.cells[i * k..(i + 1) * k];
                let mut empty = window
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| board[c] == 0);
                if own + 1 == k {
                    scan.wins[p].extend(empty.next());
                } else if let (Some(a), Some(b)) = (empty.next(), empty.next()) {
                    scan.fours[p].extend([(a, b), (b, a)]);
                }
            }
        }
        for wins in &mut scan.wins {
            wins.sort_unstable();
            wins.dedup();
        }
        scan
    }
}
