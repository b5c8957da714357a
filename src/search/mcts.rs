//! Monte Carlo tree search (UCT) over the [`Game`] trait, for games without an evaluation:
//! a tree grown one node per iteration, children chosen by the UCB1 bound, and each new node
//! scored by one playout to the end (random, or whatever the caller's playout does). Any number
//! of players: a node's reward is for the player who moved into it (1 a win, ½ a draw).

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

fn reward(outcome: Option<Outcome>, player: usize) -> f64 {
    match outcome {
        Some(Outcome::Win(p)) if p == player => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}

/// Searches from `state` for `time` (at least `min_iterations`); `None` if there is no move.
pub fn uct<G: Game>(
    game: &G,
    state: &G::State,
    time: Duration,
    min_iterations: u32,
    seed: u64,
    playout: Playout<'_, G>,
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
    while iterations < min_iterations || Instant::now() < deadline {
        iterations += 1;
        // Selection: down through fully expanded nodes by UCB1.
        let mut path = vec![0];
        let mut at = 0;
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let parent_visits = f64::from(tree[at].visits.max(1)).ln();
            at = *tree[at]
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
            path.push(at);
        }
        // Expansion: one untried move.
        if !tree[at].untried.is_empty() {
            let k = rng.random_range(0..tree[at].untried.len());
            let mv = tree[at].untried.swap_remove(k);
            let mover = game.to_move(&tree[at].state)?;
            let next = game.play(&tree[at].state, &mv)?.state;
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
        let outcome = match game.outcome(&tree[at].state)? {
            Some(o) => Some(o),
            None => playout(&tree[at].state, &mut rng)?,
        };
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
            if let Some((_, mover)) = node.arrival {
                node.reward += reward(outcome, mover);
            }
        }
    }
    let best = *tree[0]
        .children
        .iter()
        .max_by_key(|&&c| tree[c].visits)
        .expect("the root has been expanded");
    let node = &tree[best];
    let (mv, _) = node.arrival.clone().expect("a child has a move");
    Ok(Some(Found {
        mv,
        visits: node.visits,
        reward: node.reward / f64::from(node.visits.max(1)),
        iterations,
    }))
}
