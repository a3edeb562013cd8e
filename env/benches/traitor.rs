//! Perft of Impromptu Traitor Chess from the start position (depth 4,
//! 1,014,901 leaves; announcements included) beside FIDE `Chess` (depth 4,
//! 197,281 leaves) in the same run, single-threaded, bulk counting. Issue 5
//! sets no speed target; the summary prints nodes/s of both and the ratio
//! traitor/chess.
//!
//! Run: `cargo bench -p heterodox-env --bench traitor`.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{perft, Chess};
use support::{median_nodes_per_second, print_ratio, Contender};

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

fn ratio_summary(rounds: usize) {
    let rates = median_nodes_per_second(
        "perft(4) start position",
        &[
            Contender {
                label: "traitor (impromptu)",
                run: traitor_perft,
                nodes: TRAITOR_NODES,
            },
            Contender {
                label: "chess",
                run: chess_perft,
                nodes: CHESS_NODES,
            },
        ],
        rounds,
    );
    print_ratio("traitor/chess", rates[0] / rates[1], None);
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    ratio_summary(5);
}
