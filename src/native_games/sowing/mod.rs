//! Sowing games on a ring of pits — the mancala family: a move empties one of the mover's houses
//! and sows its seeds one per pit around the ring; what happens next (relay sowing, captures,
//! refills, the end) is chosen from a small set of rules ([`SowingRules`]). Played natively, with
//! no allocation per move, for random playouts and search. A rules script opts in by describing
//! its position with `native(state)` (see the README); tests check that the script and this
//! module agree move by move. A variant whose `moves()` keeps some of its base's moves narrows
//! the moves with a script move filter, asked once about each move a house could make
//! ([`Sowing::narrowed`]).

use std::sync::Arc;

use rand::Rng;

pub mod search;

use crate::runtime::{Outcome, Track};

/// A move stops relay sowing after this many relays (no known position relays this long; a
/// rules script doing the same would hit its sandbox's operation limit).
pub const MAX_RELAYS: usize = 100_000;

/// How a move captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// Nothing is ever captured.
    None,
    /// If the last seed lands on another player's side in a pit that now holds one of `counts`
    /// (a bit set: bit n for n seeds), take it, then the pits before it (against the sowing) on
    /// that side while they hold one of `counts`. With `grand_slam`, a capture that would take
    /// every pit of that side takes nothing.
    Counts {
        /// Bit n set: a pit holding n seeds is taken.
        counts: u64,
        /// A capture that would empty the whole side captures nothing.
        grand_slam: bool,
    },
    /// If the pit after the last seed is empty and the pit after that holds seeds, take them;
    /// then look again at the pit after the taken one (a chain).
    EmptyThenNext,
}

/// When the game ends (besides when the mover has no legal move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// When a player holds more than half of all seeds, or the board is empty.
    Majority,
    /// When every store (a pit that is not a house) is empty.
    StoresEmpty,
}

/// The rules of a sowing game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SowingRules {
    /// A move chooses to sow either way round (else always towards higher pit numbers).
    pub both_directions: bool,
    /// The sowing that starts a move never drops a seed into the pit it came from.
    pub skip_origin: bool,
    /// When the pit after the last seed is a house holding seeds, they are sown on (relay).
    pub relay: bool,
    /// How a move captures.
    pub capture: Capture,
    /// A house-capture of a pit still holding its big piece needs at least this many seeds
    /// besides the piece (0: always allowed).
    pub protect_below: i64,
    /// When the next player has no seeds in their houses, a move must sow into one of them.
    pub must_feed: bool,
    /// A player whose houses are all empty at the start of their turn puts one seed in each,
    /// paid from their score.
    pub refill: bool,
    /// The refill may make the score negative (otherwise a player who cannot pay has no move).
    pub borrow: bool,
    /// When the game ends.
    pub end: End,
    /// A position that repeats (since the last capture) ends the game.
    pub repetition: bool,
    /// When the game ends by repetition or for want of a move, each player takes the seeds in
    /// their own houses.
    pub collect: bool,
}

/// A move: the house to sow from and the direction (`+1` or `-1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SowMove {
    /// The house, a pit index.
    pub pit: usize,
    /// `+1` (towards higher pit numbers) or `-1`.
    pub dir: i64,
}

impl SowMove {
    /// A number for the move, below twice the number of pits: `2 × pit`, plus 1 towards `-1`.
    pub fn index(self) -> usize {
        2 * self.pit + usize::from(self.dir < 0)
    }
}

/// Decides, for a position whose captures a script hook judges ([`Sowing::capture_hooked`]),
/// whether a capture may take the seeds of a pit: the runtime's side of the hook.
pub trait CaptureJudge {
    /// Whether the capture under way in `position` may take the seeds in `pit`.
    fn may_take(&mut self, position: &Sowing, pit: usize) -> bool;
}

/// The rules alone: for positions without a capture hook (and their tests and benchmarks).
pub struct RulesOnly;

impl CaptureJudge for RulesOnly {
    fn may_take(&mut self, position: &Sowing, pit: usize) -> bool {
        !position.protected(pit)
    }
}

/// The fixed shape of a ring: who owns each pit and which pits are houses. Shared between the
/// positions of one game.
#[derive(Debug, PartialEq, Eq)]
struct Layout {
    owners: Vec<usize>,
    houses: Vec<bool>,
    /// Each player's houses, in pit order.
    houses_of: Vec<Vec<usize>>,
    /// The pits that are not houses.
    stores: Vec<usize>,
    /// The seeds in the game, on the board and in the scores (sowing and refills keep it).
    total: i64,
}

