//! One variant's games summed up: results, lengths, branching and decisive moves.

use super::{selfplay::Record, stats};
use crate::runtime::Outcome;

/// What `analyze` reports about one variant.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The variant's name in the report.
    pub label: String,
    /// Games played.
    pub games: usize,
    /// Games the first player won.
    pub first_wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games stopped at the ply limit.
    pub unfinished: usize,
    /// Each game's length in plies.
    pub lengths: Vec<usize>,
    /// Legal moves per position, on average (`None`: not measured, as from a journal).
    pub branching: Option<f64>,
    /// The share of positions where the player to move had a move that wins at once (`None`:
    /// not measured).
    pub decisive: Option<f64>,
}

impl Summary {
    /// Sums up `records`.
    pub fn of(label: &str, records: &[Record]) -> Summary {
        let count = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| f(r)).count();
        let positions: usize = records.iter().map(|r| r.positions).sum();
        let ratio = |n: usize| {
            if positions == 0 {
                0.0
            } else {
                n as f64 / positions as f64
            }
        };
        Summary {
            label: label.to_string(),
            games: records.len(),
            first_wins: count(&|r| r.outcome == Some(Outcome::Win(0))),
            draws: count(&|r| r.outcome == Some(Outcome::Draw)),
            unfinished: count(&|r| r.outcome.is_none()),
            lengths: records.iter().map(|r| r.plies).collect(),
            branching: Some(ratio(records.iter().map(|r| r.moves).sum())),
            decisive: Some(ratio(records.iter().map(|r| r.decisive).sum())),
        }
    }

    /// The first player's win rate.
    pub fn first_rate(&self) -> f64 {
        self.first_wins as f64 / self.games.max(1) as f64
    }

    /// The 95 % Wilson interval of the first player's win rate.
    pub fn first_interval(&self) -> (f64, f64) {
        stats::wilson(self.first_wins, self.games)
    }

    /// The mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        self.lengths.iter().sum::<usize>() as f64 / self.games.max(1) as f64
    }
}
