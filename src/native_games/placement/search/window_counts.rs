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
    /// Window `i`'s counts (stones of the first and the second player, closed cells) as one
    /// index into the tables below (see [`Tables::code`]).
    codes: Vec<u32>,
    /// What a stone adds in a window, by window code.
    tables: Tables,
    /// Bit `i % 64` of word `i / 64` is set when window `i` may hold a win or a four (as
    /// [`Tables::hot`]): the only windows [`Self::scan`] reads.
    hot: Vec<u64>,
    /// The windows through cell `c` are `through[starts[c]..starts[c + 1]]`.
    through: Vec<u32>,
    starts: Vec<u32>,
    /// The direction (an index into [`LINE_DIRECTIONS`]) of each window of `through`.
    directions: Vec<u8>,
    /// By cell, zero between the calls of [`Self::three_moves`] (its count of windows).
    threes_of: Vec<u16>,
}

/// For every state a window can be in (its stone counts, and whether it holds a closed cell),
/// numbered by [`Tables::code`], what a stone of each player on one of its empty cells adds
/// to [`WindowCounts::gain`] and to the score [`WindowCounts::put`] changes, and whether [`WindowCounts::scan`]
/// must read it. Computed once for a search's weights, so that the search's hot paths read one
/// entry per window instead of working it out.
struct Tables {
    /// `length + 1`: the code's step for one more stone of the second player.
    side: u32,
    /// By code: the stones of the first and the second player, and 1 if the window holds a
    /// closed cell (else 0).
    counts: Vec<[u8; 3]>,
    /// By player (0 or 1) and code: `(attack, defence)`.
    gain: [Vec<(i64, i64)>; 2],
    /// By player and code: one more than the player's stones in a window holding no closed
    /// cell and none of the other's, else 0 (what [`WindowCounts::gathered`] takes the most of).
    gathered: [Vec<u8>; 2],
    /// By code: the window holds no closed cell and one player has at least `length - 2`
    /// stones in it but fewer than `length`, the other none (the windows a scan reports).
    hot: Vec<bool>,
    /// By player and code before their stone is put: the change of that player's score minus
    /// the other's, and whether the window is hot after (one entry read by [`WindowCounts::put`]
    /// per window).
    put: [Vec<(i64, bool)>; 2],
    /// By player and code after their stone is taken: the change [`WindowCounts::put`] made,
    /// and whether the window is hot.
    take: [Vec<(i64, bool)>; 2],
}

impl Tables {
    fn new(length: usize, weights: &[i64]) -> Tables {
        let side = length + 1;
        let top = weights.len() - 1;
        let weight = |n: usize| weights[n.min(top)];
        let states = 2 * side * side;
        let mut tables = Tables {
            side: side as u32,
            counts: Vec::with_capacity(states),
            gain: [Vec::with_capacity(states), Vec::with_capacity(states)],
            gathered: [Vec::with_capacity(states), Vec::with_capacity(states)],
            hot: Vec::with_capacity(states),
            put: [Vec::with_capacity(states), Vec::with_capacity(states)],
            take: [Vec::with_capacity(states), Vec::with_capacity(states)],
        };
        let mut deltas = [Vec::with_capacity(states), Vec::with_capacity(states)];
        for code in 0..states {
            let closed = code >= side * side;
            let counts = [code % side, code / side % side];
            let stones = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
            tables
                .counts
                .push([stones(counts[0]), stones(counts[1]), u8::from(closed)]);
            let threatens =
                |own: usize, other: usize| other == 0 && own + 2 >= length && own < length;
            tables.hot.push(
                !closed && (threatens(counts[0], counts[1]) || threatens(counts[1], counts[0])),
            );
            for me in 0..2 {
                let (own, other) = (counts[me], counts[1 - me]);
                let (mut gain, mut delta) = ((0, 0), 0);
                if closed {
                } else if other == 0 {
                    let added = weight(own + 1).wrapping_sub(weight(own));
                    gain = (added, 0);
                    let before = if own > 0 { weight(own) } else { 0 };
                    delta = weight(own + 1).wrapping_sub(before);
                } else if own == 0 {
                    gain = (0, weight(other + 1).wrapping_sub(weight(other)));
                    delta = weight(other);
                }
                tables.gain[me].push(gain);
                let clean = !closed && other == 0;
                tables.gathered[me].push(if clean { stones(own + 1) } else { 0 });
                deltas[me].push(delta);
            }
        }
        for (me, step) in [(0, 1), (1, side)] {
            for (code, &delta) in deltas[me].iter().enumerate() {
                let hot_after = tables.hot.get(code + step).copied().unwrap_or(false);
                tables.put[me].push((delta, hot_after));
                tables.take[me].push((delta, tables.hot[code]));
            }
        }
        tables
    }

