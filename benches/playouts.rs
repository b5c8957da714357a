//! Random playouts of scripted games, and the native primitives they call.

use boardrules::{
    runtime::{lines, playout, Cell, Game, Grid},
    script::{Library, ScriptedGame},
};
mod native;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn load(name: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]))
}

fn scripted_playouts(c: &mut Criterion) {
    let caro = load("caro");
    caro.record_events(false);
    let start = caro.start().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function("caro random playout through the script (15x15)", |b| {
        b.iter(|| playout::random_playout(&caro, &start, &mut rng).unwrap())
    });
    c.bench_function("caro random playout, native form (15x15)", |b| {
        b.iter(|| caro.random_playout(&start, &mut rng).unwrap())
    });
    let mut reference = native::find("caro").unwrap();
    c.bench_function("caro random playout, hand-written reference (15x15)", |b| {
        b.iter(|| reference.playout(&mut rng))
    });
}

fn primitives(c: &mut Criterion) {
    let mut grid = Grid::new(15, 15, 0);
    for x in 3..8 {
        grid.set(Cell::new(x, 7), 1);
    }
    c.bench_function("runs_through (4 directions)", |b| {
        b.iter(|| lines::runs_through(&grid, Cell::new(5, 7)))
    });
    c.bench_function("all_runs of 5+ (15x15)", |b| {
        b.iter(|| lines::all_runs(&grid, 5, 0))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scripted_playouts, primitives
}
criterion_main!(benches);
