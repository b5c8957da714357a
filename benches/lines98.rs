//! Random playouts of the scripted Lines98, and the flood-fill and path primitives under it.

use boardrules::{
    runtime::{grid::ORTHOGONAL, paths, playout, regions, Cell, Game, Grid},
    script::{Library, ScriptedGame},
};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn load(name: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]))
}

/// A random game to the end (a full board) from a fresh seed; returns the number of moves.
fn playout(game: &mut ScriptedGame, rng: &mut ChaCha8Rng) -> usize {
    game.set_seed(rng.random());
    let start = game.start().unwrap();
    playout::random_playout(&*game, &start, rng).unwrap().1
}

fn scripted_playouts(c: &mut Criterion) {
    let mut lines98 = load("lines98");
    lines98.record_events(false);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function("lines98 scripted random playout (9x9)", |b| {
        b.iter(|| playout(&mut lines98, &mut rng))
    });
    // One step of a playout, at the start: listing the moves, and playing one.
    let start = lines98.start().unwrap();
    let moves = lines98.legal_moves(&start).unwrap();
    c.bench_function("lines98 moves (start, 380 moves)", |b| {
        b.iter(|| lines98.legal_moves(&start).unwrap())
    });
    c.bench_function("lines98 play (start)", |b| {
        b.iter(|| lines98.play(&start, &moves[100]).unwrap())
    });
}

/// A half-full 9×9 board of 7 colours.
fn board() -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut g = Grid::new(9, 9, 0);
    for cell in g.cells().collect::<Vec<_>>() {
        if rng.random_bool(0.5) {
            g.set(cell, rng.random_range(1..=7));
        }
    }
    g
}

fn primitives(c: &mut Criterion) {
    let g = board();
    let empty = Grid::new(9, 9, 0);
    c.bench_function("shortest_path corner to corner (empty 9x9)", |b| {
        b.iter(|| paths::shortest_path(&empty, Cell::new(0, 0), Cell::new(8, 8), &ORTHOGONAL, 0))
    });
    c.bench_function("reachable from a cell (half-full 9x9)", |b| {
        b.iter(|| paths::reachable(&g, Cell::new(4, 4), &ORTHOGONAL, 0))
    });
    c.bench_function("regions of every colour (half-full 9x9)", |b| {
        b.iter(|| regions::regions(&g, &ORTHOGONAL, 0))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = scripted_playouts, primitives
}
criterion_main!(benches);
