//! The Poison Chess action space and observation (env/src/poison/encoding.rs,
//! docs/encoding.md): the index is a bijection on the legal actions of
//! seeded random positions, hand-picked actions have the documented
//! indices (Black's flipped), and the observation planes hold the exact
//! documented values.

use heterodox_env::encoding::Encoding;
use heterodox_env::poison::encoding::NUM_ACTIONS;
use heterodox_env::{Color, Move, PoisonAction, PoisonChess, Position, Role, Square};

use crate::support;
use support::encoding::{
    check_fide_castling_indices, check_fide_start_indices, check_index_bijection_by_kind,
    constant_of, index, nonzero, observation, plane,
};

const GAMES: u64 = 400;
const PLY_CAP: u32 = 200;

fn position(fen: &str) -> PoisonChess {
    PoisonChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn sizes_and_channel_names() {
    let pos = PoisonChess::new();
    assert_eq!(pos.num_actions(), 90 * 64);
    assert_eq!(NUM_ACTIONS, 5760);
    assert_eq!(pos.num_channels(), 28);
    let names = pos.channel_names();
    assert_eq!(names.len(), 28);
    assert_eq!(names[0], "own_pawn");
    assert_eq!(names[7], "own_guard");
    assert_eq!(names[8], "their_pawn");
    assert_eq!(names[13], "their_harpy");
    assert_eq!(
        &names[16..],
        [
            "own_countdown",
            "their_countdown",
            "own_frozen",
            "their_frozen",
            "own_kingside_castling",
            "own_queenside_castling",
            "their_kingside_castling",
            "their_queenside_castling",
            "en_passant",
            "no_progress",
            "side_to_move",
            "ones",
        ]
    );
}

#[test]
fn index_is_a_bijection_on_the_legal_actions_of_random_positions() {
    // Moves, promotions, underpromotions, castles, poisonings, cures,
    // self-cures: every section of the space is exercised.
    let positions = check_index_bijection_by_kind::<_, 7>(
        0..GAMES,
        |_| PoisonChess::new(),
        PLY_CAP,
        |action| match action {
            PoisonAction::Move(m) if m.is_castle() => 3,
            PoisonAction::Move(m) => match m.promotion() {
                None => 0,
                Some(Role::Guard) => 1,
                Some(_) => 2,
            },
            PoisonAction::Poison { .. } => 4,
            PoisonAction::Cure { doctor, target } if doctor == target => 6,
            PoisonAction::Cure { .. } => 5,
        },
    );
    assert!(positions > 20_000, "{positions}");
}

#[test]
fn start_position_indices_and_the_flip_for_black() {
    check_fide_start_indices(PoisonChess::new());
}

#[test]
fn poisonings_cures_and_self_cures() {
    // White Harpy e5 poisons the pawn on f5: poison plane 73 + east (2),
    // square e5 = 36.
    let pos = position("4k3/8/8/4Hp2/8/8/8/4K3 w - - 0 1 -");
    assert_eq!(index(&pos, "e5*f5"), 75 * 64 + 36);
    // The same Harpy's move to e6 is a queen-like move (north, 1).
    assert_eq!(index(&pos, "e5e6"), 36);
    // Black Harpy e4 poisons the pawn on e3: from Black's side the Harpy is
    // on e5 (36) and the target straight ahead (north, plane 73).
    let pos = position("4k3/8/8/8/4h3/4P3/8/4K3 b - - 0 1 -");
    assert_eq!(index(&pos, "e4*e3"), 73 * 64 + 36);
    // The Doctor on g6 cures the Knight on g5: cure plane 81 + south (4),
    // square g6 = 46.
    let pos = position("k7/8/6D1/6N1/8/8/8/4K3 w - - 0 1 g5:3");
    assert_eq!(index(&pos, "g6~g5"), 85 * 64 + 46);
    // A poisoned Doctor on d1 cures itself: plane 89, square d1 = 3.
    let pos = position("k7/8/8/8/8/8/8/3DK3 w - - 0 1 d1:2");
    assert_eq!(index(&pos, "d1~d1"), 89 * 64 + 3);
    // The same for Black's Doctor on d8 (d1 from Black's side).
    let pos = position("3dk3/8/8/8/8/8/8/K7 b - - 0 1 d8:2");
    assert_eq!(index(&pos, "d8~d8"), 89 * 64 + 3);
}

#[test]
fn promotions_and_castling() {
    let pos = position("k2n4/4P3/8/8/8/8/8/4K3 w - - 0 1 -");
    // Guard promotions ride the queen-like planes: north 1 (plane 0) and
    // north-west 1 (plane 7 * 7 = 49), from e7 = 52.
    assert_eq!(index(&pos, "e7e8g"), 52);
    assert_eq!(index(&pos, "e7d8g"), 49 * 64 + 52);
    // Underpromotions as in chess: plane 64 + 3 * direction + piece (N 0,
    // B 1, R 2; towards the a-file 0, straight 1).
    assert_eq!(index(&pos, "e7e8r"), 69 * 64 + 52);
    assert_eq!(index(&pos, "e7e8b"), 68 * 64 + 52);
    assert_eq!(index(&pos, "e7d8n"), 64 * 64 + 52);
    // Castling is the king's two-square step, as in chess.
    check_fide_castling_indices(
        &position("h3k2h/8/8/8/8/8/8/H3K2H w KQkq - 0 1 -"),
        &position("h3k2h/8/8/8/8/8/8/H3K2H b KQkq - 0 1 -"),
    );
}

#[test]
fn impossible_actions_get_the_out_of_range_index() {
    let pos = PoisonChess::new();
    let off_line = PoisonAction::Move(Move::Normal {
        role: Role::Knight,
        from: Square::A1,
        capture: None,
        to: Square::from_coords(heterodox_env::File::B, heterodox_env::Rank::FOURTH),
        promotion: None,
    });
    assert_eq!(pos.action_index(&off_line), NUM_ACTIONS);
    let far_poison = PoisonAction::Poison {
        harpy: Square::A1,
        target: Square::H1,
    };
    assert_eq!(pos.action_index(&far_poison), NUM_ACTIONS);
}

#[test]
fn start_position_observation() {
    let pos = PoisonChess::new();
    let white = observation(&pos, Color::White);
    let pawns: Vec<(usize, f32)> = (8..16).map(|i| (i, 1.0)).collect();
    assert_eq!(nonzero(plane(&pos, &white, "own_pawn")), pawns);
    assert_eq!(
        nonzero(plane(&pos, &white, "own_harpy")),
        [(0, 1.0), (7, 1.0)]
    );
    assert_eq!(nonzero(plane(&pos, &white, "own_doctor")), [(3, 1.0)]);
    assert_eq!(nonzero(plane(&pos, &white, "their_doctor")), [(59, 1.0)]);
    assert_eq!(nonzero(plane(&pos, &white, "own_guard")), []);
    for name in ["own_countdown", "their_frozen", "en_passant", "no_progress"] {
        assert_eq!(nonzero(plane(&pos, &white, name)), [], "{name}");
    }
    for name in [
        "own_kingside_castling",
        "their_queenside_castling",
        "side_to_move",
    ] {
        assert!(
            plane(&pos, &white, name).iter().all(|v| *v == 1.0),
            "{name}"
        );
    }
    // Black sees its own Doctor on d8 as d1, and White's on d1 as d8.
    let black = observation(&pos, Color::Black);
    assert_eq!(nonzero(plane(&pos, &black, "own_doctor")), [(3, 1.0)]);
    assert_eq!(nonzero(plane(&pos, &black, "their_doctor")), [(59, 1.0)]);
    assert_eq!(nonzero(plane(&pos, &black, "own_pawn")), pawns);
    // Side to move is absolute: White is to move.
    assert_eq!(constant_of(&pos, &black, "side_to_move"), 1.0);
    // Every plane of the two views: piece planes swap, the rest is equal.
    assert_eq!(white[..8 * 64], black[..8 * 64]);
}

#[test]
fn poisoned_pieces_show_countdowns_and_frozen_planes() {
    // White's Knight g5 (counter 3) and Black's pawn b7 (counter 5) are
    // poisoned; 7 half-moves without progress; Black to move; White has
    // only its kingside castling right.
    let pos = position("h3k3/1p6/6D1/6N1/8/8/8/4K2H b K - 7 9 g5:3,b7:5");
    let white = observation(&pos, Color::White);
    let black = observation(&pos, Color::Black);
    // Each poison plane in both views: White sees the Knight on g5 (38)
    // and the pawn on b7 (49); Black sees its pawn b7 as b2 (9) and the
    // Knight g5 as g4 (30).
    for (name, seen_by_white, seen_by_black) in [
        ("own_countdown", (38, 0.6), (9, 1.0)),
        ("their_countdown", (49, 1.0), (30, 0.6)),
        ("own_frozen", (38, 1.0), (9, 1.0)),
        ("their_frozen", (49, 1.0), (30, 1.0)),
    ] {
        assert_eq!(
            nonzero(plane(&pos, &white, name)),
            [seen_by_white],
            "{name}"
        );
        assert_eq!(
            nonzero(plane(&pos, &black, name)),
            [seen_by_black],
            "{name}"
        );
    }
    assert_eq!(constant_of(&pos, &white, "no_progress"), 0.07);
    assert_eq!(constant_of(&pos, &white, "own_kingside_castling"), 1.0);
    assert_eq!(constant_of(&pos, &white, "own_queenside_castling"), 0.0);
    assert_eq!(constant_of(&pos, &white, "their_queenside_castling"), 0.0);
    assert_eq!(constant_of(&pos, &white, "side_to_move"), 0.0);
    assert_eq!(constant_of(&pos, &black, "their_kingside_castling"), 1.0);
    assert_eq!(constant_of(&pos, &black, "own_kingside_castling"), 0.0);
}

#[test]
fn en_passant_square_is_flipped_for_black() {
    // After 1.e4 (a black pawn on d4 can take) the en passant square is e3.
    let mut pos = position("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 -");
    pos.play(&pos.parse_action("e2e4").unwrap()).unwrap();
    assert_eq!(
        pos.ep_square(),
        Some(Square::from_coords(
            heterodox_env::File::E,
            heterodox_env::Rank::THIRD
        ))
    );
    let black = observation(&pos, Color::Black);
    // e3 seen from Black is e6 = 44.
    assert_eq!(nonzero(plane(&pos, &black, "en_passant")), [(44, 1.0)]);
    let white = observation(&pos, Color::White);
    assert_eq!(nonzero(plane(&pos, &white, "en_passant")), [(20, 1.0)]);
    // d4xe3 en passant from Black's side: d5 (35) to e6, north-east 1.
    assert_eq!(index(&pos, "d4e3"), 7 * 64 + 35);
}
