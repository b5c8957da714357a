//! Sampled expectimax, for games where chance follows the moves (new pieces on random cells,
//! dice): each root move is valued by the mean evaluation over sampled futures instead of the
//! one future the state's own generator already holds — a search that plays moves through the
//! rules as they are would "know" what chance will do.
//!
//! The caller gives a `reseed(state, seed)` that returns the state with its chance replaced by
//! a generator seeded from `seed`; every move is played from reseeded states only, so the search
//! never depends on the real future (two states that differ only in their generators get the
//! same answer). Sample `k` uses the same seed for every root move (common random numbers: the
//! moves are compared under the same luck).
//!
//! The search runs in two stages within its time budget:
//! 1. **Screen**: every root move is played in one sampled future and evaluated, which ranks
//!    them (it always completes, so every move is looked at).
//! 2. **Refine**: the best `width` moves are played in more and more sampled futures, in
//!    sweeps; after each doubling of the samples the worse half is dropped (successive halving).
//!    With `replies > 0`, a sampled future is valued by the best of its `replies` most promising
//!    next moves — those the screen ranked highest — each played on (chance is sampled again):
//!    a shallow max over the next moves. A sweep that the deadline interrupts is discarded, so
//!    the result depends only on the seed and the number of completed sweeps.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::WIN;
use crate::runtime::{Game, GameError, Outcome};

/// How hard to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop refining once this much time has passed (the screen always completes).
    pub time: Duration,
    /// How many of the best screened moves are refined.
    pub width: usize,
    /// The most sampled futures per refined move.
    pub samples: usize,
    /// The next moves tried in each sampled future (0: the future is evaluated as it is).
    pub replies: usize,
    /// The seed of the sampled futures and of the order of equal moves.
    pub seed: u64,
}

/// The move the search chose, with what it found.
#[derive(Debug, Clone)]
pub struct Found<M> {
    /// The move.
    pub mv: M,
    /// Its mean value over the sampled futures, for the player to move.
    pub value: f64,
    /// The evaluation of the position before the move, for the same player.
    pub before: i64,
    /// The futures sampled for the move (1 if only the screen ran).
    pub samples: usize,
    /// Moves looked ahead in each future: 1, or 2 with replies.
    pub depth: usize,
    /// Root moves refined beyond the screen (0 if time ran out before a sweep, or there was
    /// only one).
    pub refined: usize,
    /// Root moves in all.
    pub moves: usize,
    /// Whether every sampled future of the move was the same: chance played no part in it.
    pub certain: bool,
}

/// An evaluation: how good a state is for a player (higher is better).
pub type Evaluator<'a, G> = &'a dyn Fn(&<G as Game>::State, usize) -> Result<i64, GameError>;

/// A state with its chance replaced by a generator seeded from the given seed.
pub type Reseed<'a, G> = &'a dyn Fn(&<G as Game>::State, u64) -> <G as Game>::State;

struct Sampler<'a, G: Game> {
    game: &'a G,
    eval: Evaluator<'a, G>,
    me: usize,
    /// The screen's value of each root move, by [`Game::move_hash`]: the order replies are
    /// tried in.
    ranking: HashMap<u64, i64>,
}

