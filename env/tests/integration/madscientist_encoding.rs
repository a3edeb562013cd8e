//! The Mad Scientist action space and observation
//! (env/src/madscientist/encoding.rs, docs/encoding.md): the index is a
//! bijection on the legal actions of seeded random positions, hand-picked
//! actions (rider moves, promotions, the Scientist's powers, discards,
//! Black's flipped) have the documented indices, and the observation
//! planes hold the documented values.

use heterodox_env::encoding::Encoding;
use heterodox_env::madscientist::encoding::{
    ANIMATE_OFFSET, ATTACH_OFFSET, DISCARD_OFFSET, NUM_ACTIONS, NUM_CHANNELS, PROMOTION_OFFSET,
    REMOVE_OFFSET,
};
use heterodox_env::{Color, MadScientist, Position};

use crate::support;
use support::encoding::{
    check_index_bijection, check_side_planes, constant, index, nonzero, observation, plane,
};

const GAMES: u64 = 1000;
const PLY_CAP: u32 = 200;

fn position(fen: &str) -> MadScientist {
    MadScientist::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn sizes_and_channel_names() {
    assert_eq!(PROMOTION_OFFSET, 4096);
    assert_eq!(ANIMATE_OFFSET, 4096 + 768);
    assert_eq!(ATTACH_OFFSET, 5120);
    assert_eq!(REMOVE_OFFSET, 5376);
    assert_eq!(DISCARD_OFFSET, 5632);
    assert_eq!(NUM_ACTIONS, 5636);
    let pos = MadScientist::new();
    assert_eq!(pos.num_actions(), 5636);
    assert_eq!(pos.num_channels(), 29);
    let names = pos.channel_names();
    assert_eq!(names.len(), 29);
    assert_eq!(names[0], "own_wazir");
    assert_eq!(names[7], "opp_barc");
    assert_eq!(names[11], "opp_scientist");
    assert_eq!(names[12], "own_hand_wazir");
    assert_eq!(names[20], "pending_discards");
    assert_eq!(names[28], "observer_is_black");
}

#[test]
fn index_is_a_bijection_on_legal_actions_of_random_positions() {
    let mut powers = 0;
    let mut discards = 0;
    let positions = check_index_bijection(
        0..GAMES,
        |_| MadScientist::new(),
        PLY_CAP,
        |_, i| {
            if i >= DISCARD_OFFSET {
                discards += 1;
            } else if i >= ANIMATE_OFFSET {
                powers += 1;
            }
        },
    );
    assert!(positions > 100_000, "{positions} positions");
    assert!(powers > 100_000, "{powers} Scientist powers");
    assert!(discards > 1_000, "{discards} discards");
}

#[test]
fn board_move_indices_by_hand() {
    let mut pos = MadScientist::new();
    // to * 64 + from: e2e4 = 28 * 64 + 12.
    assert_eq!(index(&pos, "e2e4"), 28 * 64 + 12);
    assert_eq!(index(&pos, "b1c3"), 18 * 64 + 1);
    pos.play(&pos.parse_action("e2e4").unwrap()).unwrap();
    // Black's e7e5 is e2e4 from Black's side; b8c6 is b1c3.
    assert_eq!(index(&pos, "e7e5"), 28 * 64 + 12);
    assert_eq!(index(&pos, "b8c6"), 18 * 64 + 1);
    // A Crab rider (two Crabs) rides (+1, +2) from d1 to g7.
    let rider = position("4k3/8/8/8/8/8/8/3[CC]K3 w - - - 0 1");
    assert_eq!(index(&rider, "d1g7"), 54 * 64 + 3);
    assert_eq!(index(&rider, "d1e3"), 20 * 64 + 3);
    // Black's Crab rider rides toward rank 1: flipped, the same indices.
    let black_rider = position("3[cc]k3/8/8/8/8/8/8/4K3 b - - - 0 1");
    assert_eq!(index(&black_rider, "d8g2"), 54 * 64 + 3);
    // Castling is the Scientist's two-square move.
    let castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - - 0 1");
    assert_eq!(index(&castle, "e1g1"), 6 * 64 + 4);
    assert_eq!(index(&castle, "e1c1"), 2 * 64 + 4);
}

#[test]
fn promotion_indices_by_hand() {
    let white = position("n3k3/1P6/8/8/8/8/8/4K3 w - - - 0 1");
    // ((file delta + 1) * 4 + [Q R B N]) * 64 + from (b7 = 49).
    assert_eq!(index(&white, "b7b8q"), PROMOTION_OFFSET + 4 * 64 + 49);
    assert_eq!(index(&white, "b7b8n"), PROMOTION_OFFSET + 7 * 64 + 49);
    assert_eq!(index(&white, "b7a8r"), PROMOTION_OFFSET + 64 + 49);
    let black = position("4k3/8/8/8/8/8/6p1/4K2N b - - - 0 1");
    // g2 is g7 (54) from Black's side; g2xh1 is a capture to the right.
    assert_eq!(index(&black, "g2g1r"), PROMOTION_OFFSET + 5 * 64 + 54);
    assert_eq!(index(&black, "g2h1b"), PROMOTION_OFFSET + 10 * 64 + 54);
}

#[test]
fn scientist_power_and_discard_indices_by_hand() {
    let animate = position("4k3/8/8/8/8/8/8/4K3 w - - WC 0 1");
    assert_eq!(index(&animate, "W@e2"), ANIMATE_OFFSET + 12);
    assert_eq!(index(&animate, "C@d1"), ANIMATE_OFFSET + 2 * 64 + 3);
    let black = position("4k3/8/8/8/8/8/8/4K3 b - - c 0 1");
    // Black's e7 is its e2.
    assert_eq!(index(&black, "C@e7"), ANIMATE_OFFSET + 2 * 64 + 12);
    let attach = position("4k3/8/8/8/8/8/8/3RK3 w - - F 0 1");
    assert_eq!(index(&attach, "F+d1"), ATTACH_OFFSET + 64 + 3);
    assert_eq!(index(&attach, "W-d1"), REMOVE_OFFSET + 3);
    let black_remove = position("3rk3/8/8/8/8/8/8/4K3 b - - - 0 1");
    assert_eq!(index(&black_remove, "W-d8"), REMOVE_OFFSET + 3);
    let discard = position("4k3/8/8/8/8/8/8/4K3 w - - WWWWFFFFB 0 1");
    assert_eq!(index(&discard, "-W"), DISCARD_OFFSET);
    assert_eq!(index(&discard, "-B"), DISCARD_OFFSET + 3);
    let mut actions = Vec::new();
    discard.legal_actions(&mut actions);
    assert_eq!(actions.len(), 3);
}

#[test]
fn start_position_observation() {
    let pos = MadScientist::new();
    for observer in [Color::White, Color::Black] {
        let obs = observation(&pos, observer);
        // Rooks a1, h1 and the queen d1 hold two Wazirs each.
        assert_eq!(
            nonzero(plane(&pos, &obs, "own_wazir")),
            [(0, 1.0), (3, 1.0), (7, 1.0)]
        );
        // Knights: one Crab, one Barc.
        assert_eq!(nonzero(plane(&pos, &obs, "own_crab")), [(1, 0.5), (6, 0.5)]);
        assert_eq!(
            nonzero(plane(&pos, &obs, "opp_barc")),
            [(57, 0.5), (62, 0.5)]
        );
        assert_eq!(
            nonzero(plane(&pos, &obs, "opp_ferz")),
            [(58, 1.0), (59, 1.0), (61, 1.0)]
        );
        assert_eq!(
            nonzero(plane(&pos, &obs, "own_pawn")),
            (8..16).map(|i| (i, 1.0)).collect::<Vec<_>>()
        );
        assert_eq!(nonzero(plane(&pos, &obs, "own_scientist")), [(4, 1.0)]);
        assert_eq!(nonzero(plane(&pos, &obs, "opp_scientist")), [(60, 1.0)]);
        for name in [
            "own_hand_wazir",
            "opp_hand_barc",
            "pending_discards",
            "no_progress",
        ] {
            assert_eq!(constant(plane(&pos, &obs, name)), 0.0, "{name}");
        }
        assert!(nonzero(plane(&pos, &obs, "en_passant")).is_empty());
        assert_eq!(constant(plane(&pos, &obs, "own_castle_king_side")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "opp_castle_queen_side")), 1.0);
        check_side_planes(&pos, &obs, observer);
    }
}

