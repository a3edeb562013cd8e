//! Poison Chess perft from its start position to depth 5 (4,864,863
//! leaves) beside FIDE chess (`heterodox_env::Chess`, 4,865,609 leaves) in
//! the same run, bulk counting, single-threaded. Criterion measures each;
//! afterwards a short interleaved run prints both nodes/s and the ratio
//! against the target (poison >= 0.7 x chess).
//!
//! Run: `cargo bench -p heterodox-env --bench poison`.

mod support;

use heterodox_env::{Chess, PoisonChess};
use support::{
    criterion_group, median_nodes_per_second, print_ratio, start_perft, Contender,
    CHESS_DEPTH5_NODES,
};

const POISON_NODES: u64 = 4_864_863;
const TARGET_RATIO: f64 = 0.7;

fn main() {
    let contenders = [
        Contender::new(
            "poison",
            "poison",
            start_perft::<PoisonChess, 5>,
            POISON_NODES,
        ),
        Contender::new(
            "chess",
            "chess",
            start_perft::<Chess, 5>,
            CHESS_DEPTH5_NODES,
        ),
    ];
    criterion_group("perft_start_depth5", 8, &contenders);
    let rates = median_nodes_per_second("perft(5) start positions", &contenders, 7);
    print_ratio("poison/chess", rates[0] / rates[1], Some(TARGET_RATIO));
}
