//! Oware (abapa) as a hand-written native program, with OpenSpiel's rules as `rules/oware.rhai`
//! states them: counterclockwise sowing that skips the origin, captures of 2s and 3s backwards on
//! the opponent's side unless they would take everything (grand slam), feeding a starved
//! opponent, and the end by majority, by repetition or when the mover has no move (each side
//! collecting its seeds).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Reference;

/// A game of Oware.
#[derive(Clone, Default)]
pub struct Oware {
    /// Seeds per house: 0–5 are player 0's (A–F), 6–11 player 1's (a–f).
    pub houses: [u8; 12],
    /// Seeds captured.
    pub scores: [u8; 2],
    /// The player to move.
    pub turn: usize,
    seen: Vec<[u8; 13]>,
}

impl Oware {
    /// The start: four seeds in every house.
    pub fn start() -> Self {
        let mut game = Oware {
            houses: [4; 12],
            ..Oware::default()
        };
        game.seen.push(game.key());
        game
    }

    fn key(&self) -> [u8; 13] {
        let mut k = [0; 13];
        k[..12].copy_from_slice(&self.houses);
        k[12] = self.turn as u8;
        k
    }

    fn side(&self, p: usize) -> u32 {
        self.houses[p * 6..p * 6 + 6]
            .iter()
            .map(|&s| s as u32)
            .sum()
    }

    /// Whether the game is over (someone has a majority, or both have half).
    pub fn over(&self) -> bool {
        let [a, b] = self.scores;
        a > 24 || b > 24 || (a == 24 && b == 24)
    }

    /// The houses the mover may sow from.
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        let p = self.turn;
        let starving = self.side(1 - p) == 0;
        (p * 6..p * 6 + 6)
            .filter(|&h| {
                let need = if starving { p * 6 + 6 - h } else { 1 };
                self.houses[h] as usize >= need
            })
            .collect()
    }

    fn collect(&mut self) {
        for p in 0..2 {
            self.scores[p] += self.side(p) as u8;
        }
        self.houses = [0; 12];
    }

    /// Sows from house `h` (a legal move).
    pub fn play(&mut self, h: usize) {
        let p = self.turn;
        let mut n = std::mem::take(&mut self.houses[h]);
        let mut at = h;
        while n > 0 {
            at = (at + 1) % 12;
            if at != h {
                self.houses[at] += 1;
                n -= 1;
            }
        }
        let side = at / 6;
        if side != p {
            let low = side * 6;
            let slam = self.houses[at + 1..low + 6].iter().all(|&s| s == 0)
                && self.houses[low..=at].iter().all(|&s| s == 2 || s == 3);
            if !slam {
                let mut taken = 0;
                let mut house = at as isize;
                while house >= low as isize && matches!(self.houses[house as usize], 2 | 3) {
                    taken += std::mem::take(&mut self.houses[house as usize]);
                    house -= 1;
                }
                if taken > 0 {
                    self.scores[p] += taken;
                    self.seen.clear();
                }
            }
        }
        self.turn = 1 - p;
        let key = self.key();
        if self.seen.contains(&key) {
            self.collect();
        } else {
            self.seen.push(key);
            if self.legal_moves().is_empty() {
                self.collect();
            }
        }
    }
}

impl Reference for Oware {
    fn playout(&mut self, rng: &mut ChaCha8Rng) -> usize {
        *self = Oware::start();
        let mut plies = 0;
        loop {
            let moves = self.legal_moves();
            if moves.is_empty() {
                return plies;
            }
            self.play(moves[rng.random_range(0..moves.len())]);
            plies += 1;
        }
    }
}
