//! Mad Scientist Chess perft from its start position beside FIDE chess, in
//! the same run, single-threaded with bulk counting on both sides.
//! Criterion measures each; afterwards an interleaved run prints both
//! nodes/s and the ratio (target >= 0.4 x chess, issue 6).
//!
//! Run: `cargo bench -p heterodox-env --bench madscientist`.

mod support;

use heterodox_env::{Chess, MadScientist};
use support::{
    criterion_group, median_nodes_per_second, print_ratio, start_perft, Contender,
    CHESS_DEPTH5_NODES,
};

/// Depth 5 of Mad Scientist Chess: a tree of similar size to chess's.
const MAD_DEPTH: u32 = 5;

fn main() {
    // Mad Scientist's count is measured, not known: one run first.
    let mad_perft = start_perft::<MadScientist, MAD_DEPTH>;
    let contenders = [
        Contender::new(
            "madscientist_depth5",
            "madscientist",
            mad_perft,
            mad_perft(),
        ),
        Contender::new(
            "chess_depth5",
            "chess",
            start_perft::<Chess, 5>,
            CHESS_DEPTH5_NODES,
        ),
    ];
    criterion_group("perft_start", 8, &contenders);
    let rates = median_nodes_per_second("perft(5) start positions", &contenders, 7);
    print_ratio("madscientist/chess", rates[0] / rates[1], Some(0.4));
}
