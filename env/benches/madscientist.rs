//! Mad Scientist Chess perft from its start position beside FIDE chess, in
//! the same run, single-threaded with bulk counting on both sides.
//! Criterion measures each; afterwards an interleaved run prints both
//! nodes/s and the ratio (target >= 0.4 x chess, issue 6).
//!
//! Run: `cargo bench -p heterodox-env --bench madscientist`.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, MadScientist};
use support::{median_nodes_per_second, print_ratio, Contender};

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

fn ratio_summary(rounds: usize, mad_nodes: u64) {
    let rates = median_nodes_per_second(
        "perft(5) start positions",
        &[
            Contender {
                label: "madscientist",
                run: mad_perft,
                nodes: mad_nodes,
            },
            Contender {
                label: "chess",
                run: chess_perft,
                nodes: CHESS_NODES,
            },
        ],
        rounds,
    );
    print_ratio("madscientist/chess", rates[0] / rates[1], Some(0.4));
}

fn main() {
    let mad_nodes = mad_perft();
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion, mad_nodes);
    criterion.final_summary();
    ratio_summary(7, mad_nodes);
}
