//! Threat search for the placement family: victory by continuous fours (VCF). The attacker
//! plays only moves that make a four — a line one more stone would win with — so that each
//! reply is forced: the defender must stop the four (on its winning cell or, when a line blocked
//! at both ends does not win, just beyond its far end) unless they can win at once. The attacker
//! wins when a move leaves two threats no single stone stops (a double four, an open four, or a
//! four whose forced reply leaves the next), under the rules' own `length`, `exact` and
//! `block_both_ends`, and the judge's word on every move of a player it judges (a cell the
//! judge refuses is neither a threat nor a reply; it is asked about an attacker's four once the
//! four is found to win, so that the many fours that lead nowhere cost no question).
//!
//! The fours are found by sliding a window of `length` cells along every line: a window free of
//! the other player and of closed cells, holding `length - 1` of a player's stones, has a winning
//! cell; holding `length - 2`, either empty cell makes a four on the other. Each candidate is then
//! checked by the family's own win test. Failed positions are remembered by their hash.

use foldhash::{HashMap, HashMapExt};

use std::time::Instant;

use super::Searcher;
use crate::native_games::placement::judge::Screened;
use crate::runtime::lines::LINE_DIRECTIONS;

/// The most fours one line of continuous fours may play.
pub const MAX_FOURS: u32 = 24;

/// The most answers of the judge's hook the search remembers (beyond, they are forgotten).
pub(super) const JUDGED_KEPT: usize = 1 << 20;

/// What one scan of every window finds, for each player (index: stone − 1).
#[derive(Default)]
pub(super) struct Scan {
    /// The empty cells that complete a window of `length - 1` stones (wins, once checked).
    pub wins: [Vec<usize>; 2],
    /// `(move, threat)`: a stone on `move` leaves a window of `length - 1` stones whose empty
    /// cell is `threat`.
    pub fours: [Vec<(usize, usize)>; 2],
}

impl Scan {
    /// Empties every list, keeping their buffers.
    pub(super) fn clear(&mut self) {
        self.wins.iter_mut().for_each(Vec::clear);
        self.fours.iter_mut().for_each(Vec::clear);
    }
}

/// The state of the threat searches of one search.
pub(super) struct Vcf {
    /// Positions the running threat search may still visit.
    left: u64,
    /// When the running threat search stops.
    pub until: Instant,
    /// Positions visited by every threat search so far.
    pub nodes: u64,
    /// Whether the running threat search stopped early (its failure then proves nothing).
    pub aborted: bool,
    /// Positions (hash, the attacker to move) where no continuous fours of up to `n` fours
    /// exist: the largest such `n`.
    failed: HashMap<u64, u32>,
}

impl Vcf {
    /// A threat search state whose searches stop at `until`.
    pub fn new(until: Instant) -> Vcf {
        Vcf {
            left: 0,
            until,
            nodes: 0,
            aborted: false,
            failed: HashMap::new(),
        }
    }
}

