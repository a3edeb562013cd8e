//! Perft from the start position to depth 5 (4,865,609 leaves), bulk
//! counting on both sides, single-threaded: Heterodox's `Chess` against
//! shakmaty in the same run. Criterion measures each; afterwards a short
//! interleaved run prints both nodes/s and the ratio (target >= 0.7).
//!
//! Run: `cargo bench -p heterodox-env --bench perft` (or `make bench`).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess};
use support::{median_nodes_per_second, print_ratio, Contender};

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

fn ratio_summary(rounds: usize) {
    let rates = median_nodes_per_second(
        "perft(5) start position",
        &[
            Contender {
                label: "heterodox",
                run: heterodox_perft,
                nodes: NODES,
            },
            Contender {
                label: "shakmaty",
                run: shakmaty_perft,
                nodes: NODES,
            },
        ],
        rounds,
    );
    print_ratio("heterodox/shakmaty", rates[0] / rates[1], Some(0.7));
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
