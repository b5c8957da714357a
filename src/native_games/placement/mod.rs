//! Placement games with a line goal — the m,n,k family (three or five in a row and their variants):
//! players in turn put a stone on an empty cell, and a run of `length` stones through the stone
//! just placed wins, optionally only when it is exactly that long and not blocked at both ends.
//! Played natively, with no allocation per move, for random playouts and search. A rules
//! script opts in by describing its position with `native(state)` (see the README); tests check
//! that the script and this module agree move by move.
//!
//! What a variant adds is described as data where it is a parameter (closed cells, which
//! players need exactly `length`), or left to a script hook that judges the moves of some
//! players where a native screen says it can matter, or to a script move filter that narrows
//! everybody's moves (see [`judge`]).

use rand::Rng;

pub mod judge;
pub mod search;

pub use judge::{AllowAll, Judge, Referee, Refuses, Screen};

use crate::runtime::{grid::Topology, lines::LINE_DIRECTIONS, Grid, Outcome};

/// A set of players (0-based, fewer than 64), as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Players(pub u64);

impl Players {
    /// Every player.
    pub const ALL: Players = Players(u64::MAX);
    /// No player.
    pub const NONE: Players = Players(0);

    /// Whether `player` is in the set.
    pub fn contains(self, player: usize) -> bool {
        player < 64 && self.0 & (1 << player) != 0
    }
}

/// What a closed cell holds in [`Placement`]'s cells: no stone, never played, and it blocks a
/// line's end as an opponent stone does.
const CLOSED: u8 = u8::MAX;

/// When a run of stones wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineGoal {
    /// The length of a winning run.
    pub length: usize,
    /// The players whose longer runs do not win.
    pub exact: Players,
    /// A run whose two ends are both blocked does not win.
    pub block_both_ends: bool,
    /// The board edge blocks an end (otherwise only an opponent stone does).
    pub edge_blocks: bool,
}

/// A position of a placement game: cells hold 0 (empty) or a player's number 1, 2, … (or a
/// closed cell's value).
#[derive(Debug, Clone)]
pub struct Placement {
    width: usize,
    height: usize,
    players: u8,
    goal: LineGoal,
    cells: Vec<u8>,
    empties: Vec<u32>,
    to_move: u8,
    winner: Option<u8>,
    /// The value a closed cell holds in the script's grid, if the board has closed cells.
    closed: Option<i64>,
    /// The script hook that judges some players' moves, if any.
    judge: Option<Judge>,
    /// Whether a script move filter narrows the moves (asked through [`Referee::keeps`]).
    filtered: bool,
    /// Each player's length of a winning run, when they differ (`goal.length` is then the
    /// shortest).
    lengths: Option<[u16; MAX_LENGTH_PLAYERS]>,
}

/// The most players a placement game with a winning length per player may have.
pub const MAX_LENGTH_PLAYERS: usize = 8;

impl Placement {
    /// The position `grid` shows with `to_move` (0-based) to move; `winner` if the game is won.
    pub fn new(
        grid: &Grid,
        players: usize,
        to_move: usize,
        winner: Option<usize>,
        goal: LineGoal,
    ) -> Result<Self, String> {
        Self::with_closed(grid, players, to_move, winner, goal, None)
    }

