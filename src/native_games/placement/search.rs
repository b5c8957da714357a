//! Native search for placement games: alpha-beta (negamax) with iterative deepening under a time
//! budget, a threat search before it, and a transposition table keyed by Zobrist hashes that is
//! kept between the searches of one thread (the moves of one game). Positions are scored by
//! windows: every `length` cells in a line that hold stones of one player only score
//! `weights[n]` for that player (n stones in the window), so open and half-open runs, broken runs
//! and double threats all count. The weights come from the rules script.
//!
//! Before alpha-beta, the root looks for a victory by continuous fours
//! ([`threat_search`]), then by continuous threats — fours and open threes
//! ([`continuous_threats`]) — for the player to move and, if the opponent has one, keeps only
//! the moves that refute it (against continuous threats: of their threats' cells, the cells
//! that answer their first threat and our own fours, those after which none is found). At the
//! root, alpha-beta searches the first move with the whole window and every other with a null
//! window first (principal-variation search): a move found better than the best so far is
//! checked for what it leaves the opponent — if they have continuous fours or threats after it
//! (a search bounded by positions, its answer kept by position), the move is scored as lost —
//! and only then searched again with the whole window; a move no better is not checked, as it
//! is not played either way. Inside alpha-beta: a player who can win at once does; a four must be stopped (only the moves that
//! stop it are searched); an open three must be answered (only its defending cells and the
//! player's own fours are searched); a move that makes a four or an open three is searched one
//! move deeper (a threat extension, at most [`MAX_EXTENSIONS`] on a line); two and three moves
//! below the root the player to move looks for continuous fours; moves are ordered by the
//! remembered best move, then the moves that refuted others at the same depth (killers), then
//! by what they do for both sides, ties broken by how often a move refuted others (history).
//! A loss is a forced result only where every move of the node was searched (a four's blocks,
//! an open three's answers, or no more moves than the width); a loss found in the `width` best
//! ordered moves only is an unproven loss, a very bad evaluation. So a won score in the table
//! is a proof, and a root the game reaches with one plays its move without searching again.
//!
//! The search stops at its time or, given a budget of positions ([`SearchLimits::nodes`]), once
//! it has visited them; then the root's threat searches take shares of the positions instead of
//! shares of the time, so that a position gets the same answer however busy the machine is.
//!
//! A judged position's judge (a rule such as points forbidden to one player) is asked, where
//! its screen says the rule can matter, about every move alpha-beta would take as its best so
//! far, every win at once it counts on and the double threat its leaves look for, as the threat
//! searches ask it (about a threat once it wins): a move the judge refuses counts for nothing.
//! Its screens are worked out each time, from the window counts the search keeps (a few hundred
//! instructions: less than a look-up in a big table costs once its cache misses count); the
//! hook, where they ask it, is asked once per answer: its answers are kept by position (Zobrist
//! hash) and cell, with the transposition table, from one search of a game to the next, for
//! the same script text and options (the referee's [`Referee::answers_key`]).
//!
//! A filtered position (a variant's `moves()` keeping some of its base's moves) has its move
//! filter asked once per empty cell when the search starts (the answers do not change while it
//! goes on: see [`super::judge`]): the cells it refuses are never played, by either side, at
//! any depth, and no window through them is counted, so no line is searched through them.

use std::{
    borrow::Cow,
    cell::RefCell,
    time::{Duration, Instant},
};

use foldhash::{HashMap, HashMapExt};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{AllowAll, Judge, LineGoal, Placement, Referee, CLOSED};
use crate::runtime::lines::LINE_DIRECTIONS;
use continuous_threats::{Vct, MAX_THREATS};
use threat_search::{Scan, Vcf};
use window_counts::WindowCounts;

mod continuous_threats;
mod threat_search;
mod window_counts;

/// A score beyond any evaluation: a won position.
pub const WIN: i64 = 1 << 40;

/// How hard to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimits {
    /// Stop deepening once this much time has passed.
    pub time: Duration,
    /// The deepest iteration.
    pub max_depth: u32,
    /// How many of the best-ordered moves are searched at each node below the root.
    pub width: usize,
    /// Seed for choosing between equally good moves.
    pub seed: u64,
    /// The most positions to visit (alpha-beta and threat searches together), or `None` for
    /// as many as the time allows. With a budget of positions, the root's threat searches take
    /// their shares of it instead of shares of the time, so that the same position gets the
    /// same answer however busy the machine is; the time still stops the search.
    pub nodes: Option<u64>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The move: a cell index `y * width + x`.
    pub cell: usize,
    /// Its score for the player to move.
    pub score: i64,
    /// The deepest iteration completed (for a win by continuous fours, the moves to the five).
    pub depth: u32,
    /// Positions visited (by alpha-beta and the threat searches).
    pub nodes: u64,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A remembered search of a position: depth, score, bound, best move.
type Entry = (u32, i64, Bound, u32);

/// The most positions the transposition table holds; beyond, it is emptied.
const TABLE_CAPACITY: usize = 1 << 19;

/// The most threat extensions on one line of play.
pub const MAX_EXTENSIONS: u32 = 4;

/// Positions the root's threat search may visit (for each side).
const ROOT_VCF_NODES: u64 = 40_000;

/// Positions the root's search by continuous threats may visit (for each side).
const ROOT_VCT_NODES: u64 = 30_000;

/// Positions each check that a root move refutes the opponent's continuous threats may visit.
const REFUTING_VCT_NODES: u64 = 3_000;

/// Positions each search for the opponent's continuous fours, then threats, one move below the
/// root may visit (see [`Searcher::answer_wins`]).
const ANSWER_VCF_NODES: u64 = 300;
const ANSWER_VCT_NODES: u64 = 1_500;

/// Positions the threat search two and three moves below the root may visit.
const SHALLOW_VCF_NODES: u64 = 120;

/// The seed of the Zobrist keys: fixed, so that a position has the same hash in every search.
const ZOBRIST_SEED: u64 = 0x005E_ED0F_F1FE;

/// What the board and rules a [`Memory`] was made for.
#[derive(PartialEq)]
struct MemoryKey {
    width: usize,
    height: usize,
    goal: LineGoal,
    judge: Option<Judge>,
    weights: Vec<i64>,
    /// The cells the move filter refuses (empty without a filter).
    forbidden: Vec<bool>,
    /// What the judge's answers depend on besides the position ([`Referee::answers_key`]).
    answers: u64,
}

/// What the search keeps between the searches of one thread — the moves of one game in the
/// Gomocup brain or the REPL: the Zobrist keys, the transposition table and the positions
/// without continuous threats, for one board, rule set and evaluation.
struct Memory {
    key: MemoryKey,
    /// A key per cell and stone.
    zobrist: Vec<[u64; 2]>,
    /// The key of the second player being to move.
    side: u64,
    table: HashMap<u64, Entry>,
    /// The positions where continuous threats were not found (see [`Vct`]).
    no_threats: HashMap<u64, u32>,
    /// The positions one move below a root, by hash, and whether the player to move there has
    /// a victory by continuous fours or threats (see [`Searcher::answer_wins`]).
    answers_won: HashMap<u64, bool>,
    /// The hook's answers, where the judge's screens ask it: (position hash, cell, stone) →
    /// allowed (see [`Searcher::may_play`]).
    judged: HashMap<(u64, u32, u8), bool>,
}

thread_local! {
    static MEMORY: RefCell<Option<Memory>> = const { RefCell::new(None) };
}

impl Memory {
    /// The memory kept for `position`'s board and rules with `weights`, the move filter's
    /// `forbidden` cells and the judge's `answers` key, or a new one.
    fn recall(position: &Placement, weights: &[i64], forbidden: &[bool], answers: u64) -> Memory {
        let key = MemoryKey {
            width: position.width,
            height: position.height,
            goal: position.goal,
            judge: position.judge.clone(),
            weights: weights.to_vec(),
            forbidden: forbidden.to_vec(),
            answers,
        };
        match MEMORY.with(|m| m.borrow_mut().take()) {
            Some(mut kept) if kept.key == key && kept.zobrist.len() == position.cells.len() => {
                if kept.table.len() > TABLE_CAPACITY {
                    kept.table.clear();
                }
                if kept.no_threats.len() > TABLE_CAPACITY {
                    kept.no_threats.clear();
                }
                if kept.answers_won.len() > TABLE_CAPACITY {
                    kept.answers_won.clear();
                }
                if kept.judged.len() > threat_search::JUDGED_KEPT {
                    kept.judged.clear();
                }
                kept
            }
            _ => {
                let mut rng = ChaCha8Rng::seed_from_u64(ZOBRIST_SEED);
                Memory {
                    zobrist: (0..position.cells.len())
                        .map(|_| [rng.random(), rng.random()])
                        .collect(),
                    side: rng.random(),
                    table: HashMap::new(),
                    no_threats: HashMap::new(),
                    answers_won: HashMap::new(),
                    judged: HashMap::new(),
                    key,
                }
            }
        }
    }

