//! Moves a script judges. A placement game's native form may name a script hook that decides
//! whether a player may put a stone on an empty cell — for a rule the family does not model,
//! such as points forbidden to one player only. The hook is asked only about the moves of the
//! players it judges, and — with a [`Screen`] — only where a cheap native look says the rule
//! can matter, and — when the judge says a winning move is always allowed — never about a move
//! that wins at once, nor about a stone that makes a shape the judge says it always refuses
//! (refused natively); a random playout asks it only about the cell it drew (rejection
//! sampling).
//! The search works the screens out from the window counts it keeps, and keeps the hook's
//! answers by position for the moves of a game (see [`super::search`]).
//! Verification plays the script and the native form with its hook side by side, so a hook or
//! a screen that disagrees with the script's `moves()` is caught like any other difference.
//!
//! A position may also be *filtered*: a script move filter (a variant's `moves()` that keeps
//! some of its base's moves) says, for every player, which empty cells are moves at all. Its
//! answer for a cell does not change while a playout or a search goes on (it is asked with the
//! position the native form was made from), so a refused cell is dropped for good.

use rand::Rng;

use super::{Placement, Players, CLOSED};
use crate::runtime::{
    lines::LINE_DIRECTIONS,
    threats::{line_shape_of, MAX_LENGTH},
    Cell, Grid,
};

/// The script hook that judges moves, and when it is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judge {
    /// The script function `hook(board, cell, player)`: may `player` put a stone on `cell`?
    pub hook: String,
    /// The players whose moves it judges; the others may play any empty cell.
    pub players: Players,
    /// Where it is asked; `None`: about every move of those players.
    pub screen: Option<Screen>,
    /// A move that wins at once is always allowed: the hook is not asked about it.
    pub wins_allowed: bool,
    /// What the hook can refuse, in shapes the stone makes; `None`: any move.
    pub refuses: Option<Refuses>,
    /// What the hook always refuses, in the same shapes: a stone that makes one is refused
    /// without asking (where its screen passes; a win where `wins_allowed` is allowed first).
    pub always_refuses: Option<Refuses>,
}

/// What a judge can refuse, in what a stone makes along the lines through its cell, counted as
/// the scripts' `line_threats` counts them for the player's own line length and exactness: the
/// hook is asked only about a stone that makes one of these.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Refuses {
    /// A run longer than the player's line (an overline).
    pub overline: bool,
    /// At least this many fours at once, over the lines through the cell (0: never). A line's
    /// fours are its cells where one more stone completes the line through the cell (the two
    /// ends of an open four count once: `line_threats`' `threats`).
    pub fours: usize,
    /// At least this many threes at once (0: never): lines with no four that one more stone
    /// makes an open four (a line that either of two cells, a line's length apart, completes).
    pub threes: usize,
}

impl Refuses {
    /// Whether a stone that makes `shapes` makes one of these.
    fn holds(&self, shapes: &Shapes) -> bool {
        (self.overline && shapes.overline)
            || (self.fours > 0 && shapes.fours >= self.fours)
            || (self.threes > 0 && shapes.threes >= self.threes)
    }
}

/// What a stone makes along the lines through its cell, counted as [`Refuses`] counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Shapes {
    /// Whether some line holds a run longer than the player's line.
    overline: bool,
    /// The fours over all the lines.
    fours: usize,
    /// The lines that are threes (no four, one more stone makes an open four).
    threes: usize,
}

/// What a judge's screens make of a stone, before any question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Screened {
    /// The rule cannot matter there: the stone is allowed.
    Allowed,
    /// The stone makes a shape the judge always refuses: it is refused.
    Refused,
    /// The hook is asked.
    Asked,
}

/// When a judged move can matter: the hook is asked about a stone on a cell only if, along some
/// direction, a window of `window` cells through the cell that holds no other player's stone
/// (and no closed cell, and does not cross the edge) would hold at least `one` of the mover's
/// stones with the new one, or along two directions at least `two`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The length of the windows looked at.
    pub window: usize,
    /// Stones in one direction that call for the hook.
    pub one: usize,
    /// Stones in each of two directions that call for the hook.
    pub two: usize,
}

