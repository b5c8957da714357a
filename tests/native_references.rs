//! `boardrules bench GAME` compares a script with a hand-written native program of the same
//! game (`benches/native/`): it must be the same game, move for move, or the ratio means
//! nothing. On random games, after every move, both sides have the same legal moves (in the
//! same order), board, scores, player to move and outcome.

use boardrules::{
    runtime::{Game, Outcome},
    script::{Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[allow(dead_code)] // the references are shared with `boardrules bench`, which uses all of them
#[path = "../benches/native/mod.rs"]
mod reference;

use reference::o_an_quan::{self, OAnQuan};

/// A built-in game with its default options, recording no events.
fn load(name: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let game = ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]));
    game.record_events(false);
    game
}

#[test]
fn the_native_oware_reference_plays_the_scripts_game() {
    let game = load("oware");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let mut state = game.start().unwrap();
        let mut native = reference::oware::Oware::start();
        loop {
            let moves = game.legal_moves(&state).unwrap();
            let houses: Vec<usize> = moves.iter().map(|m| m.as_int().unwrap() as usize).collect();
            assert_eq!(houses, native.legal_moves());
            assert_eq!(
                game.outcome(&state).unwrap().is_some(),
                native.legal_moves().is_empty()
            );
            if moves.is_empty() {
                break;
            }
            let i = rng.random_range(0..moves.len());
            state = game.play(&state, &moves[i]).unwrap().state;
            native.play(houses[i]);
            let scores = state.read_lock::<rhai::Map>().unwrap()["scores"]
                .clone()
                .into_typed_array::<i64>()
                .unwrap();
            assert_eq!(scores, native.scores.map(i64::from).to_vec());
        }
    }
}

/// Every number in an Ô ăn quan rendering's first line (the legend follows it),
/// `[r0, …, r4] <r5> [r6, …, r10] <r11> (S1 || S2)`: the ring in order, then the scores.
fn numbers(text: &str) -> Vec<i64> {
    let ring = text.lines().next().unwrap_or_default();
    ring.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// A native move in the game's notation: the user's pit number (1–5 along the ring for player
/// 1, 10–6 along it for player 2), then P (right) or T (left).
fn notation((pit, right): (usize, bool)) -> String {
    let number = if pit < 5 { pit + 1 } else { 16 - pit };
    format!("{number}{}", if right { "P" } else { "T" })
}

#[test]
fn the_native_o_an_quan_reference_plays_the_scripts_game() {
    let game = load("o_an_quan");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut refills, mut ends) = (0, [0; 3]);
    for _ in 0..250 {
        let mut state = game.start().unwrap();
        let mut native = OAnQuan::start();
        for ply in 0.. {
            assert!(ply < 2000, "the game does not end");
            let text = game.render(&state).unwrap();
            let board: Vec<i64> = native
                .ring
                .iter()
                .chain(&native.scores)
                .map(|&v| v.into())
                .collect();
            assert_eq!(numbers(&text), board, "{text}");
            assert_eq!(game.to_move(&state).unwrap(), native.turn, "{text}");
            let outcome = native.outcome().map(|o| match o {
                o_an_quan::Outcome::Win(p) => Outcome::Win(p),
                o_an_quan::Outcome::Draw => Outcome::Draw,
            });
            assert_eq!(game.outcome(&state).unwrap(), outcome, "{text}");
            let moves = game.legal_moves(&state).unwrap();
            let written: Vec<String> = moves
                .iter()
                .map(|m| game.format_move(&state, m).unwrap())
                .collect();
            let native_moves = native.legal_moves();
            let native_moves = native_moves.as_slice();
            let native_written: Vec<String> = native_moves.iter().copied().map(notation).collect();
            assert_eq!(written, native_written, "{text}");
            if let Some(o) = outcome {
                ends[match o {
                    Outcome::Win(p) => p,
                    Outcome::Draw => 2,
                }] += 1;
                break;
            }
            let p = native.turn;
            if native.ring[p * 6..p * 6 + 5].iter().all(|&s| s == 0) {
                refills += 1;
            }
            let i = rng.random_range(0..moves.len());
            state = game.play(&state, &moves[i]).unwrap().state;
            native.play(native_moves[i].0, native_moves[i].1);
        }
    }
    // The games reach the rarer rules: refills, and every kind of end.
    assert!(
        refills > 0 && ends.iter().all(|&n| n > 0),
        "{refills} refills, ends {ends:?}"
    );
}
