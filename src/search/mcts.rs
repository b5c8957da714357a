//! Monte Carlo tree search (UCT) over the [`Game`] trait, for games without an evaluation:
//! a tree grown one node per iteration, children chosen by the UCB1 bound, and each new node
//! scored by one playout to the end (random, or whatever the caller's playout does). Any number
//! of players: a node's reward is for the player who moved into it (1 a win, ½ a draw).
//!
//! For a game whose state holds chance, the caller gives a way to sample it ([`Sample`]): each
//! iteration then plays the tree's moves again in a freshly sampled copy of the root (a
//! determinization), so the tree's statistics average over chance instead of following the one
//! future the state's own generator holds. A move of the tree that is illegal in the sampled
//! world ends the descent there.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::runtime::{Game, GameError, Outcome};

/// The exploration constant of UCB1.
const EXPLORATION: f64 = 1.4;

struct Node<G: Game> {
    state: G::State,
    /// The move into this node (none at the root) and the player who made it.
    arrival: Option<(G::Move, usize)>,
    untried: Vec<G::Move>,
    children: Vec<usize>,
    visits: u32,
    reward: f64,
}

/// What the search found: the most visited move, its visits and its mean reward.
#[derive(Debug, Clone)]
pub struct Found<M> {
    /// The move.
    pub mv: M,
    /// How often the search tried it.
    pub visits: u32,
    /// Its mean reward for the mover, 0 to 1.
    pub reward: f64,
    /// Iterations in all.
    pub iterations: u32,
}

/// A playout: plays `state` to the end and returns the outcome (`None` if it did not end).
pub type Playout<'a, G> =
    &'a mut dyn FnMut(&<G as Game>::State, &mut ChaCha8Rng) -> Result<Option<Outcome>, GameError>;

/// Samples chance: the state with its random generators seeded from the seed given.
pub type Sample<'a, G> = &'a dyn Fn(&<G as Game>::State, u64) -> <G as Game>::State;

/// `mv` played in `state`; `None` if it is illegal there (possible in a sampled world).
fn try_play<G: Game>(
    game: &G,
    state: &G::State,
    mv: &G::Move,
) -> Result<Option<G::State>, GameError> {
    match game.play(state, mv) {
        Ok(played) => Ok(Some(played.state)),
        Err(GameError::Illegal(_) | GameError::GameOver(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

fn reward(outcome: Option<Outcome>, player: usize) -> f64 {
    match outcome {
        Some(Outcome::Win(p)) if p == player => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}

/// Searches from `state` for `time` (and on to `min_iterations` if they fit in twice `time`);
/// `None` if there is no move.
/// With `sample`, every iteration runs in a sampled world (see the module's notes).
pub fn uct<G: Game>(
    game: &G,
    state: &G::State,
    time: Duration,
    (min_iterations, seed): (u32, u64),
    playout: Playout<'_, G>,
    sample: Option<Sample<'_, G>>,
) -> Result<Option<Found<G::Move>>, GameError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let root_moves = if game.outcome(state)?.is_some() {
        Vec::new()
    } else {
        game.legal_moves(state)?
    };
    if root_moves.is_empty() {
        return Ok(None);
    }
    let mut tree: Vec<Node<G>> = vec![Node {
        state: state.clone(),
        arrival: None,
        untried: root_moves,
        children: Vec::new(),
        visits: 0,
        reward: 0.0,
    }];
    let deadline = Instant::now() + time;
    let mut iterations = 0;
    // Every root move is tried once if that takes at most twice the time.
    let tried_by = deadline + time;
    while (iterations < min_iterations && !crate::cancel::past(tried_by))
        || !crate::cancel::past(deadline)
    {
        iterations += 1;
        // The sampled world this iteration plays in (none: the tree's own states).
        let mut world = sample.map(|s| s(state, rng.random()));
        // Selection: down through fully expanded nodes by UCB1.
        let mut path = vec![0];
        let mut at = 0;
        let mut stopped = false;
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let parent_visits = f64::from(tree[at].visits.max(1)).ln();
            let next = *tree[at]
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb = |n: &Node<G>| {
                        n.reward / f64::from(n.visits.max(1))
                            + EXPLORATION * (parent_visits / f64::from(n.visits.max(1))).sqrt()
                    };
                    ucb(&tree[a]).total_cmp(&ucb(&tree[b]))
                })
                .expect("children is not empty");
            if let Some(w) = world.as_mut() {
                let (mv, _) = tree[next].arrival.as_ref().expect("a child has a move");
                match try_play(game, w, mv)? {
                    Some(s) => *w = s,
                    None => {
                        stopped = true;
                        break;
                    }
                }
            }
            at = next;
            path.push(at);
        }
        // Expansion: one untried move (legal in this world).
        if !stopped && !tree[at].untried.is_empty() {
            let k = rng.random_range(0..tree[at].untried.len());
            let mv = tree[at].untried[k].clone();
            let base = world.as_ref().unwrap_or(&tree[at].state);
            let mover = game.to_move(base)?;
            let Some(next) = try_play(game, base, &mv)? else {
                if world.is_none() {
                    // listed but refused by `play` (a script bug `check` reports): never chosen
                    tree[at].untried.swap_remove(k);
                    continue;
                }
                // illegal in this sampled world: score the world as it is
                let outcome = leaf_outcome(game, base, &mut rng, playout)?;
                backpropagate(&mut tree, &path, outcome);
                continue;
            };
            tree[at].untried.swap_remove(k);
            if let Some(w) = world.as_mut() {
                *w = next.clone();
            }
            let untried = if game.outcome(&next)?.is_some() {
                Vec::new()
            } else {
                game.legal_moves(&next)?
            };
            tree.push(Node {
                state: next,
                arrival: Some((mv, mover)),
                untried,
                children: Vec::new(),
                visits: 0,
                reward: 0.0,
            });
            let child = tree.len() - 1;
            tree[at].children.push(child);
            at = child;
            path.push(at);
        }
        // Simulation, then backpropagation.
        let leaf = world.as_ref().unwrap_or(&tree[at].state);
        let outcome = leaf_outcome(game, leaf, &mut rng, playout)?;
        backpropagate(&mut tree, &path, outcome);
    }
    let Some(&best) = tree[0].children.iter().max_by_key(|&&c| tree[c].visits) else {
        return Ok(None); // no root move was legal in any sampled world
    };
    let node = &tree[best];
    let (mv, _) = node.arrival.clone().expect("a child has a move");
    Ok(Some(Found {
        mv,
        visits: node.visits,
        reward: node.reward / f64::from(node.visits.max(1)),
        iterations,
    }))
}

/// How the game from `state` ends: its outcome, or a playout's.
fn leaf_outcome<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut ChaCha8Rng,
    playout: Playout<'_, G>,
) -> Result<Option<Outcome>, GameError> {
    match game.outcome(state)? {
        Some(o) => Ok(Some(o)),
        None => playout(state, rng),
    }
}

/// Counts a visit with `outcome` on every node of `path`.
fn backpropagate<G: Game>(tree: &mut [Node<G>], path: &[usize], outcome: Option<Outcome>) {
    for &n in path {
        let node = &mut tree[n];
        node.visits += 1;
        if let Some((_, mover)) = node.arrival {
            node.reward += reward(outcome, mover);
        }
    }
}
