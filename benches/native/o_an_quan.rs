//! Ô ăn quan as a hand-written native program, with the default options of
//! `rules/o_an_quan.rhai` (two players, `direction=own`, `borrow=true`, `quan_non=0`): sowing
//! that skips its origin on a lap (the first sowing only), relay sowing from a small pit holding
//! seeds, capture chains across empty nodes, a refill paid from the score at the start of a turn
//! with empty pits, and the end when both quan nodes are empty (each player adding the seeds in
//! their own pits). No allocation: the board is a fixed array.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Reference;

/// Nodes on the ring: player 0's pits 0–4, quan A 5, player 1's pits 6–10, quan B 11.
const RING: usize = 12;
/// Small pits per player.
const PITS: usize = 5;
/// A playout gives up after this many moves, like the runtime's random playouts.
const MAX_PLIES: usize = 100_000;

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The player with this index won.
    Win(usize),
    /// Equal final scores.
    Draw,
}

/// The legal moves of a position, as (ring pit, to the mover's right) pairs, in the script's
/// order: the mover's pits by their user number (1–5, or 6–10), right before left.
#[derive(Clone, Copy)]
pub struct Moves {
    list: [(usize, bool); 2 * PITS],
    len: usize,
}

impl Moves {
    /// The moves.
    pub fn as_slice(&self) -> &[(usize, bool)] {
        &self.list[..self.len]
    }
}

/// A game of Ô ăn quan.
#[derive(Clone, Copy)]
pub struct OAnQuan {
    /// The worth of each ring node: dân in a small pit; quan (10 until captured) plus dân in a
    /// quan node.
    pub ring: [i32; RING],
    /// Seeds captured, less the refills paid (may be negative).
    pub scores: [i32; 2],
    /// The player to move.
    pub turn: usize,
}

impl OAnQuan {
    /// The start: five dân in every small pit, a quan worth 10 in each quan node.
    pub fn start() -> Self {
        let mut ring = [5; RING];
        ring[PITS] = 10;
        ring[RING - 1] = 10;
        OAnQuan {
            ring,
            scores: [0; 2],
            turn: 0,
        }
    }

    /// The seeds in player `p`'s five small pits.
    fn own_seeds(&self, p: usize) -> i32 {
        self.ring[p * (PITS + 1)..p * (PITS + 1) + PITS]
            .iter()
            .sum()
    }

    /// Whether the game is over: both quan nodes hold nothing.
    pub fn over(&self) -> bool {
        self.ring[PITS] == 0 && self.ring[RING - 1] == 0
    }

    /// Each player's score with the seeds left in their own pits added (the final scores once
    /// the game is over).
    pub fn final_scores(&self) -> [i32; 2] {
        [0, 1].map(|p| self.scores[p] + self.own_seeds(p))
    }

    /// `Some` once the game is over: the higher final score wins.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let [a, b] = self.final_scores();
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// The legal moves (none once the game is over). A mover whose pits are all empty may pick
    /// any of them: the refill at the start of the move fills them.
    pub fn legal_moves(&self) -> Moves {
        let mut moves = Moves {
            list: [(0, false); 2 * PITS],
            len: 0,
        };
        if self.over() {
            return moves;
        }
        let p = self.turn;
        let refill = self.own_seeds(p) == 0;
        for i in 0..PITS {
            // Player 1 numbers pits 6..10 against the ring: pit 6 is ring node 10.
            let pit = if p == 0 { i } else { RING - 2 - i };
            if refill || self.ring[pit] > 0 {
                moves.list[moves.len] = (pit, true);
                moves.list[moves.len + 1] = (pit, false);
                moves.len += 2;
            }
        }
        moves
    }

    /// Plays a legal move: sows ring pit `pit` to the mover's right (`right`) or left.
    pub fn play(&mut self, pit: usize, right: bool) {
        let p = self.turn;
        // Refill: a mover with empty pits puts 1 dân in each, paid from the score.
        if self.own_seeds(p) == 0 {
            for s in &mut self.ring[p * (PITS + 1)..p * (PITS + 1) + PITS] {
                *s = 1;
            }
            self.scores[p] -= PITS as i32;
        }
        // Player 0's right goes up the ring, player 1's down (each player's own right).
        let step = if right == (p == 0) { 1 } else { RING - 1 };
        let next = |at: usize| (at + step) % RING;

        // The first sowing skips its origin when it laps the ring.
        let mut n = std::mem::take(&mut self.ring[pit]);
        let mut at = pit;
        while n > 0 {
            at = next(at);
            if at != pit {
                self.ring[at] += 1;
                n -= 1;
            }
        }
        // Relay: while the node after the last seed is a small pit holding seeds, sow them on.
        let mut after = next(at);
        while after % (PITS + 1) != PITS && self.ring[after] > 0 {
            let n = std::mem::take(&mut self.ring[after]);
            at = after;
            for _ in 0..n {
                at = next(at);
                self.ring[at] += 1;
            }
            after = next(at);
        }
        // Capture chain: an empty node followed by a node holding something.
        let mut taken = 0;
        while self.ring[after] == 0 {
            let target = next(after);
            if self.ring[target] == 0 {
                break;
            }
            taken += std::mem::take(&mut self.ring[target]);
            after = next(target);
        }
        self.scores[p] += taken;
        self.turn = 1 - p;
    }
}

impl Reference for OAnQuan {
    fn playout(&mut self, rng: &mut ChaCha8Rng) -> usize {
        *self = OAnQuan::start();
        for plies in 0..MAX_PLIES {
            if self.outcome().is_some() {
                return plies;
            }
            let moves = self.legal_moves();
            let moves = moves.as_slice();
            let (pit, right) = moves[rng.random_range(0..moves.len())];
            self.play(pit, right);
        }
        MAX_PLIES
    }
}