    /// [`Self::new`] on a board whose cells holding `closed` are closed: never played, and
    /// blocking a line's end as an opponent stone does.
    pub fn with_closed(
        grid: &Grid,
        players: usize,
        to_move: usize,
        winner: Option<usize>,
        goal: LineGoal,
        closed: Option<i64>,
    ) -> Result<Self, String> {
        if !(2..=255).contains(&players) || to_move >= players {
            return Err(format!("to_move {to_move} is not one of {players} players"));
        }
        if goal.length == 0 {
            return Err("a line goal needs a length of at least 1".into());
        }
        if closed.is_some_and(|c| (0..=players as i64).contains(&c)) {
            return Err(format!(
                "`closed` is {}: a closed cell's value must not be 0 (empty) or a player's 1 to {players}",
                closed.unwrap_or_default()
            ));
        }
        if grid.topology() != Topology::Square {
            return Err(format!(
                "the placement form plays square grids, not a {} grid",
                grid.topology().name()
            ));
        }
        let mut cells = Vec::with_capacity(grid.values().len());
        for &v in grid.values() {
            if Some(v) == closed {
                cells.push(CLOSED);
                continue;
            }
            if v < 0 || v > players as i64 {
                let or_closed = closed.map_or(String::new(), |c| format!(" (or {c}, closed)"));
                return Err(format!(
                    "a cell holds {v}: cells must hold 0 to {players}{or_closed}"
                ));
            }
            cells.push(v as u8);
        }
        let empties = (0..cells.len() as u32)
            .filter(|&i| cells[i as usize] == 0)
            .collect();
        Ok(Placement {
            width: grid.width() as usize,
            height: grid.height() as usize,
            players: players as u8,
            goal,
            cells,
            empties,
            to_move: to_move as u8,
            winner: winner.map(|w| w as u8),
            closed,
            judge: None,
            filtered: false,
            lengths: None,
        })
    }

    /// This position with a winning run's length for each player, one per player (each from 1
    /// to 65 535): `goal().length` becomes the shortest, the length the search's windows have.
    pub fn with_lengths(mut self, lengths: &[usize]) -> Result<Self, String> {
        let players = self.players as usize;
        if lengths.len() != players || players > MAX_LENGTH_PLAYERS {
            return Err(format!(
                "{} lengths for {players} players: give one per player (at most {MAX_LENGTH_PLAYERS} players)",
                lengths.len()
            ));
        }
        let mut each = [0u16; MAX_LENGTH_PLAYERS];
        for (slot, &length) in each.iter_mut().zip(lengths) {
            *slot = u16::try_from(length)
                .ok()
                .filter(|&l| l > 0)
                .ok_or_else(|| format!("a line length of {length}: it must be from 1 to 65535"))?;
        }
        self.goal.length = lengths.iter().copied().min().unwrap_or(self.goal.length);
        self.lengths = Some(each);
        Ok(self)
    }

    /// The length of a winning run for `player` (0-based).
    pub fn length_for(&self, player: usize) -> usize {
        self.lengths
            .map_or(self.goal.length, |each| usize::from(each[player]))
    }

    /// This position with `judge` judging the moves of its players.
    pub fn judged_by(mut self, judge: Judge) -> Self {
        self.judge = Some(judge);
        self
    }

