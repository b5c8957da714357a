use std::time::Instant;
use boardrules::{runtime::Game, script::{Library, ScriptedGame}};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn timing() {
    let library = Library::with_rules_dir(std::env::var("RULES").unwrap_or(concat!(env!("CARGO_MANIFEST_DIR"), "/rules").into()));
    let game = ScriptedGame::load(&library, "lines98").unwrap();
    game.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut s = game.start().unwrap();
    for _ in 0..15 { let m = game.legal_moves(&s).unwrap(); s = game.play(&s, &m[rng.random_range(0..m.len())]).unwrap().state; }
    println!("{}", game.render(&s).unwrap());
    let t = Instant::now(); let mut n = 0; let mut moves = vec![];
    while t.elapsed().as_millis() < 500 { moves = game.legal_moves(&s).unwrap(); n += 1; }
    println!("moves: {} per call {:?}, {} moves", n, t.elapsed() / n, moves.len());
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_millis() < 500 { let _ = game.play(&s, &moves[n as usize % moves.len()]).unwrap(); n += 1; }
    println!("play: {:?}", t.elapsed() / n);
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_millis() < 500 { let _ = game.evaluate(&s, 0).unwrap(); n += 1; }
    println!("eval: {:?}", t.elapsed() / n);
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_millis() < 500 { let _ = game.outcome(&s).unwrap(); n += 1; }
    println!("outcome: {:?}", t.elapsed() / n);
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_millis() < 500 { let _ = game.reseed(&s, 3); n += 1; }
    println!("reseed: {:?}", t.elapsed() / n);
}
