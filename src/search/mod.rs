//! Game-agnostic search over the [`Game`] trait: alpha-beta (negamax, principal variation
//! search) with iterative deepening under a time budget, for two-player games (this module);
//! Monte Carlo tree search for any number of players ([`mcts`]); sampled expectimax where chance
//! follows the moves ([`sampling`]); perft ([`perft`]); and the computer player that picks among
//! these and the native forms' own searches ([`player`]), saying why ([`why`]).
//!
//! Alpha-beta keeps a transposition table keyed by [`Game::state_hash`] (each position's score,
//! bound, best move and player to move) and orders moves by that best move, then the history heuristic, then the
//! order the game lists them in. It also remembers the position each move led to and the moves
//! of each position searched further, so later iterations call neither the game's `play` for a
//! move nor its `legal_moves` for a position they met before.
//!
//! Leaves are scored by an evaluation function (a rules script's optional `evaluate(state,
//! player)`), or by win/loss only when there is none. Root moves are shuffled with a seeded RNG
//! before searching, so ties are broken the same way for the same seed.

pub mod mcts;
mod memo;
pub mod perft;
pub mod player;
pub mod sampling;
pub mod tactics;
pub mod why;

use std::{
    rc::Rc,
    time::{Duration, Instant},
};

use foldhash::{HashMap, HashMapExt};
use memo::Memo;

use rand::{seq::SliceRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::runtime::{Game, GameError, Outcome};

/// The score of a won position (minus the plies it takes to win, so faster wins score higher).
pub const WIN: i64 = 1_000_000_000;

pub use crate::runtime::MAX_EVALUATION;
const _: () = assert!(
    MAX_EVALUATION == WIN / 2 - 1,
    "evaluations stay below half a win"
);

/// How hard to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop deepening once this much time has passed (a started depth is abandoned).
    pub time: Duration,
    /// The deepest iteration, in plies.
    pub max_depth: usize,
    /// The seed for breaking ties between equal moves.
    pub seed: u64,
}

/// The move a search chose, with what it found.
#[derive(Debug, Clone)]
pub struct Choice<M> {
    /// The best move found.
    pub mv: M,
    /// Its score for the player to move (±[`WIN`] near a forced result).
    pub score: i64,
    /// How many moves ahead the search looked: the deepest iteration completed, but no more
    /// than the longest line it met (a game that ends sooner is not looked at further, however
    /// deep the iteration).
    pub depth: usize,
    /// Positions visited.
    pub nodes: u64,
    /// At depth 0 (not even one move ahead finished in the time), what took the time.
    pub slowest: Option<Slowest>,
}

/// What took a search's time when not even one move ahead finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slowest {
    /// The game's `play` (for a script, copying the state for it too).
    Playing,
    /// Hashing the positions reached (the transposition table's keys).
    Hashing,
    /// Scoring the positions reached (the evaluation).
    Scoring,
}

impl Slowest {
    const ALL: [Slowest; 3] = [Slowest::Playing, Slowest::Hashing, Slowest::Scoring];
}

/// An evaluation: how good `state` is for player `player` (higher is better).
pub type Evaluator<'a, G> = &'a dyn Fn(&<G as Game>::State, usize) -> Result<i64, GameError>;

enum Stop {
    Time,
    Error(GameError),
}

impl From<GameError> for Stop {
    /// An error met once the command's time is up is the stop, not a fault
    /// ([`crate::cancel::calls_stopped`]).
    fn from(e: GameError) -> Self {
        if crate::cancel::calls_stopped() {
            Stop::Time
        } else {
            Stop::Error(e)
        }
    }
}