    /// Keeps this memory for the thread's next search.
    fn keep(self) {
        MEMORY.with(|m| *m.borrow_mut() = Some(self));
    }
}

/// Forgets the transposition table the searches of this thread keep between moves, so that the
/// next search starts afresh.
pub fn forget_memory() {
    MEMORY.with(|m| *m.borrow_mut() = None);
}

/// A search in progress.
pub(super) struct Searcher<'w> {
    pub(super) pos: Placement,
    /// Asked about the moves of players the position's judge judges (by the threat search).
    pub(super) referee: &'w mut dyn Referee,
    /// The empty cells the move filter refuses, by cell (empty when the position has no
    /// filter): the windows through them are counted as closed.
    forbidden: Vec<bool>,
    memory: Memory,
    /// The position's hash: its stones and who is to move.
    pub(super) hash: u64,
    /// The window score of the first player minus the second's, kept as stones come and go.
    score: i64,
    /// The stone counts of every window, kept as stones come and go.
    windows: WindowCounts,
    nodes: u64,
    /// The most positions the whole search may visit ([`SearchLimits::nodes`]).
    max_nodes: u64,
    deadline: Instant,
    pub(super) out_of_time: bool,
    width: usize,
    /// The least attack gain of a move that makes a four (a window of `length - 1` stones).
    four: i64,
    /// The least attack gain of a move that makes a three (a window of `length - 2` stones).
    three: i64,
    /// Threat extensions on the line being searched.
    extended: u32,
    /// Two moves per ply that refuted a move (beta cut-offs), tried early at that ply.
    killers: Vec<[usize; 2]>,
    /// How often each cell refuted a move, weighted by depth.
    history: Vec<u64>,
    /// The threat search's state.
    vcf: Vcf,
    /// The search by continuous threats' state.
    vct: Vct,
    /// Scans given back to be filled again (see [`Self::scan`]).
    spare_scans: Vec<Scan>,
    /// What the root's threat searches proved the opponent lacks, with them to move as the
    /// board stands (see [`Self::answer_wins`]).
    lacking: Lacking,
}

/// What the opponent was proved not to have with them to move at the root: then they have it
/// after no root move either, where a root move's stone can only hinder them (see
/// [`Searcher::stones_only_hinder`]).
#[derive(Default, Clone, Copy)]
struct Lacking {
    /// No continuous fours.
    fours: bool,
    /// No continuous threats of this many threats or fewer.
    threats: u32,
}

impl<'w> Searcher<'w> {
    /// A search of `position` that stops at `deadline`, `width` moves wide below the root.
    pub(super) fn new(
        position: &Placement,
        weights: &'w [i64],
        referee: &'w mut dyn Referee,
        deadline: Instant,
        width: usize,
    ) -> Searcher<'w> {
        let forbidden = forbidden_cells(position, referee);
        let mut memory = Memory::recall(position, weights, &forbidden, referee.answers_key());
        let no_threats = std::mem::take(&mut memory.no_threats);
        let mut hash = position
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 0 && v != CLOSED)
            .fold(0, |h, (i, &v)| {
                h ^ memory.zobrist[i][(v - 1).min(1) as usize]
            });
        if position.to_move == 1 {
            hash ^= memory.side;
        }
        let top = weights.len() - 1;
        let k = position.goal.length.min(top);
        let four = weights[k.saturating_sub(1)] - weights[k.saturating_sub(2)];
        // The windows are counted on the board with the refused cells closed: no line can be
        // made through them.
        let mut counted = Cow::Borrowed(position);
        for cell in (0..forbidden.len()).filter(|&c| forbidden[c]) {
            counted.to_mut().cells[cell] = CLOSED;
        }
        let three = weights[k.saturating_sub(2)] - weights[k.saturating_sub(3)];
        let [first, second] = counted.window_scores(weights);
        Searcher {
            pos: position.clone(),
            referee,
            forbidden,
            memory,
            hash,
            score: first - second,
            windows: WindowCounts::new(&counted, weights),
            nodes: 0,
            max_nodes: u64::MAX,
            deadline,
            out_of_time: false,
            width: width.max(1),
            four: four.max(1),
            three: three.max(1),
            extended: 0,
            killers: Vec::new(),
            history: vec![0; position.cells.len()],
            vcf: Vcf::new(deadline),
            vct: Vct::new(deadline, no_threats),
            spare_scans: Vec::new(),
            lacking: Lacking::default(),
        }
    }

    /// Whether the move filter refuses the empty cell `cell` (never played in this search).
    pub(super) fn forbidden(&self, cell: usize) -> bool {
        self.forbidden.get(cell).copied().unwrap_or(false)
    }

    /// The moves looked at below the root: the position's candidates the move filter keeps, or
    /// every cell it keeps when it refuses all the candidates.
    fn candidates(&self) -> Vec<usize> {
        let mut moves = self.pos.candidates();
        if self.forbidden.is_empty() {
            return moves;
        }
        moves.retain(|&c| !self.forbidden[c]);
        if moves.is_empty() {
            moves = (0..self.pos.cells.len())
                .filter(|&c| self.pos.cells[c] == 0 && !self.forbidden[c])
                .collect();
        }
        moves
    }

    /// Puts `stone` on the empty cell `cell`; the other player is to move.
    pub(super) fn put(&mut self, cell: usize, stone: u8) {
        self.score += signed(self.windows.put(cell, stone), stone);
        self.pos.cells[cell] = stone;
        self.hash ^= self.memory.zobrist[cell][(stone - 1) as usize] ^ self.memory.side;
        self.pos.to_move = 1 - self.pos.to_move;
    }

    /// Takes back [`Self::put`].
    pub(super) fn take(&mut self, cell: usize, stone: u8) {
        self.pos.cells[cell] = 0;
        self.score -= signed(self.windows.take(cell, stone), stone);
        self.hash ^= self.memory.zobrist[cell][(stone - 1) as usize] ^ self.memory.side;
        self.pos.to_move = 1 - self.pos.to_move;
    }

    /// The window score of the player to move minus the opponent's ([`Placement::evaluate`]).
    fn evaluation(&self) -> i64 {
        if self.pos.to_move == 0 {
            self.score
        } else {
            -self.score
        }
    }

    /// The other player is to move, no stone played (to ask what they could do).
    pub(super) fn pass(&mut self) {
        self.hash ^= self.memory.side;
        self.pos.to_move = 1 - self.pos.to_move;
    }

    /// Whether the search's time is up (or Ctrl-C), looked at every 64 positions, or its
    /// positions are spent.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if (self.nodes.is_multiple_of(64) && crate::cancel::past(self.deadline))
            || self.visited() >= self.max_nodes
        {
            self.out_of_time = true;
        }
        self.out_of_time
    }

    /// Positions visited so far, by alpha-beta and the threat searches.
    fn visited(&self) -> u64 {
        self.nodes + self.vcf.nodes + self.vct.nodes
    }

    /// A share of the search for one of the root's steps: `1 / part` of the time from `from`
    /// (and the deadline at most) and, with a budget of positions, `1 / part` of it from now
    /// instead: when the step stops, and how many positions it may visit.
    fn share(&self, limits: SearchLimits, from: Instant, part: u32) -> (Instant, u64) {
        match limits.nodes {
            Some(budget) => (self.deadline, budget / u64::from(part)),
            None => ((from + limits.time / part).min(self.deadline), u64::MAX),
        }
    }
}

/// A loss found in every move searched of a node whose moves were not all searched (see
/// [`Searcher::search_moves`]): `score` (below `-WIN / 2`) raised to a very bad evaluation,
/// far below any count of windows but above every proven loss, sooner still worse — no side
/// takes it for a forced result, and the root keeps deepening and looking for a move that holds.
fn unproven(score: i64) -> i64 {
    score + UNPROVEN_LOSS
}

/// What an unproven loss adds to a loss's score (see [`unproven`]).
const UNPROVEN_LOSS: i64 = WIN / 4 * 3;

/// A change of `stone`'s player's score minus the other's as a change of the first player's
/// score minus the second's.
fn signed(delta: i64, stone: u8) -> i64 {
    if stone == 1 {
        delta
    } else {
        -delta
    }
}