    /// The code of a window holding `count` (stones of each player, closed cells).
    fn code(&self, count: [u8; 3]) -> u32 {
        let closed = if count[2] > 0 {
            self.side * self.side
        } else {
            0
        };
        u32::from(count[0]) + u32::from(count[1]) * self.side + closed
    }
}

impl WindowCounts {
    /// The windows of `position`'s board, counted, for a search scoring them with `weights`
    /// (not empty).
    pub fn new(position: &Placement, weights: &[i64]) -> WindowCounts {
        let k = position.goal.length as isize;
        let (w, h) = (position.width as isize, position.height as isize);
        let mut cells = Vec::new();
        let mut counts = Vec::new();
        let mut of_cell: Vec<Vec<u32>> = vec![Vec::new(); position.cells.len()];
        // The windows along `LINE_DIRECTIONS[d]` are those numbered below `direction_ends[d]`
        // (and not below the direction before's).
        let mut direction_ends = [0; LINE_DIRECTIONS.len()];
        for (&(dx, dy), end) in LINE_DIRECTIONS.iter().zip(&mut direction_ends) {
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
            *end = counts.len() as u32;
        }
        let mut starts = Vec::with_capacity(of_cell.len() + 1);
        let mut through = Vec::new();
        for list in of_cell {
            starts.push(through.len() as u32);
            through.extend(list);
        }
        starts.push(through.len() as u32);
        let directions = through
            .iter()
            .map(|&window| direction_ends.iter().filter(|&&end| end <= window).count() as u8)
            .collect();
        let tables = Tables::new(k as usize, weights);
        let codes: Vec<u32> = counts.iter().map(|&c| tables.code(c)).collect();
        let mut windows = WindowCounts {
            length: k as usize,
            cells,
            hot: vec![0; codes.len().div_ceil(64)],
            codes,
            tables,
            through,
            starts,
            directions,
            threes_of: vec![0; position.cells.len()],
        };
        for window in 0..windows.codes.len() {
            windows.mark(window);
        }
        windows
    }

    /// Sets or clears window `window`'s bit in [`Self::hot`] from its code.
    fn mark(&mut self, window: usize) {
        let hot = self.tables.hot[self.codes[window] as usize];
        set_bit(&mut self.hot, window, hot);
    }

    /// Window `window`'s stones of the first and the second player, and 1 if it holds a
    /// closed cell (else 0).
    fn count(&self, window: usize) -> [u8; 3] {
        self.tables.counts[self.codes[window] as usize]
    }

    fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// A stone of `stone` (1 or 2) has been put on the empty `cell`: how much it changed the
    /// window score of its player minus the other's (see [`Placement::evaluate`]), read from
    /// the windows' codes before they are counted up (one pass over the windows through
    /// `cell`).
    pub fn put(&mut self, cell: usize, stone: u8) -> i64 {
        let p = usize::from(stone - 1);
        let step = if p == 0 { 1 } else { self.tables.side };
        let table = &self.tables.put[p];
        let mut delta = 0i64;
        for &window in &self.through[self.starts[cell] as usize..self.starts[cell + 1] as usize] {
            let code = &mut self.codes[window as usize];
            let (change, hot) = table[*code as usize];
            *code += step;
            delta = delta.wrapping_add(change);
            set_bit(&mut self.hot, window as usize, hot);
        }
        delta
    }

    /// The stone of `stone` on `cell` has been taken back: the change of the score that
    /// [`Self::put`] returned for it.
    pub fn take(&mut self, cell: usize, stone: u8) -> i64 {
        let p = usize::from(stone - 1);
        let step = if p == 0 { 1 } else { self.tables.side };
        let table = &self.tables.take[p];
        let mut delta = 0i64;
        for &window in &self.through[self.starts[cell] as usize..self.starts[cell + 1] as usize] {
            let code = &mut self.codes[window as usize];
            *code -= step;
            let (change, hot) = table[*code as usize];
            delta = delta.wrapping_add(change);
            set_bit(&mut self.hot, window as usize, hot);
        }
        delta
    }

