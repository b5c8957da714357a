//! The computer player's search at Five-step (alpha-beta with the script's `evaluate`) against a
//! random mover.

use std::time::Duration;

use boardrules::{
    runtime::{Game, Outcome},
    script::{Library, ScriptedGame},
    search::{self, Limits},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

/// How deep the computer looks: `hard` gets further in its time on this machine.
const DEPTH: usize = 2;

#[test]
fn the_computer_beats_a_random_mover_in_nearly_every_game() {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut game = ScriptedGame::load(&library, "five_step").unwrap();
    game.set_option("max_plies", "120").unwrap();
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let games = 20;
    let mut wins = 0;
    for g in 0..games {
        let computer = g % 2;
        let mut state = game.start().unwrap();
        while game.outcome(&state).unwrap().is_none() {
            let moves = game.legal_moves(&state).unwrap();
            let mv = if game.to_move(&state).unwrap() == computer {
                let limits = Limits {
                    time: Duration::from_secs(60),
                    max_depth: DEPTH,
                    seed: g as u64,
                };
                let eval =
                    |s: &Dynamic, p: usize| game.evaluate(s, p).map(Option::unwrap_or_default);
                search::best_move(&game, &state, Some(&eval), limits)
                    .unwrap()
                    .unwrap()
                    .mv
            } else {
                moves[rng.random_range(0..moves.len())].clone()
            };
            state = game.play(&state, &mv).unwrap().state;
        }
        if game.outcome(&state).unwrap() == Some(Outcome::Win(computer)) {
            wins += 1;
        }
    }
    eprintln!("the computer won {wins} of {games}");
    assert!(
        wins * 100 >= games * 95,
        "the computer won {wins} of {games}"
    );
}