impl Screen {
    /// Whether the screen passes for a stone whose lines' windows hold `gathered` of its
    /// player's stones at most (one count per direction, as [`Placement::gathered`] counts).
    fn passes(&self, gathered: &[usize]) -> bool {
        gathered.iter().any(|&most| most >= self.one)
            || gathered.iter().filter(|&&most| most >= self.two).count() >= 2
    }
}

/// Asks a position's judge and move filter about a move: the runtime's side of script hooks.
pub trait Referee {
    /// Whether the player to move in `position` may put a stone on the empty cell `index`.
    fn allows(&mut self, position: &Placement, index: usize) -> bool;

    /// Whether the move filter of a filtered `position` keeps the empty cell `index` as a move
    /// (the same answer for the whole playout or search).
    fn keeps(&mut self, _position: &Placement, _index: usize) -> bool {
        true
    }

    /// What the answers depend on besides the position (for a script, its text and options):
    /// two referees with the same key give the same answers, so a search may keep them from
    /// one move of a game to the next.
    fn answers_key(&self) -> u64 {
        0
    }

    /// Whether a hook failed: its answers since are refusals that say nothing of the rules, and
    /// are not kept.
    fn failed(&self) -> bool {
        false
    }
}

/// A referee that allows every move: for positions without a judge.
pub struct AllowAll;

impl Referee for AllowAll {
    fn allows(&mut self, _: &Placement, _: usize) -> bool {
        true
    }
}

impl Placement {
    /// The judge of this position's moves, if any.
    pub fn judge(&self) -> Option<&Judge> {
        self.judge.as_ref()
    }

    /// This position with its moves narrowed by a script move filter, which the referee asks.
    pub fn filtered(mut self) -> Self {
        self.filtered = true;
        self
    }

    /// How many cells the board has.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Whether a script move filter narrows this position's moves.
    pub fn is_filtered(&self) -> bool {
        self.filtered
    }

    /// Whether the player to move may put a stone on the empty cell `index`: yes, unless the
    /// move filter (if any) drops the cell, or the judge judges that player, its screen (if
    /// any) says the rule can matter there, and the referee refuses.
    pub fn allows(&self, index: usize, referee: &mut dyn Referee) -> bool {
        (!self.filtered || referee.keeps(self, index)) && self.judge_allows(index, referee)
    }

    /// Whether the judge (if any) lets the player to move put a stone on the empty cell `index`.
    fn judge_allows(&self, index: usize, referee: &mut dyn Referee) -> bool {
        Self::decided(self.judge_screened(index), || referee.allows(self, index))
    }

    /// Whether a stone the screens made `screened` is allowed: `ask` answers where the hook is
    /// asked.
    fn decided(screened: Screened, ask: impl FnOnce() -> bool) -> bool {
        match screened {
            Screened::Allowed => true,
            Screened::Refused => false,
            Screened::Asked => ask(),
        }
    }

    /// What the judge makes of a stone of the player to move on the empty cell `index`
    /// without asking: allowed where the position has no judge, the judge does not judge that
    /// player, or the move wins at once where the judge allows every winning move; else what
    /// its screens say ([`Self::judge_screens`]).
    fn judge_screened(&self, index: usize) -> Screened {
        match &self.judge {
            Some(judge)
                if judge.players.contains(self.to_move as usize)
                    && !(judge.wins_allowed && self.wins_at(index, self.to_move + 1)) =>
            {
                self.judge_screens(index)
            }
            _ => Screened::Allowed,
        }
    }

