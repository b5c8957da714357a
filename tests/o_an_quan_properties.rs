//! Properties of the Ô ăn quan script on random games, for every option set: seeds are
//! conserved after every move (35 per player), rendering and parsing round-trip, undo restores
//! the exact state, illegal moves change nothing, and every game ends.

use boardrules::{
    runtime::{Game, History},
    script::{Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn game(options: &[(&str, &str)]) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut g = ScriptedGame::load(&library, "o_an_quan").unwrap_or_else(|d| panic!("{}", d[0]));
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g.record_events(false);
    g
}

/// Every number in a rendering: the pits, the quans and the scores.
fn numbers(text: &str) -> Vec<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Plays random games to their end, checking the properties after every move.
/// `BOARDRULES_GAMES=N` multiplies the number of games (e.g. for a long release-mode run).
fn random_games(options: &[(&str, &str)], players: i64, games: u64) {
    let scale: u64 = std::env::var("BOARDRULES_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let games = games * scale;
    let g = game(options);
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut h = History::new(g.start().unwrap());
        while g.outcome(h.current()).unwrap().is_none() {
            assert!(
                h.ply() < 2000,
                "{options:?} seed {seed}: the game does not end"
            );
            let moves = g.legal_moves(h.current()).unwrap();
            assert!(
                !moves.is_empty(),
                "{options:?} seed {seed}: no moves but not over"
            );
            let mv = &moves[rng.random_range(0..moves.len())];
            if let Err(e) = h.play(&g, mv) {
                panic!("{options:?} seed {seed}: a listed move failed: {e}");
            }
            let s = h.current();
            let text = g.render(s).unwrap();
            let ring = text.lines().next().unwrap_or_default(); // the legend follows it
            let sum: i64 = numbers(ring).iter().sum();
            assert_eq!(sum, 35 * players, "{options:?} seed {seed}: {text}");
            // Render → parse gives the same state back (the side to move given separately).
            let turn = g.to_move(s).unwrap();
            let back = g.parse_state(&text, Some(turn)).unwrap();
            assert_eq!(g.render(&back).unwrap(), text);
            // The rendering cannot tell a captured quan pit refilled to 10+ dân from a quan
            // (that only matters for quan_non), so compare what the states do, one move deep.
            assert_eq!(g.outcome(&back).unwrap(), g.outcome(s).unwrap());
            let after = |state| {
                let moves = g.legal_moves(state).unwrap();
                moves
                    .iter()
                    .map(|m| g.render(&g.play(state, m).unwrap().state).unwrap())
                    .collect::<Vec<_>>()
            };
            if h.ply().is_multiple_of(4) {
                assert_eq!(after(&back), after(s), "{options:?} seed {seed}: {text}");
            }
        }
        // Undo walks back through exactly the states played.
        let hashes: Vec<u64> = (0..=h.ply())
            .map(|i| g.state_hash(h.state_at(i).unwrap()))
            .collect();
        let mut ply = h.ply();
        while h.undo() {
            ply -= 1;
            assert_eq!(g.state_hash(h.current()), hashes[ply]);
        }
    }
}

#[test]
fn random_games_conserve_seeds_and_round_trip() {
    random_games(&[], 2, 100);
    random_games(&[("direction", "ring")], 2, 100);
    random_games(&[("borrow", "false")], 2, 100);
    random_games(&[("quan_non", "5")], 2, 60);
    random_games(&[("players", "3")], 3, 60);
    random_games(&[("players", "4"), ("direction", "ring")], 4, 40);
}

#[test]
fn illegal_moves_change_nothing() {
    let g = game(&[]);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..50 {
        let mut h = History::new(g.start().unwrap());
        for _ in 0..rng.random_range(0..30) {
            if g.outcome(h.current()).unwrap().is_some() {
                break;
            }
            let moves = g.legal_moves(h.current()).unwrap();
            h.play(&g, &moves[rng.random_range(0..moves.len())])
                .unwrap();
        }
        let legal: Vec<String> = g
            .legal_moves(h.current())
            .unwrap()
            .iter()
            .map(|m| g.format_move(h.current(), m).unwrap())
            .collect();
        let before = (h.ply(), g.state_hash(h.current()));
        for pit in 0..=12 {
            for dir in ["P", "t", "x", ""] {
                let text = format!("{pit}{dir}");
                let canonical = text.to_uppercase();
                if legal.contains(&canonical) {
                    continue;
                }
                assert!(h.play_text(&g, &text).is_err(), "{text} was accepted");
                assert_eq!((h.ply(), g.state_hash(h.current())), before);
            }
        }
    }
}