/// The seed of sampled future `k`.
fn sample_seed(seed: u64, k: usize) -> u64 {
    seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Chooses a move for the player to move in `state`, or `None` when there is none.
pub fn best_move<G: Game>(
    game: &G,
    state: &G::State,
    eval: Evaluator<'_, G>,
    reseed: Reseed<'_, G>,
    limits: Limits,
) -> Result<Option<Found<G::Move>>, GameError> {
    if game.outcome(state)?.is_some() {
        return Ok(None);
    }
    best_move_among(game, state, game.legal_moves(state)?, eval, reseed, limits)
}

/// [`best_move`] among `moves` only (legal moves of `state`, which is not over).
pub fn best_move_among<G: Game>(
    game: &G,
    state: &G::State,
    mut moves: Vec<G::Move>,
    eval: Evaluator<'_, G>,
    reseed: Reseed<'_, G>,
    limits: Limits,
) -> Result<Option<Found<G::Move>>, GameError> {
    let deadline = Instant::now() + limits.time;
    if moves.is_empty() {
        return Ok(None);
    }
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(limits.seed));
    let me = game.to_move(state)?;
    let mut sampler = Sampler {
        game,
        eval,
        me,
        ranking: HashMap::new(),
    };
    // Screen: every move in one sampled future.
    let first = reseed(state, sample_seed(limits.seed, 0));
    let before = eval(&first, me)?; // the evaluation too sees no real future
    let mut screened = Vec::with_capacity(moves.len());
    for mv in moves {
        if !screened.is_empty() && Instant::now() >= deadline {
            break; // out of time (a slow script): the moves screened so far compete
        }
        let valued = game
            .play(&first, &mv)
            .and_then(|p| sampler.value(&p.state, 0, 0));
        let value = match valued {
            Ok(value) => value,
            // The command's time is up (a slow script): the moves screened so far compete.
            Err(_) if !screened.is_empty() && crate::cancel::calls_stopped() => break,
            Err(e) => return Err(e),
        };
        if let Some(h) = game.move_hash(&mv) {
            sampler.ranking.insert(h, value);
        }
        screened.push((value, mv));
    }
    let total = screened.len();
    screened.sort_by_key(|(v, _)| std::cmp::Reverse(*v)); // stable: ties keep the shuffled order

    // Refine: the best moves in more futures, halving the field as the samples double.
    let depth = if limits.replies > 0 { 2 } else { 1 };
    let mut field: Vec<Candidate<G::Move>> = screened
        .into_iter()
        .take(limits.width.max(1))
        .map(|(value, mv)| Candidate {
            mv,
            screen: value,
            sum: 0.0,
            states: Vec::new(),
        })
        .collect();
    let width = field.len();
    let mut done = 0;
    let mut target = 2.min(limits.samples);
    'refine: while field.len() > 1 && done < target {
        while done < target {
            let future = reseed(state, sample_seed(limits.seed, done + 1));
            let mut sweep = Vec::with_capacity(field.len());
            for c in &field {
                if crate::cancel::past(deadline) {
                    break 'refine; // the interrupted sweep is discarded
                }
                let valued = game.play(&future, &c.mv).and_then(|p| {
                    let value = sampler.value(&p.state, limits.replies, done + 1)?;
                    Ok((value, game.state_hash_in_time(&reseed(&p.state, 0))))
                });
                match valued {
                    Ok((value, Some(hash))) => sweep.push((value, hash)),
                    // A state too large to hash before the command's time was up.
                    Ok((_, None)) => break 'refine,
                    Err(_) if crate::cancel::calls_stopped() => break 'refine,
                    Err(e) => return Err(e),
                }
            }
            for (c, (value, hash)) in field.iter_mut().zip(sweep) {
                c.sum += value as f64;
                c.states.push(hash);
            }
            done += 1;
        }
        // Keep the better half (at least two), by mean; ties keep the screen's order.
        field.sort_by(|a, b| b.sum.total_cmp(&a.sum));
        field.truncate(field.len().div_ceil(2).max(2));
        target = (target * 2).min(limits.samples);
    }
    // The best by mean over the completed sweeps (a stable sort: ties keep the earlier order).
    field.sort_by(|a, b| b.sum.total_cmp(&a.sum));
    let best = field
        .into_iter()
        .next()
        .expect("the field keeps at least one move");
    let (value, samples, certain) = if done == 0 {
        (best.screen as f64, 1, false)
    } else {
        let certain = best.states.windows(2).all(|w| w[0] == w[1]) && done > 1;
        (best.sum / done as f64, done, certain)
    };
    Ok(Some(Found {
        mv: best.mv,
        value,
        before,
        samples,
        depth: if done == 0 { 1 } else { depth },
        refined: if done == 0 { 0 } else { width },
        moves: total,
        certain,
    }))
}

struct Candidate<M> {
    mv: M,
    /// Its value in the screen.
    screen: i64,
    /// The sum of its values over the completed sweeps.
    sum: f64,
    /// The state each sweep's future led to (hashed, its generators reseeded alike): all equal
    /// when chance played no part.
    states: Vec<u64>,
}

