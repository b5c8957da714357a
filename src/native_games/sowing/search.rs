//! Native search for two-player sowing games: alpha-beta (negamax) with iterative deepening under
//! a time budget, captures tried first. Positions are scored from the mover's side as
//! `weights[0] × score + weights[1] × seeds in own houses`, minus the same for the opponent; the
//! weights come from the rules script.

use std::time::{Duration, Instant};

use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{RulesOnly, SowMove, Sowing};
use crate::runtime::Outcome;

/// A score beyond any evaluation: a won position.
pub const WIN: i64 = 1 << 40;

/// How hard to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimits {
    /// Stop deepening once this much time has passed (depth 1 always completes).
    pub time: Duration,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Seed for choosing between equally good moves.
    pub seed: u64,
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// The move.
    pub mv: SowMove,
    /// Its score for the player to move.
    pub score: i64,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

struct Searcher<'w> {
    weights: &'w [i64; 2],
    deadline: Option<Instant>,
    nodes: u64,
    out_of_time: bool,
}

impl Sowing {
    /// How good the position is for `player`: their weighted score and house seeds minus the
    /// best opponent's.
    pub fn evaluate(&self, player: usize, weights: &[i64; 2]) -> i64 {
        let worth = |p: usize| weights[0] * self.scores[p] + weights[1] * self.house_seeds(p);
        let best_other = (0..self.players())
            .filter(|&p| p != player)
            .map(worth)
            .max()
            .unwrap_or(0);
        worth(player) - best_other
    }

    /// The best move for the player to move within `limits`, or `None` when there is none.
    /// Searches two-player games only (`None` for more players), and positions whose captures
    /// follow the rules alone (`None` for one a script hook judges: that search is the
    /// script's).
    pub fn best_move(&self, weights: &[i64; 2], limits: SearchLimits) -> Option<Found> {
        if self.players() != 2 || self.capture_hooked() {
            return None;
        }
        let start = Instant::now();
        let mut root = self.legal_moves();
        if root.is_empty() {
            return None;
        }
        root.shuffle(&mut ChaCha8Rng::seed_from_u64(limits.seed));
        let mut searcher = Searcher {
            weights,
            deadline: None,
            nodes: 0,
            out_of_time: false,
        };
        let mut best: Option<Found> = None;
        for depth in 1..=limits.max_depth.max(1) {
            searcher.deadline = (depth > 1).then_some(start + limits.time);
            let Some((mv, score)) = searcher.root(self, &root, depth) else {
                break;
            };
            best = Some(Found {
                mv,
                score,
                depth,
                nodes: searcher.nodes,
            });
            // Search the best move first next time.
            let i = root.iter().position(|&m| m == mv).unwrap_or(0);
            root[..=i].rotate_right(1);
            if score.abs() >= WIN / 2 {
                break;
            }
        }
        best
    }
}

impl Searcher<'_> {
    /// The best root move at `depth`, or `None` if time ran out first.
    fn root(&mut self, pos: &Sowing, moves: &[SowMove], depth: u32) -> Option<(SowMove, i64)> {
        let mut best = (moves[0], -WIN * 2);
        let mut alpha = -WIN * 2;
        for &mv in moves {
            let mut child = pos.clone();
            child.apply(mv, &mut RulesOnly);
            let score = -self.negamax(&child, depth - 1, 1, -WIN * 2, -alpha);
            if self.out_of_time {
                return None;
            }
            if score > best.1 {
                best = (mv, score);
            }
            alpha = alpha.max(score);
        }
        Some(best)
    }

    fn negamax(&mut self, pos: &Sowing, depth: u32, ply: i64, mut alpha: i64, beta: i64) -> i64 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && (crate::cancel::requested() || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        let me = pos.to_move();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return match pos.outcome() {
                Some(Outcome::Win(w)) if w == me => WIN - ply,
                Some(Outcome::Win(_)) => ply - WIN,
                _ => 0,
            };
        }
        if depth == 0 {
            return pos.evaluate(me, self.weights);
        }
        // Children, the ones that gain the most for the mover first.
        let mut children: Vec<(i64, Sowing)> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.apply(mv, &mut RulesOnly);
                (child.scores[me] - pos.scores[me], child)
            })
            .collect();
        children.sort_by_key(|c| -c.0);
        let mut best = -WIN * 2;
        for (_, child) in &children {
            let score = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
