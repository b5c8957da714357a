//! Threat search by continuous threats (VCT) for the placement family: the attacker plays only
//! moves that threaten — a four (one more stone wins) or an open three (one more stone makes an
//! open four, two winning cells no single stone stops) — so that the defender's replies are few.
//! Against a four the defender must stop it; against an open three the defender plays one of its
//! defending cells (a cell after which the attacker has no open four to make) or makes a four of
//! their own, which the attacker must stop in turn. The attacker wins when every reply loses.
//!
//! Every threat is defined by the rules' own win test (`length`, `exact`, `block_both_ends`)
//! and the judge's word on the moves of the players it judges, as in the continuous fours
//! ([`super::threat_search`]): a "four" is a move after which a cell wins, an "open four" one
//! after which the winning cells cannot all be stopped by one stone. The search deepens the
//! number of threats one at a time and remembers the positions it failed in.

use std::time::Instant;

use foldhash::HashMap;

use super::{threat_search::Scan, Searcher};

/// The most threats (attacker moves) one line of continuous threats may play.
pub const MAX_THREATS: u32 = 11;

/// The state of the searches by continuous threats of one search.
pub(super) struct Vct {
    /// Positions the running search may still visit.
    left: u64,
    /// When the running search stops.
    pub until: Instant,
    /// Positions visited by every search so far.
    pub nodes: u64,
    /// Whether the running search stopped early (its failure then proves nothing).
    pub aborted: bool,
    /// The most threats the last search looked through completely without finding a win.
    pub cleared: u32,
    /// Positions (hash, the attacker to move) with no continuous threats of up to `n` threats:
    /// the largest such `n` (kept between the searches of a game).
    pub failed: HashMap<u64, u32>,
}

impl Vct {
    /// A state whose searches stop at `until`, knowing the positions `failed` without.
    pub fn new(until: Instant, failed: HashMap<u64, u32>) -> Vct {
        Vct {
            left: 0,
            until,
            nodes: 0,
            aborted: false,
            cleared: 0,
            failed,
        }
    }
}

/// An attacker's move that makes an open four: the move and the cells that then win.
type OpenFour = (usize, Vec<usize>);