/// A position of a sowing game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sowing {
    rules: SowingRules,
    layout: Arc<Layout>,
    seeds: Vec<i64>,
    /// Pits holding a big piece (worth `piece_worth` of their seeds).
    pieces: Vec<bool>,
    piece_worth: i64,
    scores: Vec<i64>,
    to_move: usize,
    /// The positions (seeds then the player to move) since the last capture, flat.
    seen: Vec<i64>,
    /// Ended by repetition.
    repeated: bool,
    /// Whether a script hook judges each capture instead of the protection rule.
    capture_hooked: bool,
    /// The moves a script move filter keeps, by [`SowMove::index`]; `None`: every move.
    kept: Option<Arc<[bool]>>,
}

/// The description of a position: everything but the rules.
#[derive(Debug, Clone)]
pub struct Setup<'a> {
    /// The ring: seeds and owners.
    pub track: &'a Track,
    /// Which pits are houses (moves start from them); the others are stores.
    pub houses: Vec<bool>,
    /// Pits holding a big piece, and what it is worth.
    pub pieces: (Vec<bool>, i64),
    /// Each player's score.
    pub scores: Vec<i64>,
    /// The player to move.
    pub to_move: usize,
    /// Earlier positions since the last capture (each the seeds then the player to move).
    pub seen: Vec<Vec<i64>>,
}

impl Sowing {
    /// The position `setup` describes, under `rules`.
    pub fn new(rules: SowingRules, setup: Setup<'_>) -> Result<Self, String> {
        let players = setup.scores.len();
        let len = setup.track.len();
        if !(2..=64).contains(&players) || setup.to_move >= players {
            return Err(format!(
                "to_move {} is not one of {players} players",
                setup.to_move
            ));
        }
        if len < 2 {
            return Err("a sowing ring needs at least 2 pits".into());
        }
        let mut owners = Vec::with_capacity(len);
        for pit in 0..len {
            let owner = setup.track.owner(pit);
            if owner < 0 || owner as usize >= players {
                return Err(format!("pit {pit} has owner {owner}, not a player"));
            }
            owners.push(owner as usize);
        }
        let seeds = setup.track.values().to_vec();
        if let Some(pit) = seeds.iter().position(|&s| s < 0) {
            return Err(format!("pit {pit} holds {} seeds", seeds[pit]));
        }
        if setup.houses.len() != len || setup.pieces.0.len() != len {
            return Err("houses and pieces must name pits of the track".into());
        }
        let mut seen = Vec::new();
        for key in &setup.seen {
            if key.len() != len + 1 {
                return Err(format!(
                    "a seen position has {} numbers, not {}",
                    key.len(),
                    len + 1
                ));
            }
            seen.extend_from_slice(key);
        }
        let houses_of = (0..players)
            .map(|p| {
                (0..len)
                    .filter(|&i| setup.houses[i] && owners[i] == p)
                    .collect()
            })
            .collect();
        let stores = (0..len).filter(|&i| !setup.houses[i]).collect();
        let total = seeds.iter().sum::<i64>() + setup.scores.iter().sum::<i64>();
        let layout = Layout {
            owners,
            houses: setup.houses,
            houses_of,
            stores,
            total,
        };
        Ok(Sowing {
            rules,
            layout: Arc::new(layout),
            seeds,
            pieces: setup.pieces.0,
            piece_worth: setup.pieces.1,
            scores: setup.scores,
            to_move: setup.to_move,
            seen,
            repeated: false,
            capture_hooked: false,
            kept: None,
        })
    }

    /// This position with its captures judged by a script hook (see [`CaptureJudge`]): with
    /// `capture: empty_then_next`, each pit a capture chain reaches holding seeds is taken only
    /// if the hook says so. Positions that are hooked are played with the judge by every
    /// caller that has a script (`*_judged`).
    pub fn with_capture_hook(mut self) -> Result<Self, String> {
        if self.rules.capture != Capture::EmptyThenNext {
            return Err("a capture hook needs `capture: \"empty_then_next\"`".into());
        }
        self.capture_hooked = true;
        Ok(self)
    }

