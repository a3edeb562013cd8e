//! Poison Chess perft from its start position to depth 5 (4,864,863
//! leaves) beside FIDE chess (`heterodox_env::Chess`, 4,865,609 leaves) in
//! the same run, bulk counting, single-threaded. Criterion measures each;
//! afterwards a short interleaved run prints both nodes/s and the ratio
//! against the target (poison >= 0.7 x chess).
//!
//! Run: `cargo bench -p heterodox-env --bench poison`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, PoisonChess};

const DEPTH: u32 = 5;
const POISON_NODES: u64 = 4_864_863;
const CHESS_NODES: u64 = 4_865_609;
const TARGET_RATIO: f64 = 0.7;

fn poison_perft() -> u64 {
    perft::perft(black_box(&PoisonChess::new()), DEPTH)
}

fn chess_perft() -> u64 {
    perft::perft(black_box(&Chess::new()), DEPTH)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start_depth5");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(POISON_NODES));
    group.bench_function("poison", |b| b.iter(poison_perft));
    group.throughput(Throughput::Elements(CHESS_NODES));
    group.bench_function("chess", |b| b.iter(chess_perft));
    group.finish();
}

/// Median nodes/s of `rounds` runs, the two variants alternating so that
/// machine noise hits both alike.
fn ratio_summary(rounds: usize) {
    let time = |f: fn() -> u64, nodes: u64| {
        let start = Instant::now();
        assert_eq!(f(), nodes);
        start.elapsed().as_secs_f64()
    };
    let (mut poison, mut chess) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        poison.push(time(poison_perft, POISON_NODES));
        chess.push(time(chess_perft, CHESS_NODES));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let poison = POISON_NODES as f64 / median(&mut poison);
    let chess = CHESS_NODES as f64 / median(&mut chess);
    println!("perft(5) start positions, one thread, bulk counting, median of {rounds}:");
    println!("  poison {poison:>12.0} nodes/s");
    println!("  chess  {chess:>12.0} nodes/s");
    println!(
        "  ratio poison/chess = {:.2} (target >= {TARGET_RATIO:.2})",
        poison / chess
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