impl Searcher<'_> {
    /// The first move of a victory by continuous threats for `stone` (the player to move, or the
    /// player a [`Searcher::pass`] let move); at most `nodes` positions are visited, and none
    /// after [`Vct::until`]. Lines of fewer threats are searched first. With the move, the most
    /// moves of the line to the five (the defender's own fours not counted).
    pub(super) fn vct(&mut self, stone: u8, nodes: u64) -> Option<(usize, u32)> {
        self.vct_beyond(stone, nodes, 0)
    }

    /// [`Self::vct`] among the lines of more than `known` threats only, those of `known` or
    /// fewer being known to fail. [`Vct::cleared`] then says how many threats were looked
    /// through without a win.
    pub(super) fn vct_beyond(&mut self, stone: u8, nodes: u64, known: u32) -> Option<(usize, u32)> {
        self.vct.cleared = known;
        if self.pos.goal.length < 4 {
            self.vct.cleared = MAX_THREATS;
            return None; // no three that threatens an open four
        }
        self.vct.left = nodes;
        self.vct.aborted = false;
        for threats in known + 1..=MAX_THREATS {
            if let Some(mv) = self.vct_attack(stone, threats) {
                return Some((mv, 2 * threats + 1));
            }
            if self.vct.aborted {
                return None;
            }
            self.vct.cleared = threats;
        }
        None
    }

    /// The defending side of [`Self::vct`]: the cells worth trying against `stone`'s
    /// continuous threats (the player to move, or the player a [`Searcher::pass`] let move) —
    /// its threatening moves' cells and the replies that answer its first threat — or `None`
    /// if no continuous threats are found within `nodes` positions.
    pub(super) fn vct_threat_cells(&mut self, stone: u8, nodes: u64) -> Option<Vec<usize>> {
        let (first, _) = self.vct(stone, nodes)?;
        let mut cells = vec![first];
        self.put(first, stone);
        let scan = self.scan();
        let wins = self.winning_cells(&scan.wins[usize::from(stone - 1)], stone);
        if wins.is_empty() {
            let defences = self.three_defences(stone, &scan.fours[usize::from(stone - 1)]);
            cells.extend(defences.into_iter().filter(|&c| c != usize::MAX));
        } else {
            cells.extend(self.stoppers(&wins, stone, false));
        }
        self.take(first, stone);
        cells.sort_unstable();
        cells.dedup();
        Some(cells)
    }

    /// Whether `stone` on the empty cell `cell` makes an open three: a stone that leaves
    /// `stone` a move making an open four on a line through `cell`.
    pub(super) fn makes_open_three(&mut self, cell: usize, stone: u8) -> bool {
        if self.pos.goal.length < 4 {
            return false;
        }
        self.put(cell, stone);
        let fours = self.windows.fours_through(&self.pos.cells, cell, stone);
        let open = !fours.is_empty() && !self.open_fours(stone, &fours).is_empty();
        self.take(cell, stone);
        open
    }

    /// If `them`'s stone on `last` made an open three (the player to move facing no four), the
    /// moves that answer it — its defending cells and the player to move's own fours — as
    /// `(attack gain, cell)`, the best for both sides first; `None` if it made none.
    pub(super) fn three_answers(&mut self, last: usize, them: u8) -> Option<Vec<(i64, usize)>> {
        if self.pos.goal.length < 4 {
            return None;
        }
        let fours = self.windows.fours_through(&self.pos.cells, last, them);
        if fours.is_empty() {
            return None;
        }
        let defences = self.three_defences(them, &fours);
        if defences.is_empty() {
            return None;
        }
        let me = 3 - them;
        let mut cells: Vec<usize> = defences.into_iter().filter(|&c| c != usize::MAX).collect();
        cells.extend(self.scan().fours[usize::from(me - 1)].iter().map(|f| f.0));
        cells.sort_unstable();
        cells.dedup();
        if cells.is_empty() {
            return None;
        }
        let mut moves: Vec<(i64, i64, usize)> = cells
            .into_iter()
            .map(|c| {
                let (attack, defence) = self.windows.gain(c, me);
                (attack + defence, attack, c)
            })
            .collect();
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        Some(moves.into_iter().map(|m| (m.1, m.2)).collect())
    }

    /// Whether the search has run out of positions or time (then marked aborted).
    fn vct_spent(&mut self) -> bool {
        if self.vct.left == 0
            || (self.vct.nodes.is_multiple_of(64) && crate::cancel::past(self.vct.until))
        {
            self.vct.left = 0;
            self.vct.aborted = true;
            return true;
        }
        self.vct.left -= 1;
        self.vct.nodes += 1;
        false
    }

    /// The attacker to move, with at most `threats` more threats: its first winning move.
    fn vct_attack(&mut self, attacker: u8, threats: u32) -> Option<usize> {
        if self.vct_spent() {
            return None;
        }
        let scan = self.scan_for(attacker);
        let found = self.vct_attack_scanned(attacker, threats, &scan);
        self.recycle(scan);
        found
    }

    /// [`Self::vct_attack`] once the position is scanned (`scan`).
    fn vct_attack_scanned(&mut self, attacker: u8, threats: u32, scan: &Scan) -> Option<usize> {
        let (a, d) = (usize::from(attacker - 1), usize::from(2 - attacker));
        let defender = 3 - attacker;
        for &w in &scan.wins[a] {
            if self.may_win(w, attacker) {
                return Some(w);
            }
        }
        if threats == 0
            || self
                .vct
                .failed
                .get(&self.hash)
                .is_some_and(|&f| f >= threats)
        {
            return None;
        }
        let theirs = self.winning_cells(&scan.wins[d], defender);
        let moves = if theirs.is_empty() {
            // Fours first, then threes (when there are threats enough left to win by one: the
            // three, the open four).
            let mut moves: Vec<usize> = scan.fours[a].iter().map(|m| m.0).collect();
            moves.sort_unstable();
            moves.dedup();
            if threats >= 2 {
                let threes = self.windows.three_moves(&self.pos.cells, attacker);
                let threes: Vec<usize> =
                    threes.into_iter().filter(|c| !moves.contains(c)).collect();
                moves.extend(threes);
            }
            moves
        } else {
            // The defender's four (a counter to a three) must be stopped; the attacker's
            // threats go on only if the stopping stone leaves one.
            self.stoppers(&theirs, defender, true)
        };
        for mv in moves {
            self.put(mv, attacker);
            let won = self.vct_defend(attacker, threats - 1);
            self.take(mv, attacker);
            // The judge is asked only about a threat that wins: most lead nowhere.
            if won && self.may_play(mv, attacker) {
                return Some(mv);
            }
            if self.vct.aborted {
                return None;
            }
        }
        if !self.vct.aborted {
            self.vct.failed.insert(self.hash, threats);
        }
        None
    }

    /// The defender to move after the attacker's stone: whether every reply loses. A position
    /// where the attacker threatens nothing is no loss.
    fn vct_defend(&mut self, attacker: u8, threats: u32) -> bool {
        if self.vct_spent() {
            return false;
        }
        let scan = self.scan();
        let lost = self.vct_defend_scanned(attacker, threats, &scan);
        self.recycle(scan);
        lost
    }

    /// [`Self::vct_defend`] once the position is scanned (`scan`).
    fn vct_defend_scanned(&mut self, attacker: u8, threats: u32, scan: &Scan) -> bool {
        let (a, d) = (usize::from(attacker - 1), usize::from(2 - attacker));
        let defender = 3 - attacker;
        if !self.winning_cells(&scan.wins[d], defender).is_empty() {
            return false;
        }
        let wins = self.winning_cells(&scan.wins[a], attacker);
        let replies = if wins.is_empty() {
            if threats == 0 {
                return false;
            }
            let mut replies = self.three_defences(attacker, &scan.fours[a]);
            if replies.is_empty() {
                return false; // not a three
            }
            if replies == [usize::MAX] {
                replies.clear(); // a three no stone stops: only the defender's fours remain
            }
            let mut fours: Vec<usize> = scan.fours[d].iter().map(|m| m.0).collect();
            fours.sort_unstable();
            fours.dedup();
            for c in fours {
                if !replies.contains(&c) {
                    replies.push(c);
                }
            }
            replies
        } else {
            self.stoppers(&wins, attacker, false)
        };
        for reply in replies {
            self.put(reply, defender);
            let won = self.vct_attack(attacker, threats).is_some();
            self.take(reply, defender);
            // The judge is asked only about a reply that holds: a refused one is no reply.
            if !won && (self.vct.aborted || self.may_play(reply, defender)) {
                return false;
            }
        }
        true
    }

    /// Of `cells` (a scan's winning cells of `stone`), those where `stone` may play and wins.
    fn winning_cells(&mut self, cells: &[usize], stone: u8) -> Vec<usize> {
        let mut wins = Vec::new();
        for &c in cells {
            if self.may_win(c, stone) {
                wins.push(c);
            }
        }
        wins
    }

    /// `attacker`'s moves among `fours` (a scan's moves that make a four) that make an open
    /// four, each with the cells that then win.
    fn open_fours(&mut self, attacker: u8, fours: &[(usize, usize)]) -> Vec<OpenFour> {
        let mut fours = fours.to_vec();
        fours.sort_unstable();
        fours.dedup();
        let mut open = Vec::new();
        for group in fours.chunk_by(|x, y| x.0 == y.0) {
            let mv = group[0].0;
            if group.len() < 2 {
                continue;
            }
            self.put(mv, attacker);
            let cells: Vec<usize> = group.iter().map(|g| g.1).collect();
            let wins = self.winning_cells(&cells, attacker);
            let opens = wins.len() >= 2 && self.stoppers(&wins, attacker, true).is_empty();
            self.take(mv, attacker);
            // The judge is asked only about a move that does make an open four.
            if opens && self.may_play(mv, attacker) {
                open.push((mv, wins));
            }
        }
        open
    }

    /// The defender's cells against `attacker`'s three (with no four on the board): those after
    /// which `attacker` has no open four to make. Empty if `attacker` has no open four to make
    /// (no three); `[usize::MAX]` if no single stone stops them all.
    fn three_defences(&mut self, attacker: u8, fours: &[(usize, usize)]) -> Vec<usize> {
        let open = self.open_fours(attacker, fours);
        if open.is_empty() {
            return Vec::new();
        }
        let defender = 3 - attacker;
        // A cell that spoils every open four is the move or a winning cell of each, or (when a
        // line blocked at both ends does not win) a cell just beyond a line it would complete.
        let mut cells = Vec::new();
        for (mv, wins) in &open {
            cells.push(*mv);
            cells.extend(wins);
            if self.pos.goal.block_both_ends {
                self.pos.cells[*mv] = attacker;
                for &w in wins {
                    self.run_ends(w, attacker, &mut cells);
                }
                self.pos.cells[*mv] = 0;
            }
        }
        cells.sort_unstable();
        cells.dedup();
        let mut defences = Vec::new();
        for c in cells {
            if self.pos.cells[c] != 0 {
                continue;
            }
            self.put(c, defender);
            let spoiled = open.iter().all(|(mv, _)| {
                *mv == c || {
                    let fours = self.windows.fours_through(&self.pos.cells, *mv, attacker);
                    let fours: Vec<_> = fours.into_iter().filter(|f| f.0 == *mv).collect();
                    self.open_fours(attacker, &fours).is_empty()
                }
            });
            self.take(c, defender);
            // The judge is asked only about a cell that does stop the three.
            if spoiled && self.may_play(c, defender) {
                defences.push(c);
            }
        }
        if defences.is_empty() {
            defences.push(usize::MAX);
        }
        defences
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::native_games::placement::{
        judge::AllowAll,
        search::{threat_search::tests::holds_against_every_reply, SearchLimits, WIN},
        tests::{position, FIVE_EXACT},
        LineGoal, Placement, Players,
    };

    const WEIGHTS: [i64; 6] = [0, 1, 12, 150, 2_000, 100_000];

    /// Five or more in a row wins (overlines too).
    const FIVE: LineGoal = LineGoal {
        length: 5,
        exact: Players::NONE,
        block_both_ends: false,
        edge_blocks: false,
    };

    fn at(x: usize, y: usize) -> usize {
        y * 15 + x
    }

    /// The player to move's continuous threats, with a generous budget.
    fn vct_of(p: &Placement) -> Option<(usize, u32)> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut referee = AllowAll;
        let mut s = Searcher::new(p, &WEIGHTS, &mut referee, deadline, 12);
        s.vct(p.to_move + 1, 200_000)
    }

    /// The player to move's continuous fours, with a generous budget.
    fn vcf_of(p: &Placement) -> Option<(usize, u32)> {
        super::super::threat_search::tests::vcf_of(p, &mut AllowAll)
    }

    /// Whether the continuous threats found for the player to move hold against every reply
    /// on the board: after the first move, each reply leaves the attacker a win at once or
    /// continuous threats again, `depth` moves deep.
    fn holds(p: &Placement, depth: u32) -> bool {
        holds_against_every_reply(p, depth, &vct_of, true)
    }

    /// X: two twos crossing at (7, 7) — a stone there makes two open threes; O far away.
    fn double_three() -> Vec<(i64, i64, i64)> {
        vec![
            (5, 7, 1),
            (6, 7, 1),
            (7, 5, 1),
            (7, 6, 1),
            (1, 1, 2),
            (13, 1, 2),
            (1, 13, 2),
            (13, 13, 2),
        ]
    }

    #[test]
    fn finds_continuous_threats_where_there_are_no_continuous_fours() {
        for goal in [FIVE, FIVE_EXACT] {
            let p = position(&double_three(), 0, goal);
            assert_eq!(vcf_of(&p), None, "{goal:?}");
            let (mv, _) = vct_of(&p).expect("continuous threats");
            assert!(holds(&p, 2), "{goal:?}: {mv}");
            // O, to move, has none.
            assert_eq!(vct_of(&position(&double_three(), 1, goal)), None);
        }
    }

    #[test]
    fn the_defenders_four_is_stopped_first() {
        // X's double three as above, but O has a four on row 12 (one end blocked): X must
        // block at (7, 12), which threatens nothing, so X has no continuous threats.
        let mut stones = double_three();
        stones.retain(|s| s.2 == 1);
        stones.extend([(3, 12, 2), (4, 12, 2), (5, 12, 2), (6, 12, 2)]);
        stones.extend([(2, 12, 1), (12, 2, 1)]);
        stones.extend([(1, 1, 2), (13, 1, 2)]);
        let p = position(&stones, 0, FIVE);
        assert_eq!(vct_of(&p), None);
    }

    #[test]
    fn the_search_plays_continuous_threats() {
        let limits = SearchLimits {
            time: Duration::from_secs(20),
            max_depth: 1,
            width: 12,
            seed: 1,
            nodes: None,
        };
        let p = position(&double_three(), 0, FIVE);
        let found = p.best_move(&WEIGHTS, limits).unwrap();
        assert!(found.score >= WIN / 2, "{found:?}");
        let mut after = p.clone();
        after.play(found.cell).unwrap();
        assert!(after.empties().iter().all(|&reply| {
            let mut next = after.clone();
            next.play(reply as usize).unwrap();
            vct_of(&next).is_some()
        }));
    }

    /// Stones, the player to move, and the moves that refute the opponent's threats.
    type Case<'a> = (&'a [(i64, i64, i64)], usize, &'a [usize]);

    #[test]
    fn the_search_refutes_the_opponents_continuous_threats() {
        // Positions where the opponent (not to move) has continuous threats and only a few
        // moves refute them (found by trying every move); one move deep, alpha-beta alone
        // plays another.
        let limits = SearchLimits {
            time: Duration::from_secs(20),
            max_depth: 1,
            width: 12,
            seed: 1,
            nodes: None,
        };
        let cases: [Case<'_>; 2] = [
            (
                &[
                    (8, 7, 1),
                    (9, 7, 2),
                    (6, 9, 1),
                    (5, 8, 2),
                    (5, 9, 1),
                    (10, 9, 2),
                    (7, 6, 1),
                ],
                1,
                &[at(7, 8), at(7, 9), at(8, 9)],
            ),
            (
                &[
                    (9, 8, 1),
                    (7, 5, 2),
                    (6, 5, 1),
                    (4, 8, 2),
                    (4, 7, 1),
                    (6, 6, 2),
                ],
                0,
                &[at(8, 4), at(5, 7), at(3, 9)],
            ),
        ];
        for (stones, to_move, refuting) in cases {
            let p = position(stones, to_move, FIVE);
            let mut passed = p.clone();
            passed.to_move = 1 - passed.to_move;
            assert!(vct_of(&passed).is_some(), "{stones:?}");
            let found = p.best_move(&WEIGHTS, limits).unwrap();
            assert!(refuting.contains(&found.cell), "{stones:?}: {found:?}");
            let mut after = p.clone();
            after.play(found.cell).unwrap();
            assert_eq!(vct_of(&after), None);
        }
    }

    /// A measurement, not a check (see docs/src/computer.md): for each position of the file
    /// `VCT_POSITIONS` (lines `… | x,y,p …` as `benches/gomocup/mates.py` writes them, player
    /// 1 to move, freestyle), the search by continuous threats of the player to move within
    /// `VCT_NODES` positions (default 50 000): what it found, the threats it looked through,
    /// the positions it took; then how many it found.
    #[test]
    #[ignore]
    fn continuous_threats_of_the_positions_in_a_file() {
        let Ok(file) = std::env::var("VCT_POSITIONS") else {
            return;
        };
        let nodes = std::env::var("VCT_NODES").map_or(50_000, |n| n.parse().unwrap());
        let text = std::fs::read_to_string(file).unwrap();
        let (mut found, mut searched) = (0, 0);
        for line in text.lines() {
            let Some((head, stones)) = line.split_once('|') else {
                continue;
            };
            let stones: Vec<(i64, i64, i64)> = stones
                .split_whitespace()
                .map(|s| {
                    let v: Vec<i64> = s.split(',').map(|x| x.parse().unwrap()).collect();
                    (v[0], v[1], v[2])
                })
                .collect();
            let p = position(&stones, 0, FIVE);
            let deadline = Instant::now() + Duration::from_secs(600);
            let mut referee = AllowAll;
            let mut s = Searcher::new(&p, &WEIGHTS, &mut referee, deadline, 12);
            let won = s.vct(1, nodes);
            println!(
                "{head}: {won:?}, {} threats looked through, {} positions",
                s.vct.cleared, s.vct.nodes
            );
            searched += 1;
            found += usize::from(won.is_some());
        }
        println!("found continuous threats in {found} of {searched} positions");
    }

    #[test]
    fn every_win_by_threats_found_on_random_boards_holds_against_every_reply() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(33);
        let mut found = 0;
        for round in 0..90 {
            let goal = [FIVE, FIVE_EXACT][round % 2];
            let mut stones = Vec::new();
            let mut taken = std::collections::HashSet::new();
            let n = rng.random_range(8..24);
            while stones.len() < n {
                let (x, y) = (rng.random_range(4..11), rng.random_range(4..11));
                if taken.insert((x, y)) {
                    stones.push((x, y, 1 + (stones.len() % 2) as i64));
                }
            }
            let p = position(&stones, round % 2, goal);
            if p.empties()
                .iter()
                .any(|&c| p.wins_with(c as usize, 0) || p.wins_with(c as usize, 1))
            {
                continue;
            }
            if vcf_of(&p).is_none() && vct_of(&p).is_some() {
                found += 1;
                assert!(holds(&p, 1), "{goal:?} {stones:?}, {} to move", round % 2);
            }
        }
        assert!(found >= 5, "only {found} boards had a win by threats only");
    }
}