    /// The length of the windows.
    pub fn length(&self) -> usize {
        self.length
    }

    /// For each line direction, the most stones of `stone` (one more on the empty `cell`
    /// included) in a window through `cell` holding no other stone and no closed cell (0 where
    /// there is none): as [`Placement::gathered`] counts windows of this length on the board
    /// the windows were counted on, two players' stones.
    pub fn gathered(&self, cell: usize, stone: u8) -> [usize; LINE_DIRECTIONS.len()] {
        let table = &self.tables.gathered[usize::from(stone - 1)];
        let span = self.starts[cell] as usize..self.starts[cell + 1] as usize;
        let mut most = [0; LINE_DIRECTIONS.len()];
        for (&window, &direction) in self.through[span.clone()]
            .iter()
            .zip(&self.directions[span])
        {
            let held = table[self.codes[window as usize] as usize];
            let most = &mut most[usize::from(direction) % LINE_DIRECTIONS.len()];
            *most = (*most).max(held);
        }
        most.map(usize::from)
    }

    /// What a stone of `stone` on the empty cell `cell` does, as [`Placement::gain_parts`]
    /// with the weights the windows were counted for: `(attack, defence)`.
    pub fn gain(&self, cell: usize, stone: u8) -> (i64, i64) {
        let table = &self.tables.gain[usize::from(stone - 1)];
        let (mut attack, mut defence) = (0i64, 0i64);
        for &window in self.through(cell) {
            let (a, d) = table[self.codes[window as usize] as usize];
            attack = attack.wrapping_add(a);
            defence = defence.wrapping_add(d);
        }
        (attack, defence)
    }

    /// The empty cells where a stone of `stone` makes a three: those of the windows holding
    /// `length - 3` of its stones and nothing else, the cells in the most such windows first
    /// (then by cell).
    pub fn three_moves(&mut self, board: &[u8], stone: u8) -> Vec<usize> {
        let k = self.length;
        let p = usize::from(stone - 1);
        let windows_of = &mut self.threes_of;
        let mut moves = Vec::new();
        for (i, &code) in self.codes.iter().enumerate() {
            let count = self.tables.counts[code as usize];
            if count[2] > 0 || count[1 - p] > 0 || usize::from(count[p]) + 3 != k {
                continue;
            }
            for &c in &self.cells[i * k..(i + 1) * k] {
                let c = c as usize;
                if board[c] == 0 {
                    if windows_of[c] == 0 {
                        moves.push(c);
                    }
                    windows_of[c] += 1;
                }
            }
        }
        moves.sort_unstable();
        moves.sort_by_key(|&c| std::cmp::Reverse(windows_of[c]));
        for &c in &moves {
            windows_of[c] = 0;
        }
        moves
    }

    /// As a scan's `fours` for `stone`, on the windows through `cell` only: `(move, threat)`,
    /// a stone on `move` leaving a window of `length - 1` stones whose empty cell is `threat`.
    pub fn fours_through(&self, board: &[u8], cell: usize, stone: u8) -> Vec<(usize, usize)> {
        let k = self.length;
        let p = usize::from(stone - 1);
        let mut fours = Vec::new();
        for &window in self.through(cell) {
            let (i, count) = (window as usize, self.count(window as usize));
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

    /// For both players, where they could win at once and, for the players `fours` says,
    /// which moves make a four (cells are the board's, to find a window's empty cells), into
    /// `scan` (emptied first, so that its buffers are reused).
    pub fn scan_into(&self, board: &[u8], fours: [bool; 2], scan: &mut Scan) {
        let k = self.length;
        scan.clear();
        for i in self.hot_windows() {
            let count = self.count(i);
            for p in 0..2 {
                let (own, other) = (usize::from(count[p]), count[1 - p]);
                if other > 0 || own + 2 < k || own == k || (own + 2 == k && !fours[p]) {
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
    }

    /// The windows whose bit is set in [`Self::hot`], in order.
    fn hot_windows(&self) -> impl Iterator<Item = usize> + '_ {
        self.hot.iter().enumerate().flat_map(|(n, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits.wrapping_sub(1);
                (bit < 64).then_some(n * 64 + bit)
            })
        })
    }
}

/// Sets bit `i % 64` of `words[i / 64]` to `on`.
fn set_bit(words: &mut [u64], i: usize, on: bool) {
    let word = &mut words[i / 64];
    let bit = i % 64;
    *word = (*word & !(1 << bit)) | (u64::from(on) << bit);
}
