//! Perft from the FIDE start position to depth 5 (4,865,609 leaves), bulk
//! counting, single-threaded: Heterodox's `Chess` against shakmaty in the
//! same run, interleaved rounds, median nodes/s of each and the ratio.
//! The quick form of `cargo bench -p heterodox-env --bench perft` (the
//! same contenders and measuring code, env/benches/support, without
//! Criterion's statistics), for `make bench-quick` (bench/quick.py).
//!
//! Run: `cargo run --release -p heterodox-env --example perft_vs_shakmaty [-- --rounds N]`
//! (default 15 rounds after one untimed warm-up round).
//!
//! Prints, for instance:
//!
//! ```text
//! perft(5) start position, one thread, bulk counting, median of 15:
//!   heterodox     123456789 nodes/s
//!   shakmaty      123456789 nodes/s
//!   ratio heterodox/shakmaty = 1.00 (target >= 0.70)
//! ```

#[path = "../benches/support/mod.rs"]
mod support;

use std::hint::black_box;

use support::{chess_depth5, median_nodes_per_second, print_ratio, Contender, CHESS_DEPTH5_NODES};

fn shakmaty_perft() -> u64 {
    shakmaty::perft(black_box(&shakmaty::Chess::default()), 5)
}

/// `--rounds N` from the command line, else 15.
fn rounds() -> Result<usize, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(15),
        [flag, n] if flag == "--rounds" => match n.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("--rounds takes a whole number >= 1, not {n:?}")),
        },
        _ => Err(format!("usage: [--rounds N], not {args:?}")),
    }
}

fn main() {
    let rounds = rounds().unwrap_or_else(|message| {
        eprintln!("{message}");
        std::process::exit(2);
    });
    let contenders = [
        chess_depth5("heterodox", "heterodox"),
        Contender::new("shakmaty", "shakmaty", shakmaty_perft, CHESS_DEPTH5_NODES),
    ];
    // One untimed round: page faults, attack tables, caches, frequency.
    for contender in &contenders {
        assert_eq!((contender.run)(), contender.nodes, "{}", contender.label);
    }
    let rates = median_nodes_per_second("perft(5) start position", &contenders, rounds);
    print_ratio("heterodox/shakmaty", rates[0] / rates[1], Some(0.7));
}