impl Searcher<'_> {
    /// The first move of a victory by continuous fours for `stone` (the player to move, or the
    /// player a [`Searcher::pass`] let move), and how many moves it takes to the five; at most
    /// `nodes` positions are visited, and none after [`Vcf::until`].
    pub(super) fn vcf(&mut self, stone: u8, nodes: u64) -> Option<(usize, u32)> {
        if self.pos.goal.length < 3 {
            return None;
        }
        self.vcf.left = nodes;
        self.vcf.aborted = false;
        self.vcf_from(stone, MAX_FOURS)
    }

    fn vcf_from(&mut self, attacker: u8, fours: u32) -> Option<(usize, u32)> {
        if self.vcf.left == 0
            || (self.vcf.nodes.is_multiple_of(128) && crate::cancel::past(self.vcf.until))
        {
            self.vcf.left = 0;
            self.vcf.aborted = true;
            return None;
        }
        self.vcf.left -= 1;
        self.vcf.nodes += 1;
        let scan = self.scan_for(attacker);
        let found = self.vcf_scanned(attacker, fours, &scan);
        self.recycle(scan);
        found
    }

    /// [`Self::vcf_from`] once the position is counted and scanned (`scan`).
    fn vcf_scanned(&mut self, attacker: u8, fours: u32, scan: &Scan) -> Option<(usize, u32)> {
        let defender = 3 - attacker;
        let (a, d) = (attacker as usize - 1, defender as usize - 1);
        for &w in &scan.wins[a] {
            if self.may_win(w, attacker) {
                return Some((w, 1));
            }
        }
        if fours == 0 || self.vcf.failed.get(&self.hash).is_some_and(|&f| f >= fours) {
            return None;
        }
        let mut theirs = Vec::new();
        for &w in &scan.wins[d] {
            if self.may_win(w, defender) {
                theirs.push(w);
            }
        }
        // Each move that makes a four, with the cells it may make winning; the defender's own
        // four must be stopped first (by a stone on its winning cell that makes a four too).
        let mut moves: Vec<(usize, usize)> = scan.fours[a].clone();
        match theirs.as_slice() {
            [] => {}
            [must] => moves.retain(|m| m.0 == *must),
            _ => moves.clear(),
        }
        moves.sort_unstable();
        let mut grouped: Vec<(usize, Vec<usize>)> = Vec::new();
        for (mv, threat) in moves {
            match grouped.last_mut() {
                Some((last, threats)) if *last == mv => threats.push(threat),
                _ => grouped.push((mv, vec![threat])),
            }
        }
        // Moves that may make two fours at once first.
        grouped.sort_by_key(|(_, threats)| std::cmp::Reverse(threats.len()));
        for (mv, cells) in grouped {
            self.put(mv, attacker);
            let won = self.forced(attacker, &cells, fours);
            self.take(mv, attacker);
            // The judge is asked only about a four that wins: most lead nowhere.
            if let Some(plies) = won.filter(|_| self.may_play(mv, attacker)) {
                return Some((mv, plies));
            }
            if self.vcf.aborted {
                return None;
            }
        }
        if !self.vcf.aborted {
            self.vcf.failed.insert(self.hash, fours);
        }
        None
    }

    /// After the attacker's stone, the defender to move (with no win at once: the attacker's
    /// stone stopped it): the moves to the attacker's five if every reply loses. `cells` are the
    /// cells the stone may have made winning.
    fn forced(&mut self, attacker: u8, cells: &[usize], fours: u32) -> Option<u32> {
        let defender = 3 - attacker;
        let mut threats: Vec<usize> = Vec::new();
        for &c in cells {
            if self.pos.cells[c] == 0
                && !threats.contains(&c)
                && self.would_win(c, attacker)
                && self.may_play(c, attacker)
            {
                threats.push(c);
            }
        }
        if threats.is_empty() {
            return None; // not a four after all (an overline, a line blocked at both ends)
        }
        let mut longest = 1;
        for reply in self.stoppers(&threats, attacker, true) {
            self.put(reply, defender);
            let next = self.vcf_from(attacker, fours - 1);
            self.take(reply, defender);
            longest = longest.max(next?.1);
        }
        Some(longest + 2)
    }

    /// The cells where the other player's stone leaves `attacker` no win on any of `threats`
    /// (its winning cells): the cells themselves and, when a line blocked at both ends does not
    /// win, the cells just beyond the lines they would complete. With `judged`, only the cells
    /// the judge lets the other player play.
    pub(super) fn stoppers(&mut self, threats: &[usize], attacker: u8, judged: bool) -> Vec<usize> {
        let defender = 3 - attacker;
        let mut options = threats.to_vec();
        if self.pos.goal.block_both_ends {
            for &w in threats {
                self.run_ends(w, attacker, &mut options);
            }
        }
        options.sort_unstable();
        options.dedup();
        let mut replies = Vec::new();
        for s in options {
            if self.pos.cells[s] != 0 || self.forbidden(s) {
                continue;
            }
            self.pos.cells[s] = defender;
            let stops = threats
                .iter()
                .all(|&w| self.pos.cells[w] != 0 || !self.would_win(w, attacker));
            self.pos.cells[s] = 0;
            // The judge is asked only about a cell that does stop the threats.
            if stops && (!judged || self.may_play(s, defender)) {
                replies.push(s);
            }
        }
        replies
    }

    /// Adds to `ends` the empty cells just beyond each run of at least `length` stones that
    /// `stone` on the empty cell `cell` would make.
    pub(super) fn run_ends(&mut self, cell: usize, stone: u8, ends: &mut Vec<usize>) {
        let (w, h) = (self.pos.width as isize, self.pos.height as isize);
        let (x, y) = ((cell as isize) % w, (cell as isize) / w);
        self.pos.cells[cell] = stone;
        for &(dx, dy) in &LINE_DIRECTIONS {
            let (dx, dy) = (dx as isize, dy as isize);
            let reach = |sx: isize, sy: isize| {
                let mut n = 1;
                while self.pos.at(x + sx * n, y + sy * n) == Some(stone) {
                    n += 1;
                }
                n
            };
            let (ahead, back) = (reach(dx, dy), reach(-dx, -dy));
            if ((ahead + back - 1) as usize) < self.pos.goal.length {
                continue;
            }
            for (ex, ey) in [
                (x + dx * ahead, y + dy * ahead),
                (x - dx * back, y - dy * back),
            ] {
                if ex >= 0 && ey >= 0 && ex < w && ey < h {
                    ends.push((ey * w + ex) as usize);
                }
            }
        }
        self.pos.cells[cell] = 0;
    }

    /// Whether the judge (if any) lets `stone`'s player put a stone on the empty cell `cell`
    /// here. Its screens are worked out each time (they read the windows the search keeps
    /// counted: cheaper than a look-up in a big table); the hook's answers, where the screens
    /// ask it, are remembered by position and cell for the moves of a game (at most
    /// [`JUDGED_KEPT`]; not those given after a hook failed). A win it allows is not judged
    /// (telling one costs less than the screens). A cell the move filter refuses is never
    /// played, by either player.
    pub(super) fn may_play(&mut self, cell: usize, stone: u8) -> bool {
        if self.forbidden(cell) {
            return false;
        }
        let Some(judge) = &self.pos.judge else {
            return true;
        };
        if !judge.players.contains(usize::from(stone - 1)) {
            return true;
        }
        let gathered = self.counted().then(|| self.windows.gathered(cell, stone));
        // A win fills a window of the shortest winning length: without one, no look for it.
        let full = self.windows.length();
        if judge.wins_allowed
            && gathered.is_none_or(|g| g.contains(&full))
            && self.pos.wins_at(cell, stone)
        {
            return true;
        }
        let mover = std::mem::replace(&mut self.pos.to_move, stone - 1);
        let kept = |window| gathered.filter(|_| window == full);
        let allowed = match self.pos.judge_screens_with(cell, kept) {
            Screened::Allowed => !self.pos.filtered || self.referee.keeps(&self.pos, cell),
            Screened::Refused => false,
            Screened::Asked => self.asked_here(cell, stone),
        };
        self.pos.to_move = mover;
        allowed
    }

    /// Whether `stone`'s player wins at once on the empty cell `cell` and may play there:
    /// [`Searcher::would_win`], then [`Self::may_play`] without its own look for a win where
    /// the judge allows every winning move (or does not judge the player).
    pub(super) fn may_win(&mut self, cell: usize, stone: u8) -> bool {
        if !self.would_win(cell, stone) || self.forbidden(cell) {
            return false;
        }
        match &self.pos.judge {
            Some(judge)
                if !judge.wins_allowed && judge.players.contains(usize::from(stone - 1)) =>
            {
                self.may_play(cell, stone)
            }
            _ => true,
        }
    }

    /// Whether the windows the search keeps counted are the ones the board shows, for the
    /// judge's screens to read: not with a move filter (its refused cells count as closed),
    /// nor where a line blocked at both ends does not win (the stones that would stop a double
    /// threat are judged with the threat's stone on the board, not counted).
    fn counted(&self) -> bool {
        self.forbidden.is_empty() && !self.pos.goal.block_both_ends
    }

    /// Whether the referee lets `stone`'s player, to move, put a stone on the empty cell `cell`
    /// its judge's screens ask it about: the move filter (if any), then the hook; the answer
    /// remembered ([`Self::may_play`]).
    fn asked_here(&mut self, cell: usize, stone: u8) -> bool {
        let key = (self.hash, cell as u32, stone);
        if let Some(&allowed) = self.memory.judged.get(&key) {
            return allowed;
        }
        let allowed = (!self.pos.filtered || self.referee.keeps(&self.pos, cell))
            && self.referee.allows(&self.pos, cell);
        if !self.referee.failed() {
            if self.memory.judged.len() >= JUDGED_KEPT {
                self.memory.judged.clear();
            }
            self.memory.judged.insert(key, allowed);
        }
        allowed
    }

    /// Every window of `length` cells along every line, for both players: where each could win
    /// at once and which moves make a four. Its buffers come from the scans given back by
    /// [`Self::recycle`].
    pub(super) fn scan(&mut self) -> Scan {
        self.scan_fours_of([true, true])
    }

    /// [`Self::scan`] with the moves that make a four of `stone` only (none of the other's).
    pub(super) fn scan_for(&mut self, stone: u8) -> Scan {
        self.scan_fours_of([stone == 1, stone == 2])
    }

    /// [`Self::scan`] with the moves that make a four of the players `fours` says only.
    fn scan_fours_of(&mut self, fours: [bool; 2]) -> Scan {
        let mut scan = self.spare_scans.pop().unwrap_or_default();
        self.windows.scan_into(&self.pos.cells, fours, &mut scan);
        scan
    }

    /// Gives back a scan done with, for the next [`Self::scan`] to fill (no allocation then).
    pub(super) fn recycle(&mut self, scan: Scan) {
        self.spare_scans.push(scan);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::time::Duration;

    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::native_games::placement::{
        judge::{AllowAll, Judge, Referee},
        tests::{position, FIVE_EXACT},
        LineGoal, Placement, Players,
    };

    const WEIGHTS: [i64; 6] = [0, 1, 12, 150, 2_000, 100_000];

    /// Five or more in a row wins (freestyle).
    const FIVE: LineGoal = LineGoal {
        length: 5,
        exact: Players::NONE,
        block_both_ends: false,
        edge_blocks: false,
    };

    /// Five or more, not blocked at both ends.
    const FIVE_UNBLOCKED: LineGoal = LineGoal {
        block_both_ends: true,
        ..FIVE
    };

    fn at(x: usize, y: usize) -> usize {
        y * 15 + x
    }

    /// The player to move's continuous fours, with a generous budget.
    pub(in crate::native_games::placement) fn vcf_of(
        p: &Placement,
        referee: &mut dyn Referee,
    ) -> Option<(usize, u32)> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut s = Searcher::new(p, &WEIGHTS, referee, deadline, 12);
        s.vcf(p.to_move + 1, 10_000_000)
    }

    /// Whether the player to move wins `p` whatever the defender replies, playing the moves the
    /// threat search gives: every reply on the board is tried.
    fn proven(p: &Placement, depth: u32) -> bool {
        holds_against_every_reply(p, depth, &|p| vcf_of(p, &mut AllowAll), false)
    }

    /// Whether the moves `find` gives the player to move (a threat search's first move) hold
    /// against every reply on the board: after each, the attacker wins at once or `find` gives
    /// a move again, `depth` moves deep; at that depth the line holds if `horizon_holds`.
    pub(in crate::native_games::placement) fn holds_against_every_reply(
        p: &Placement,
        depth: u32,
        find: &dyn Fn(&Placement) -> Option<(usize, u32)>,
        horizon_holds: bool,
    ) -> bool {
        let me = p.to_move();
        if p.empties().iter().any(|&c| p.wins_with(c as usize, me)) {
            return true;
        }
        let Some((mv, _)) = find(p) else {
            return false;
        };
        let mut after = p.clone();
        after.play(mv).unwrap();
        if after.outcome().is_some() || depth == 0 {
            return after.outcome().is_some() || horizon_holds;
        }
        after.empties().iter().all(|&reply| {
            let mut next = after.clone();
            next.play(reply as usize).unwrap();
            next.outcome().is_none()
                && holds_against_every_reply(&next, depth - 1, find, horizon_holds)
        })
    }

    /// X: a three on row 7 blocked on the left, and two stones in column 6 below it.
    pub(in crate::native_games::placement) fn four_then_open_four() -> Vec<(i64, i64, i64)> {
        vec![
            (3, 7, 1),
            (4, 7, 1),
            (5, 7, 1),
            (2, 7, 2),
            (6, 8, 1),
            (6, 9, 1),
            (10, 2, 2),
            (12, 12, 2),
            (1, 13, 2),
            (13, 1, 2),
        ]
    }

    #[test]
    fn finds_a_four_that_leads_to_an_open_four() {
        let p = position(&four_then_open_four(), 0, FIVE);
        let (mv, plies) = vcf_of(&p, &mut AllowAll).expect("a win by fours");
        assert_eq!(mv, at(6, 7), "the four on row 7 that also extends column 6");
        assert_eq!(plies, 5, "four, block, open four, block, five");
        assert!(proven(&p, 6));
        // O, to move in the same position, has no fours at all.
        let p = position(&four_then_open_four(), 1, FIVE);
        assert_eq!(vcf_of(&p, &mut AllowAll), None);
    }

    /// Refuses X's stones on the given cells.
    struct Refuses(Vec<usize>);

    impl Referee for Refuses {
        fn allows(&mut self, position: &Placement, index: usize) -> bool {
            position.to_move() != 0 || !self.0.contains(&index)
        }
    }

    #[test]
    fn the_defenders_four_is_stopped_first() {
        // O has four in column 10 (X below it), winning at (10, 14): X must block there, which
        // makes no four, so X's fours on row 7 and column 6 come too late.
        let mut stones = four_then_open_four();
        stones.extend([
            (10, 10, 2),
            (10, 11, 2),
            (10, 12, 2),
            (10, 13, 2),
            (10, 9, 1),
        ]);
        stones.extend([(0, 0, 1), (14, 0, 1)]);
        let p = position(&stones, 0, FIVE);
        assert_eq!(vcf_of(&p, &mut AllowAll), None);
    }

    #[test]
    fn a_cell_the_judge_refuses_is_no_threat() {
        let judge = Judge {
            hook: "hook".into(),
            players: Players::ALL,
            screen: None,
            wins_allowed: false,
            refuses: None,
            always_refuses: None,
        };
        let p = position(&four_then_open_four(), 0, FIVE).judged_by(judge);
        assert!(vcf_of(&p, &mut Refuses(vec![])).is_some());
        // Without the column's open ends the four on row 7 leads nowhere.
        let refused = vec![at(6, 6), at(6, 10)];
        assert_eq!(vcf_of(&p, &mut Refuses(refused)), None);
    }

    /// Allows every move and counts the questions.
    struct Counts(usize);

    impl Referee for Counts {
        fn allows(&mut self, _: &Placement, _: usize) -> bool {
            self.0 += 1;
            true
        }
    }

    #[test]
    fn the_judge_is_asked_only_about_the_fours_that_win() {
        // X's win: the four at (6, 7), O's block, the open four in column 6, O's block, the
        // five (a win: not asked about). Other fours are tried and lead nowhere.
        let judge = Judge {
            hook: "hook".into(),
            players: Players(1),
            screen: None,
            wins_allowed: true,
            refuses: None,
            always_refuses: None,
        };
        let p = position(&four_then_open_four(), 0, FIVE).judged_by(judge);
        let mut counts = Counts(0);
        assert!(vcf_of(&p, &mut counts).is_some());
        assert_eq!(counts.0, 2, "the two fours of the win");
    }

    #[test]
    fn a_four_is_stopped_beyond_its_far_end_when_blocked_lines_do_not_win() {
        // X: 3..6 on row 7, O at 2: X wins at 7 unless O plays 7, or 8 (then X's five would be
        // blocked at both ends).
        let stones = [
            (3, 7, 1),
            (4, 7, 1),
            (5, 7, 1),
            (6, 7, 1),
            (2, 7, 2),
            (9, 9, 2),
        ];
        let deadline = Instant::now() + Duration::from_secs(60);
        for (goal, stoppers) in [
            (FIVE_UNBLOCKED, vec![at(7, 7), at(8, 7)]),
            (FIVE, vec![at(7, 7)]),
        ] {
            let p = position(&stones, 1, goal);
            let mut referee = AllowAll;
            let mut s = Searcher::new(&p, &WEIGHTS, &mut referee, deadline, 12);
            assert_eq!(s.stoppers(&[at(7, 7)], 1, true), stoppers, "{goal:?}");
        }
    }

    #[test]
    fn every_win_by_fours_found_on_random_boards_holds_against_every_reply() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let mut found = 0;
        for round in 0..240 {
            let goal = [FIVE, FIVE_EXACT, FIVE_UNBLOCKED][round % 3];
            let mut stones = Vec::new();
            let mut taken = std::collections::HashSet::new();
            let n = rng.random_range(16..40);
            while stones.len() < n {
                let (x, y) = (rng.random_range(3..12), rng.random_range(3..12));
                if taken.insert((x, y)) {
                    stones.push((x, y, 1 + (stones.len() % 2) as i64));
                }
            }
            let p = position(&stones, round % 2, goal);
            if p.empties()
                .iter()
                .any(|&c| p.wins_with(c as usize, 0) || p.wins_with(c as usize, 1))
            {
                continue; // a four already on the board: not a test of the fours
            }
            if vcf_of(&p, &mut AllowAll).is_some() {
                found += 1;
                assert!(proven(&p, 12), "{goal:?} {stones:?}, {} to move", round % 2);
            }
        }
        assert!(found >= 10, "only {found} boards had a win by fours");
    }
}
