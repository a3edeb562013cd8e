//! Mates in two and three, composed for chess, Hostage and Poison. Each is
//! checked twice: by the exhaustive search of `support` (the rules alone:
//! a forced mate of exactly that length, and the key moves that force
//! it), and by the engine, which must play a key and score the mate.

use crate::support;

use heterodox_engine::Score;
use heterodox_env::{Chess, GameVariant, Hostage, PoisonChess};

/// The composition `fen` has a shortest forced mate in `moves`, the keys
/// are exactly `keys`, and the engine at `depth` plays one and reports it.
fn check_mate<P: GameVariant<Rules = ()>>(fen: &str, moves: u32, keys: &[&str], depth: u32) {
    let pos = P::from_position_string(fen, &()).unwrap();
    let pos = &pos;
    assert_eq!(
        support::shortest_mate(pos, moves),
        Some(moves),
        "{}",
        pos.fen()
    );
    let found: Vec<String> = support::mating_actions(pos, moves)
        .iter()
        .map(|a| pos.notation(a))
        .collect();
    assert_eq!(found, keys, "{}", pos.fen());
    let report = support::search(pos, depth);
    assert!(
        keys.contains(&pos.notation(&report.best).as_str()),
        "{}",
        pos.notation(&report.best)
    );
    assert_eq!(report.score, Score::Mate(moves as i32));
    assert_eq!(report.pv.len() as u32, 2 * moves - 1);
}

/// [`check_mate`] for each `(fen, moves, keys, depth)` of variant `P`.
fn check_mates<P: GameVariant<Rules = ()>>(cases: &[(&str, u32, &[&str], u32)]) {
    for &(fen, moves, keys, depth) in cases {
        check_mate::<P>(fen, moves, keys, depth);
    }
}

#[test]
fn composed_mates_in_two_and_three() {
    check_mates::<Chess>(&[
        // 1.Rd8+ Rxd8 2.Rxd8#: the back rank, the black rook can only take.
        ("r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2, &["Rd8+"], 6),
        // 1.Rd8+ Rxd8 2.Rxd8+ Rxd8 3.Rxd8#: three rooks against two.
        (
            "rr4k1/5ppp/8/8/8/3R4/3R1PPP/3R2K1 w - - 0 1",
            3,
            &["Rd8+"],
            8,
        ),
    ]);
    check_mates::<PoisonChess>(&[
        // 1.xHf8[e8,5]: the poisoned King cannot move (P4), so any check
        // that cannot be blocked or answered mates: 2.Ga8#, 2.Dxf7#, ...
        (
            "4kH2/3p1p1p/8/7h/8/8/8/G4DK1 w - - 0 1 -",
            2,
            &["xHf8[e8,5]"],
            6,
        ),
        // 1.xHh7[h8,5] freezes the King in the corner; the Doctor and Guard
        // then mate within two more moves whatever Black does.
        (
            "2h4k/p2ppp1H/8/8/8/3D4/4G3/1K1n4 w - - 0 1 -",
            3,
            &["xHh7[h8,5]"],
            8,
        ),
    ]);
    check_mates::<Hostage>(&[
        // 1.Q*b6+ Ka8 2.N*c7#: both pieces come from White's airfield.
        (
            "1k6/3p1p1p/8/8/6B1/8/7n/6K1[-/-/QN/-] w - - 0 1",
            2,
            &["Q*b6+"],
            6,
        ),
        // 1.Ra8+ Nf8 2.Q*h6 (quiet: the queen guards f8 and g7, Rxf8#
        // threatens).
        (
            "6k1/1pp2p2/R5n1/8/6N1/8/8/6K1[-/-/Q/-] w - - 0 1",
            3,
            &["Ra8+"],
            8,
        ),
    ]);
}
