//! Properties of the Oware script on random games: 48 seeds are conserved after every move,
//! rendering and parsing round-trip, undo restores the exact state, and every game ends.
//! (`tests/oware_openspiel.py` compares whole games with OpenSpiel's own implementation.)

use boardrules::{
    runtime::{Game, History},
    script::{Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn numbers(text: &str) -> i64 {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().unwrap())
        .sum()
}

#[test]
fn random_games_conserve_seeds_round_trip_and_undo() {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let g = ScriptedGame::load(&library, "oware").unwrap_or_else(|d| panic!("{}", d[0]));
    g.record_events(false);
    for seed in 0..100 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut h = History::new(g.start().unwrap());
        while g.outcome(h.current()).unwrap().is_none() {
            assert!(h.ply() < 3000, "seed {seed}: the game does not end");
            let moves = g.legal_moves(h.current()).unwrap();
            let mv = &moves[rng.random_range(0..moves.len())];
            h.play(&g, mv).unwrap();
            let s = h.current();
            let text = g.render(s).unwrap();
            // Every number on the board is seeds or a score ("Player 0" and "Player 1" add 1).
            assert_eq!(numbers(&text), 48 + 1, "seed {seed}:\n{text}");
            let back = g.parse_state(&text, None).unwrap();
            assert_eq!(g.render(&back).unwrap(), text);
            assert_eq!(g.outcome(&back).unwrap(), g.outcome(s).unwrap());
            if g.outcome(s).unwrap().is_none() {
                assert_eq!(g.to_move(&back).unwrap(), g.to_move(s).unwrap());
                assert_eq!(
                    format!("{:?}", g.legal_moves(&back).unwrap()),
                    format!("{:?}", g.legal_moves(s).unwrap())
                );
            }
        }
        // After the end there is no move.
        assert!(g.legal_moves(h.current()).unwrap().is_empty());
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