    /// The outcome: a win, a draw when the board is full, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(w) => Some(Outcome::Win(w as usize)),
            None if self.empties.is_empty() => Some(Outcome::Draw),
            None => None,
        }
    }

    /// The empty cells as indices `y * width + x`, in no particular order.
    pub fn empties(&self) -> &[u32] {
        &self.empties
    }

    /// The board's width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether `other` is the same position (stones, player to move, winner), whatever the goal.
    pub fn same_position(&self, other: &Placement) -> bool {
        self.width == other.width
            && self.cells == other.cells
            && self.to_move == other.to_move
            && self.winner == other.winner
    }

    /// When a line wins.
    pub fn goal(&self) -> LineGoal {
        self.goal
    }

    /// Whether `player` (0-based) putting a stone on empty cell `index` would win.
    pub fn wins_with(&self, index: usize, player: usize) -> bool {
        if self.cells.get(index) != Some(&0) {
            return false;
        }
        let mut trial = self.clone();
        trial.cells[index] = player as u8 + 1;
        trial.wins_at(index, player as u8 + 1)
    }

    /// The player to move (0-based).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// Puts the mover's stone on cell `index` (`y * width + x`). On error nothing changes.
    pub fn play(&mut self, index: usize) -> Result<(), String> {
        if self.outcome().is_some() {
            return Err("the game is over".into());
        }
        let k = self
            .empties
            .iter()
            .position(|&e| e as usize == index)
            .ok_or_else(|| format!("cell {index} is not an empty cell of the board"))?;
        self.place_nth(k);
        Ok(())
    }

    /// Puts the mover's stone on the `k`-th empty cell (an index into [`Self::empties`]).
    fn place_nth(&mut self, k: usize) {
        let index = self.empties.swap_remove(k) as usize;
        let stone = self.to_move + 1;
        self.cells[index] = stone;
        if self.wins_at(index, stone) {
            self.winner = Some(self.to_move);
        }
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn at(&self, x: isize, y: isize) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.width as isize || y >= self.height as isize {
            None
        } else {
            Some(self.cells[y as usize * self.width + x as usize])
        }
    }

    /// Whether the run through cell `index` (holding `stone`) wins, in any direction. The cell
    /// itself is not read: on an empty cell, whether a stone there would win.
    fn wins_at(&self, index: usize, stone: u8) -> bool {
        let (width, height) = (self.width as isize, self.height as isize);
        let (x, y) = ((index % self.width) as isize, (index / self.width) as isize);
        let cells = &self.cells[..];
        // The stones beyond the cell in direction (dx, dy).
        let run = |dx: isize, dy: isize| {
            let (mut cx, mut cy, mut n) = (x + dx, y + dy, 0);
            while cx >= 0
                && cy >= 0
                && cx < width
                && cy < height
                && cells[(cy * width + cx) as usize] == stone
            {
                n += 1;
                cx += dx;
                cy += dy;
            }
            n
        };
        LINE_DIRECTIONS.iter().any(|&(dx, dy)| {
            let (dx, dy) = (dx as isize, dy as isize);
            let (ahead, back) = (run(dx, dy), run(-dx, -dy));
            // `goal.length` is the shortest win: most runs are shorter, and need no more look.
            ahead + back + 1 >= self.goal.length as isize
                && self.run_wins(stone, (x, y), (dx, dy), (ahead + 1, back + 1))
        })
    }

    /// Whether the run of `stone` through cell `at` in direction `step`, which reaches `ends`
    /// steps ahead and back to the cells beyond it, and is at least the shortest winning
    /// length, wins.
    #[cold]
    fn run_wins(
        &self,
        stone: u8,
        (x, y): (isize, isize),
        (dx, dy): (isize, isize),
        (ahead, back): (isize, isize),
    ) -> bool {
        let goal = self.goal;
        let length = (ahead + back - 1) as usize;
        let need = self.length_for(stone as usize - 1);
        if length < need || (length > need && goal.exact.contains(stone as usize - 1)) {
            return false;
        }
        if !goal.block_both_ends {
            return true;
        }
        let blocked = |end: Option<u8>| end.map_or(goal.edge_blocks, |v| v != 0);
        let after = self.at(x + dx * ahead, y + dy * ahead);
        let before = self.at(x - dx * back, y - dy * back);
        !(blocked(before) && blocked(after))
    }

    /// Plays uniformly random moves to the end (every empty cell is a move: no judge is asked);
    /// returns the outcome and the moves played.
    pub fn random_playout(&mut self, rng: &mut impl Rng) -> (Outcome, usize) {
        let mut plies = 0;
        loop {
            if let Some(outcome) = self.outcome() {
                return (outcome, plies);
            }
            let k = rng.random_range(0..self.empties.len());
            self.place_nth(k);
            plies += 1;
        }
    }
}

