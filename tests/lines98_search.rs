//! The computer at Lines98, a one-player game where chance follows the moves: its hints come
//! from sampled futures (`src/search/sampling.rs`), never from the generator in the state, and
//! it scores far more than a random mover.
//!
//! The match can be made longer from the environment, e.g. whole games:
//! `GAMES=3 MOVES=250 cargo test --release --test lines98_search -- --nocapture`
//! (`WIDTH`, `SAMPLES`, `REPLIES` set the search; by default 4, 4 and 0).

use std::time::Duration;

use boardrules::{
    runtime::Game,
    script::{Library, ScriptedGame},
    search::player::{self, Level},
    search::sampling::{self, Limits},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::{Dynamic, Map};

fn lines98() -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, "lines98").unwrap()
}

fn score(state: &Dynamic) -> i64 {
    state.read_lock::<Map>().unwrap()["score"].as_int().unwrap()
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The search `search::player` runs for Lines98, bounded by work rather than time so that the
/// test plays the same on any machine.
fn computer(game: &ScriptedGame, state: &Dynamic, seed: u64) -> Dynamic {
    let limits = Limits {
        time: Duration::from_secs(60),
        width: env("WIDTH", 4),
        samples: env("SAMPLES", 4),
        replies: env("REPLIES", 0),
        seed,
    };
    let eval = |s: &Dynamic, p: usize| game.evaluate(s, p).map(Option::unwrap_or_default);
    let reseed = |s: &Dynamic, seed: u64| game.reseed(s, seed);
    sampling::best_move(game, state, &eval, &reseed, limits)
        .unwrap()
        .unwrap()
        .mv
}

/// Plays game `seed` to the end or for `max_moves` moves; the score and the moves played.
fn play(game: &mut ScriptedGame, seed: u64, max_moves: usize, smart: bool) -> (i64, usize) {
    game.set_seed(seed);
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.start().unwrap();
    let mut n = 0;
    while n < max_moves && game.outcome(&state).unwrap().is_none() {
        let mv = if smart {
            computer(game, &state, n as u64)
        } else {
            let moves = game.legal_moves(&state).unwrap();
            moves[rng.random_range(0..moves.len())].clone()
        };
        state = game.play(&state, &mv).unwrap().state;
        n += 1;
    }
    (score(&state), n)
}

#[test]
fn the_computer_scores_far_more_than_a_random_mover() {
    let mut game = lines98();
    let games = env("GAMES", 10) as u64;
    // The random mover fills the board in about 26 moves; the computer stops after 16 (it would
    // go on far longer), which is enough to tell them apart and keeps the test quick.
    let max_moves = env("MOVES", 16);
    let (mut computer, mut random) = (Vec::new(), Vec::new());
    for seed in 0..games {
        computer.push(play(&mut game, seed, max_moves, true));
        random.push(play(&mut game, seed, usize::MAX, false));
    }
    eprintln!("computer (score, moves): {computer:?}");
    eprintln!("random   (score, moves): {random:?}");
    let total = |v: &[(i64, usize)]| v.iter().map(|g| g.0).sum::<i64>();
    let (c, r) = (total(&computer), total(&random));
    eprintln!("computer {c} points in {games} games, random {r}");
    assert!(c >= 3 * r.max(10), "computer {c}, random {r}");
}

/// Two balls of colour 3 short of nothing: c1..c4 hold a line of 4 and i5 can reach c5.
const FOUR: &str = "\
.........
.........
.........
.........
........3
..3......
2.3......
1.3......
023......
next: 4 5 6  score: 2
";

/// The same position read with two seeds: equal but for the generator in the state.
fn twins(text: &str) -> (ScriptedGame, Dynamic, Dynamic) {
    let mut game = lines98();
    game.set_seed(1);
    let a = game.parse_state(text, None).unwrap();
    game.set_seed(2);
    let b = game.parse_state(text, None).unwrap();
    assert_eq!(game.render(&a).unwrap(), game.render(&b).unwrap());
    assert_ne!(game.state_hash(&a), game.state_hash(&b));
    (game, a, b)
}

#[test]
fn the_hint_never_depends_on_the_real_future() {
    // A crowded board from a random game, where what spawns next matters.
    let mut game = lines98();
    game.set_seed(11);
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut state = game.start().unwrap();
    for _ in 0..12 {
        let moves = game.legal_moves(&state).unwrap();
        state = game
            .play(&state, &moves[rng.random_range(0..moves.len())])
            .unwrap()
            .state;
    }
    let text = game.render(&state).unwrap();
    for position in [text.as_str(), FOUR] {
        let (game, a, b) = twins(position);
        // Their real futures differ: the same move spawns balls in different places.
        let mv = game.legal_moves(&a).unwrap().swap_remove(0);
        let spawned = |s: &Dynamic| game.render(&game.play(s, &mv).unwrap().state).unwrap();
        if position != FOUR {
            assert_ne!(spawned(&a), spawned(&b));
        }
        for level in [Level::Easy, Level::Hard] {
            // Time enough for every level's samples: the search is then deterministic.
            let time = Some(Duration::from_secs(60));
            let ha = player::choose(&game, &a, level, time, 5).unwrap().unwrap();
            let hb = player::choose(&game, &b, level, time, 5).unwrap().unwrap();
            assert_eq!((&ha.text, &ha.reason), (&hb.text, &hb.reason));
        }
    }
}

#[test]
fn a_sure_clear_is_taken_and_explained() {
    let (game, a, _) = twins(FOUR);
    let hint = player::choose(&game, &a, Level::Medium, Some(Duration::from_secs(60)), 0)
        .unwrap()
        .unwrap();
    assert_eq!(hint.text, "i5-c5");
    assert!(
        hint.reason
            .starts_with("5 balls clear: +10, score 12 (no luck involved"),
        "{}",
        hint.reason
    );
}