/// What a finished search of a position found, kept in the transposition table.
#[derive(Clone, Copy)]
struct Entry {
    /// The depth searched.
    depth: usize,
    /// The score for the player to move, exact or a bound.
    score: i64,
    bound: Bound,
    /// The best move's [`Game::move_hash`], tried first next time.
    best: Option<u64>,
    /// The player to move (so that reaching the position again needs no `to_move`).
    mover: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

/// How far the first iteration may always run over a short time limit.
pub const FIRST_GRACE: Duration = Duration::from_millis(100);

/// Positions the transposition table keeps at most.
const TABLE_SIZE: usize = 1 << 20;

/// Played moves the search remembers at most (see [`Search::played`]).
const PLAYED_SIZE: usize = 1 << 16;

/// Moves the search remembers at most, over all positions (see [`Search::listed`]): a few tens
/// of MiB for the longest moves scripts make.
const LISTED_SIZE: usize = 1 << 16;

/// A position and its [`Game::state_hash`].
type Hashed<S> = Rc<(S, u64)>;

/// A position's legal moves and their [`Game::move_hash`]es.
type Listed<M> = Rc<(Vec<M>, Vec<Option<u64>>)>;

struct Search<'a, G: Game> {
    game: &'a G,
    eval: Option<Evaluator<'a, G>>,
    deadline: Instant,
    nodes: u64,
    /// The most moves from the root of any position searched.
    deepest: usize,
    /// Finished searches by [`Game::state_hash`].
    table: Memo<u64, Entry>,
    /// How often each move (by [`Game::move_hash`]) caused a cutoff, weighted by depth: moves
    /// that refuted others are tried first (the history heuristic).
    history: HashMap<u64, u64>,
    /// The position each move leads to, by the hashes of the position it is played in and of
    /// the move ([`Game::move_hash`]): iterative deepening and re-searches play the same moves
    /// again, and a script's `play` is the costliest call of a search.
    played: Memo<(u64, u64), Hashed<G::State>>,
    /// The legal moves of the positions searched further, by position hash: each iteration
    /// searches them again, and a script's `moves` builds every move anew.
    listed: Memo<u64, Listed<G::Move>>,
    /// Until an iteration finishes, the time spent on each of [`Slowest::ALL`] (to say what
    /// took the time when none does).
    spent: Option<[Duration; 3]>,
}

/// Chooses a move for the player to move in `state`, or `None` when there is no legal move.
///
/// Iterative deepening, sound under the time limit: each iteration searches the previous
/// iteration's best move first, with a full window, so its score at the new depth is exact
/// before any other move is looked at. When time runs out in the middle of an iteration, a move
/// of that iteration replaces the last finished iteration's choice only if its own search
/// finished and scored strictly better than that first move at the same depth (then its score
/// is exact too); a move whose search was cut off is never chosen on what the cut-off part saw.
/// [`Choice::depth`] is the deepest iteration that finished, capped by the longest line met.
///
/// The first iteration (one move ahead: one evaluation per move) may run over the time limit by
/// a quarter of it (by [`FIRST_GRACE`] at least), so that a short limit still
/// looks at every move; only when even that is not enough (a very slow evaluation) or Ctrl-C
/// stops it is the best of the moves it looked at chosen, at depth 0.
pub fn best_move<G: Game>(
    game: &G,
    state: &G::State,
    eval: Option<Evaluator<'_, G>>,
    limits: Limits,
) -> Result<Option<Choice<G::Move>>, GameError> {
    best_move_among(game, state, game.legal_moves(state)?, eval, limits)
}

