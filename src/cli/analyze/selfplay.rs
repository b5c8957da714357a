//! One self-play game between computer players, and what `analyze` counts in it.

use rand::{seq::IndexedRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{
    runtime::{Game, GameError, Outcome},
    script::ScriptedGame,
    search::player::{self, Level},
};

/// How the games are played.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// The computer's level, for both sides.
    pub level: Level,
    /// How many plies at the start are random legal moves (so that seeded games differ).
    pub opening: usize,
    /// A game still going after this many plies stops and counts as unfinished.
    pub max_plies: usize,
    /// The first game's seed; game `i` uses `seed + i`.
    pub seed: u64,
}

/// What one game showed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    /// How it ended: `None` when it was stopped at the ply limit.
    pub outcome: Option<Outcome>,
    /// Plies played.
    pub plies: usize,
    /// Positions where a player was to move (the plies, with the start).
    pub positions: usize,
    /// Legal moves listed over those positions.
    pub moves: usize,
    /// Positions where the player to move had a move that wins at once.
    pub decisive: usize,
}

/// Plays game `index` of `plan` (the game's seed and the computer's come from it).
pub fn play(game: &mut ScriptedGame, plan: &Plan, index: u64) -> Result<Record, GameError> {
    let seed = plan.seed.wrapping_add(index);
    game.set_seed(seed);
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.start()?;
    let mut record = Record::default();
    loop {
        if let Some(outcome) = game.outcome(&state)? {
            record.outcome = Some(outcome);
            return Ok(record);
        }
        if record.plies == plan.max_plies {
            return Ok(record);
        }
        let moves = game.legal_moves(&state)?;
        record.positions += 1;
        record.moves += moves.len();
        if wins_at_once(game, &state, &moves)? {
            record.decisive += 1;
        }
        let mv = if record.plies < plan.opening {
            moves.choose(&mut rng).cloned()
        } else {
            let ply_seed = seed
                .wrapping_mul(1_000_003)
                .wrapping_add(record.plies as u64);
            player::choose(game, &state, plan.level, None, ply_seed)?.map(|h| h.mv)
        };
        let Some(mv) = mv else {
            return Err(GameError::Rules {
                message: "the game is not over, but there is no legal move".into(),
                spot: None,
            });
        };
        state = game.play(&state, &mv)?.state;
        record.plies += 1;
    }
}

/// Whether one of `moves` wins the game at once for the player to move.
fn wins_at_once(
    game: &ScriptedGame,
    state: &rhai::Dynamic,
    moves: &[rhai::Dynamic],
) -> Result<bool, GameError> {
    let me = game.to_move(state)?;
    for mv in moves {
        let after = game.play(state, mv)?.state;
        if game.outcome(&after)? == Some(Outcome::Win(me)) {
            return Ok(true);
        }
    }
    Ok(false)
}