    /// What the judge's screens say of a stone of the player to move on the empty cell
    /// `index` (whoever the judge judges, whether or not the move wins): allowed where its
    /// window `screen` (if any) does not pass, refused where the stone makes a shape it
    /// `always_refuses`, allowed where it makes none it `refuses` (if it says), else asked.
    /// The shapes read the windows along each line through the cell ([`Self::gathered`]), as
    /// the screen does: once when the screen's windows are as long as the player's line.
    pub(super) fn judge_screens(&self, index: usize) -> Screened {
        self.judge_screens_with(index, |_| None)
    }

    /// [`Self::judge_screens`], taking the counts of the windows of `window` cells through
    /// `index` from `kept(window)` where it gives them (a search keeps the windows of the
    /// line's length counted), else reading the board ([`Self::gathered`]).
    pub(super) fn judge_screens_with(
        &self,
        index: usize,
        kept: impl Fn(usize) -> Option<[usize; LINE_DIRECTIONS.len()]>,
    ) -> Screened {
        let Some(judge) = &self.judge else {
            return Screened::Allowed;
        };
        let gathered = |window| kept(window).unwrap_or_else(|| self.gathered(index, window));
        let length = self.length_for(self.to_move as usize);
        let mut at_length = None;
        if let Some(screen) = judge.screen {
            let gathered = gathered(screen.window);
            if !screen.passes(&gathered) {
                return Screened::Allowed;
            }
            at_length = (screen.window == length).then_some(gathered);
        }
        if judge.refuses.is_none() && judge.always_refuses.is_none() {
            return Screened::Asked;
        }
        let gathered = at_length.unwrap_or_else(|| gathered(length));
        let shapes = self.shapes(index, &gathered);
        if judge.always_refuses.is_some_and(|r| r.holds(&shapes)) {
            Screened::Refused
        } else if judge.refuses.is_none_or(|r| r.holds(&shapes)) {
            Screened::Asked
        } else {
            Screened::Allowed
        }
    }

    /// The empty cells the player to move may play (`y * width + x`), in no particular order.
    pub fn legal_cells(&self, referee: &mut dyn Referee) -> Vec<u32> {
        self.empties
            .iter()
            .copied()
            .filter(|&i| self.allows(i as usize, referee))
            .collect()
    }

    /// A random allowed cell, as an index into the empty cells (which it may reorder); `None`
    /// when every empty cell is refused. A cell the move filter refuses leaves the empty cells
    /// for good (the filter's answer does not change during a playout).
    pub(super) fn random_allowed(
        &mut self,
        rng: &mut impl Rng,
        referee: &mut dyn Referee,
    ) -> Option<usize> {
        let mut left = self.empties.len();
        while left > 0 {
            let k = rng.random_range(0..left);
            let index = self.empties[k] as usize;
            left -= 1;
            if self.filtered && !referee.keeps(self, index) {
                self.empties.swap(k, left);
                self.empties.swap_remove(left);
                continue;
            }
            if self.judge_allows(index, referee) {
                return Some(k);
            }
            self.empties.swap(k, left);
        }
        None
    }

    /// For each line direction, the most stones of the player to move (the new one on `index`
    /// included) in a window of `window` cells through `index` that holds no other player's
    /// stone, no closed cell and does not cross the edge (0 where there is none): the cells
    /// within `window - 1` of it are read once, and a window sliding over them counts the
    /// mover's stones and the cells that spoil it.
    pub(super) fn gathered(&self, index: usize, window: usize) -> [usize; LINE_DIRECTIONS.len()] {
        let stone = self.to_move + 1;
        let (x, y) = ((index % self.width) as isize, (index / self.width) as isize);
        let span = window as isize;
        LINE_DIRECTIONS.map(|(dx, dy)| {
            let (dx, dy) = (dx as isize, dy as isize);
            // (own, spoils) for each cell of the segment, from `span - 1` behind to ahead.
            let cell = |i: isize| match self.at(x + dx * i, y + dy * i) {
                _ if i == 0 => (1, 0),
                Some(0) => (0, 0),
                Some(v) if v == stone => (1, 0),
                _ => (0, 1),
            };
            let (mut own, mut spoils) = (0, 0);
            let mut most = 0;
            for i in -(span - 1)..span {
                let (o, s) = cell(i);
                own += o;
                spoils += s;
                if i >= 1 {
                    // The window ending at `i` has just been completed: drop the cell before it.
                    let (o, s) = cell(i - span);
                    own -= o;
                    spoils -= s;
                }
                if i >= 0 && spoils == 0 {
                    most = most.max(own);
                }
            }
            most
        })
    }

