//! The standings summed up one game at a time, so that `tournament merge` reads its journals
//! line by line: memory grows with the bots and the pairs that met, not with the games, and
//! each game costs a few hash look-ups.

use std::collections::HashMap;

use super::{
    journal::Entry,
    ratings::{self, Results},
};

/// A bot's line in the standings.
pub struct Row {
    /// The bot's name.
    pub name: String,
    /// Its rating.
    pub rating: ratings::Rating,
    /// Games, wins, draws, losses.
    pub games: usize,
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Timeouts, illegal moves, crashes.
    pub faults: [usize; 3],
    /// The first faults, described.
    pub details: Vec<String>,
}

/// Everything the report shows.
pub struct Standings {
    /// The rules played.
    pub rules: String,
    /// The number of games.
    pub games: usize,
    /// The bots, best first.
    pub rows: Vec<Row>,
    /// `cross[i][j]`: the points row bot `i` took from bot `j`, and their games (in row order);
    /// empty when there are more than [`CROSSTABLE_BOTS`] bots.
    pub cross: Vec<Vec<(f64, usize)>>,
}

/// How many fault details are listed for each bot (the journal has them all).
const DETAILS_SHOWN: usize = 3;

/// Up to how many bots the report has a crosstable (a bot per row and per column: beyond this
/// it is neither readable nor small).
pub const CROSSTABLE_BOTS: usize = 64;

/// The games seen so far, summed up.
#[derive(Default)]
pub struct Tally {
    /// Each bot's number, by name.
    numbers: HashMap<String, usize>,
    /// Each bot's line, by number (its rating filled in at the end).
    rows: Vec<Row>,
    /// The first faults of each bot by game number: the game's number and the description.
    details: Vec<Vec<(usize, String)>>,
    /// The points a bot took from another and their games, by (bot, opponent).
    cross: HashMap<(usize, usize), (f64, usize)>,
    /// What the ratings are fitted to.
    results: Results,
    /// The games added.
    games: usize,
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, e: &Entry) {
        self.games += 1;
        let (a, b) = (self.number(&e.players[0]), self.number(&e.players[1]));
        let s = e.first_score();
        self.results.add((a, b, s));
        for (me, other, points) in [(a, b, s), (b, a, 1.0 - s)] {
            let row = &mut self.rows[me];
            row.games += 1;
            match points {
                p if p > 0.75 => row.wins += 1,
                p if p < 0.25 => row.losses += 1,
                _ => row.draws += 1,
            }
            let cell = self.cross.entry((me, other)).or_default();
            cell.0 += points;
            cell.1 += 1;
        }
        for fault in &e.faults {
            let bot = self.number(&fault.bot);
            self.rows[bot].faults[fault.kind as usize] += 1;
            let (me, opponent) = if e.players[0] == fault.bot {
                (1, &e.players[1])
            } else {
                (2, &e.players[0])
            };
            let details = &mut self.details[bot];
            details.push((
                e.game,
                format!(
                    "game {} (player {me} against {opponent}): {}: {}",
                    e.game + 1,
                    fault.kind.name(),
                    fault.detail
                ),
            ));
            // Keep the first by game number, whatever order the journals come in.
            if details.len() > DETAILS_SHOWN {
                details.sort_by_key(|(game, _)| *game);
                details.truncate(DETAILS_SHOWN);
            }
        }
    }

    /// The number of bot `name`, a new one if it is new.
    fn number(&mut self, name: &str) -> usize {
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let n = self.rows.len();
        self.numbers.insert(name.to_string(), n);
        self.rows.push(Row {
            name: name.to_string(),
            rating: super::ratings::Rating {
                elo: 0.0,
                margin: 0.0,
            },
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            faults: [0; 3],
            details: Vec::new(),
        });
        self.details.push(Vec::new());
        n
    }

    /// The standings of the games added, of `rules`: the bots by rating (then name), with a
    /// crosstable when there are at most [`CROSSTABLE_BOTS`].
    pub fn standings(self, rules: &str) -> Standings {
        let Tally {
            mut rows,
            details,
            cross,
            results,
            games,
            ..
        } = self;
        let n = rows.len();
        for ((row, rating), mut details) in rows.iter_mut().zip(results.fit(n)).zip(details) {
            row.rating = rating;
            details.sort_by_key(|(game, _)| *game);
            row.details = details.into_iter().map(|(_, d)| d).collect();
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            rows[b]
                .rating
                .elo
                .total_cmp(&rows[a].rating.elo)
                .then(rows[a].name.cmp(&rows[b].name))
        });
        let cross = if n <= CROSSTABLE_BOTS {
            order
                .iter()
                .map(|&i| {
                    let cell = |j: usize| cross.get(&(i, j)).copied().unwrap_or((0.0, 0));
                    order.iter().map(|&j| cell(j)).collect()
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut rows: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
        Standings {
            rules: rules.to_string(),
            games,
            rows: order.iter().filter_map(|&i| rows[i].take()).collect(),
            cross,
        }
    }
}
