//! Random playouts of the mancala games (Ô ăn quan and Oware) — through the script, through its
//! native form (`native(state)`), and of the hand-written native references — and the `Track`
//! sowing primitive.

use boardrules::{
    runtime::{playout, Game, Track},
    script::{Library, ScriptedGame},
};
mod native;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn load(name: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let game = ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]));
    game.record_events(false);
    game
}

fn scripted_playouts(c: &mut Criterion) {
    for name in ["o_an_quan", "oware"] {
        let game = load(name);
        let start = game.start().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        c.bench_function(&format!("{name} scripted random playout"), |b| {
            b.iter(|| playout::random_playout(&game, &start, &mut rng).unwrap())
        });
        c.bench_function(
            &format!("{name} random playout through native(state)"),
            |b| b.iter(|| game.random_playout(&start, &mut rng).unwrap()),
        );
        let mut reference = native::find(name).unwrap();
        c.bench_function(&format!("{name} native reference random playout"), |b| {
            b.iter(|| reference.playout(&mut rng))
        });
    }
}

fn sowing(c: &mut Criterion) {
    let track = Track::new(12, 5);
    c.bench_function("Track::sow 17 seeds on 12 pits, skipping the origin", |b| {
        b.iter(|| {
            let mut t = track.clone();
            let n = t.take(2) + 12;
            t.sow(2, n, 1, &[2]).unwrap()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scripted_playouts, sowing
}
criterion_main!(benches);
