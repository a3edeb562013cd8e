//! Hostage Chess perft beside FIDE chess, single-threaded with bulk
//! counting: from the start position (depth 5, target: hostage >= 0.5 x
//! chess) and from a position with full prisons and airfields (the
//! Parr-Pritchard game before 24...b4#, depth 3). Criterion measures each;
//! afterwards a short interleaved run prints nodes/s and the ratio.
//!
//! Run: `cargo bench -p heterodox-env --bench hostage`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, Hostage};

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

/// Median nodes/s over `rounds` interleaved runs, so machine noise hits
/// all three alike.
fn ratio_summary(rounds: usize) {
    let time = |f: fn() -> u64, nodes: u64| {
        let start = Instant::now();
        assert_eq!(f(), nodes);
        start.elapsed().as_secs_f64()
    };
    let (mut hostage, mut chess, mut full) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        hostage.push(time(hostage_start, HOSTAGE_START_NODES));
        chess.push(time(chess_start, CHESS_START_NODES));
        full.push(time(hostage_full_reserves, FULL_RESERVES_NODES));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let hostage = HOSTAGE_START_NODES as f64 / median(&mut hostage);
    let chess = CHESS_START_NODES as f64 / median(&mut chess);
    let full = FULL_RESERVES_NODES as f64 / median(&mut full);
    println!("perft, one thread, bulk counting, median of {rounds}:");
    println!("  hostage start (depth 5)          {hostage:>12.0} nodes/s");
    println!("  chess start (depth 5)            {chess:>12.0} nodes/s");
    println!("  hostage full reserves (depth 3)  {full:>12.0} nodes/s");
    println!(
        "  ratio hostage/chess at the start = {:.2} (target >= 0.50)",
        hostage / chess
    );
    println!(
        "  ratio hostage full reserves/chess start = {:.2}",
        full / chess
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(7);
}