    /// The shapes a stone of the player to move on `index` makes: counted along each line with
    /// [`line_shape`], as `line_threats` counts, but only along the lines whose clean windows of
    /// the player's line length (`gathered`, as [`Self::gathered`] counts them) hold at least
    /// `length - 2` of the mover's stones. The others make nothing to count: an overline fills
    /// such a window, a four's cells and its completing cell are one holding `length - 1`, and
    /// a straight four's four stones and one of its ends are one holding `length - 1` once the
    /// stone that makes it is put, so `length - 2` before.
    fn shapes(&self, index: usize, gathered: &[usize; LINE_DIRECTIONS.len()]) -> Shapes {
        let player = self.to_move as usize;
        let (length, exact) = (self.length_for(player), self.goal.exact.contains(player));
        let counted = length.clamp(2, MAX_LENGTH);
        let mut shapes = Shapes::default();
        for (&direction, &most) in LINE_DIRECTIONS.iter().zip(gathered) {
            if most + 2 < length {
                continue;
            }
            let (own, empty) = self.line_masks(index, direction, counted + 1);
            let shape = line_shape_of(own, empty, counted, exact);
            shapes.overline |= shape.run > length;
            shapes.fours += shape.threats;
            shapes.threes += usize::from(shape.threats == 0 && shape.straight);
        }
        shapes
    }

    /// The cells up to `reach` steps from `index` each way along `direction`, as
    /// [`line_shape_of`] reads them: bit `i + reach` of the first mask is set when the cell `i`
    /// steps away holds a stone of the player to move, of the second when it is empty (`index`
    /// itself and the steps off the board in neither). The board is read directly, the steps
    /// that stay on it worked out first.
    fn line_masks(&self, index: usize, (dx, dy): (i64, i64), reach: usize) -> (u64, u64) {
        let stone = self.to_move + 1;
        let reach = reach as isize;
        // The steps `i` within `reach` that keep `at + d * i` within `0..size`.
        let steps = |at: isize, d: isize, size: isize| match d {
            0 => (-reach, reach),
            1 => ((-at).max(-reach), (size - 1 - at).min(reach)),
            _ => ((at - (size - 1)).max(-reach), at.min(reach)),
        };
        let (x, y) = ((index % self.width) as isize, (index / self.width) as isize);
        let (dx, dy) = (dx as isize, dy as isize);
        let (x_from, x_to) = steps(x, dx, self.width as isize);
        let (y_from, y_to) = steps(y, dy, self.height as isize);
        let stride = dy * self.width as isize + dx;
        let (mut own, mut empty) = (0u64, 0u64);
        for i in x_from.max(y_from)..=x_to.min(y_to) {
            let v = self.cells[(index as isize + stride * i) as usize];
            let bit = 1 << (i + reach);
            if v == stone {
                own |= bit;
            } else if v == 0 {
                empty |= bit;
            }
        }
        (own, empty & !(1 << reach))
    }

