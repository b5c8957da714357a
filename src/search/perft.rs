//! Perft: the number of move sequences of a given length from a position — the standard check
//! that move generation is right, and a measure of its speed.

use crate::runtime::{Game, GameError};

/// The number of positions `depth` moves after `state` (a finished game counts no further).
pub fn perft<G: Game>(game: &G, state: &G::State, depth: usize) -> Result<u64, GameError> {
    if depth == 0 {
        return Ok(1);
    }
    if game.outcome(state)?.is_some() {
        return Ok(0);
    }
    let mut total = 0;
    for mv in game.legal_moves(state)? {
        let next = game.play(state, &mv)?.state;
        total += perft(game, &next, depth - 1)?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::{Library, ScriptedGame};

    #[test]
    fn counts_move_sequences() {
        let library =
            Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"));
        let game = ScriptedGame::load(&library, "tests/fixtures/pile.rhai").unwrap();
        let start = game.start().unwrap();
        // 7 stones, take 1–3: sequences of lengths 1, 2 and 3 that stay legal
        assert_eq!(perft(&game, &start, 0).unwrap(), 1);
        assert_eq!(perft(&game, &start, 1).unwrap(), 3);
        assert_eq!(perft(&game, &start, 2).unwrap(), 9);
        // after (1,1,1), (1,1,2), … the pile runs out for some: count by brute force
        let brute = (1..=3)
            .flat_map(|a| (1..=3).flat_map(move |b| (1..=3).map(move |c| (a, b, c))))
            .filter(|(a, b, c)| a + b < 7 && a + b + c <= 7)
            .count() as u64;
        assert_eq!(perft(&game, &start, 3).unwrap(), brute);
    }
}
