//! Mates in two and three, composed for chess, Hostage and Poison. Each is
//! checked twice: by the exhaustive search of `common` (the rules alone:
//! a forced mate of exactly that length, and the key moves that force
//! it), and by the engine, which must play a key and score the mate.

mod common;

use heterodox_engine::Score;
use heterodox_env::{Chess, GameVariant, Hostage, PoisonChess};

/// The composition has a shortest forced mate in `moves`, the keys are
/// exactly `keys`, and the engine at `depth` plays one and reports it.
fn check_mate<P: GameVariant>(pos: &P, moves: u32, keys: &[&str], depth: u32) {
    assert_eq!(
        common::shortest_mate(pos, moves),
        Some(moves),
        "{}",
        pos.fen()
    );
    let found: Vec<String> = common::mating_actions(pos, moves)
        .iter()
        .map(|a| pos.notation(a))
        .collect();
    assert_eq!(found, keys, "{}", pos.fen());
    let report = common::search(pos, depth);
    assert!(
        keys.contains(&pos.notation(&report.best).as_str()),
        "{}",
        pos.notation(&report.best)
    );
    assert_eq!(report.score, Score::Mate(moves as i32));
    assert_eq!(report.pv.len() as u32, 2 * moves - 1);
}

#[test]
fn chess_mate_in_two_doubled_rooks() {
    // 1.Rd8+ Rxd8 2.Rxd8#: the back rank, the black rook can only take.
    let pos = Chess::from_fen("r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1").unwrap();
    check_mate(&pos, 2, &["Rd8+"], 6);
}

#[test]
fn chess_mate_in_three_tripled_rooks() {
    // 1.Rd8+ Rxd8 2.Rxd8+ Rxd8 3.Rxd8#: three rooks against two.
    let pos = Chess::from_fen("rr4k1/5ppp/8/8/8/3R4/3R1PPP/3R2K1 w - - 0 1").unwrap();
    check_mate(&pos, 3, &["Rd8+"], 8);
}

#[test]
fn poison_mate_in_two_the_king_is_poisoned_and_frozen() {
    // 1.xHf8[e8,5]: the poisoned King cannot move (P4), so any check that
    // cannot be blocked or answered mates: 2.Ga8#, 2.Dxf7#, ...
    let pos = PoisonChess::from_fen("4kH2/3p1p1p/8/7h/8/8/8/G4DK1 w - - 0 1 -").unwrap();
    check_mate(&pos, 2, &["xHf8[e8,5]"], 6);
}

#[test]
fn poison_mate_in_three_the_cornered_king_is_poisoned() {
    // 1.xHh7[h8,5] freezes the King in the corner; the Doctor and Guard
    // then mate within two more moves whatever Black does.
    let pos = PoisonChess::from_fen("2h4k/p2ppp1H/8/8/8/3D4/4G3/1K1n4 w - - 0 1 -").unwrap();
    check_mate(&pos, 3, &["xHh7[h8,5]"], 8);
}

#[test]
fn hostage_mate_in_two_by_drops() {
    // 1.Q*b6+ Ka8 2.N*c7#: both pieces come from White's airfield.
    let pos = Hostage::from_fen("1k6/3p1p1p/8/8/6B1/8/7n/6K1[-/-/QN/-] w - - 0 1").unwrap();
    check_mate(&pos, 2, &["Q*b6+"], 6);
}

#[test]
fn hostage_mate_in_three_with_a_quiet_drop() {
    // 1.Ra8+ Nf8 2.Q*h6 (quiet: the queen guards f8 and g7, Rxf8# threatens).
    let pos = Hostage::from_fen("6k1/1pp2p2/R5n1/8/6N1/8/8/6K1[-/-/Q/-] w - - 0 1").unwrap();
    check_mate(&pos, 3, &["Ra8+"], 8);
}