    /// The board as the script's grid shows it: 0 empty, player k's stones k + 1, closed cells
    /// their own value.
    pub fn grid(&self) -> Grid {
        let mut grid = Grid::new(self.width as i64, self.height as i64, 0);
        for (i, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                let value = if v == CLOSED {
                    self.closed.unwrap_or_default()
                } else {
                    i64::from(v)
                };
                let cell = Cell::new((i % self.width) as i64, (i / self.width) as i64);
                grid.set(cell, value);
            }
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native_games::placement::{search::SearchLimits, tests::position, LineGoal};
    use crate::runtime::threats::{line_shape, Slot};
    use rand::SeedableRng;

    const FIVE: LineGoal = LineGoal {
        length: 5,
        exact: Players::NONE,
        block_both_ends: false,
        edge_blocks: false,
    };

    /// Refuses every cell of column 7 and counts how often it is asked.
    struct NoColumnSeven(usize);

    impl Referee for NoColumnSeven {
        fn allows(&mut self, position: &Placement, index: usize) -> bool {
            self.0 += 1;
            index % position.width() != 7
        }
    }

    fn judged(players: Players, screen: Option<Screen>) -> Judge {
        Judge {
            hook: "hook".into(),
            players,
            screen,
            wins_allowed: false,
            refuses: None,
            always_refuses: None,
        }
    }

    #[test]
    fn playouts_never_play_a_refused_cell() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let start = position(&[], 0, FIVE).judged_by(judged(Players::ALL, None));
            let mut p = start.clone();
            p.random_playout_refereed(&mut rng, &mut NoColumnSeven(0));
            assert!((0..15).all(|y| p.cells[y * 15 + 7] == 0));
        }
    }

    /// A move filter that drops column 7 (for every player) and counts how often it is asked.
    struct KeepsNoColumnSeven(usize);

    impl Referee for KeepsNoColumnSeven {
        fn allows(&mut self, _: &Placement, _: usize) -> bool {
            true
        }

        fn keeps(&mut self, position: &Placement, index: usize) -> bool {
            self.0 += 1;
            index % position.width() != 7
        }
    }

    #[test]
    fn a_filtered_playout_asks_about_each_cell_once() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        for _ in 0..50 {
            let mut p = position(&[], 0, FIVE).filtered();
            let mut referee = KeepsNoColumnSeven(0);
            let (_, plies) = p.random_playout_refereed(&mut rng, &mut referee);
            assert!((0..15).all(|y| p.cells[y * 15 + 7] == 0));
            // Each stone's cell once, and each cell of column 7 drawn at most once.
            assert!(
                referee.0 <= plies + 15,
                "{} asks for {plies} moves",
                referee.0
            );
        }
        let p = position(&[], 1, FIVE).filtered();
        assert_eq!(p.legal_cells(&mut KeepsNoColumnSeven(0)).len(), 210);
        assert_eq!(
            position(&[], 1, FIVE)
                .legal_cells(&mut KeepsNoColumnSeven(0))
                .len(),
            225
        );
    }

    #[test]
    fn only_the_judged_players_moves_are_judged() {
        let p = position(&[], 1, FIVE).judged_by(judged(Players(1), None));
        assert_eq!(p.legal_cells(&mut NoColumnSeven(0)).len(), 225);
        let p = position(&[], 0, FIVE).judged_by(judged(Players(1), None));
        assert_eq!(p.legal_cells(&mut NoColumnSeven(0)).len(), 210);
    }

    #[test]
    fn the_search_answers_only_an_allowed_move() {
        // O has four in column 7 (rows 3 to 6); X to move must block at (7, 7) or (7, 2).
        let stones = [
            (7, 3, 2),
            (7, 4, 2),
            (7, 5, 2),
            (7, 6, 2),
            (7, 2, 1),
            (0, 0, 1),
        ];
        let limits = SearchLimits {
            time: std::time::Duration::from_secs(5),
            max_depth: 1,
            width: 8,
            seed: 1,
            nodes: None,
        };
        let free = position(&stones, 0, FIVE);
        let found = free.best_move(&[0, 1, 12, 150, 2000, 100000], limits);
        assert_eq!(found.map(|f| f.cell), Some(7 * 15 + 7), "the block");
        // Refused column 7: any other move, never the refused block.
        let judged = free.judged_by(judged(Players::ALL, None));
        let mut referee = NoColumnSeven(0);
        let found = judged.best_move_refereed(&[0, 1, 12, 150, 2000, 100000], limits, &mut referee);
        assert!(
            found.as_ref().is_some_and(|f| f.cell % 15 != 7),
            "{found:?}"
        );
    }

    #[test]
    fn a_judge_that_allows_every_win_is_not_asked_about_one() {
        // Four in row 7 from (3, 7): (7, 7) makes five; (7, 2) in column 7 makes nothing.
        let stones: Vec<_> = (3..7).map(|x| (x, 7, 1)).chain([(0, 0, 2)]).collect();
        let mut judge = judged(Players::ALL, None);
        let refuses = |judge: &Judge, index: usize| {
            let p = position(&stones, 0, FIVE).judged_by(judge.clone());
            let mut referee = NoColumnSeven(0);
            (!p.allows(index, &mut referee), referee.0)
        };
        assert_eq!(refuses(&judge, 7 * 15 + 7), (true, 1), "asked, and refused");
        judge.wins_allowed = true;
        assert_eq!(
            refuses(&judge, 7 * 15 + 7),
            (false, 0),
            "the five: not asked"
        );
        assert_eq!(refuses(&judge, 2 * 15 + 7), (true, 1), "no five: asked");
    }

    #[test]
    fn a_judge_that_refuses_shapes_is_asked_only_about_them() {
        let mut judge = judged(Players::ALL, None);
        judge.refuses = Some(Refuses {
            overline: true,
            fours: 2,
            threes: 2,
        });
        // Two black stones across and two down from (7, 7), every end open: two threes.
        let mut stones = vec![(5, 7, 1), (6, 7, 1), (7, 5, 1), (7, 6, 1)];
        // Five across row 2 from (2, 2): a stone on (7, 2) makes six.
        stones.extend((2..7).map(|x| (x, 2, 1)));
        let asked = |stones: &[(i64, i64, i64)], x: usize, y: usize| {
            let p = position(stones, 0, FIVE).judged_by(judge.clone());
            let mut referee = NoColumnSeven(0);
            let allowed = p.allows(y * 15 + x, &mut referee);
            assert_eq!(allowed, referee.0 == 0, "column 7 is refused when asked");
            referee.0 == 1
        };
        assert!(asked(&stones, 7, 7), "two threes");
        assert!(asked(&stones, 7, 2), "an overline");
        assert!(!asked(&stones, 7, 8), "one three (down), nothing across");
        assert!(!asked(&stones, 7, 0), "nothing");
        // A white stone at each end of the row leaves one three: not asked.
        let mut closed = stones.clone();
        closed.extend([(4, 7, 2), (8, 7, 2)]);
        assert!(!asked(&closed, 7, 7), "one three");
        // Two fours, across and down (with one more stone each way): asked.
        let mut fours = stones.clone();
        fours.extend([(4, 7, 1), (7, 4, 1), (3, 7, 2), (7, 3, 2)]);
        assert!(asked(&fours, 7, 7), "two fours");
    }

    #[test]
    fn a_shape_the_judge_always_refuses_is_refused_without_asking() {
        let mut judge = judged(Players::ALL, None);
        judge.refuses = Some(Refuses {
            overline: true,
            fours: 2,
            threes: 2,
        });
        judge.always_refuses = Some(Refuses {
            overline: true,
            fours: 2,
            threes: 0,
        });
        // Whether a stone on (x, y) is allowed, and the questions asked (column 7 refused).
        let verdict = |judge: &Judge, stones: &[(i64, i64, i64)], x: usize, y: usize| {
            let p = position(stones, 0, FIVE).judged_by(judge.clone());
            let mut referee = NoColumnSeven(0);
            (p.allows(y * 15 + x, &mut referee), referee.0)
        };
        // Two black stones across and two down from (7, 7): two threes, asked.
        let mut stones = vec![(5, 7, 1), (6, 7, 1), (7, 5, 1), (7, 6, 1)];
        assert_eq!(verdict(&judge, &stones, 7, 7), (false, 1), "two threes");
        assert_eq!(verdict(&judge, &stones, 7, 8), (true, 0), "one three");
        // Five across row 2 from (2, 2): a stone on (7, 2) makes six, refused unasked.
        stones.extend((2..7).map(|x| (x, 2, 1)));
        assert_eq!(verdict(&judge, &stones, 7, 2), (false, 0), "an overline");
        // Two fours, across and down (with one more stone each way): refused unasked.
        stones.extend([(4, 7, 1), (7, 4, 1), (3, 7, 2), (7, 3, 2)]);
        assert_eq!(verdict(&judge, &stones, 7, 7), (false, 0), "two fours");
        // Where the window screen does not pass, nothing is refused.
        judge.screen = Some(Screen {
            window: 5,
            one: 5,
            two: 5,
        });
        assert_eq!(verdict(&judge, &stones, 7, 7), (true, 0), "screened out");
    }

    #[test]
    fn the_screen_asks_only_where_the_movers_stones_gather() {
        let screen = Screen {
            window: 5,
            one: 4,
            two: 3,
        };
        // Two black stones across and two down from (7, 7): both lines through it reach 3.
        let stones = [(5, 7, 1), (6, 7, 1), (7, 5, 1), (7, 6, 1)];
        let p = position(&stones, 0, FIVE).judged_by(judged(Players::ALL, Some(screen)));
        let mut referee = NoColumnSeven(0);
        assert!(!p.allows(7 * 15 + 7, &mut referee));
        assert!(
            p.allows(8 * 15 + 7, &mut referee),
            "one line of 3 is not enough"
        );
        assert_eq!(referee.0, 1);
        // A white stone in every window across leaves one direction: not asked.
        let mut blocked = stones.to_vec();
        blocked.extend([(4, 7, 2), (8, 7, 2)]);
        let p = position(&blocked, 0, FIVE).judged_by(judged(Players::ALL, Some(screen)));
        assert!(p.allows(7 * 15 + 7, &mut referee));
        assert_eq!(referee.0, 1);
    }

    /// The screens as first written, for comparison: every window of `window` cells through
    /// `index` counted on its own, and the shapes along all four lines.
    fn screens_counted_in_full(p: &Placement, index: usize, judge: &Judge) -> bool {
        let stone = p.to_move + 1;
        let (x, y) = ((index % p.width) as isize, (index / p.width) as isize);
        let most = |window: isize, (dx, dy): (isize, isize)| {
            let held = |i: isize| match p.at(x + dx * i, y + dy * i) {
                _ if i == 0 => Some(1),
                Some(0) => Some(0),
                Some(v) if v == stone => Some(1),
                _ => None,
            };
            (1 - window..=0)
                .filter_map(|from| (from..from + window).map(held).sum::<Option<usize>>())
                .max()
                .unwrap_or(0)
        };
        let directions = LINE_DIRECTIONS.map(|(dx, dy)| (dx as isize, dy as isize));
        let screened = judge.screen.is_none_or(|s| {
            let counts = directions.map(|d| most(s.window as isize, d));
            counts.iter().any(|&n| n >= s.one)
                || counts.iter().filter(|&&n| n >= s.two).count() >= 2
        });
        let refusable = judge.refuses.is_none_or(|r| {
            let player = p.to_move as usize;
            let (length, exact) = (p.length_for(player), p.goal.exact.contains(player));
            let (mut fours, mut threes) = (0, 0);
            for (dx, dy) in directions {
                let slot = |i: i64| match p.at(x + dx * i as isize, y + dy * i as isize) {
                    Some(0) => Slot::Empty,
                    Some(v) if v == stone => Slot::Own,
                    _ => Slot::Blocked,
                };
                let shape = line_shape(slot, length, exact);
                if r.overline && shape.run > length {
                    return true;
                }
                fours += shape.threats;
                threes += usize::from(shape.threats == 0 && shape.straight);
            }
            (r.fours > 0 && fours >= r.fours) || (r.threes > 0 && threes >= r.threes)
        });
        screened && refusable
    }

    #[test]
    fn the_screens_read_once_agree_with_the_screens_counted_in_full() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let shapes = [
            Refuses {
                overline: true,
                fours: 2,
                threes: 2,
            },
            Refuses {
                overline: false,
                fours: 1,
                threes: 1,
            },
        ];
        let (mut asked, mut checked) = (0, 0);
        for round in 0..300 {
            let length = [5, 5, 4, 6][round % 4];
            let goal = LineGoal {
                length,
                exact: [Players::NONE, Players(1)][round / 4 % 2],
                ..FIVE
            };
            let density = rng.random_range(0.05..0.6);
            let mut stones = Vec::new();
            for (x, y) in (0..15).flat_map(|y| (0..15).map(move |x| (x, y))) {
                if rng.random_bool(density) {
                    stones.push((x, y, rng.random_range(1..=2)));
                }
            }
            let window = [length, 5, length + 1][round % 3];
            let judge = Judge {
                screen: (round % 5 != 0).then_some(Screen {
                    window,
                    one: window - 1,
                    two: window - 2,
                }),
                refuses: (round % 7 != 0).then_some(shapes[round / 8 % 2]),
                ..judged(Players::ALL, None)
            };
            let p = position(&stones, round % 2, goal).judged_by(judge.clone());
            for &i in p.empties.iter() {
                let full = screens_counted_in_full(&p, i as usize, &judge);
                assert_eq!(
                    p.judge_screens(i as usize) != Screened::Allowed,
                    full,
                    "round {round}, cell {i}"
                );
                asked += usize::from(full);
                checked += 1;
            }
        }
        assert!(
            asked > 1000 && checked - asked > 1000,
            "{asked} of {checked}"
        );
    }

    #[test]
    fn the_shapes_read_from_the_board_agree_with_the_generic_scanner() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut made = Shapes::default();
        for round in 0..200 {
            let length = [5, 5, 4, 6, 3][round % 5];
            let exact = [Players::NONE, Players(1), Players::ALL][round / 5 % 3];
            let (width, height) = [(15, 15), (9, 13), (19, 7)][round % 3];
            let density = rng.random_range(0.1..0.7);
            let mut grid = Grid::new(width, height, 0);
            for (x, y) in (0..height).flat_map(|y| (0..width).map(move |x| (x, y))) {
                if rng.random_bool(density) {
                    // 3: a closed cell.
                    grid.set(Cell::new(x, y), rng.random_range(1..=3));
                }
            }
            let goal = LineGoal {
                length,
                exact,
                ..FIVE
            };
            let p = Placement::with_closed(&grid, 2, round % 2, None, goal, Some(3)).unwrap();
            let stone = p.to_move + 1;
            for &i in p.empties.iter() {
                let (x, y) = (
                    (i as usize % p.width) as isize,
                    (i as usize / p.width) as isize,
                );
                let mut expected = Shapes::default();
                for (dx, dy) in LINE_DIRECTIONS.map(|(dx, dy)| (dx as isize, dy as isize)) {
                    let slot = |i: i64| match p.at(x + dx * i as isize, y + dy * i as isize) {
                        Some(0) => Slot::Empty,
                        Some(v) if v == stone => Slot::Own,
                        _ => Slot::Blocked,
                    };
                    let shape = line_shape(slot, length, exact.contains(p.to_move as usize));
                    expected.overline |= shape.run > length;
                    expected.fours += shape.threats;
                    expected.threes += usize::from(shape.threats == 0 && shape.straight);
                }
                // Every line counted: as many stones as a line in each direction's windows.
                let shapes = p.shapes(i as usize, &[length; LINE_DIRECTIONS.len()]);
                assert_eq!(shapes, expected, "round {round}, cell {i}");
                made.overline |= shapes.overline;
                made.fours += shapes.fours;
                made.threes += shapes.threes;
            }
        }
        assert!(
            made.overline && made.fours > 1000 && made.threes > 1000,
            "{made:?}"
        );
    }
}
