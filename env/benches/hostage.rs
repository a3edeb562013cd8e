//! Hostage Chess perft beside FIDE chess, single-threaded with bulk
//! counting: from the start position (depth 5, target: hostage >= 0.5 x
//! chess) and from a position with full prisons and airfields (the
//! Parr-Pritchard game before 24...b4#, depth 3). Criterion measures each;
//! afterwards a short interleaved run prints nodes/s and the ratio.
//!
//! Run: `cargo bench -p heterodox-env --bench hostage`.

mod support;

use std::hint::black_box;

use heterodox_env::{perft, Hostage};
use support::{
    chess_depth5, criterion_group, median_nodes_per_second, print_ratio, start_perft, Contender,
};

const HOSTAGE_START_NODES: u64 = 4_865_877;
const FULL_RESERVES: &str =
    "r3k1nr/p4ppp/8/1p1qp3/P1p5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] b kq - 1 24";
const FULL_RESERVES_DEPTH: u32 = 3;
const FULL_RESERVES_NODES: u64 = 412_065;

fn hostage_full_reserves() -> u64 {
    let position = Hostage::from_fen(FULL_RESERVES).expect("valid");
    perft::perft(black_box(&position), FULL_RESERVES_DEPTH)
}

fn main() {
    let contenders = [
        Contender::new(
            "hostage_start_depth5",
            "hostage start (depth 5)",
            start_perft::<Hostage, 5>,
            HOSTAGE_START_NODES,
        ),
        chess_depth5("chess_start_depth5", "chess start (depth 5)"),
        Contender::new(
            "hostage_full_reserves_depth3",
            "hostage full reserves (depth 3)",
            hostage_full_reserves,
            FULL_RESERVES_NODES,
        ),
    ];
    criterion_group("hostage_perft", 6, &contenders);
    let rates = median_nodes_per_second("perft", &contenders, 7);
    print_ratio("hostage/chess at the start", rates[0] / rates[1], Some(0.5));
    print_ratio(
        "hostage full reserves/chess start",
        rates[2] / rates[1],
        None,
    );
}
