//! The game list of a round robin: every pair of bots, both colours, and a seed for each game;
//! and the deterministic split of that list into shards.

use serde::{Deserialize, Serialize};

/// A bot of the tournament: its name in the tables and its command (or `builtin:LEVEL`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bot {
    /// The name in the standings.
    pub name: String,
    /// What the referee runs: a command line, or `builtin:LEVEL`.
    pub command: String,
}

impl Bot {
    /// Reads `NAME=CMD`; a spec without `=` (such as `builtin:easy`) is its own name. A name
    /// is letters, digits and `_ . : -` (ASCII): anything else before the first `=` is refused,
    /// never taken as part of a command.
    pub fn parse(spec: &str) -> Result<Bot, String> {
        let spec = spec.trim();
        let (name, command) = match spec.split_once('=') {
            Some((name, command)) => {
                let name = name.trim();
                if name.is_empty() || !name.chars().all(is_name_char) {
                    return Err(format!(
                        "'{}' is not a bot name: a name is letters, digits and _ . : - \
                         (write NAME=CMD, e.g. deep=python3 bot.py --depth=3)",
                        name.escape_default()
                    ));
                }
                (name, command)
            }
            None => (spec, spec),
        };
        if command.trim().is_empty() {
            return Err(format!(
                "the bot '{}' has no command",
                name.escape_default()
            ));
        }
        Ok(Bot {
            name: name.to_string(),
            command: command.trim().to_string(),
        })
    }
}

/// Whether `c` may be in a bot's name: `[A-Za-z0-9_.:-]`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_.:-".contains(c)
}

/// One game of the schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The game's number in the whole schedule (from 0).
    pub id: usize,
    /// The bots (indices into the bot list) playing player 1 and player 2.
    pub sides: [usize; 2],
    /// The seed given to builtin sides in this game.
    pub seed: u64,
}

/// Every pair of `bots` bots plays `per_pair` games, changing colours each game; game `id` has
/// seed `seed + id`. Rounds come one after another, so a cut-short tournament is still balanced.
pub fn round_robin(bots: usize, per_pair: usize, seed: u64) -> Vec<Pairing> {
    let mut games = Vec::new();
    for round in 0..per_pair {
        for a in 0..bots {
            for b in a + 1..bots {
                let sides = if round % 2 == 0 { [a, b] } else { [b, a] };
                let id = games.len();
                games.push(Pairing {
                    id,
                    sides,
                    seed: seed.wrapping_add(id as u64),
                });
            }
        }
    }
    games
}

/// Shard `index` of `count` (from 1): the games whose number is `index - 1` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// Reads `I/N` with 1 ≤ I ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard: write I/N with 1 ≤ I ≤ N, as in 2/4");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the game belongs to this shard.
    pub fn has(&self, game: &Pairing) -> bool {
        game.id % self.count == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_with_both_colours() {
        let games = round_robin(3, 2, 10);
        assert_eq!(games.len(), 6);
        assert_eq!(games[0].sides, [0, 1]);
        assert_eq!(games[3].sides, [1, 0]);
        assert_eq!(games[5].seed, 15);
    }

    #[test]
    fn shards_split_the_games_exactly() {
        let games = round_robin(4, 3, 0);
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for g in &games {
            assert_eq!(shards.iter().filter(|s| s.has(g)).count(), 1);
        }
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert_eq!(Shard::parse("2/2"), Ok(Shard { index: 2, count: 2 }));
    }

    #[test]
    fn bots_are_named_or_named_after_their_command() {
        let b = Bot::parse("rnd=examples/bots/random_bot.sh x=1").unwrap();
        assert_eq!(
            (b.name.as_str(), b.command.as_str()),
            ("rnd", "examples/bots/random_bot.sh x=1")
        );
        let b = Bot::parse("builtin:easy").unwrap();
        assert_eq!(b.name, "builtin:easy");
        assert!(Bot::parse("x=").is_err());
        // a name outside [A-Za-z0-9_.:-] is refused, never run as a command
        for spec in [
            "my bot=./run.sh",
            "python3 bot.py --depth=3",
            "é=x",
            "a;rm=x",
            "=x",
        ] {
            let e = Bot::parse(spec).unwrap_err();
            assert!(e.contains("is not a bot name"), "{spec}: {e}");
        }
    }
}
