//! Perft of Impromptu Traitor Chess from the start position (depth 4,
//! 1,014,901 leaves; announcements included) beside FIDE `Chess` (depth 4,
//! 197,281 leaves) in the same run, single-threaded, bulk counting. Issue 5
//! sets no speed target; the summary prints nodes/s of both and the ratio
//! traitor/chess.
//!
//! Run: `cargo bench -p heterodox-env --bench traitor`.

mod support;

use std::hint::black_box;

use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{perft, Chess};
use support::{criterion_group, median_nodes_per_second, print_ratio, start_perft, Contender};

const DEPTH: u32 = 4;
const TRAITOR_NODES: u64 = 1_014_901;
const CHESS_NODES: u64 = 197_281;

fn traitor_start() -> Traitor {
    Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Impromptu)).expect("start position")
}

fn traitor_perft() -> u64 {
    perft::perft(black_box(&traitor_start()), DEPTH)
}

fn main() {
    let contenders = [
        Contender::new(
            "traitor",
            "traitor (impromptu)",
            traitor_perft,
            TRAITOR_NODES,
        ),
        Contender::new("chess", "chess", start_perft::<Chess, DEPTH>, CHESS_NODES),
    ];
    criterion_group("traitor_perft_start_depth4", 5, &contenders);
    let rates = median_nodes_per_second("perft(4) start position", &contenders, 5);
    print_ratio("traitor/chess", rates[0] / rates[1], None);
}
