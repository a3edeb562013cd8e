//! Mad Scientist Chess perft from its start position beside FIDE chess, in
//! the same run, single-threaded with bulk counting on both sides.
//! Criterion measures each; afterwards an interleaved run prints both
//! nodes/s and the ratio (target >= 0.4 x chess, issue 6).
//!
//! Run: `cargo bench -p heterodox-env --bench madscientist`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, MadScientist};

const CHESS_DEPTH: u32 = 5;
const CHESS_NODES: u64 = 4_865_609;
/// Depth 5 of Mad Scientist Chess: a tree of similar size to chess's.
const MAD_DEPTH: u32 = 5;

fn chess_perft() -> u64 {
    perft::perft(black_box(&Chess::new()), CHESS_DEPTH)
}

fn mad_perft() -> u64 {
    perft::perft(black_box(&MadScientist::new()), MAD_DEPTH)
}

fn bench(c: &mut Criterion, mad_nodes: u64) {
    let mut group = c.benchmark_group("perft_start");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(mad_nodes));
    group.bench_function("madscientist_depth5", |b| b.iter(mad_perft));
    group.throughput(Throughput::Elements(CHESS_NODES));
    group.bench_function("chess_depth5", |b| b.iter(chess_perft));
    group.finish();
}

/// Median nodes/s of `rounds` runs of each, alternating so that machine
/// noise hits both alike.
fn ratio_summary(rounds: usize, mad_nodes: u64) {
    let time = |f: fn() -> u64, nodes: u64| {
        let start = Instant::now();
        assert_eq!(f(), nodes);
        start.elapsed().as_secs_f64()
    };
    let (mut mad, mut chess) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        mad.push(time(mad_perft, mad_nodes));
        chess.push(time(chess_perft, CHESS_NODES));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mad = mad_nodes as f64 / median(&mut mad);
    let chess = CHESS_NODES as f64 / median(&mut chess);
    println!("perft from the start position, one thread, bulk counting, median of {rounds}:");
    println!("  madscientist (depth {MAD_DEPTH}, {mad_nodes} nodes) {mad:>12.0} nodes/s");
    println!("  chess        (depth {CHESS_DEPTH}, {CHESS_NODES} nodes) {chess:>12.0} nodes/s");
    println!(
        "  ratio madscientist/chess = {:.2} (target >= 0.40)",
        mad / chess
    );
}

fn main() {
    let mad_nodes = mad_perft();
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion, mad_nodes);
    criterion.final_summary();
    ratio_summary(7, mad_nodes);
}
