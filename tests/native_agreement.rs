//! A script's `native(state)` must describe the same game as its `play` and `result`: on random
//! games under every option set, a native position kept alongside the scripted game has the same
//! legal moves and outcome after every move, and `native(state)` of each scripted state agrees.

use boardrules::{
    runtime::{Cell, Game, Grid},
    script::{native::NativeGame, Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn load(name: &str, options: &[(&str, &str)]) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut game = ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]));
    for (k, v) in options {
        game.set_option(k, v).unwrap();
    }
    game
}

fn placement(
    game: &ScriptedGame,
    state: &rhai::Dynamic,
) -> boardrules::runtime::placement::Placement {
    match game.native(state).unwrap() {
        Some(NativeGame::Placement(p)) => p,
        _ => panic!("{} has no native placement form", game.name()),
    }
}

fn check(name: &str, options: &[(&str, &str)], games: usize) {
    let game = load(name, options);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..games {
        let mut state = game.start().unwrap();
        let mut native = placement(&game, &state);
        let width = state.read_lock::<rhai::Map>().unwrap()["board"]
            .read_lock::<Grid>()
            .unwrap()
            .width();
        loop {
            let outcome = game.outcome(&state).unwrap();
            assert_eq!(native.outcome(), outcome, "{name} {options:?}");
            assert_eq!(placement(&game, &state).outcome(), outcome);
            let moves = game.legal_moves(&state).unwrap();
            if outcome.is_some() {
                assert!(moves.is_empty());
                break;
            }
            let mut native_moves: Vec<u32> = native.empties().to_vec();
            native_moves.sort();
            let mut script_moves: Vec<u32> = moves
                .iter()
                .map(|m| {
                    let c = m.clone_cast::<Cell>();
                    (c.y * width + c.x) as u32
                })
                .collect();
            script_moves.sort();
            assert_eq!(native_moves, script_moves);
            let mv = &moves[rng.random_range(0..moves.len())];
            let c = mv.clone_cast::<Cell>();
            native.play((c.y * width + c.x) as usize).unwrap();
            state = game.play(&state, mv).unwrap().state;
            assert_eq!(native.to_move(), game.to_move(&state).unwrap());
        }
    }
}

#[test]
fn caro_native_form_agrees_with_the_script() {
    check("caro", &[("size", "7"), ("win", "4")], 150);
    check(
        "caro",
        &[("size", "6"), ("win", "3"), ("edge_blocks", "true")],
        150,
    );
    check(
        "caro",
        &[("size", "6"), ("win", "3"), ("exact", "false")],
        150,
    );
    check(
        "caro",
        &[("size", "5"), ("win", "3"), ("block_rule", "false")],
        150,
    );
    check("caro", &[], 10);
}

#[test]
fn gomoku_inherits_the_native_form_with_its_own_options() {
    check("gomoku", &[("size", "6"), ("win", "3")], 150);
}