/// [`best_move`] among `moves` only (legal moves of `state`: those the rules' `play` accepts,
/// say).
pub fn best_move_among<G: Game>(
    game: &G,
    state: &G::State,
    mut moves: Vec<G::Move>,
    eval: Option<Evaluator<'_, G>>,
    limits: Limits,
) -> Result<Option<Choice<G::Move>>, GameError> {
    let start = Instant::now();
    if moves.is_empty() {
        return Ok(None);
    }
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(limits.seed));
    let me = game.to_move(state)?;
    let mut search = Search {
        game,
        eval,
        // One move ahead may run over the limit (see above).
        deadline: start + limits.time + (limits.time / 4).max(FIRST_GRACE),
        nodes: 0,
        deepest: 0,
        table: Memo::new(TABLE_SIZE),
        history: HashMap::new(),
        played: Memo::new(PLAYED_SIZE),
        listed: Memo::new(LISTED_SIZE),
        spent: Some([Duration::ZERO; 3]),
    };
    // A state too large to hash in the time: no time to think.
    let Some(hash) = game.state_hash_in_time(state) else {
        return Ok(Some(Choice {
            mv: moves.swap_remove(0),
            score: 0,
            depth: 0,
            nodes: 0,
            slowest: Some(Slowest::Hashing),
        }));
    };
    let root = (state, hash);
    let mut best: Option<Choice<G::Move>> = None;
    for depth in 1..=limits.max_depth.max(1) {
        let mut partial = None;
        match search.root(root, me, &moves, depth, &mut partial) {
            Ok(scores) => {
                // The next iteration tries the best moves first (the first best stays first).
                let mut scored: Vec<(i64, G::Move)> = scores.into_iter().zip(moves).collect();
                scored.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
                let score = scored[0].0;
                moves = scored.into_iter().map(|(_, m)| m).collect();
                best = Some(Choice {
                    mv: moves[0].clone(),
                    score,
                    depth,
                    nodes: search.nodes,
                    slowest: None,
                });
                search.spent = None;
                if score.abs() > WIN / 2 || moves.len() == 1 {
                    break; // a forced result is known, or there is nothing to choose
                }
            }
            Err(Stop::Time) => {
                best = Some(match (best, partial) {
                    // A finished search of another move beat the previous best (searched
                    // first, exactly) at this depth: it is the better move.
                    (Some(finished), Some((i, score))) if i > 0 => Choice {
                        mv: moves[i].clone(),
                        score,
                        ..finished
                    },
                    (Some(finished), _) => finished,
                    // Not even one move ahead finished: the best of the moves looked at.
                    (None, partial) => {
                        let (i, score) = partial.unwrap_or((0, 0));
                        Choice {
                            mv: moves[i].clone(),
                            score,
                            depth: 0,
                            nodes: 0,
                            slowest: search.slowest(),
                        }
                    }
                });
                break;
            }
            Err(Stop::Error(e)) => return Err(e),
        }
        search.deadline = start + limits.time;
        if crate::cancel::past(search.deadline) {
            break;
        }
    }
    if let Some(b) = best.as_mut() {
        b.nodes = search.nodes;
        b.depth = b.depth.min(search.deepest);
    }
    Ok(best)
}

