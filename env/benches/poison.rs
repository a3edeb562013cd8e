//! Poison Chess perft from its start position to depth 5 (4,864,863
//! leaves) beside FIDE chess (`heterodox_env::Chess`, 4,865,609 leaves) in
//! the same run, bulk counting, single-threaded. Criterion measures each;
//! afterwards a short interleaved run prints both nodes/s and the ratio
//! against the target (poison >= 0.7 x chess).
//!
//! Run: `cargo bench -p heterodox-env --bench poison`.

mod support;

use heterodox_env::PoisonChess;
use support::{compare_with_chess, start_perft, Contender};

const POISON_NODES: u64 = 4_864_863;
const TARGET_RATIO: f64 = 0.7;

fn main() {
    let poison = Contender::new(
        "poison",
        "poison",
        start_perft::<PoisonChess, 5>,
        POISON_NODES,
    );
    compare_with_chess("perft_start_depth5", 8, poison, "chess", TARGET_RATIO);
}
