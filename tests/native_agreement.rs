//! A script's `native(state)` must describe the same game as its `play` and `result`: on random
//! games under every option set, a native position kept alongside the scripted game has the same
//! legal moves and outcome after every move (for sowing games, the same seeds and scores too),
//! and `native(state)` of each scripted state agrees. Placement games first, then sowing games.

use boardrules::{
    native_games::sowing::{SowMove, Sowing},
    runtime::{Cell, Game, Grid, Outcome},
    script::{native_form::NativeGame, Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::{Dynamic, Map};

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
) -> boardrules::native_games::placement::Placement {
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

fn sowing(game: &ScriptedGame, state: &Dynamic) -> Sowing {
    match game.native(state).unwrap() {
        Some(NativeGame::Sowing(s)) => s,
        _ => panic!("{} has no native sowing form", game.name()),
    }
}

/// The pit a scripted move sows from: the move itself (Oware) or its `pit` (Ô ăn quan).
fn pit_of(mv: &Dynamic) -> usize {
    match mv.read_lock::<Map>() {
        Some(m) => m["pit"].as_int().unwrap() as usize,
        None => mv.as_int().unwrap() as usize,
    }
}

/// What two positions must agree on.
fn summary(s: &Sowing) -> (Vec<i64>, Vec<i64>, usize, Option<Outcome>) {
    (
        s.seeds().to_vec(),
        s.scores().to_vec(),
        s.to_move(),
        s.outcome(),
    )
}

fn check_sowing(name: &str, options: &[(&str, &str)], games: usize) -> usize {
    let game = load(name, options);
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut moves_played = 0;
    for g in 0..games {
        let mut state = game.start().unwrap();
        let mut native = sowing(&game, &state);
        loop {
            let outcome = game.outcome(&state).unwrap();
            assert_eq!(native.outcome(), outcome, "{name} {options:?} game {g}");
            let script_moves = game.legal_moves(&state).unwrap();
            let native_moves = native.legal_moves();
            let mut script_pits: Vec<usize> = script_moves.iter().map(pit_of).collect();
            let mut native_pits: Vec<usize> = native_moves.iter().map(|m| m.pit).collect();
            script_pits.sort();
            native_pits.sort();
            assert_eq!(script_pits, native_pits, "{name} {options:?} game {g}");
            if outcome.is_some() {
                break;
            }
            let mv = &script_moves[rng.random_range(0..script_moves.len())];
            state = game.play(&state, mv).unwrap().state;
            let after = sowing(&game, &state);
            // The native move from the same pit that gives the same position.
            let same: Vec<SowMove> = native_moves
                .iter()
                .filter(|m| m.pit == pit_of(mv))
                .copied()
                .filter(|&m| {
                    let mut trial = native.clone();
                    trial.play(m).unwrap();
                    summary(&trial) == summary(&after)
                })
                .collect();
            assert!(
                !same.is_empty(),
                "{name} {options:?} game {g}: no native move from pit {} gives {:?}",
                pit_of(mv),
                summary(&after)
            );
            native.play(same[0]).unwrap();
            moves_played += 1;
        }
    }
    moves_played
}

#[test]
fn o_an_quan_native_form_agrees_with_the_script() {
    let option_sets: &[&[(&str, &str)]] = &[
        &[],
        &[("direction", "ring")],
        &[("borrow", "false")],
        &[("quan_non", "5")],
        &[("players", "3")],
        &[("players", "4"), ("direction", "ring")],
    ];
    for options in option_sets {
        let moves = check_sowing("o_an_quan", options, 25);
        assert!(moves > 25 * 10, "{options:?}: only {moves} moves played");
    }
}

#[test]
fn oware_native_form_agrees_with_the_script() {
    let moves = check_sowing("oware", &[], 40);
    assert!(moves > 40 * 30, "only {moves} moves played");
}

/// Random playouts through the native form keep the seeds (Ô ăn quan: 70) and end.
#[test]
fn native_playouts_end_and_conserve_seeds() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for (name, total) in [("o_an_quan", 70), ("oware", 48)] {
        let game = load(name, &[]);
        let start = sowing(&game, &game.start().unwrap());
        for _ in 0..300 {
            let mut s = start.clone();
            let (outcome, _) = s.random_playout(&mut rng, 100_000);
            assert!(outcome.is_some(), "{name}: a playout did not end");
            let seeds: i64 = s.seeds().iter().sum::<i64>() + s.scores().iter().sum::<i64>();
            assert_eq!(seeds, total, "{name}");
        }
    }
}