impl Placement {
    /// [`Self::random_playout`] asking the judge and the move filter, if the position has them,
    /// through `referee` about each move drawn: a cell the judge refuses is set aside for that
    /// turn and another drawn, so a move is uniform over the allowed cells (one the filter
    /// refuses is set aside for the rest of the playout: the filter's answer does not change).
    /// A player with no allowed cell ends the game in a draw.
    pub fn random_playout_refereed(
        &mut self,
        rng: &mut impl Rng,
        referee: &mut dyn Referee,
    ) -> (Outcome, usize) {
        if self.judge.is_none() && !self.filtered {
            return self.random_playout(rng);
        }
        let mut plies = 0;
        loop {
            if let Some(outcome) = self.outcome() {
                return (outcome, plies);
            }
            let Some(k) = self.random_allowed(rng, referee) else {
                return (Outcome::Draw, plies);
            };
            self.place_nth(k);
            plies += 1;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::runtime::Cell;
    use rand::SeedableRng;

    /// Exactly five, not blocked at both ends.
    pub(super) const FIVE_EXACT: LineGoal = LineGoal {
        length: 5,
        exact: Players::ALL,
        block_both_ends: true,
        edge_blocks: false,
    };

    /// A 15×15 two-player position with the given stones `(x, y, player number)`.
    pub(super) fn position(
        stones: &[(i64, i64, i64)],
        to_move: usize,
        goal: LineGoal,
    ) -> Placement {
        let mut grid = Grid::new(15, 15, 0);
        for &(x, y, v) in stones {
            grid.set(Cell::new(x, y), v);
        }
        Placement::new(&grid, 2, to_move, None, goal).unwrap()
    }

    fn after(stones: &[(i64, i64, i64)], last: (i64, i64), goal: LineGoal) -> bool {
        let index = (last.1 * 15 + last.0) as usize;
        let p = position(stones, 0, goal);
        p.wins_at(index, p.cells[index])
    }

    #[test]
    fn exact_five_wins_and_overlines_and_double_blocks_do_not() {
        let five: Vec<_> = (3..8).map(|x| (x, 7, 1)).collect();
        assert!(after(&five, (5, 7), FIVE_EXACT));
        let mut six = five.clone();
        six.push((8, 7, 1));
        assert!(!after(&six, (5, 7), FIVE_EXACT));
        assert!(after(
            &six,
            (5, 7),
            LineGoal {
                exact: Players::NONE,
                ..FIVE_EXACT
            }
        ));
        let mut blocked = five.clone();
        blocked.extend([(2, 7, 2), (8, 7, 2)]);
        assert!(!after(&blocked, (5, 7), FIVE_EXACT));
        assert!(after(
            &blocked,
            (5, 7),
            LineGoal {
                block_both_ends: false,
                ..FIVE_EXACT
            }
        ));
        let edge: Vec<_> = (0..5).map(|x| (x, 0, 1)).chain([(5, 0, 2)]).collect();
        assert!(after(&edge, (0, 0), FIVE_EXACT));
        assert!(!after(
            &edge,
            (0, 0),
            LineGoal {
                edge_blocks: true,
                ..FIVE_EXACT
            }
        ));
        let diagonal: Vec<_> = (0..5).map(|i| (4 + i, 10 - i, 2)).collect();
        assert!(after(&diagonal, (6, 8), FIVE_EXACT));
    }

    #[test]
    fn each_player_wins_with_their_own_length() {
        let four_x: Vec<_> = (3..7).map(|x| (x, 7, 1)).collect();
        let four_o: Vec<_> = (3..7).map(|x| (x, 9, 2)).collect();
        let goal = LineGoal {
            block_both_ends: false,
            ..FIVE_EXACT
        };
        let both = |stones: &[(i64, i64, i64)], lengths: &[usize]| {
            let p = position(stones, 0, goal).with_lengths(lengths).unwrap();
            let index = (stones[0].1 * 15 + stones[0].0) as usize;
            p.wins_at(index, p.cells[index])
        };
        assert!(both(&four_x, &[4, 5]), "X wins with four");
        assert!(!both(&four_o, &[4, 5]), "O needs five");
        assert!(!both(&four_x, &[5, 5]));
        let mut five_x = four_x.clone();
        five_x.push((7, 7, 1));
        assert!(
            !both(&five_x, &[4, 5]),
            "exactly four for X: five is an overline"
        );
        let p = position(&[], 0, goal).with_lengths(&[4, 5]).unwrap();
        assert_eq!(p.goal().length, 4, "the search's windows: the shortest");
        assert!(position(&[], 0, goal).with_lengths(&[4]).is_err());
        assert!(position(&[], 0, goal).with_lengths(&[0, 5]).is_err());
    }

    #[test]
    fn playouts_end_with_a_full_board_or_a_winner() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let mut p = Placement::new(&Grid::new(7, 7, 0), 2, 0, None, FIVE_EXACT).unwrap();
            let (outcome, plies) = p.random_playout(&mut rng);
            assert!(plies <= 49);
            assert_eq!(outcome == Outcome::Draw, plies == 49 && p.winner.is_none());
        }
        assert!(Placement::new(&Grid::new(3, 3, 5), 2, 0, None, FIVE_EXACT).is_err());
        assert!(Placement::new(&Grid::hex(3, 3, 0), 2, 0, None, FIVE_EXACT).is_err());
    }
}
