//! Mad Scientist Chess perft from its start position beside FIDE chess, in
//! the same run, single-threaded with bulk counting on both sides.
//! Criterion measures each; afterwards an interleaved run prints both
//! nodes/s and the ratio (target >= 0.4 x chess, issue 6).
//!
//! Run: `cargo bench -p heterodox-env --bench madscientist`.

mod support;

use heterodox_env::MadScientist;
use support::{compare_with_chess, start_perft, Contender};

/// Depth 5 of Mad Scientist Chess: a tree of similar size to chess's.
const MAD_DEPTH: u32 = 5;

fn main() {
    // Mad Scientist's count is measured, not known: one run first.
    let mad_perft = start_perft::<MadScientist, MAD_DEPTH>;
    let mad = Contender::new(
        "madscientist_depth5",
        "madscientist",
        mad_perft,
        mad_perft(),
    );
    compare_with_chess("perft_start", 8, mad, "chess_depth5", 0.4);
}