impl<G: Game> Sampler<'_, G> {
    /// The value of `state` for the searching player: won, lost, or its evaluation; with
    /// `replies`, the best for the player to move of the `replies` best-ranked next moves played
    /// on (for the searching player the highest value, for anyone else the lowest).
    fn value(&self, state: &G::State, replies: usize, k: usize) -> Result<i64, GameError> {
        match self.game.outcome(state)? {
            Some(Outcome::Win(p)) if p == self.me => return Ok(WIN),
            Some(Outcome::Win(_)) => return Ok(-WIN),
            // A draw is what the evaluation says: a one-player game ends in one, with its score.
            Some(Outcome::Draw) => return (self.eval)(state, self.me),
            None => {}
        }
        if replies == 0 {
            return (self.eval)(state, self.me);
        }
        let mut next = self.game.legal_moves(state)?;
        let rank = |m: &G::Move| {
            self.game
                .move_hash(m)
                .and_then(|h| self.ranking.get(&h))
                .copied()
                .unwrap_or(i64::MIN)
        };
        // Moves the screen did not see come last, in an order of their own for this future.
        next.shuffle(&mut ChaCha8Rng::seed_from_u64(k as u64));
        next.sort_by_cached_key(|m| std::cmp::Reverse(rank(m)));
        next.truncate(replies);
        if next.is_empty() {
            return (self.eval)(state, self.me);
        }
        let mover = self.game.to_move(state)?;
        let mut best: Option<i64> = None;
        for mv in &next {
            let v = self.value(&self.game.play(state, mv)?.state, 0, k)?;
            best = Some(match best {
                None => v,
                Some(b) if mover == self.me => b.max(v),
                Some(b) => b.min(v),
            });
        }
        Ok(best.expect("at least one reply"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{Played, StableHasher};
    use std::hash::{Hash, Hasher};

    /// A one-player dice game: the state is (total, rolls left, die). A move either `0` banks
    /// `bank` points for sure, or `1` adds the next roll of the die (1 to 6, 3.5 on average), or `2`
    /// adds twice the roll minus 4 (3 on average, but sometimes 8). The die is the state's own
    /// generator: a search that played the moves as they are would see the next roll.
    struct Dice {
        names: Vec<String>,
        bank: i64,
    }

    type State = (i64, u32, u64);

    fn roll(die: u64) -> i64 {
        (die % 6) as i64 + 1
    }

    fn next_die(die: u64) -> u64 {
        die.wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            >> 1
    }

    impl Game for Dice {
        type State = State;
        type Move = u32;
        fn player_names(&self) -> &[String] {
            &self.names
        }
        fn start(&self) -> Result<State, GameError> {
            Ok((0, 3, 7))
        }
        fn to_move(&self, _: &State) -> Result<usize, GameError> {
            Ok(0)
        }
        fn legal_moves(&self, s: &State) -> Result<Vec<u32>, GameError> {
            Ok(if s.1 == 0 { vec![] } else { vec![0, 1, 2] })
        }
        fn play(&self, s: &State, m: &u32) -> Result<Played<State>, GameError> {
            let gain = match m {
                0 => self.bank,
                1 => roll(s.2),
                _ => 2 * roll(s.2) - 4,
            };
            let die = if *m == 0 { s.2 } else { next_die(s.2) };
            Ok(Played {
                state: (s.0 + gain, s.1 - 1, die),
                events: Vec::new(),
            })
        }
        fn outcome(&self, s: &State) -> Result<Option<Outcome>, GameError> {
            Ok((s.1 == 0).then_some(Outcome::Draw))
        }
        fn parse_move(&self, _: &State, t: &str) -> Result<u32, GameError> {
            t.parse().map_err(|_| GameError::BadText(t.into()))
        }
        fn format_move(&self, _: &State, m: &u32) -> Result<String, GameError> {
            Ok(m.to_string())
        }
        fn render(&self, s: &State) -> Result<String, GameError> {
            Ok(s.0.to_string())
        }
        fn parse_state(&self, t: &str, _: Option<usize>) -> Result<State, GameError> {
            Ok((self.parse_move(&(0, 0, 0), t)? as i64, 3, 7))
        }
        fn state_hash(&self, s: &State) -> u64 {
            let mut h = StableHasher::default();
            s.hash(&mut h);
            h.finish()
        }
    }

    fn search(die: u64, limits: Limits) -> Found<u32> {
        let game = Dice {
            names: vec!["solo".into()],
            bank: 3,
        };
        let eval = |s: &State, _: usize| Ok(s.0);
        let reseed = |s: &State, seed: u64| (s.0, s.1, seed);
        best_move(&game, &(0, 3, die), &eval, &reseed, limits)
            .unwrap()
            .unwrap()
    }

    fn limits(samples: usize, replies: usize) -> Limits {
        Limits {
            time: Duration::from_secs(60),
            width: 3,
            samples,
            replies,
            seed: 5,
        }
    }

    #[test]
    fn the_move_with_the_best_mean_wins_whatever_the_real_die_shows() {
        for die in 0..12 {
            let found = search(die, limits(400, 0));
            assert_eq!(found.mv, 1, "die {die}: {found:?}");
            assert!((found.value - 3.5).abs() < 0.3, "{found:?}");
            assert_eq!(found.samples, 400);
            assert_eq!((found.before, found.depth, found.moves), (0, 1, 3));
            assert!(!found.certain);
        }
    }

    #[test]
    fn the_real_future_is_never_read() {
        let a = search(1, limits(16, 2));
        let b = search(4, limits(16, 2));
        assert_eq!(
            (a.mv, a.value.to_bits(), a.samples),
            (b.mv, b.value.to_bits(), b.samples)
        );
        assert_eq!(a.depth, 2);
    }

    #[test]
    fn a_move_without_chance_is_certain() {
        let game = Dice {
            names: vec!["solo".into()],
            bank: 5,
        };
        let eval = |s: &State, _: usize| Ok(s.0);
        let reseed = |s: &State, seed: u64| (s.0, s.1, seed);
        let found = best_move(&game, &(0, 3, 0), &eval, &reseed, limits(64, 0))
            .unwrap()
            .unwrap();
        assert_eq!((found.mv, found.value, found.certain), (0, 5.0, true));
        assert_eq!(found.refined, 3);
        let over = best_move(&game, &(0, 0, 3), &eval, &reseed, limits(8, 0)).unwrap();
        assert!(over.is_none(), "no move in a finished game");
    }

    /// Two players, two plies: the first either takes 1, or 3 and lets the second take 5 back.
    struct Bait {
        names: Vec<String>,
    }

    /// (plies played, the first player's total, whether the bait was taken).
    type BaitState = (u32, i64, bool);

    impl Game for Bait {
        type State = BaitState;
        type Move = i64;
        fn player_names(&self) -> &[String] {
            &self.names
        }
        fn start(&self) -> Result<BaitState, GameError> {
            Ok((0, 0, false))
        }
        fn to_move(&self, s: &BaitState) -> Result<usize, GameError> {
            Ok(s.0 as usize % 2)
        }
        fn legal_moves(&self, s: &BaitState) -> Result<Vec<i64>, GameError> {
            Ok(match (s.0, s.2) {
                (0, _) => vec![1, 3],
                (1, true) => vec![0, -5],
                (1, false) => vec![0],
                _ => vec![],
            })
        }
        fn play(&self, s: &BaitState, m: &i64) -> Result<Played<BaitState>, GameError> {
            Ok(Played {
                state: (s.0 + 1, s.1 + m, s.2 || *m == 3),
                events: Vec::new(),
            })
        }
        fn outcome(&self, s: &BaitState) -> Result<Option<Outcome>, GameError> {
            Ok((s.0 == 2).then_some(Outcome::Draw))
        }
        fn parse_move(&self, _: &BaitState, t: &str) -> Result<i64, GameError> {
            t.parse().map_err(|_| GameError::BadText(t.into()))
        }
        fn format_move(&self, _: &BaitState, m: &i64) -> Result<String, GameError> {
            Ok(m.to_string())
        }
        fn render(&self, s: &BaitState) -> Result<String, GameError> {
            Ok(s.1.to_string())
        }
        fn parse_state(&self, _: &str, _: Option<usize>) -> Result<BaitState, GameError> {
            self.start()
        }
        fn state_hash(&self, s: &BaitState) -> u64 {
            let mut h = StableHasher::default();
            s.hash(&mut h);
            h.finish()
        }
    }

    #[test]
    fn replies_are_the_opponent_s_best() {
        let game = Bait {
            names: vec!["a".into(), "b".into()],
        };
        let eval = |s: &BaitState, p: usize| Ok(if p == 0 { s.1 } else { -s.1 });
        let reseed = |s: &BaitState, _: u64| *s;
        let pick = |replies| {
            best_move(&game, &(0, 0, false), &eval, &reseed, limits(4, replies))
                .unwrap()
                .unwrap()
        };
        // One move deep the bait looks better; with the reply seen it costs 2.
        assert_eq!(pick(0).mv, 3);
        let found = pick(2);
        assert_eq!((found.mv, found.value, found.depth), (1, 1.0, 2));
        assert!(found.certain);
    }
}