/// For a filtered `position`, whether the move filter (asked through `referee`) refuses each
/// cell: `true` for the empty cells it refuses. Empty when the position has no filter.
fn forbidden_cells(position: &Placement, referee: &mut dyn Referee) -> Vec<bool> {
    if !position.filtered {
        return Vec::new();
    }
    (0..position.cells.len())
        .map(|c| position.cells[c] == 0 && !referee.keeps(position, c))
        .collect()
}

impl Placement {
    /// Window scores of the position: `(player 1's, player 2's)`.
    fn window_scores(&self, weights: &[i64]) -> [i64; 2] {
        let k = self.goal.length as isize;
        let mut score = [0i64; 2];
        let (w, h) = (self.width as isize, self.height as isize);
        for &(dx, dy) in &LINE_DIRECTIONS {
            let (dx, dy) = (dx as isize, dy as isize);
            for y in 0..h {
                for x in 0..w {
                    let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                    if ex < 0 || ex >= w || ey < 0 || ey >= h {
                        continue;
                    }
                    let mut count = [0usize; 3];
                    let mut closed = false;
                    for i in 0..k {
                        let v = self.cells[((y + dy * i) * w + x + dx * i) as usize];
                        closed |= v == CLOSED;
                        count[v.min(2) as usize] += 1;
                    }
                    if closed {
                        continue; // no line can be made through a closed cell
                    }
                    if count[2] == 0 && count[1] > 0 {
                        score[0] += weights[count[1].min(weights.len() - 1)];
                    } else if count[1] == 0 && count[2] > 0 {
                        score[1] += weights[count[2].min(weights.len() - 1)];
                    }
                }
            }
        }
        score
    }

    /// The position's score for the player to move (two players): own windows minus the
    /// opponent's.
    pub fn evaluate(&self, weights: &[i64]) -> i64 {
        let s = self.window_scores(weights);
        let me = self.to_move as usize;
        s[me.min(1)] - s[1 - me.min(1)]
    }

    /// What putting a stone on empty cell `index` does: the window weight it adds for the
    /// mover (attack) plus the weight it takes from the opponent (defence).
    fn gain(&self, index: usize, weights: &[i64]) -> i64 {
        let (attack, defence) = self.gain_parts(index, weights);
        attack + defence
    }

    /// [`Self::gain`] in its two parts: `(attack, defence)`.
    pub fn gain_parts(&self, index: usize, weights: &[i64]) -> (i64, i64) {
        let me = self.to_move + 1;
        let k = self.goal.length as isize;
        let (w, h) = (self.width as isize, self.height as isize);
        let (x, y) = ((index % self.width) as isize, (index / self.width) as isize);
        let top = weights.len() - 1;
        let (mut attack, mut defence) = (0, 0);
        for &(dx, dy) in &LINE_DIRECTIONS {
            let (dx, dy) = (dx as isize, dy as isize);
            for shift in 0..k {
                let (sx, sy) = (x - dx * shift, y - dy * shift);
                let (ex, ey) = (sx + dx * (k - 1), sy + dy * (k - 1));
                if sx < 0 || sy < 0 || sx >= w || sy >= h || ex < 0 || ey < 0 || ex >= w || ey >= h
                {
                    continue;
                }
                let (mut own, mut other) = (0usize, 0usize);
                let mut closed = false;
                for i in 0..k {
                    match self.cells[((sy + dy * i) * w + sx + dx * i) as usize] {
                        0 => {}
                        CLOSED => closed = true,
                        v if v == me => own += 1,
                        _ => other += 1,
                    }
                }
                if closed {
                    continue;
                }
                if other == 0 {
                    attack += weights[(own + 1).min(top)] - weights[own.min(top)];
                }
                if own == 0 && other > 0 {
                    defence += weights[(other + 1).min(top)] - weights[other.min(top)];
                }
            }
        }
        (attack, defence)
    }

    /// Empty cells within two cells of a stone (the centre on an empty board).
    fn candidates(&self) -> Vec<usize> {
        let stones = self.cells.iter().any(|&v| v != 0 && v != CLOSED);
        if !stones {
            // the open cell nearest the centre
            let (w, h) = (self.width as isize, self.height as isize);
            let from_centre = |i: &&u32| {
                let (x, y) = ((**i as isize) % w, (**i as isize) / w);
                (x - w / 2).abs().max((y - h / 2).abs())
            };
            let nearest = self.empties.iter().min_by_key(from_centre);
            return nearest.map(|&i| i as usize).into_iter().collect();
        }
        if self.width <= 64 && self.height <= 64 {
            self.candidates_by_rows()
        } else {
            self.candidates_by_cells()
        }
    }

