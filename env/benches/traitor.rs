//! Perft of Impromptu Traitor Chess from the start position (depth 4,
//! 1,014,901 leaves; announcements included) beside FIDE `Chess` (depth 4,
//! 197,281 leaves) in the same run, single-threaded, bulk counting. Issue 5
//! sets no speed target; the summary prints nodes/s of both and the ratio
//! traitor/chess.
//!
//! Run: `cargo bench -p heterodox-env --bench traitor`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{perft, Chess};

const DEPTH: u32 = 4;
const TRAITOR_NODES: u64 = 1_014_901;
const CHESS_NODES: u64 = 197_281;

fn traitor_start() -> Traitor {
    Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Impromptu)).expect("start position")
}

fn traitor_perft() -> u64 {
    perft::perft(black_box(&traitor_start()), DEPTH)
}

fn chess_perft() -> u64 {
    perft::perft(black_box(&Chess::new()), DEPTH)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("traitor_perft_start_depth4");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(TRAITOR_NODES));
    group.bench_function("traitor", |b| b.iter(traitor_perft));
    group.throughput(Throughput::Elements(CHESS_NODES));
    group.bench_function("chess", |b| b.iter(chess_perft));
    group.finish();
}

/// Median nodes/s of `rounds` alternating runs.
fn ratio_summary(rounds: usize) {
    let time = |f: fn() -> u64, nodes: u64| {
        let start = Instant::now();
        assert_eq!(f(), nodes);
        nodes as f64 / start.elapsed().as_secs_f64()
    };
    let (mut ours, mut chess) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        ours.push(time(traitor_perft, TRAITOR_NODES));
        chess.push(time(chess_perft, CHESS_NODES));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (ours, chess) = (median(&mut ours), median(&mut chess));
    println!("perft(4) start position, one thread, bulk counting, median of {rounds}:");
    println!("  traitor (impromptu) {ours:>12.0} nodes/s");
    println!("  chess               {chess:>12.0} nodes/s");
    println!(
        "  ratio traitor/chess = {:.2} (issue 5 sets no target)",
        ours / chess
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(5);
}
