//! Perft from the start position to depth 5 (4,865,609 leaves), bulk
//! counting on both sides, single-threaded: Heterodox's `Chess` against
//! shakmaty in the same run. Criterion measures each; afterwards a short
//! interleaved run prints both nodes/s and the ratio (target >= 0.7).
//!
//! Run: `cargo bench -p heterodox-env --bench perft` (or `make bench`).

mod support;

use std::hint::black_box;

use heterodox_env::Chess;
use support::{criterion_group, median_nodes_per_second, print_ratio, start_perft, Contender};

const DEPTH: u32 = 5;
const NODES: u64 = 4_865_609;

fn shakmaty_perft() -> u64 {
    shakmaty::perft(black_box(&shakmaty::Chess::default()), DEPTH)
}

fn main() {
    let contenders = [
        Contender::new("heterodox", "heterodox", start_perft::<Chess, DEPTH>, NODES),
        Contender::new("shakmaty", "shakmaty", shakmaty_perft, NODES),
    ];
    criterion_group("perft_start_depth5", 8, &contenders);
    let rates = median_nodes_per_second("perft(5) start position", &contenders, 7);
    print_ratio("heterodox/shakmaty", rates[0] / rates[1], Some(0.7));
}
