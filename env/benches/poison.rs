//! Poison Chess perft from its start position to depth 5 (4,864,863
//! leaves) beside FIDE chess (`heterodox_env::Chess`, 4,865,609 leaves) in
//! the same run, bulk counting, single-threaded. Criterion measures each;
//! afterwards a short interleaved run prints both nodes/s and the ratio
//! against the target (poison >= 0.7 x chess).
//!
//! Run: `cargo bench -p heterodox-env --bench poison`.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, PoisonChess};
use support::{median_nodes_per_second, print_ratio, Contender};

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

fn ratio_summary(rounds: usize) {
    let rates = median_nodes_per_second(
        "perft(5) start positions",
        &[
            Contender {
                label: "poison",
                run: poison_perft,
                nodes: POISON_NODES,
            },
            Contender {
                label: "chess",
                run: chess_perft,
                nodes: CHESS_NODES,
            },
        ],
        rounds,
    );
    print_ratio("poison/chess", rates[0] / rates[1], Some(TARGET_RATIO));
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
