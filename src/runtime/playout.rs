//! Random playouts through the [`Game`] trait: the general (slow) path, for games that offer no
//! native form.

use std::time::Instant;

use rand::Rng;

use super::game::{Game, GameError, Outcome};

/// A playout gives up after this many moves (a game that never ends is not played forever).
pub const MAX_PLIES: usize = 100_000;

/// Plays uniformly random legal moves from `state` to the end; returns the outcome (`None` if
/// the game reached [`MAX_PLIES`]) and the number of moves played.
pub fn random_playout<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut impl Rng,
) -> Result<(Option<Outcome>, usize), GameError> {
    random_playout_until(game, state, rng, None)
}

/// [`random_playout`], giving up (with no outcome) at `deadline` too: a search keeps its time
/// however slow the game's moves are.
pub fn random_playout_until<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut impl Rng,
    deadline: Option<Instant>,
) -> Result<(Option<Outcome>, usize), GameError> {
    let mut state = state.clone();
    for plies in 0..MAX_PLIES {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok((None, plies));
        }
        if let Some(outcome) = game.outcome(&state)? {
            return Ok((Some(outcome), plies));
        }
        let moves = game.legal_moves(&state)?;
        if moves.is_empty() {
            return Err(GameError::Rules {
                message: "the game is not over but has no legal move".into(),
                spot: None,
            });
        }
        let mv = &moves[rng.random_range(0..moves.len())];
        state = game.play(&state, mv)?.state;
    }
    Ok((None, MAX_PLIES))
}
