//! The Hostage Chess action space and observation
//! (env/src/hostage/encoding.rs, docs/encoding.md): the index is a
//! bijection on the legal actions of seeded random positions, hand-picked
//! actions (promotions naming the released piece, drops, exchanges, Black's
//! flipped) have the documented indices, and the observation planes hold
//! the exact documented values, full prisons included.

use heterodox_env::encoding::Encoding;
use heterodox_env::hostage::encoding::{EXCHANGE_PAIRS, NUM_ACTIONS};
use heterodox_env::hostage::exchange_value;
use heterodox_env::{Color, Hostage, HostageAction, Role, Square};

use crate::support;
use support::encoding::{
    check_fide_castling_indices, check_fide_start_indices, check_index_bijection_by_kind,
    constant_of, index, nonzero_squares, observation, plane,
};

const GAMES: u64 = 300;
const PLY_CAP: u32 = 200;
const DROPS: usize = 76 * 64;
const EXCHANGES: usize = DROPS + 5 * 64;

fn position(fen: &str) -> Hostage {
    Hostage::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn sizes_channel_names_and_the_exchange_table() {
    let pos = Hostage::new();
    assert_eq!(pos.num_actions(), 6208);
    assert_eq!(NUM_ACTIONS, 76 * 64 + 5 * 64 + 16 * 64);
    assert_eq!(pos.num_channels(), 42);
    let names = pos.channel_names();
    assert_eq!(names.len(), 42);
    // The first 20 planes are chess's.
    assert_eq!(names[..20], heterodox_env::chess::encoding::CHANNEL_NAMES);
    assert_eq!(names[4], "own_queen");
    assert_eq!(names[11], "their_king");
    assert_eq!(names[16], "en_passant");
    assert_eq!(names[20], "own_king_unmoved");
    assert_eq!(names[21], "their_king_unmoved");
    assert_eq!(names[22], "own_prison_pawn");
    assert_eq!(names[31], "own_airfield_queen");
    assert_eq!(names[41], "their_airfield_queen");
    // Exactly the pairs the value order allows, each once.
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let mut allowed = Vec::new();
    for given in roles {
        for rescued in roles {
            if exchange_value(given) >= exchange_value(rescued) {
                allowed.push((given, rescued));
            }
        }
    }
    assert_eq!(EXCHANGE_PAIRS.to_vec(), allowed);
}

#[test]
fn index_is_a_bijection_on_the_legal_actions_of_random_positions() {
    // Moves, castles, promotions, drops, exchanges: every part is seen.
    let positions = check_index_bijection_by_kind::<_, 5>(
        0..GAMES,
        |_| Hostage::new(),
        PLY_CAP,
        |action| match action {
            HostageAction::Move(m) if m.is_castle() => 1,
            HostageAction::Move(m) if m.promotion().is_some() => 2,
            HostageAction::Move(_) => 0,
            HostageAction::Drop { .. } => 3,
            HostageAction::Exchange { .. } => 4,
        },
    );
    assert!(positions > 20_000, "{positions}");
}

#[test]
fn start_position_indices_and_the_flip_for_black() {
    check_fide_start_indices(Hostage::new());
}

/// White: King e1, pawn e7, one Knight in its airfield, the other men in
/// Black's prison; Black: King a8, every other man in White's prison.
const WHITE_TO_ACT: &str = "k7/4P3/8/8/8/8/8/4K3[qrrbbnnpppppppp/QRRBBNPPPPPPP/N/-] w - - 0 1";

/// White: King e1, every other man in Black's prison; Black: King a8, one
/// Knight in its airfield, the others in White's prison.
const BLACK_TO_ACT: &str = "k7/8/8/8/8/8/8/4K3[qrrbbnpppppppp/QRRBBNNPPPPPPPP/-/n] b - - 3 1";

#[test]
fn promotions_name_the_released_piece() {
    let pos = position(WHITE_TO_ACT);
    // Plane 64 + 4 * direction + piece (N 0, B 1, R 2, Q 3; straight 1),
    // from e7 = 52. No promotion rides the queen-like planes.
    assert_eq!(index(&pos, "e7e8q"), 71 * 64 + 52);
    assert_eq!(index(&pos, "e7e8r"), 70 * 64 + 52);
    assert_eq!(index(&pos, "e7e8b"), 69 * 64 + 52);
    assert_eq!(index(&pos, "e7e8n"), 68 * 64 + 52);
}

#[test]
fn drops_and_exchanges() {
    let pos = position(WHITE_TO_ACT);
    // Drop: 4864 + type * 64 + square (N = 1, f3 = 21).
    assert_eq!(index(&pos, "N@f3"), DROPS + 64 + 21);
    // Exchange: 5184 + pair * 64 + square. R given for B (pair 9) on c4.
    assert_eq!(index(&pos, "R-B@c4"), EXCHANGES + 9 * 64 + 26);
    // Q for Q (pair 15) on d5; P for P (pair 0) on a2.
    assert_eq!(index(&pos, "Q-Q@d5"), EXCHANGES + 15 * 64 + 35);
    assert_eq!(index(&pos, "P-P@a2"), EXCHANGES + 8);
    // Black's drop on f6 is f3 from its side; its Q-for-R exchange (pair
    // 14) on d5 lands on d4 (27) from its side.
    let pos = position(BLACK_TO_ACT);
    assert_eq!(index(&pos, "N@f6"), DROPS + 64 + 21);
    assert_eq!(index(&pos, "Q-R@d5"), EXCHANGES + 14 * 64 + 27);
    // Drops of the King and forbidden exchanges are no action of any
    // position: they get the out-of-range index.
    let king_drop = HostageAction::Drop {
        role: Role::King,
        to: Square::A1,
    };
    assert_eq!(pos.action_index(&king_drop), NUM_ACTIONS);
    let upward = HostageAction::Exchange {
        given: Role::Pawn,
        rescued: Role::Queen,
        to: Square::A1,
    };
    assert_eq!(pos.action_index(&upward), NUM_ACTIONS);
}

#[test]
fn castling_is_the_kings_two_square_step() {
    check_fide_castling_indices(
        &position("r3k2r/8/8/8/8/8/8/R3K2R[qbbnnpppppppp/QBBNNPPPPPPPP/-/-] w KQkq - 0 1"),
        &position("r3k2r/8/8/8/8/8/8/R3K2R[qbbnnpppppppp/QBBNNPPPPPPPP/-/-] b KQkq - 0 1"),
    );
}

#[test]
fn start_position_observation() {
    let pos = Hostage::new();
    let white = observation(&pos, Color::White);
    assert_eq!(
        nonzero_squares(plane(&pos, &white, "own_pawn")),
        (8..16).collect::<Vec<_>>()
    );
    assert_eq!(nonzero_squares(plane(&pos, &white, "own_queen")), [3]);
    assert_eq!(nonzero_squares(plane(&pos, &white, "their_queen")), [59]);
    assert_eq!(nonzero_squares(plane(&pos, &white, "their_king")), [60]);
    assert_eq!(
        nonzero_squares(plane(&pos, &white, "en_passant")),
        [] as [usize; 0]
    );
    for name in [
        "own_kingside_castling",
        "own_queenside_castling",
        "their_kingside_castling",
        "their_queenside_castling",
        "own_king_unmoved",
        "their_king_unmoved",
        "side_to_move",
        "ones",
    ] {
        assert_eq!(constant_of(&pos, &white, name), 1.0, "{name}");
    }
    assert_eq!(constant_of(&pos, &white, "no_progress"), 0.0);
    for c in 22..42 {
        assert_eq!(constant_of(&pos, &white, &pos.channel_names()[c]), 0.0);
    }
    // Black sees its Queen on d8 as d1 and White's on d1 as d8.
    let black = observation(&pos, Color::Black);
    assert_eq!(nonzero_squares(plane(&pos, &black, "own_queen")), [3]);
    assert_eq!(nonzero_squares(plane(&pos, &black, "their_queen")), [59]);
    assert_eq!(constant_of(&pos, &black, "side_to_move"), 1.0);
    assert_eq!(white, black);
}

#[test]
fn full_prisons_and_airfields_are_normalised_counts() {
    let pos = position(BLACK_TO_ACT);
    let white = observation(&pos, Color::White);
    // White's prison: 8 pawns, 1 knight (the other is in Black's airfield),
    // 2 bishops, 2 rooks, the queen.
    let own_prison: Vec<f32> = ["pawn", "knight", "bishop", "rook", "queen"]
        .iter()
        .map(|r| constant_of(&pos, &white, &format!("own_prison_{r}")))
        .collect();
    assert_eq!(own_prison, [1.0, 0.5, 1.0, 1.0, 1.0]);
    for r in ["pawn", "knight", "bishop", "rook", "queen"] {
        assert_eq!(constant_of(&pos, &white, &format!("their_prison_{r}")), 1.0);
        assert_eq!(constant_of(&pos, &white, &format!("own_airfield_{r}")), 0.0);
    }
    assert_eq!(constant_of(&pos, &white, "their_airfield_knight"), 0.5);
    assert_eq!(constant_of(&pos, &white, "their_airfield_pawn"), 0.0);
    assert_eq!(constant_of(&pos, &white, "side_to_move"), 0.0);
    assert_eq!(constant_of(&pos, &white, "no_progress"), 0.03);
    assert_eq!(constant_of(&pos, &white, "own_king_unmoved"), 0.0);
    assert_eq!(constant_of(&pos, &white, "own_kingside_castling"), 0.0);
    assert_eq!(nonzero_squares(plane(&pos, &white, "own_king")), [4]);
    assert_eq!(nonzero_squares(plane(&pos, &white, "their_king")), [56]);
    // Black's view swaps the sides and flips the board.
    let black = observation(&pos, Color::Black);
    assert_eq!(constant_of(&pos, &black, "own_airfield_knight"), 0.5);
    assert_eq!(constant_of(&pos, &black, "their_prison_knight"), 0.5);
    assert_eq!(constant_of(&pos, &black, "own_prison_pawn"), 1.0);
    assert_eq!(nonzero_squares(plane(&pos, &black, "own_king")), [0]);
    assert_eq!(nonzero_squares(plane(&pos, &black, "their_king")), [60]);
    // A partly filled airfield: 8 pawns count 1, 1 of 2 knights 0.5.
    let pos = position(WHITE_TO_ACT);
    let white = observation(&pos, Color::White);
    assert_eq!(constant_of(&pos, &white, "own_airfield_knight"), 0.5);
    assert_eq!(constant_of(&pos, &white, "their_prison_pawn"), 7.0 / 8.0);
    assert_eq!(constant_of(&pos, &white, "their_prison_knight"), 0.5);
}