    /// [`Self::candidates`] on a board with stones, at most 64 cells wide and high: each row's stones
    /// and empty cells as bits, the stones widened two cells each way and then over two rows
    /// each way (a few operations a row instead of 25 a stone, the search's every node).
    fn candidates_by_rows(&self) -> Vec<usize> {
        let w = self.width;
        // By row: its stones widened two cells each way, and its empty cells.
        let mut rows = [(0u64, 0u64); 64];
        let rows = &mut rows[..self.height];
        for (row, cells) in rows.iter_mut().zip(self.cells.chunks_exact(w)) {
            let (mut stones, mut empty) = (0u64, 0u64);
            for (x, &v) in cells.iter().enumerate() {
                let bit = 1u64 << x;
                if v == 0 {
                    empty |= bit;
                } else if v != CLOSED {
                    stones |= bit;
                }
            }
            *row = (
                stones | stones << 1 | stones << 2 | stones >> 1 | stones >> 2,
                empty,
            );
        }
        let moves_of = |y: usize| {
            let near = rows[y.saturating_sub(2)..(y + 3).min(self.height)]
                .iter()
                .fold(0, |near, row| near | row.0);
            near & rows[y].1
        };
        let count = (0..self.height).map(|y| moves_of(y).count_ones() as usize);
        let mut moves = Vec::with_capacity(count.sum());
        for y in 0..self.height {
            let mut bits = moves_of(y);
            while bits != 0 {
                moves.push(y * w + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        moves
    }

    /// [`Self::candidates`] on a board with stones, cell by cell (any width).
    fn candidates_by_cells(&self) -> Vec<usize> {
        let (w, h) = (self.width as isize, self.height as isize);
        let mut near = vec![false; self.cells.len()];
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 || v == CLOSED {
                continue;
            }
            let (x, y) = ((i % self.width) as isize, (i / self.width) as isize);
            for ny in (y - 2).max(0)..=(y + 2).min(h - 1) {
                for nx in (x - 2).max(0)..=(x + 2).min(w - 1) {
                    near[(ny * w + nx) as usize] = true;
                }
            }
        }
        (0..self.cells.len())
            .filter(|&i| near[i] && self.cells[i] == 0)
            .collect()
    }

    /// The best move for the player to move within `limits`, or `None` if the game is over.
    /// Two-player games only.
    pub fn best_move(&self, weights: &[i64], limits: SearchLimits) -> Option<Found> {
        self.best_move_refereed(weights, limits, &mut AllowAll)
    }

    /// [`Self::best_move`] among the moves the position's judge and move filter (if any)
    /// allow, asked through `referee`, at the root and below it (see the module's
    /// documentation).
    pub fn best_move_refereed(
        &self,
        weights: &[i64],
        limits: SearchLimits,
        referee: &mut dyn Referee,
    ) -> Option<Found> {
        if self.outcome().is_some() || self.players != 2 || weights.is_empty() {
            return None;
        }
        let start = Instant::now();
        let mut rng = ChaCha8Rng::seed_from_u64(limits.seed);
        // Root moves in order, ties broken by the seed.
        let mut candidates = self.candidates();
        candidates.retain(|&c| self.allows(c, referee));
        if candidates.is_empty() {
            candidates = self
                .legal_cells(referee)
                .into_iter()
                .map(|c| c as usize)
                .collect();
        }
        if candidates.is_empty() {
            return None;
        }
        let mut root: Vec<(i64, u64, usize)> = candidates
            .into_iter()
            .map(|c| (self.gain(c, weights), rng.random::<u64>(), c))
            .collect();
        root.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut moves: Vec<usize> = root.iter().map(|m| m.2).collect();
        // Tactics first, at every level: win now if possible; else, if the opponent could win
        // next move, only the cells that stop it are worth searching.
        let me = self.to_move as usize;
        if let Some(&cell) = moves.iter().find(|&&c| self.wins_with(c, me)) {
            return Some(Found {
                cell,
                score: WIN,
                depth: 1,
                nodes: 0,
            });
        }
        let opponent = (me + 1) % self.players as usize;
        let blocks: Vec<usize> = moves
            .iter()
            .copied()
            .filter(|&c| self.wins_with(c, opponent))
            .collect();
        if !blocks.is_empty() {
            moves = blocks;
        }
        let deadline = start + limits.time;
        let mut s = Searcher::new(self, weights, referee, deadline, limits.width);
        s.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        let found = s.root(moves, limits, start);
        s.memory.no_threats = std::mem::take(&mut s.vct.failed);
        if s.referee.failed() {
            // refusals that say nothing of the rules, and what was found with them
            s.memory.judged.clear();
            s.memory.answers_won.clear();
        }
        s.memory.keep();
        Some(found)
    }
}

impl Searcher<'_> {
    /// The root: continuous fours for the player to move, then (if the opponent has continuous
    /// fours) only the moves that refute them, then alpha-beta by iterative deepening.
    fn root(&mut self, mut moves: Vec<usize>, limits: SearchLimits, start: Instant) -> Found {
        let me = self.pos.to_move + 1;
        // A win alpha-beta proved in an earlier search of the game (only searches of every
        // move of the loser's nodes give won scores): its move, without searching again.
        if let Some(&(depth, score, bound, cell)) = self.memory.table.get(&self.hash) {
            let proved = score >= WIN / 2 && matches!(bound, Bound::Exact | Bound::Lower);
            if proved && moves.contains(&(cell as usize)) {
                return Found {
                    cell: cell as usize,
                    score,
                    depth,
                    nodes: self.visited(),
                };
            }
        }
        // A quarter of the search at most for each side's threat search.
        let (until, nodes) = self.share(limits, start, 4);
        self.vcf.until = until;
        if let Some((cell, plies)) = self.vcf(me, ROOT_VCF_NODES.min(nodes)) {
            if moves.contains(&cell) {
                return Found {
                    cell,
                    score: WIN - plies as i64,
                    depth: plies,
                    nodes: self.visited(),
                };
            }
        }
        // Continuous threats (fours and open threes), within a fifth of the search from the
        // start.
        let (until, nodes) = self.share(limits, start, 5);
        self.vct.until = until;
        if let Some((cell, plies)) = self.vct(me, ROOT_VCT_NODES.min(nodes)) {
            if moves.contains(&cell) {
                return Found {
                    cell,
                    score: WIN - 1_000 - plies as i64,
                    depth: plies,
                    nodes: self.visited(),
                };
            }
        }
        let (until, nodes) = self.share(limits, Instant::now(), 4);
        self.vcf.until = until;
        if let Some(refuting) = self.refutations(&moves, nodes) {
            if !refuting.is_empty() {
                moves.retain(|m| refuting.contains(m));
            }
        } else {
            let (until, nodes) = self.share(limits, Instant::now(), 3);
            self.vct.until = until;
            if let Some(kept) = self.threat_refutations(&moves, nodes) {
                moves.retain(|m| kept.contains(m));
            }
        }
        self.vcf.until = self.deadline;
        self.vct.until = self.deadline;
        let mut best = Found {
            cell: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=limits.max_depth.max(1) {
            let (mut alpha, beta) = (-WIN * 2, WIN * 2);
            let mut iteration_best = None;
            for &mv in &moves {
                // The first move with the whole window; the others with a null window first:
                // most are no better than the best so far, which proves it at less cost. A
                // move that is better is searched again with the whole window for its score,
                // once the opponent's continuous fours and threats after it are looked for
                // (a move no better than the best need not be: it is not played either way).
                let mut score = -WIN * 2;
                let better = iteration_best.is_none() || {
                    score = -self.child(mv, depth - 1, 1, -alpha - 1, -alpha);
                    score > alpha
                };
                if better && !self.out_of_time {
                    score = if self.leaves_a_win(mv) {
                        -(WIN - 1_001)
                    } else {
                        -self.child(mv, depth - 1, 1, -beta, -alpha)
                    };
                }
                if self.out_of_time {
                    break;
                }
                if iteration_best.is_none() || score > alpha {
                    alpha = score;
                    iteration_best = Some((mv, score));
                }
            }
            if self.out_of_time && depth > 1 {
                break;
            }
            if let Some((mv, score)) = iteration_best {
                best = Found {
                    cell: mv,
                    score,
                    depth,
                    nodes: 0,
                };
                moves.retain(|&m| m != mv);
                moves.insert(0, mv);
                if score.abs() >= WIN / 2 {
                    break; // a forced result: deeper search changes nothing
                }
            }
            if self.out_of_time {
                break;
            }
        }
        best.nodes = self.visited();
        best
    }

    /// If the opponent (not to move) has continuous threats, the `moves` worth searching
    /// against them: of the cells of their threats and our own fours, those after which they
    /// have none (or, if none is, all those cells); `None` if they have none now, or if no
    /// move of `moves` is among those cells. At most `share` positions are visited.
    fn threat_refutations(&mut self, moves: &[usize], share: u64) -> Option<Vec<usize>> {
        let me = self.pos.to_move + 1;
        let them = 3 - me;
        let stop = self.visited().saturating_add(share);
        self.pass();
        let cells = self.vct_threat_cells(them, ROOT_VCT_NODES.min(share));
        self.pass();
        if self.stones_only_hinder() {
            self.lacking.threats = self.vct.cleared;
        }
        let mut cells = cells?;
        let scan = self.scan();
        cells.extend(scan.fours[usize::from(me - 1)].iter().map(|f| f.0));
        cells.sort_unstable();
        cells.dedup();
        let tried: Vec<usize> = moves
            .iter()
            .copied()
            .filter(|m| cells.contains(m))
            .collect();
        if tried.is_empty() {
            return None;
        }
        let mut refuting = Vec::new();
        for &mv in &tried {
            let left = stop.saturating_sub(self.visited());
            if crate::cancel::past(self.vct.until) || left == 0 {
                break;
            }
            self.put(mv, me);
            let found = self.vct(them, REFUTING_VCT_NODES.min(left));
            let spent = self.vct.aborted;
            self.take(mv, me);
            if found.is_none() && !spent {
                refuting.push(mv);
            }
        }
        Some(if refuting.is_empty() { tried } else { refuting })
    }

    /// If the opponent (not to move) has continuous fours, the `moves` after which they have
    /// none (or whose search ran out of positions: alpha-beta judges those); `None` if they have
    /// none now. At most `share` positions are visited.
    fn refutations(&mut self, moves: &[usize], share: u64) -> Option<Vec<usize>> {
        let me = self.pos.to_move + 1;
        let them = 3 - me;
        let stop = self.visited().saturating_add(share);
        self.pass();
        let before = self.vcf.nodes;
        let theirs = self.vcf(them, ROOT_VCF_NODES.min(share));
        self.pass();
        self.lacking.fours = theirs.is_none() && !self.vcf.aborted && self.stones_only_hinder();
        theirs?;
        let budget = 4 * (self.vcf.nodes - before) + 200;
        let mut refuting = Vec::new();
        for &mv in moves {
            let left = stop.saturating_sub(self.visited());
            if crate::cancel::past(self.vcf.until) || left == 0 {
                break;
            }
            self.put(mv, me);
            let found = self.vcf(them, budget.min(left));
            self.take(mv, me);
            if found.is_none() {
                refuting.push(mv);
            }
        }
        Some(refuting)
    }

    /// Whether a stone of the player to move can only hinder the opponent's threats: no judge
    /// (whose refusal of a stone of theirs a stone of ours may lift, as a double three
    /// forbidden to one side is when one of its lines is blocked) and longer runs of ours win
    /// (an overline of ours spoils no counter).
    fn stones_only_hinder(&self) -> bool {
        self.pos.judge.is_none() && !self.pos.goal.exact.contains(usize::from(self.pos.to_move))
    }

    /// One move below the root: whether the player to move (the opponent) has a victory by
    /// continuous fours or continuous threats, each search bounded by positions. A root move
    /// that leaves the opponent one is lost, however quiet it looks to alpha-beta. The answers
    /// are kept by position for the rest of the game (a search the time stopped is not).
    /// What the root proved they lack (see [`Lacking`]) is not looked for again.
    fn answer_wins(&mut self) -> bool {
        if let Some(&won) = self.memory.answers_won.get(&self.hash) {
            return won;
        }
        let them = self.pos.to_move + 1;
        let left = self.max_nodes.saturating_sub(self.visited());
        let lacking = self.lacking;
        let won = (!lacking.fours && self.vcf(them, ANSWER_VCF_NODES.min(left)).is_some())
            || (lacking.threats < MAX_THREATS && {
                let left = self.max_nodes.saturating_sub(self.visited());
                let nodes = ANSWER_VCT_NODES.min(left);
                self.vct_beyond(them, nodes, lacking.threats).is_some()
            });
        // Not found in a search cut short (by the time, or the positions left) is no answer.
        let whole = left >= ANSWER_VCF_NODES + ANSWER_VCT_NODES;
        if won || (whole && !crate::cancel::past(self.deadline)) {
            self.memory.answers_won.insert(self.hash, won);
        }
        won
    }

    /// Whether the root move `mv` leaves the opponent a victory by continuous fours or threats
    /// ([`Self::answer_wins`]): the move is then lost.
    fn leaves_a_win(&mut self, mv: usize) -> bool {
        let stone = self.pos.to_move + 1;
        self.put(mv, stone);
        let won = !self.pos.wins_at(mv, stone) && self.answer_wins();
        self.take(mv, stone);
        won
    }

    /// The score, for the player who moved, of playing `mv` (`ply` moves below the root once
    /// played): negated score of the child.
    fn child(&mut self, mv: usize, depth: u32, ply: u32, alpha: i64, beta: i64) -> i64 {
        let stone = self.pos.to_move + 1;
        self.put(mv, stone);
        let score = if self.pos.wins_at(mv, stone) {
            -(WIN + depth as i64) // the player now to move has lost; sooner is worse
        } else {
            self.negamax(depth, ply, alpha, beta, mv)
        };
        self.take(mv, stone);
        score
    }

    /// Whether `stone` on empty cell `index` would win.
    pub(super) fn would_win(&mut self, index: usize, stone: u8) -> bool {
        self.pos.cells[index] = stone;
        let wins = self.pos.wins_at(index, stone);
        self.pos.cells[index] = 0;
        wins
    }

    /// A leaf, looked at a little further while moves are forced: the side to move wins if it
    /// can win at once; loses if the opponent has two winning cells; wins if it has a move that
    /// makes two (and the opponent none); and must block a single threat, which is played out
    /// (up to `extra` more stones). Two winning cells one stone stops (a line blocked at both
    /// ends not winning) are one threat.
    fn quiesce(&mut self, extra: u32) -> i64 {
        let scan = self.scan_for(self.pos.to_move + 1);
        let score = self.quiesce_scanned(extra, &scan);
        self.recycle(scan);
        score
    }

    /// [`Self::quiesce`] once the position is scanned (`scan`).
    fn quiesce_scanned(&mut self, extra: u32, scan: &Scan) -> i64 {
        let me = self.pos.to_move + 1;
        let them = 3 - me;
        let (mine, theirs) = ((me - 1) as usize, (them - 1) as usize);
        if scan.wins[mine].iter().any(|&c| self.may_win(c, me)) {
            return WIN;
        }
        let threats: Vec<usize> = scan.wins[theirs]
            .iter()
            .copied()
            .filter(|&c| self.may_win(c, them))
            .collect();
        match threats.as_slice() {
            [] if self.makes_double_threat(&scan.fours[mine], me) => WIN - 2,
            [] => self.evaluation(),
            [block] if !self.may_play(*block, me) => -WIN,
            [block] if extra > 0 => {
                let block = *block;
                self.put(block, me);
                let score = -self.quiesce(extra - 1);
                self.take(block, me);
                score
            }
            [_] => self.evaluation(),
            _ if !self.one_stone_stops(&threats, them) => -WIN,
            // Where a line blocked at both ends does not win, one stone just beyond a run may
            // stop two winning cells: the first such stone is played out.
            _ if extra > 0 => {
                let block = self.stoppers(&threats, them, true)[0];
                self.put(block, me);
                let score = -self.quiesce(extra - 1);
                self.take(block, me);
                score
            }
            _ => self.evaluation(),
        }
    }

    /// Whether one stone of the other player stops every one of `stone`'s winning cells
    /// `threats` (two or more): only where a line blocked at both ends does not win (a stone
    /// just beyond a run spoils it), and if the judge lets that stone be played.
    fn one_stone_stops(&mut self, threats: &[usize], stone: u8) -> bool {
        self.pos.goal.block_both_ends && !self.stoppers(threats, stone, true).is_empty()
    }

    /// The cells where `stone` would win, on the lines through `index` (within a line length).
    fn winning_cells_near(&mut self, index: usize, stone: u8, found: &mut Vec<usize>) {
        let k = self.pos.goal.length as isize;
        let (w, h) = (self.pos.width as isize, self.pos.height as isize);
        let (x, y) = (
            (index % self.pos.width) as isize,
            (index / self.pos.width) as isize,
        );
        for &(dx, dy) in &LINE_DIRECTIONS {
            for step in -(k - 1)..k {
                let (cx, cy) = (x + dx as isize * step, y + dy as isize * step);
                if cx < 0 || cy < 0 || cx >= w || cy >= h {
                    continue;
                }
                let c = (cy * w + cx) as usize;
                if self.pos.cells[c] == 0
                    && !self.forbidden(c)
                    && !found.contains(&c)
                    && self.may_win(c, stone)
                {
                    found.push(c);
                }
            }
        }
    }

    /// Whether `stone` has a move that makes two winning threats at once (an open four, or two
    /// fours), which cannot both be blocked, among `fours` (a scan's moves that make a four,
    /// each with its threat).
    fn makes_double_threat(&mut self, fours: &[(usize, usize)], stone: u8) -> bool {
        let mut fours = fours.to_vec();
        fours.sort_unstable();
        fours.dedup();
        for pair in fours.chunk_by(|a, b| a.0 == b.0) {
            if pair.len() < 2 {
                continue;
            }
            let mv = pair[0].0;
            self.pos.cells[mv] = stone;
            let mut threats: Vec<usize> = pair
                .iter()
                .map(|&(_, c)| c)
                .filter(|&c| self.would_win(c, stone))
                .collect();
            threats.dedup();
            let unstoppable = threats.len() >= 2 && !self.one_stone_stops(&threats, stone);
            self.pos.cells[mv] = 0;
            // The judge is asked only about a move that does make two threats.
            if unstoppable && self.may_play(mv, stone) {
                return true;
            }
        }
        false
    }

    /// Alpha-beta below the root: the score of the position for the player to move, `depth`
    /// moves deep, `ply` moves below the root, the opponent's last stone on `last`.
    fn negamax(&mut self, depth: u32, ply: u32, alpha: i64, beta: i64, last: usize) -> i64 {
        if self.tick() {
            return 0;
        }
        if depth == 0 {
            return self.quiesce(4);
        }
        let candidates = self.candidates();
        if candidates.is_empty() {
            return 0; // a full board: a draw
        }
        let remembered = self.memory.table.get(&self.hash).copied();
        if let Some((d, score, bound, _)) = remembered {
            if d >= depth {
                match bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let me = self.pos.to_move + 1;
        let them = 3 - me;
        let mut scored: Vec<(i64, i64, usize)> = candidates
            .into_iter()
            .map(|m| {
                let (attack, defence) = self.windows.gain(m, me);
                (attack + defence, attack, m)
            })
            .collect();
        let history = &self.history;
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(history[b.2].cmp(&history[a.2])));
        // A win at once (a winning cell's gain puts it among the first).
        if scored.iter().take(4).any(|m| self.may_win(m.2, me)) {
            return WIN + depth as i64 - 1;
        }
        let mut threats = Vec::new();
        self.winning_cells_near(last, them, &mut threats);
        // Whether every move of the node is searched (not only the `width` best ordered).
        let mut complete = true;
        let moves: Vec<(i64, usize)> = if threats.is_empty() {
            // Continuous fours a few moves below the root.
            if (2..=3).contains(&ply) {
                self.vcf.until = self.deadline;
                if self.vcf(me, SHALLOW_VCF_NODES).is_some() {
                    return WIN - 1_000 - ply as i64;
                }
            }
            if let Some(answers) = self.three_answers(last, them) {
                return self.search_moves(answers, depth, ply, alpha, beta, false, true);
            }
            let mut moves: Vec<(i64, usize)> = scored.iter().map(|m| (m.1, m.2)).collect();
            complete = moves.len() <= self.width;
            moves.truncate(self.width);
            let mut first = Vec::with_capacity(3);
            if let Some((_, _, _, tt_move)) = remembered {
                first.push(tt_move as usize);
            }
            if let Some(killers) = self.killers.get(ply as usize) {
                first.extend(killers.iter().filter(|&&k| k != usize::MAX));
            }
            for &cell in first.iter().rev() {
                if let Some(i) = moves.iter().position(|m| m.1 == cell) {
                    moves[..=i].rotate_right(1);
                } else if let Some(m) = scored.iter().find(|m| m.2 == cell) {
                    moves.insert(0, (m.1, m.2));
                }
            }
            moves
        } else {
            // The opponent threatens to win: only the moves that stop it.
            let stoppers = self.stoppers(&threats, them, false);
            if stoppers.is_empty() {
                return -(WIN + depth as i64 - 2);
            }
            let mut moves: Vec<(i64, usize)> = stoppers
                .into_iter()
                .map(|c| (self.windows.gain(c, me).0, c))
                .collect();
            moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
            moves
        };
        let threatened = !threats.is_empty();
        self.search_moves(moves, depth, ply, alpha, beta, threatened, complete)
    }

    /// The moves of [`Self::negamax`]'s node, searched in order (`(attack gain, cell)`), the
    /// result remembered in the table; `threatened`: the opponent threatens to win at once (so
    /// a node where the judge refuses every move is lost). The judge is asked about a move once
    /// it is searched and found better than the moves before it: most moves are not.
    /// `complete`: `moves` are all the moves of the node worth searching; if they are not (only
    /// the `width` best ordered), a loss found in every one of them is no proof — the moves
    /// left out may hold — and is scored as an unproven loss ([`unproven`]) instead.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        moves: Vec<(i64, usize)>,
        depth: u32,
        ply: u32,
        mut alpha: i64,
        beta: i64,
        threatened: bool,
        complete: bool,
    ) -> i64 {
        let original_alpha = alpha;
        let me = self.pos.to_move + 1;
        let mut best = (-WIN * 2, moves[0].1);
        let mut searched = false;
        for (attack, mv) in moves {
            // A four or an open three is searched one move deeper: the reply is forced.
            let threatens =
                attack >= self.four || (attack >= self.three && self.makes_open_three(mv, me));
            let extend = threatens && self.extended < MAX_EXTENSIONS;
            self.extended += u32::from(extend);
            let next = if extend { depth } else { depth - 1 };
            let score = -self.child(mv, next, ply + 1, -beta, -alpha);
            self.extended -= u32::from(extend);
            if self.out_of_time {
                return 0;
            }
            // The judge is asked only about a move that would be the best so far (a move that
            // is not leaves alpha as it is): a move it refuses counts for nothing.
            if score > best.0 {
                if !self.may_play(mv, me) {
                    continue;
                }
                searched = true;
                best = (score, mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                self.refuted_by(mv, ply, depth);
                break;
            }
        }
        if !searched {
            // The judge refuses every move looked at: the opponent's win cannot be stopped, or
            // the position is scored as it stands.
            return if threatened {
                -(WIN + depth as i64 - 2)
            } else {
                self.evaluation()
            };
        }
        if !complete && best.0 <= -WIN / 2 {
            best.0 = unproven(best.0);
        }
        let bound = if best.0 <= original_alpha {
            Bound::Upper
        } else if best.0 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.memory.table.len() >= TABLE_CAPACITY * 2 {
            self.memory.table.clear();
        }
        self.memory
            .table
            .insert(self.hash, (depth, best.0, bound, best.1 as u32));
        best.0
    }

    /// Remembers that `mv` refuted the opponent's move `ply` moves below the root, `depth` deep.
    fn refuted_by(&mut self, mv: usize, ply: u32, depth: u32) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [usize::MAX; 2]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        self.history[mv] += u64::from(depth) * u64::from(depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native_games::placement::tests::FIVE_EXACT;

    const WEIGHTS: [i64; 6] = [0, 1, 12, 150, 2_000, 100_000];

    fn position(stones: &[(i64, i64, i64)], to_move: usize) -> Placement {
        crate::native_games::placement::tests::position(stones, to_move, FIVE_EXACT)
    }

    /// A game the searcher lost as O (the report-AI strength test at 3 s a move): O to move,
    /// O's stone on (4, 5) makes a four with two winning cells, (3, 4) and (8, 9), but the five
    /// through (8, 9) is blocked at both ends once X stands on (3, 4) — one stone stops both.
    fn two_threats_one_stone_stops() -> Placement {
        position(
            &[
                (9, 9, 1),
                (7, 6, 2),
                (9, 8, 1),
                (6, 7, 2),
                (9, 7, 1),
                (9, 6, 2),
                (8, 8, 1),
                (7, 8, 2),
                (10, 6, 1),
                (7, 9, 2),
                (7, 7, 1),
                (6, 6, 2),
                (9, 10, 1),
                (9, 11, 2),
                (11, 5, 1),
                (12, 4, 2),
                (8, 7, 1),
                (5, 6, 2),
                (8, 6, 1),
            ],
            1,
        )
    }

    #[test]
    fn two_winning_cells_one_stone_stops_are_no_win() {
        let pos = two_threats_one_stone_stops();
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 1,
            width: 12,
            seed: 1,
            nodes: None,
        };
        let found = pos.best_move(&WEIGHTS, limits).unwrap();
        assert!(
            found.score < WIN / 2,
            "no forced win at depth 1, found {} scoring {}",
            found.cell,
            found.score
        );
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut referee = AllowAll;
        let mut s = Searcher::new(&pos, &WEIGHTS, &mut referee, deadline, 12);
        let fours = s.scan().fours[1].clone();
        assert!(!s.makes_double_threat(&fours, 2));
    }

    fn limits() -> SearchLimits {
        SearchLimits {
            time: Duration::from_millis(300),
            max_depth: 6,
            width: 12,
            seed: 1,
            nodes: None,
        }
    }

    #[test]
    fn a_move_that_leaves_the_opponent_continuous_threats_is_not_played() {
        // O to move; of the moves near the stones, one leaves X no victory by continuous threats.
        // Two moves deep at 50 000 positions, before the opponent's continuous threats were
        // looked for after each root move, the search played (9, 11), after which X has one.
        let stones = [
            (8, 10, 1),
            (6, 10, 2),
            (9, 6, 1),
            (7, 6, 2),
            (6, 8, 1),
            (5, 8, 2),
            (7, 9, 1),
            (10, 10, 2),
            (6, 4, 1),
            (9, 10, 2),
            (6, 9, 1),
        ];
        let pos = position(&stones, 1);
        let x_threatens = |cell: usize| {
            let mut after = pos.clone();
            after.play(cell).unwrap();
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut referee = AllowAll;
            let mut s = Searcher::new(&after, &WEIGHTS, &mut referee, deadline, 12);
            s.vct(1, 100_000).is_some()
        };
        let safe: Vec<usize> = (pos.candidates().into_iter())
            .filter(|&c| !x_threatens(c))
            .collect();
        assert_eq!(safe.len(), 1, "{safe:?}");
        assert!(x_threatens(11 * 15 + 9), "the move played before");
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 2,
            nodes: Some(50_000),
            ..limits()
        };
        forget_memory();
        let found = pos.best_move(&WEIGHTS, limits).unwrap();
        assert_eq!(found.cell, safe[0], "{found:?}");
    }

    /// Five or more in a row wins (freestyle, Gomocup's rule 0).
    const FREESTYLE: LineGoal = LineGoal {
        length: 5,
        exact: crate::native_games::placement::Players::NONE,
        block_both_ends: false,
        edge_blocks: false,
    };

    #[test]
    fn threats_the_root_proved_the_opponent_lacks_are_not_searched_after_each_root_move() {
        // X to move; O has an open two and a split two, and neither continuous fours nor
        // continuous threats even with the move.
        let stones = [
            (7, 7, 1),
            (8, 8, 2),
            (6, 8, 1),
            (8, 6, 2),
            (9, 9, 1),
            (8, 10, 2),
        ];
        let pos = crate::native_games::placement::tests::position(&stones, 0, FREESTYLE);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut referee = AllowAll;
        let mut s = Searcher::new(&pos, &WEIGHTS, &mut referee, deadline, 12);
        let moves = pos.candidates();
        assert!(s.refutations(&moves, u64::MAX).is_none());
        assert!(s.threat_refutations(&moves, u64::MAX).is_none());
        assert!(s.lacking.fours, "O has no continuous fours");
        assert_eq!(s.lacking.threats, MAX_THREATS, "nor continuous threats");
        for &mv in &moves {
            let before = s.visited();
            s.put(mv, 1);
            assert!(!s.answer_wins(), "after {mv}");
            assert_eq!(s.visited(), before, "searched again after {mv}");
            // The reason it need not be searched: with a stone of X more, O has none either.
            assert!(s.vct(2, 200_000).is_none() && !s.vct.aborted, "after {mv}");
            s.take(mv, 1);
        }
        // Under "exactly five" a stone of X's may spoil X's own counter (an overline), and a
        // judge may allow O a stone once X's blocks a line: there the root proves nothing.
        let exact = position(&stones, 0);
        let mut s = Searcher::new(&exact, &WEIGHTS, &mut referee, deadline, 12);
        s.refutations(&moves, u64::MAX);
        s.threat_refutations(&moves, u64::MAX);
        assert!(!s.lacking.fours && s.lacking.threats == 0);
    }

    #[test]
    fn only_root_moves_better_than_the_best_so_far_are_checked_for_the_opponents_threats() {
        // X to move, under "exactly five": the root cannot prove that O lacks threats, so it
        // looks for them after a root move, but only once alpha-beta finds the move better
        // than the best so far (each check leaves its answer in the memory).
        let stones = [
            (7, 7, 1),
            (8, 8, 2),
            (6, 8, 1),
            (8, 6, 2),
            (9, 9, 1),
            (8, 10, 2),
        ];
        let pos = position(&stones, 0);
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 3,
            ..limits()
        };
        forget_memory();
        pos.best_move(&WEIGHTS, limits).unwrap();
        let checked = MEMORY.with(|m| m.borrow().as_ref().unwrap().answers_won.len());
        let root_moves = pos.candidates().len();
        assert!(
            0 < checked && checked < root_moves / 2,
            "{checked} of {root_moves}"
        );
    }

    #[test]
    fn a_loss_found_in_only_the_best_ordered_moves_is_not_announced() {
        // X to move (a game of the Gomocup brain, freestyle). One move wide, every move searched
        // two moves below the root loses; searched whole, the position is not lost.
        let stones = [
            (7, 5, 1),
            (5, 8, 2),
            (6, 5, 1),
            (6, 6, 2),
            (5, 5, 1),
            (8, 5, 2),
            (7, 6, 1),
            (7, 4, 2),
            (5, 3, 1),
            (6, 3, 2),
            (5, 2, 1),
            (5, 4, 2),
            (6, 4, 1),
            (8, 6, 2),
            (4, 6, 1),
            (3, 7, 2),
            (8, 7, 1),
            (3, 5, 2),
            (9, 6, 1),
            (3, 6, 2),
        ];
        let pos = crate::native_games::placement::tests::position(&stones, 0, FREESTYLE);
        let last = 6 * 15 + 3;
        let two_deep = |width: usize| {
            forget_memory();
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut referee = AllowAll;
            let mut s = Searcher::new(&pos, &WEIGHTS, &mut referee, deadline, width);
            s.negamax(2, 4, -WIN * 2, WIN * 2, last)
        };
        let (narrow, whole) = (two_deep(1), two_deep(400));
        assert!(whole > -WIN / 8, "not lost: {whole}");
        // The narrow search's loss is a very bad evaluation, not a forced result.
        assert!(-WIN / 2 < narrow && narrow < -WIN / 8, "{narrow}");
        // Nor does the root, one move wide below it, take it for one (it used to stop there
        // and announce the loss, three moves deep).
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 3,
            width: 1,
            seed: 1,
            nodes: None,
        };
        forget_memory();
        let found = pos.best_move(&WEIGHTS, limits).unwrap();
        assert!(found.score > -WIN / 2 && found.depth == 3, "{found:?}");
    }

