//! `cargo bench -p heterodox-engine --bench search`: time to depth 8 from
//! the chess start position, and the whole `bench` list at depth 6, on one
//! thread (the nodes/s figures are printed by `heterodox bench`).

use criterion::{criterion_group, criterion_main, Criterion};
use heterodox_engine::{bench, Engine, EngineConfig, Limits};
use heterodox_env::{Chess, Game};

fn chess_start_depth_8(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    let game = Game::new(Chess::new());
    let mut engine = Engine::<Chess>::new(EngineConfig::default()).unwrap();
    group.bench_function("chess start depth 8", |b| {
        b.iter(|| {
            engine.new_game();
            engine.search(&game, &Limits::depth(8), |_| {}).unwrap()
        })
    });
    group.bench_function("bench depth 6", |b| b.iter(|| bench::run(6).unwrap()));
    group.finish();
}

criterion_group!(benches, chess_start_depth_8);
criterion_main!(benches);