#[test]
fn hands_parts_and_discards_observation() {
    // White (to act) holds 2 W, 4 F, 3 C: nine parts, one to discard.
    // Black holds two Barcs and a [wfc] piece on d8; White a [CCB] on b3.
    let pos = position("3[wfc]k3/8/8/8/8/1[CCB]6/8/4K3 w - - WWFFFFCCCbb 7 20");
    let white = observation(&pos, Color::White);
    assert_eq!(nonzero(plane(&pos, &white, "own_crab")), [(17, 1.0)]);
    assert_eq!(nonzero(plane(&pos, &white, "own_barc")), [(17, 0.5)]);
    assert_eq!(nonzero(plane(&pos, &white, "opp_wazir")), [(59, 0.5)]);
    assert_eq!(nonzero(plane(&pos, &white, "opp_crab")), [(59, 0.5)]);
    assert!(nonzero(plane(&pos, &white, "opp_barc")).is_empty());
    assert_eq!(constant(plane(&pos, &white, "own_hand_wazir")), 0.125);
    assert_eq!(constant(plane(&pos, &white, "own_hand_ferz")), 0.25);
    assert_eq!(constant(plane(&pos, &white, "own_hand_crab")), 0.1875);
    assert_eq!(constant(plane(&pos, &white, "own_hand_barc")), 0.0);
    assert_eq!(constant(plane(&pos, &white, "opp_hand_barc")), 0.125);
    assert_eq!(constant(plane(&pos, &white, "pending_discards")), 0.125);
    assert_eq!(constant(plane(&pos, &white, "no_progress")), 0.07);
    assert_eq!(constant(plane(&pos, &white, "own_castle_king_side")), 0.0);
    // Black sees the same facts from its side.
    let black = observation(&pos, Color::Black);
    assert_eq!(nonzero(plane(&pos, &black, "own_ferz")), [(3, 0.5)]);
    assert_eq!(nonzero(plane(&pos, &black, "opp_crab")), [(41, 1.0)]);
    assert_eq!(constant(plane(&pos, &black, "own_hand_barc")), 0.125);
    assert_eq!(constant(plane(&pos, &black, "opp_hand_ferz")), 0.25);
    assert_eq!(constant(plane(&pos, &black, "pending_discards")), 0.125);
    assert_eq!(constant(plane(&pos, &black, "observer_to_act")), 0.0);
    // En passant, from Black's side: White's d2-d4 next to Black's e4 pawn.
    let ep = position("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 - 0 1");
    let black = observation(&ep, Color::Black);
    assert_eq!(nonzero(plane(&ep, &black, "en_passant")), [(43, 1.0)]);
    assert_eq!(index(&ep, "e4d3"), 43 * 64 + 36);
}

#[test]
fn batched_environment() {
    use heterodox_env::{make_batch_env, EnvConfig, RuleOptions, Variant};
    let env = make_batch_env(
        Variant::MadScientist,
        &RuleOptions::new(),
        EnvConfig::new(2),
    )
    .unwrap();
    assert_eq!(env.num_actions(), NUM_ACTIONS);
    assert_eq!(env.observation_shape(), [NUM_CHANNELS + 2, 8, 8]);
    // 20 FIDE moves and three removes (W-d1, F-d1, F-f1).
    assert_eq!(env.legal_moves(0).unwrap().len(), 23);
    let mut options = RuleOptions::new();
    options.set("mode", "traitor");
    assert!(make_batch_env(Variant::MadScientist, &options, EnvConfig::new(1)).is_err());
}
