//! Hostage Chess perft beside FIDE chess, single-threaded with bulk
//! counting: from the start position (depth 5, target: hostage >= 0.5 x
//! chess) and from a position with full prisons and airfields (the
//! Parr-Pritchard game before 24...b4#, depth 3). Criterion measures each;
//! afterwards a short interleaved run prints nodes/s and the ratio.
//!
//! Run: `cargo bench -p heterodox-env --bench hostage`.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, Hostage};
use support::{median_nodes_per_second, print_ratio, Contender};

const START_DEPTH: u32 = 5;
const HOSTAGE_START_NODES: u64 = 4_865_877;
const CHESS_START_NODES: u64 = 4_865_609;
const FULL_RESERVES: &str =
    "r3k1nr/p4ppp/8/1p1qp3/P1p5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] b kq - 1 24";
const FULL_RESERVES_DEPTH: u32 = 3;
const FULL_RESERVES_NODES: u64 = 412_065;

fn hostage_start() -> u64 {
    perft::perft(black_box(&Hostage::new()), START_DEPTH)
}

fn chess_start() -> u64 {
    perft::perft(black_box(&Chess::new()), START_DEPTH)
}

fn hostage_full_reserves() -> u64 {
    let position = Hostage::from_fen(FULL_RESERVES).expect("valid");
    perft::perft(black_box(&position), FULL_RESERVES_DEPTH)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostage_perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    group.throughput(Throughput::Elements(HOSTAGE_START_NODES));
    group.bench_function("hostage_start_depth5", |b| b.iter(hostage_start));
    group.throughput(Throughput::Elements(CHESS_START_NODES));
    group.bench_function("chess_start_depth5", |b| b.iter(chess_start));
    group.throughput(Throughput::Elements(FULL_RESERVES_NODES));
    group.bench_function("hostage_full_reserves_depth3", |b| {
        b.iter(hostage_full_reserves)
    });
    group.finish();
}

fn ratio_summary(rounds: usize) {
    let rates = median_nodes_per_second(
        "perft",
        &[
            Contender {
                label: "hostage start (depth 5)",
                run: hostage_start,
                nodes: HOSTAGE_START_NODES,
            },
            Contender {
                label: "chess start (depth 5)",
                run: chess_start,
                nodes: CHESS_START_NODES,
            },
            Contender {
                label: "hostage full reserves (depth 3)",
                run: hostage_full_reserves,
                nodes: FULL_RESERVES_NODES,
            },
        ],
        rounds,
    );
    print_ratio("hostage/chess at the start", rates[0] / rates[1], Some(0.5));
    print_ratio(
        "hostage full reserves/chess start",
        rates[2] / rates[1],
        None,
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
