//! Perft from the start position to depth 5 (4,865,609 leaves), bulk
//! counting on both sides, single-threaded: Heterodox's `Chess` against
//! shakmaty in the same run. Criterion measures each; afterwards a short
//! interleaved run prints both nodes/s and the ratio (target >= 0.7).
//!
//! Run: `cargo bench -p heterodox-env --bench perft` (or `make bench`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess};

const DEPTH: u32 = 5;
const NODES: u64 = 4_865_609;

fn heterodox_perft() -> u64 {
    perft::perft(black_box(&Chess::new()), DEPTH)
}

fn shakmaty_perft() -> u64 {
    shakmaty::perft(black_box(&shakmaty::Chess::default()), DEPTH)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start_depth5");
    group.throughput(Throughput::Elements(NODES));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("heterodox", |b| b.iter(heterodox_perft));
    group.bench_function("shakmaty", |b| b.iter(shakmaty_perft));
    group.finish();
}

/// Median nodes/s of `rounds` runs, the two engines alternating so that
/// machine noise hits both alike.
fn ratio_summary(rounds: usize) {
    let time = |f: fn() -> u64| {
        let start = Instant::now();
        assert_eq!(f(), NODES);
        start.elapsed().as_secs_f64()
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        ours.push(time(heterodox_perft));
        theirs.push(time(shakmaty_perft));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ours, theirs) = (
        NODES as f64 / median(&mut ours),
        NODES as f64 / median(&mut theirs),
    );
    println!("perft(5) start position, one thread, bulk counting, median of {rounds}:");
    println!("  heterodox {:>12.0} nodes/s", ours);
    println!("  shakmaty  {:>12.0} nodes/s", theirs);
    println!(
        "  ratio heterodox/shakmaty = {:.2} (target >= 0.70)",
        ours / theirs
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