impl<G: Game> Search<'_, G> {
    /// Times `work` as `what` while no iteration has finished.
    fn timed<T>(&mut self, what: Slowest, work: impl FnOnce(&mut Self) -> T) -> T {
        let Some(began) = self.spent.is_some().then(Instant::now) else {
            return work(self);
        };
        let result = work(self);
        if let Some(spent) = self.spent.as_mut() {
            spent[what as usize] += began.elapsed();
        }
        result
    }

    /// What took the most time so far, while no iteration has finished.
    fn slowest(&self) -> Option<Slowest> {
        let spent = self.spent?;
        Slowest::ALL.into_iter().max_by_key(|s| spent[*s as usize])
    }

    /// Searches every root move to `depth`: each move's score (exact for the best, at most
    /// the best's for the others). `partial` follows the best move so far (index, exact
    /// score) among the moves whose search finished: the first move's, then any that beat it.
    fn root(
        &mut self,
        root: (&G::State, u64),
        me: usize,
        moves: &[G::Move],
        depth: usize,
        partial: &mut Option<(usize, i64)>,
    ) -> Result<Vec<i64>, Stop> {
        let mut alpha = -WIN - 1;
        let mut scores = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let mv = (mv, self.game.move_hash(mv));
            let score = if i == 0 {
                self.child(root, me, mv, depth, (alpha, WIN + 1), 1)?
            } else {
                self.probe(root, me, mv, depth, (alpha, WIN + 1), 1)?
            };
            if score > alpha {
                alpha = score;
                *partial = Some((i, score));
            }
            scores.push(score);
        }
        Ok(scores)
    }

    /// The score of playing `mv` (with its [`Game::move_hash`]) in `parent` (a position and
    /// its hash, where `me` moves) for `me`. `(alpha, beta)` is the window for `me`.
    fn child(
        &mut self,
        parent: (&G::State, u64),
        me: usize,
        mv: (&G::Move, Option<u64>),
        depth: usize,
        (alpha, beta): (i64, i64),
        ply: i64,
    ) -> Result<i64, Stop> {
        let reached = self.played(parent, mv)?;
        let (next, hash) = (&reached.0, reached.1);
        // Who moves there: the table knows it for a position it has seen.
        let mover = match self.table.get(&hash) {
            Some(known) => known.mover,
            None => self.game.to_move(next)?,
        };
        // A player who moves again keeps the window; otherwise negamax flips it.
        if mover == me {
            self.negamax((next, hash), mover, depth - 1, alpha, beta, ply)
        } else {
            Ok(-self.negamax((next, hash), mover, depth - 1, -beta, -alpha, ply)?)
        }
    }

    /// The position `mv` (with its [`Game::move_hash`]) leads to from `parent` (a position and
    /// its hash), with its hash: played once, then remembered (a move without a hash is played
    /// every time).
    fn played(
        &mut self,
        (state, hash): (&G::State, u64),
        (mv, key): (&G::Move, Option<u64>),
    ) -> Result<Hashed<G::State>, Stop> {
        let slot = key.map(|k| (hash, k));
        if let Some(known) = slot.and_then(|s| self.played.get(&s)) {
            return Ok(Rc::clone(known));
        }
        let next = self
            .timed(Slowest::Playing, |s| s.game.play(state, mv))?
            .state;
        let next_hash = self
            .timed(Slowest::Hashing, |s| s.game.state_hash_in_time(&next))
            .ok_or(Stop::Time)?;
        let reached = Rc::new((next, next_hash));
        if let Some(s) = slot {
            self.played.keep(s, Rc::clone(&reached), 1);
        }
        Ok(reached)
    }

    /// [`Self::child`] for a move after the first (principal variation search): a null window
    /// first asks only whether `mv` beats `alpha`, which is cheap to refute; only a move that
    /// does is searched again with the whole window, for its exact score.
    fn probe(
        &mut self,
        parent: (&G::State, u64),
        me: usize,
        mv: (&G::Move, Option<u64>),
        depth: usize,
        (alpha, beta): (i64, i64),
        ply: i64,
    ) -> Result<i64, Stop> {
        let bound = self.child(parent, me, mv, depth, (alpha, alpha + 1), ply)?;
        if bound > alpha && bound < beta {
            self.child(parent, me, mv, depth, (alpha, beta), ply)
        } else {
            Ok(bound)
        }
    }

    /// The score of `state` (whose [`Game::state_hash`] is `hash`) for `me`, the player to move
    /// in it.
    fn negamax(
        &mut self,
        (state, hash): (&G::State, u64),
        me: usize,
        depth: usize,
        mut alpha: i64,
        beta: i64,
        ply: i64,
    ) -> Result<i64, Stop> {
        self.nodes += 1;
        self.deepest = self.deepest.max(ply as usize);
        // Every position: a script's evaluation may take long.
        if crate::cancel::past(self.deadline) {
            return Err(Stop::Time);
        }
        // The table first: many move orders (and many paths of one piece) reach one position,
        // whose result, evaluation or search is then not computed again.
        let known = self.table.get(&hash).copied();
        if let Some(e) = known.filter(|e| e.depth >= depth) {
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if usable {
                return Ok(e.score);
            }
        }
        match self.game.outcome(state)? {
            Some(Outcome::Win(p)) if p == me => return Ok(WIN - ply),
            Some(Outcome::Win(_)) => return Ok(-(WIN - ply)),
            Some(Outcome::Draw) => return Ok(0),
            None => {}
        }
        if depth == 0 {
            let score = match self.eval {
                Some(eval) => self.timed(Slowest::Scoring, |_| eval(state, me))?,
                None => 0,
            };
            if known.is_none() {
                self.remember(hash, me, 0, score, Bound::Exact, None);
            }
            return Ok(score);
        }
        let listed = self.listed(state, hash)?;
        let (moves, keys) = (&listed.0, &listed.1);
        if moves.is_empty() {
            return Ok(0);
        }
        // The best move found here before first, then the moves that refuted others most
        // often, then the script's own order (`moves` lists the most promising first).
        // (Each move's rank is computed once, not in every comparison of the sort.)
        let remembered = known.and_then(|e| e.best);
        let mut ranked: Vec<(bool, std::cmp::Reverse<u64>, usize)> = keys
            .iter()
            .enumerate()
            .map(|(i, key)| {
                let first = key.is_some() && *key == remembered;
                let refuted = key.and_then(|k| self.history.get(&k)).copied();
                (!first, std::cmp::Reverse(refuted.unwrap_or(0)), i)
            })
            .collect();
        ranked.sort_unstable();
        let order = ranked.into_iter().map(|(_, _, i)| i);
        let alpha_in = alpha;
        let mut best = (-WIN - 1, None);
        for (n, i) in order.enumerate() {
            let mv = (&moves[i], keys[i]);
            let score = if n == 0 {
                self.child((state, hash), me, mv, depth, (alpha, beta), ply + 1)?
            } else {
                self.probe((state, hash), me, mv, depth, (alpha, beta), ply + 1)?
            };
            if score > best.0 {
                best = (score, keys[i]);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if let Some(k) = keys[i] {
                    *self.history.entry(k).or_default() += (depth * depth) as u64;
                }
                break;
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 <= alpha_in {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.remember(hash, me, depth, best.0, bound, best.1);
        Ok(best.0)
    }

    /// The legal moves of `state` (whose hash is `hash`) with their hashes: asked of the game
    /// once, then remembered.
    fn listed(&mut self, state: &G::State, hash: u64) -> Result<Listed<G::Move>, Stop> {
        if let Some(known) = self.listed.get(&hash) {
            return Ok(Rc::clone(known));
        }
        let moves = self.game.legal_moves(state)?;
        let keys = moves.iter().map(|m| self.game.move_hash(m)).collect();
        let listed: Listed<G::Move> = Rc::new((moves, keys));
        self.listed.keep(hash, Rc::clone(&listed), listed.0.len());
        Ok(listed)
    }

    /// Keeps what a search of the position `hash` found.
    fn remember(
        &mut self,
        hash: u64,
        mover: usize,
        depth: usize,
        score: i64,
        bound: Bound,
        best: Option<u64>,
    ) {
        let entry = Entry {
            depth,
            score,
            bound,
            best,
            mover,
        };
        self.table.keep(hash, entry, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{Played, StableHasher};
    use std::{
        cell::RefCell,
        collections::HashSet,
        hash::{Hash, Hasher},
    };

    /// Nim with one pile: take 1 to 3; whoever takes the last object wins.
    struct Nim {
        names: Vec<String>,
        /// Whether the game gives [`Game::move_hash`]es.
        hashed_moves: bool,
        /// Every `play`: the position and the move.
        played: RefCell<Vec<((u32, usize), u32)>>,
        /// Every position whose moves were asked for.
        listed: RefCell<Vec<(u32, usize)>>,
    }

    fn nim(hashed_moves: bool) -> Nim {
        Nim {
            names: vec!["a".into(), "b".into()],
            hashed_moves,
            played: RefCell::default(),
            listed: RefCell::default(),
        }
    }

    impl Game for Nim {
        type State = (u32, usize);
        type Move = u32;
        fn player_names(&self) -> &[String] {
            &self.names
        }
        fn start(&self) -> Result<(u32, usize), GameError> {
            Ok((10, 0))
        }
        fn to_move(&self, s: &(u32, usize)) -> Result<usize, GameError> {
            Ok(s.1)
        }
        fn legal_moves(&self, s: &(u32, usize)) -> Result<Vec<u32>, GameError> {
            self.listed.borrow_mut().push(*s);
            Ok((1..=3.min(s.0)).collect())
        }
        fn play(&self, s: &(u32, usize), m: &u32) -> Result<Played<(u32, usize)>, GameError> {
            self.played.borrow_mut().push((*s, *m));
            Ok(Played {
                state: (s.0 - m, 1 - s.1),
                events: Vec::new(),
            })
        }
        fn outcome(&self, s: &(u32, usize)) -> Result<Option<Outcome>, GameError> {
            Ok((s.0 == 0).then_some(Outcome::Win(1 - s.1)))
        }
        fn parse_move(&self, _: &(u32, usize), t: &str) -> Result<u32, GameError> {
            t.parse().map_err(|_| GameError::BadText(t.into()))
        }
        fn format_move(&self, _: &(u32, usize), m: &u32) -> Result<String, GameError> {
            Ok(m.to_string())
        }
        fn render(&self, s: &(u32, usize)) -> Result<String, GameError> {
            Ok(s.0.to_string())
        }
        fn parse_state(&self, t: &str, p: Option<usize>) -> Result<(u32, usize), GameError> {
            Ok((self.parse_move(&(0, 0), t)?, p.unwrap_or(0)))
        }
        fn state_hash(&self, s: &(u32, usize)) -> u64 {
            let mut h = StableHasher::default();
            s.hash(&mut h);
            h.finish()
        }
        fn move_hash(&self, m: &u32) -> Option<u64> {
            self.hashed_moves.then_some(u64::from(*m))
        }
    }

    /// An evaluation of Nim piles that varies, with no win in sight.
    fn pile_value(s: &(u32, usize), p: usize) -> Result<i64, GameError> {
        Ok(i64::from(s.0 % 5) * if p == 0 { 1 } else { -1 })
    }

    #[test]
    fn finds_the_winning_take_in_nim() {
        let nim = nim(false);
        let limits = Limits {
            time: Duration::from_secs(5),
            max_depth: 12,
            seed: 1,
        };
        for pile in [5u32, 6, 7, 9, 10, 11] {
            let choice = best_move(&nim, &(pile, 0), None, limits).unwrap().unwrap();
            assert_eq!((pile - choice.mv) % 4, 0, "pile {pile}: took {}", choice.mv);
            assert!(choice.score > WIN / 2);
        }
        assert!(best_move(&nim, &(0, 0), None, limits).unwrap().is_none());
    }

    #[test]
    fn the_same_seed_gives_the_same_move() {
        let nim = nim(false);
        let limits = Limits {
            time: Duration::from_secs(1),
            max_depth: 1,
            seed: 7,
        };
        let a = best_move(&nim, &(8, 0), None, limits).unwrap().unwrap();
        let b = best_move(&nim, &(8, 0), None, limits).unwrap().unwrap();
        assert_eq!(a.mv, b.mv);
    }

    #[test]
    fn positions_reached_by_different_orders_are_searched_once() {
        let nim = nim(false);
        // No win within reach, and an evaluation that varies, so only the table keeps the
        // 3^16 move orders down to the few hundred piles they reach.
        let eval = pile_value;
        let limits = Limits {
            time: Duration::from_secs(60),
            max_depth: 16,
            seed: 1,
        };
        let choice = best_move(&nim, &(500, 0), Some(&eval), limits)
            .unwrap()
            .unwrap();
        assert_eq!(choice.depth, 16);
        assert!(choice.nodes < 20_000, "{} positions", choice.nodes);
    }

    #[test]
    fn moves_are_listed_and_played_once_in_each_position_across_iterations() {
        let limits = Limits {
            time: Duration::from_secs(60),
            max_depth: 8,
            seed: 1,
        };
        let search = |nim: &Nim| {
            best_move(nim, &(40, 0), Some(&pile_value), limits)
                .unwrap()
                .unwrap()
        };
        let (remembering, forgetting) = (nim(true), nim(false));
        let (remembered, forgot) = (search(&remembering), search(&forgetting));
        assert_eq!(remembered.depth, 8);
        assert_eq!((remembered.mv, remembered.score), (forgot.mv, forgot.score));
        let played = remembering.played.borrow();
        let distinct: HashSet<_> = played.iter().collect();
        assert_eq!(played.len(), distinct.len(), "a move was played twice");
        let listed = remembering.listed.borrow();
        let distinct: HashSet<_> = listed.iter().collect();
        assert_eq!(
            listed.len(),
            distinct.len(),
            "a position's moves were listed twice"
        );
        // Without move hashes nothing is remembered: eight iterations play moves again.
        assert!(forgetting.played.borrow().len() > 2 * played.len());
    }

    /// Two plies: the root player picks 0 (safe), 1 (a bait) or 2; the opponent answers 0 or 1.
    struct Bait {
        names: Vec<String>,
    }

    impl Game for Bait {
        type State = Vec<u8>;
        type Move = u8;
        fn player_names(&self) -> &[String] {
            &self.names
        }
        fn start(&self) -> Result<Vec<u8>, GameError> {
            Ok(Vec::new())
        }
        fn to_move(&self, s: &Vec<u8>) -> Result<usize, GameError> {
            Ok(s.len() % 2)
        }
        fn legal_moves(&self, s: &Vec<u8>) -> Result<Vec<u8>, GameError> {
            Ok(match s.len() {
                0 => vec![0, 1, 2],
                1 => vec![0, 1],
                _ => Vec::new(),
            })
        }
        fn play(&self, s: &Vec<u8>, m: &u8) -> Result<Played<Vec<u8>>, GameError> {
            let mut next = s.clone();
            next.push(*m);
            Ok(Played {
                state: next,
                events: Vec::new(),
            })
        }
        fn outcome(&self, _: &Vec<u8>) -> Result<Option<Outcome>, GameError> {
            Ok(None)
        }
        fn parse_move(&self, _: &Vec<u8>, t: &str) -> Result<u8, GameError> {
            t.parse().map_err(|_| GameError::BadText(t.into()))
        }
        fn format_move(&self, _: &Vec<u8>, m: &u8) -> Result<String, GameError> {
            Ok(m.to_string())
        }
        fn render(&self, s: &Vec<u8>) -> Result<String, GameError> {
            Ok(format!("{s:?}"))
        }
        fn parse_state(&self, _: &str, _: Option<usize>) -> Result<Vec<u8>, GameError> {
            Ok(Vec::new())
        }
        fn state_hash(&self, s: &Vec<u8>) -> u64 {
            let mut h = StableHasher::default();
            s.hash(&mut h);
            h.finish()
        }
    }

    /// Searches [`Bait`] where the root player's evaluation of each position is `value`, and
    /// time runs out while evaluating the position `slow` (the evaluation sleeps past the limit).
    fn bait(value: fn(&[u8]) -> i64, slow: &'static [u8]) -> Choice<u8> {
        let game = Bait {
            names: vec!["a".into(), "b".into()],
        };
        let time = Duration::from_millis(300);
        let eval = move |s: &Vec<u8>, p: usize| {
            if s.as_slice() == slow {
                std::thread::sleep(time + Duration::from_millis(100));
            }
            Ok(if p == 0 { value(s) } else { -value(s) })
        };
        let limits = Limits {
            time,
            max_depth: 4,
            seed: 1,
        };
        best_move(&game, &Vec::new(), Some(&eval), limits)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_move_cut_off_in_an_unfinished_iteration_is_not_chosen() {
        // One move ahead, 0 is best. Two moves ahead the bait 1 looks better after the
        // opponent's first answer (+10), but their second answer (-100) refutes it — and the
        // time runs out before the search looks at that answer.
        let value = |s: &[u8]| match s {
            [0, ..] => 5,
            [1] => 0,
            [1, 0] => 10,
            [1, 1] => -100,
            _ => -1,
        };
        let choice = bait(value, &[1, 0]);
        assert_eq!((choice.mv, choice.depth, choice.score), (0, 1, 5));
    }

    #[test]
    fn a_move_proven_better_in_an_unfinished_iteration_is_chosen() {
        // Two moves ahead, 1 is proven better than 0 (+10 whatever the answer against 5)
        // before the time runs out in the search of 2 (whose first answer does not refute it).
        let value = |s: &[u8]| match s {
            [0, ..] => 5,
            [1] => 0,
            [1, _] => 10,
            [2, 0] => 20,
            _ => -1,
        };
        let choice = bait(value, &[2, 0]);
        assert_eq!((choice.mv, choice.depth, choice.score), (1, 1, 10));
    }
}