    #[test]
    fn a_win_alpha_beta_proved_is_played_without_searching_again() {
        // X to move (a game of the Gomocup brain, freestyle): alpha-beta proves a win, which the
        // root's threat searches do not find within their shares.
        let moves = [
            (6, 7),
            (5, 9),
            (8, 6),
            (5, 10),
            (8, 7),
            (6, 10),
            (8, 5),
            (8, 8),
        ];
        let stones: Vec<(i64, i64, i64)> = (moves.iter().enumerate())
            .map(|(i, &(x, y))| (x, y, i as i64 % 2 + 1))
            .collect();
        let mut pos = crate::native_games::placement::tests::position(&stones, 0, FREESTYLE);
        let limits = |nodes| SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 16,
            width: 12,
            seed: 1,
            nodes: Some(nodes),
        };
        forget_memory();
        let won = pos.best_move(&WEIGHTS, limits(120_000)).unwrap();
        assert!(won.score >= WIN / 2, "{won:?}");
        // O's reply: the next search plays X's winning move at once, from the kept table.
        pos.play(won.cell).unwrap();
        pos.play(3 * 15 + 8).unwrap();
        let next = pos.best_move(&WEIGHTS, limits(1_000)).unwrap();
        assert!(next.score >= WIN / 2 && next.nodes == 0, "{next:?}");
        // A search of its own, that small, finds no win.
        forget_memory();
        let afresh = pos.best_move(&WEIGHTS, limits(1_000)).unwrap();
        assert!(afresh.score < WIN / 2, "{afresh:?}");
    }

    #[test]
    fn a_budget_of_positions_gives_the_same_answer_every_time() {
        let pos = position(&[(7, 7, 1), (8, 8, 2), (6, 8, 1), (8, 6, 2), (9, 9, 1)], 1);
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 12,
            nodes: Some(20_000),
            ..limits()
        };
        forget_memory();
        let first = pos.best_move(&WEIGHTS, limits).unwrap();
        // The last threat search looked at may overrun the budget by its own few positions.
        assert!((20_000..20_000 + 200).contains(&first.nodes), "{first:?}");
        forget_memory();
        assert_eq!(pos.best_move(&WEIGHTS, limits).unwrap(), first);
    }

    #[test]
    fn takes_an_immediate_win() {
        // X (1) has four with one open end; O (2) has an open four elsewhere: X wins first.
        let mut stones: Vec<_> = (3..7).map(|x| (x, 7, 1)).collect();
        stones.push((2, 7, 2));
        stones.extend((3..7).map(|y| (10, y, 2)));
        let found = position(&stones, 0).best_move(&WEIGHTS, limits()).unwrap();
        assert_eq!(found.cell, 7 * 15 + 7);
        assert!(found.score >= WIN);
    }

    #[test]
    fn blocks_a_four_and_an_open_three() {
        let mut stones: Vec<_> = (3..7).map(|x| (x, 7, 2)).collect();
        stones.extend([(2, 7, 1), (12, 12, 1)]);
        let found = position(&stones, 0).best_move(&WEIGHTS, limits()).unwrap();
        assert_eq!(found.cell, 7 * 15 + 7, "the only block");
        // an open three of O: X must play at one of its ends
        let stones = [(5, 5, 2), (6, 5, 2), (7, 5, 2), (7, 9, 1), (1, 1, 1)];
        let found = position(&stones, 0).best_move(&WEIGHTS, limits()).unwrap();
        assert!(
            [5 * 15 + 4, 5 * 15 + 8, 5 * 15 + 3, 5 * 15 + 9].contains(&found.cell),
            "{found:?}"
        );
    }

    #[test]
    fn blocks_an_open_four_at_an_end() {
        // O's open four cannot be stopped; the search still blocks one end.
        let stones = [
            (4, 7, 2),
            (5, 7, 2),
            (6, 7, 2),
            (7, 7, 2),
            (1, 1, 1),
            (12, 2, 1),
        ];
        let found = position(&stones, 0).best_move(&WEIGHTS, limits()).unwrap();
        assert!([7 * 15 + 3, 7 * 15 + 8].contains(&found.cell), "{found:?}");
    }

    #[test]
    fn stops_a_four_three() {
        // O at (6, 7) would make a four (3..6 on row 7, blocked by X at 2) and an open three
        // (6, 7..9): a four-three (X's stones at (7, 9) and (5, 8) leave O no other attack).
        // After X's move, O must have no forced win.
        let stones = [
            (3, 7, 2),
            (4, 7, 2),
            (5, 7, 2),
            (6, 8, 2),
            (6, 9, 2),
            (2, 7, 1),
            (7, 9, 1),
            (5, 8, 1),
        ];
        let mut pos = position(&stones, 0);
        let mut careless = pos.clone();
        careless.play(14 * 15).unwrap();
        let threat = careless.best_move(&WEIGHTS, limits()).unwrap();
        assert!(
            threat.score >= WIN / 2,
            "a move elsewhere loses: {threat:?}"
        );
        let found = pos.best_move(&WEIGHTS, limits()).unwrap();
        pos.play(found.cell).unwrap();
        let reply = pos.best_move(&WEIGHTS, limits()).unwrap();
        assert!(
            reply.score < WIN / 2,
            "X played {found:?}; O then has {reply:?}"
        );
    }

    #[test]
    fn the_table_is_kept_between_the_searches_of_a_thread() {
        // Two stones: no threats to search for (whose search, cut short, would start over),
        // only alpha-beta.
        let pos = position(&[(7, 7, 1), (8, 8, 2)], 0);
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 4,
            ..limits()
        };
        forget_memory();
        let first = pos.best_move(&WEIGHTS, limits).unwrap();
        let again = pos.best_move(&WEIGHTS, limits).unwrap();
        assert!(again.nodes * 2 < first.nodes, "{first:?} then {again:?}");
        forget_memory();
        let afresh = pos.best_move(&WEIGHTS, limits).unwrap();
        assert_eq!(afresh.nodes, first.nodes);
    }

    /// Allows every move and counts the questions; its answers' key is `key`, and `failing`
    /// says a hook failed.
    struct Counting {
        asked: usize,
        key: u64,
        failing: bool,
    }

    impl Referee for Counting {
        fn allows(&mut self, _: &Placement, _: usize) -> bool {
            self.asked += 1;
            true
        }

        fn answers_key(&self) -> u64 {
            self.key
        }

        fn failed(&self) -> bool {
            self.failing
        }
    }

    #[test]
    fn the_judges_answers_are_kept_for_the_next_search_of_the_same_rules() {
        let judge = crate::native_games::placement::Judge {
            hook: "hook".into(),
            players: crate::native_games::placement::Players::ALL,
            screen: None,
            wins_allowed: false,
            refuses: None,
            always_refuses: None,
        };
        let stones = [(7, 7, 1), (8, 8, 2), (6, 8, 1), (8, 6, 2), (9, 7, 1)];
        let pos = position(&stones, 1).judged_by(judge);
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 3,
            ..limits()
        };
        let root = pos.candidates().len();
        // The transposition table and the positions without continuous threats forgotten (with
        // them a search goes further), the same search again: the same questions.
        let forget_table = || {
            MEMORY.with(|m| {
                let mut kept = m.borrow_mut();
                let kept = kept.as_mut().unwrap();
                kept.table.clear();
                kept.no_threats.clear();
                kept.answers_won.clear();
            })
        };
        let search = |key, failing| {
            let mut referee = Counting {
                asked: 0,
                key,
                failing,
            };
            pos.best_move_refereed(&WEIGHTS, limits, &mut referee);
            forget_table();
            referee.asked
        };
        forget_memory();
        let first = search(1, false);
        assert!(first > root, "{first} questions");
        assert_eq!(
            search(1, false),
            root,
            "only the root's moves are asked again"
        );
        assert_eq!(search(2, false), first, "other rules: every question again");
        forget_memory();
        assert!(
            search(1, true) > first,
            "a failed hook's answers are not kept, even now"
        );
        assert_eq!(search(1, false), first, "nor for the next search");
    }

    #[test]
    fn alpha_beta_asks_the_judge_only_about_a_move_better_than_those_before() {
        // Every move of both players judged, a win at once not asked about, two stones on the
        // board (no four or three to look at): many moves alpha-beta searches are no better
        // than one before them, and are not asked about (574 questions for 998 positions;
        // asking about every move searched, 1 030).
        let judge = crate::native_games::placement::Judge {
            hook: "hook".into(),
            players: crate::native_games::placement::Players::ALL,
            screen: None,
            wins_allowed: true,
            refuses: None,
            always_refuses: None,
        };
        let pos = position(&[(7, 7, 1), (8, 8, 2)], 0).judged_by(judge);
        let limits = SearchLimits {
            time: Duration::from_secs(60),
            max_depth: 3,
            ..limits()
        };
        forget_memory();
        let mut referee = Counting {
            asked: 0,
            key: 3,
            failing: false,
        };
        let found = pos
            .best_move_refereed(&WEIGHTS, limits, &mut referee)
            .unwrap();
        assert!(
            referee.asked * 3 < found.nodes as usize * 2,
            "{} questions for {} positions",
            referee.asked,
            found.nodes
        );
    }

    /// Whether the windows `s` kept as stones came and went scan as the windows counted
    /// afresh from its board do (the scan reads only the windows kept as hot).
    fn scans_as_counted_afresh(s: &Searcher) -> bool {
        let scan = |windows: &WindowCounts| {
            let mut scan = Scan::default();
            windows.scan_into(&s.pos.cells, [true, true], &mut scan);
            scan
        };
        let (kept, fresh) = (scan(&s.windows), scan(&WindowCounts::new(&s.pos, &WEIGHTS)));
        kept.wins == fresh.wins && kept.fours == fresh.fours
    }

    #[test]
    fn the_scores_kept_as_stones_come_and_go_are_the_boards() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let p = position(&[(7, 7, 1), (8, 8, 2)], 0);
        let mut referee = AllowAll;
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut s = Searcher::new(&p, &WEIGHTS, &mut referee, deadline, 12);
        let mut played = Vec::new();
        for _ in 0..80 {
            let empties: Vec<usize> = (0..225).filter(|&c| s.pos.cells[c] == 0).collect();
            let cell = empties[rng.random_range(0..empties.len())];
            let stone = s.pos.to_move + 1;
            s.put(cell, stone);
            played.push((cell, stone));
            assert_eq!(s.evaluation(), s.pos.evaluate(&WEIGHTS));
            assert!(scans_as_counted_afresh(&s));
            for c in (0..225).filter(|&c| s.pos.cells[c] == 0) {
                let mover = s.pos.to_move + 1;
                assert_eq!(s.windows.gain(c, mover), s.pos.gain_parts(c, &WEIGHTS));
                // The judge's screens read the kept counts as they read the board.
                assert_eq!(s.windows.gathered(c, mover), s.pos.gathered(c, 5));
                s.pos.to_move = 1 - s.pos.to_move;
                assert_eq!(s.windows.gathered(c, 3 - mover), s.pos.gathered(c, 5));
                s.pos.to_move = 1 - s.pos.to_move;
            }
        }
        while let Some((cell, stone)) = played.pop() {
            s.take(cell, stone);
            assert_eq!(s.evaluation(), s.pos.evaluate(&WEIGHTS));
            assert!(scans_as_counted_afresh(&s));
        }
    }

    #[test]
    fn a_scan_for_one_side_has_both_sides_wins_and_that_sides_fours() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let p = position(&[(7, 7, 1), (8, 8, 2)], 0);
        let mut referee = AllowAll;
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut s = Searcher::new(&p, &WEIGHTS, &mut referee, deadline, 12);
        let mut fours_seen = [false; 2];
        for _ in 0..70 {
            let empties: Vec<usize> = (0..225).filter(|&c| s.pos.cells[c] == 0).collect();
            let cell = empties[rng.random_range(0..empties.len())];
            s.put(cell, s.pos.to_move + 1);
            let full = s.scan();
            for stone in [1u8, 2] {
                let (p, other) = (usize::from(stone - 1), usize::from(2 - stone));
                let one = s.scan_for(stone);
                assert_eq!(one.wins, full.wins);
                assert_eq!(one.fours[p], full.fours[p]);
                assert!(one.fours[other].is_empty());
                fours_seen[p] |= !one.fours[p].is_empty();
                s.recycle(one);
                // The moves making a three, counted twice: its buffer is left as it was found.
                let threes = s.windows.three_moves(&s.pos.cells, stone);
                assert_eq!(s.windows.three_moves(&s.pos.cells, stone), threes);
            }
            s.recycle(full);
        }
        assert_eq!(fours_seen, [true, true], "boards with fours were scanned");
    }

    #[test]
    fn candidates_read_by_rows_are_those_read_cell_by_cell() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut p = position(&[(0, 0, 1)], 0);
        for _ in 0..120 {
            let cell = rng.random_range(0..p.cells.len());
            p.cells[cell] = [0, 1, 2, CLOSED][rng.random_range(0..4)];
            if p.cells.iter().any(|&v| v != 0 && v != CLOSED) {
                assert_eq!(p.candidates_by_rows(), p.candidates_by_cells());
            }
        }
    }

    #[test]
    fn the_moves_kept_against_continuous_fours_are_those_that_refute_them() {
        use crate::native_games::placement::search::threat_search::tests as threats;
        let stones: Vec<_> = threats::four_then_open_four()
            .into_iter()
            .map(|(x, y, v)| (x, y, 3 - v))
            .collect();
        let pos = position(&stones, 0);
        let mut referee = AllowAll;
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut s = Searcher::new(&pos, &WEIGHTS, &mut referee, deadline, 12);
        let moves = pos.candidates();
        let kept = s
            .refutations(&moves, u64::MAX)
            .expect("O has continuous fours");
        assert!(!kept.is_empty() && kept.len() < moves.len(), "{kept:?}");
        for mv in moves {
            let mut after = pos.clone();
            after.play(mv).unwrap();
            let refutes = threats::vcf_of(&after, &mut AllowAll).is_none();
            assert_eq!(refutes, kept.contains(&mv), "move {mv}");
        }
    }
}