    /// This position with its moves narrowed by a script move filter: `keeps` is asked once about
    /// each move a house could make, and the moves it refuses are never legal here or in any
    /// later position (in playouts, search and the rules that look for a legal move alike):
    /// the filter's answer does not change during a game played from here (see
    /// [`crate::script::move_filter`]).
    pub fn narrowed<E>(
        mut self,
        mut keeps: impl FnMut(SowMove) -> Result<bool, E>,
    ) -> Result<Self, E> {
        let mut kept = vec![false; 2 * self.seeds.len()];
        for pit in (0..self.seeds.len()).filter(|&p| self.layout.houses[p]) {
            for &dir in self.directions() {
                let mv = SowMove { pit, dir };
                kept[mv.index()] = keeps(mv)?;
            }
        }
        self.kept = Some(kept.into());
        Ok(self)
    }

    /// The directions a move may sow: `[1]`, or `[1, -1]` when a move chooses.
    fn directions(&self) -> &'static [i64] {
        if self.rules.both_directions {
            &[1, -1]
        } else {
            &[1]
        }
    }

    /// Whether a move chooses the direction it sows (else it always sows towards `+1`).
    pub fn both_directions(&self) -> bool {
        self.rules.both_directions
    }

    /// Whether a script hook judges this position's captures.
    pub fn capture_hooked(&self) -> bool {
        self.capture_hooked
    }

    /// Whether the protection rule keeps a capture from taking `pit`: it holds its big piece
    /// and fewer than `protect_below` seeds besides.
    pub fn protected(&self, pit: usize) -> bool {
        self.pieces[pit] && self.seeds[pit] - self.piece_worth < self.rules.protect_below
    }

    /// For each store (a pit that is not a house), in pit order, whether it holds its big piece
    /// (as `native(state)` gives `pieces`).
    pub fn store_pieces(&self) -> Vec<bool> {
        self.layout.stores.iter().map(|&p| self.pieces[p]).collect()
    }

    /// The seeds in each pit.
    pub fn seeds(&self) -> &[i64] {
        &self.seeds
    }

    /// Each player's score.
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// The player to move (0-based).
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    /// Whether `other` is the same position (seeds, pieces, scores, player to move), whatever
    /// the rules and history.
    pub fn same_position(&self, other: &Sowing) -> bool {
        self.seeds == other.seeds
            && self.pieces == other.pieces
            && self.scores == other.scores
            && self.to_move == other.to_move
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.scores.len()
    }

    /// The pit after `pit` towards `dir` (`+1` or `-1`).
    fn step(&self, pit: usize, dir: i64) -> usize {
        let len = self.seeds.len();
        match (dir > 0, pit) {
            (true, p) if p + 1 == len => 0,
            (true, p) => p + 1,
            (false, 0) => len - 1,
            (false, p) => p - 1,
        }
    }

    /// The seeds in `player`'s houses.
    pub fn house_seeds(&self, player: usize) -> i64 {
        self.layout.houses_of[player]
            .iter()
            .map(|&p| self.seeds[p])
            .sum()
    }

    fn house_count(&self, player: usize) -> i64 {
        self.layout.houses_of[player].len() as i64
    }

    /// Whether the mover's houses are all empty, so that the refill comes first; `None` when
    /// they are empty but the mover cannot pay for it.
    fn refill_due(&self) -> Option<bool> {
        let p = self.to_move;
        if !self.rules.refill || self.house_seeds(p) > 0 {
            return Some(false);
        }
        (self.rules.borrow || self.scores[p] >= self.house_count(p)).then_some(true)
    }

    /// The legal moves, as after the refill, into `out` (cleared first), houses in pit order,
    /// `+1` before `-1`.
    pub fn legal_moves_into(&self, out: &mut Vec<SowMove>) {
        out.clear();
        self.each_move(|mv| {
            out.push(mv);
            true
        });
    }

    /// Calls `f` with each legal move until it returns `false`; returns whether it always went on.
    fn each_move(&self, mut f: impl FnMut(SowMove) -> bool) -> bool {
        if self.is_over() {
            return true;
        }
        let refill = self.refill_due() == Some(true);
        let p = self.to_move;
        let next = (p + 1) % self.players();
        let starving = self.rules.must_feed && self.house_seeds(next) == 0;
        for &pit in &self.layout.houses_of[p] {
            let n = if refill { 1 } else { self.seeds[pit] };
            if n == 0 {
                continue;
            }
            for &dir in self.directions() {
                let mv = SowMove { pit, dir };
                if self.kept.as_ref().is_some_and(|kept| !kept[mv.index()]) {
                    continue;
                }
                if (!starving || self.feeds(pit, n, dir, next)) && !f(mv) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the player to move has a legal move.
    fn has_move(&self) -> bool {
        !self.each_move(|_| false)
    }

    /// The legal moves (see [`Self::legal_moves_into`]).
    pub fn legal_moves(&self) -> Vec<SowMove> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Whether sowing `n` seeds from `pit` towards `dir` drops one into a house of `player`.
    fn feeds(&self, pit: usize, n: i64, dir: i64, player: usize) -> bool {
        let mut at = pit;
        for _ in 0..n.min(self.seeds.len() as i64 - 1) {
            at = self.step(at, dir);
            if self.layout.houses[at] && self.layout.owners[at] == player {
                return true;
            }
        }
        false
    }

    /// Drops `n` seeds one per pit after `from` towards `dir` (passing over `from` itself when
    /// `skip` is set); returns the pit of the last seed.
    fn sow(&mut self, from: usize, n: i64, dir: i64, skip: bool) -> usize {
        let len = self.seeds.len() as i64;
        let open = if skip { len - 1 } else { len };
        let (laps, rest) = (n / open, n % open);
        let mut at = from;
        let mut last = from;
        for k in 0..open {
            at = self.step(at, dir);
            if skip && at == from {
                at = self.step(at, dir);
            }
            let extra = i64::from(k < rest);
            self.seeds[at] += laps + extra;
            if extra == 1 || (rest == 0 && laps > 0) {
                last = at;
            }
        }
        last
    }

    /// Plays `mv`; an illegal move is an error and changes nothing. Captures follow the rules
    /// alone (see [`Self::play_judged`]).
    pub fn play(&mut self, mv: SowMove) -> Result<(), String> {
        self.play_judged(mv, &mut RulesOnly)
    }

    /// [`Self::play`], a hooked position's captures judged by `judge`.
    pub fn play_judged(&mut self, mv: SowMove, judge: &mut dyn CaptureJudge) -> Result<(), String> {
        let mut legal = Vec::new();
        self.legal_moves_into(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!(
                "sowing pit {} towards {} is not legal",
                mv.pit, mv.dir
            ));
        }
        self.apply(mv, judge);
        Ok(())
    }

    /// Plays a legal move.
    fn apply(&mut self, mv: SowMove, judge: &mut dyn CaptureJudge) {
        let p = self.to_move;
        if self.refill_due() == Some(true) {
            for &pit in &self.layout.houses_of[p] {
                self.seeds[pit] = 1;
                self.scores[p] -= 1;
            }
        }
        let n = std::mem::take(&mut self.seeds[mv.pit]);
        let mut last = self.sow(mv.pit, n, mv.dir, self.rules.skip_origin);
        if self.rules.relay {
            for _ in 0..MAX_RELAYS {
                let next = self.step(last, mv.dir);
                if !self.layout.houses[next] || self.seeds[next] == 0 {
                    break;
                }
                let n = std::mem::take(&mut self.seeds[next]);
                last = self.sow(next, n, mv.dir, false);
            }
        }
        let taken = match self.rules.capture {
            Capture::None => 0,
            Capture::Counts { counts, grand_slam } => {
                self.capture_counts(p, last, mv.dir, counts, grand_slam)
            }
            Capture::EmptyThenNext => self.capture_chain(last, mv.dir, judge),
        };
        self.scores[p] += taken;
        self.to_move = (p + 1) % self.players();
        if !self.rules.repetition && !self.rules.collect {
            return;
        }
        if taken > 0 {
            self.seen.clear();
        }
        if self.rules.repetition {
            let len = self.seeds.len() + 1;
            let repeats = self
                .seen
                .chunks_exact(len)
                .any(|key| key[len - 1] == self.to_move as i64 && key[..len - 1] == self.seeds[..]);
            if repeats {
                self.repeated = true;
                self.collect();
                return;
            }
            self.seen.extend_from_slice(&self.seeds);
            self.seen.push(self.to_move as i64);
        }
        if self.rules.collect && !self.has_move() {
            self.collect();
        }
    }

    /// Each player takes the seeds in their own houses.
    fn collect(&mut self) {
        for (p, houses) in self.layout.houses_of.iter().enumerate() {
            for &pit in houses {
                self.scores[p] += std::mem::take(&mut self.seeds[pit]);
            }
        }
    }

    fn capture_counts(&mut self, p: usize, last: usize, dir: i64, counts: u64, slam: bool) -> i64 {
        let owners = &self.layout.owners;
        let side = owners[last];
        let takes = |s: i64| (0..64).contains(&s) && counts & (1 << s) != 0;
        if side == p || !takes(self.seeds[last]) {
            return 0;
        }
        if slam {
            let mut after = self.step(last, dir);
            let mut rest_empty = true;
            while owners[after] == side && after != last {
                rest_empty &= self.seeds[after] == 0;
                after = self.step(after, dir);
            }
            let mut before = last;
            let mut all_taken = true;
            while owners[before] == side {
                all_taken &= takes(self.seeds[before]);
                before = self.step(before, -dir);
                if before == last {
                    break;
                }
            }
            if rest_empty && all_taken {
                return 0;
            }
        }
        let mut taken = 0;
        let mut at = last;
        for _ in 0..self.seeds.len() {
            if owners[at] != side || !takes(self.seeds[at]) {
                break;
            }
            taken += std::mem::take(&mut self.seeds[at]);
            at = self.step(at, -dir);
        }
        taken
    }

    fn capture_chain(&mut self, last: usize, dir: i64, judge: &mut dyn CaptureJudge) -> i64 {
        let mut taken = 0;
        let mut next = self.step(last, dir);
        while self.seeds[next] == 0 {
            let target = self.step(next, dir);
            if self.seeds[target] == 0 {
                break;
            }
            let allowed = if self.capture_hooked {
                judge.may_take(self, target)
            } else {
                !self.protected(target)
            };
            if !allowed {
                break;
            }
            taken += std::mem::take(&mut self.seeds[target]);
            self.pieces[target] = false;
            next = self.step(target, dir);
        }
        taken
    }

    fn is_over(&self) -> bool {
        if self.repeated {
            return true;
        }
        match self.rules.end {
            End::Majority => {
                let total = self.layout.total;
                self.scores.iter().sum::<i64>() == total
                    || self.scores.iter().any(|&s| 2 * s > total)
            }
            End::StoresEmpty => self.layout.stores.iter().all(|&p| self.seeds[p] == 0),
        }
    }

    /// Each player's score with the seeds in their own houses added.
    pub fn final_scores(&self) -> Vec<i64> {
        (0..self.players())
            .map(|p| self.scores[p] + self.house_seeds(p))
            .collect()
    }

    /// The outcome once the game is over (the end rule holds, or the mover has no legal move):
    /// the player with the highest [`Self::final_scores`] wins, a shared highest is a draw.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() && self.has_move() {
            return None;
        }
        let scores = self.final_scores();
        let best = *scores.iter().max()?;
        let mut leaders = (0..scores.len()).filter(|&p| scores[p] == best);
        match (leaders.next(), leaders.next()) {
            (Some(p), None) => Some(Outcome::Win(p)),
            _ => Some(Outcome::Draw),
        }
    }

    /// Plays uniformly random legal moves to the end (at most `max_plies`); returns the outcome
    /// (`None` if the game did not end) and the moves played.
    pub fn random_playout(
        &mut self,
        rng: &mut impl Rng,
        max_plies: usize,
    ) -> (Option<Outcome>, usize) {
        self.random_playout_judged(rng, max_plies, &mut RulesOnly)
    }

    /// [`Self::random_playout`], a hooked position's captures judged by `judge`.
    pub fn random_playout_judged(
        &mut self,
        rng: &mut impl Rng,
        max_plies: usize,
        judge: &mut dyn CaptureJudge,
    ) -> (Option<Outcome>, usize) {
        let mut moves = Vec::with_capacity(2 * self.seeds.len());
        for plies in 0..max_plies {
            self.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return (self.outcome(), plies);
            }
            let mv = moves[rng.random_range(0..moves.len())];
            self.apply(mv, judge);
        }
        (self.outcome(), max_plies)
    }
}

#[cfg(test)]
mod tests;
