//! Shrinking a failure (delta debugging over its moves): dropping chunks of moves, halving the
//! chunk size down to single moves, while the rest are still legal one after the other and the
//! same property still fails at the end; then the shortest prefix that still fails. (The random
//! game already stops at the first position that fails.)

use std::time::{Duration, Instant};

use super::{properties, Failure, Property};
use crate::{
    runtime::{legality, Game},
    script::ScriptedGame,
};

/// Shrinking stops trying after this long (what it has found so far is kept).
const TIME: Duration = Duration::from_secs(5);

/// The shortest sequence of moves found that still breaks the same property.
pub fn shrink(game: &ScriptedGame, failure: Failure) -> Failure {
    // The native form's difference is already the shortest found, and script errors other than
    // at a position cannot be reproduced by the position checks.
    if failure.broken.property == Property::NativeAgrees {
        return failure;
    }
    let begun = Instant::now();
    let mut best = failure;
    let property = best.broken.property;
    if reproduce(game, &best.moves, property, false).is_none() {
        return best;
    }
    let mut chunk = best.moves.len().div_ceil(2).max(1);
    loop {
        let mut i = 0;
        while i < best.moves.len() && begun.elapsed() < TIME {
            let end = (i + chunk).min(best.moves.len());
            let candidate: Vec<String> = best.moves[..i]
                .iter()
                .chain(&best.moves[end..])
                .cloned()
                .collect();
            match reproduce(game, &candidate, property, false) {
                Some(found) => best = found.keep_first(best.found_after),
                None => i += chunk,
            }
        }
        if chunk == 1 || begun.elapsed() >= TIME {
            // Dropping moves may have made an earlier position fail: stop there.
            let found_after = best.found_after;
            return match reproduce(game, &best.moves, property, true) {
                Some(shorter) => shorter.keep_first(found_after),
                None => best,
            };
        }
        chunk /= 2;
    }
}

impl Failure {
    fn keep_first(mut self, found_after: usize) -> Failure {
        self.found_after = found_after;
        self
    }
}

/// Replays `moves` (each must be legal), checking the positions on the way only if `every`
/// (else only the last): the failure at the first position checked where `property` breaks.
fn reproduce(
    game: &ScriptedGame,
    moves: &[String],
    property: Property,
    every: bool,
) -> Option<Failure> {
    let mut state = game.start().ok()?;
    for k in 0..=moves.len() {
        if every || k == moves.len() {
            if let Err(broken) = properties::check_position(game, &state, None) {
                return (broken.property == property).then(|| Failure {
                    broken,
                    moves: moves[..k].to_vec(),
                    found_after: 0,
                });
            }
        }
        let text = moves.get(k)?;
        let mv = game.parse_move(&state, text).ok()?;
        let canonical = game.format_move(&state, &mv).ok()?;
        state = legality::play_listed(game, &state, &mv, &canonical)
            .ok()?
            .state;
    }
    None
}
