//! Poison FEN (the seventh field of poisoned squares and counters), typed
//! errors for bad position strings, repetition keys that include the
//! counters, and exact depth-1 action lists of perft positions.

use crate::support;

use heterodox_env::{AnyGame, Color, FenError, PoisonChess, Position, PositionError, Variant};
use support::rules::{legal_long, sorted, sq};

fn poison_err(text: &str, reason: &str) -> FenError {
    FenError::VariantField {
        field: "poison",
        text: text.to_owned(),
        reason: reason.to_owned(),
    }
}

#[test]
fn fen_round_trips_with_the_poison_field() {
    for fen in [
        "hnbdkbnh/pppppppp/8/8/8/8/PPPPPPPP/HNBDKBNH w KQkq - 0 1 -",
        "h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2",
        "4k2h/8/8/8/8/8/3h4/H3K2H w KQk - 0 1 d2:1",
        "2G1k3/8/8/8/8/8/8/R3K3 b - - 12 40 -",
    ] {
        assert_eq!(PoisonChess::from_fen(fen).unwrap().fen(), fen);
    }
    // Items are written in square order (a1 first), whatever the input.
    let p =
        PoisonChess::from_fen("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 d6:2,g1:4").unwrap();
    assert_eq!(p.fen().split(' ').nth(6), Some("g1:4,d6:2"));
    assert_eq!(
        p.poisoned(Color::White),
        std::iter::once(sq("g1")).collect()
    );
    assert_eq!(p.counter(sq("d6")), Some(2));
    // Four to six fields: a position without poison.
    let p = PoisonChess::from_fen("hnbdkbnh/pppppppp/8/8/8/8/PPPPPPPP/HNBDKBNH w KQkq -").unwrap();
    assert_eq!(p, PoisonChess::new());
}

#[test]
fn bad_position_strings_are_typed_errors() {
    let base = "4k3/8/8/5n2/8/8/8/4K3 w - - 0 1";
    let cases = [
        (
            "f5:6",
            poison_err("f5:6", "counter '6' on f5 is out of range 1 to 5"),
        ),
        (
            "f5:0",
            poison_err("f5:0", "counter '0' on f5 is out of range 1 to 5"),
        ),
        (
            "f5:05",
            poison_err("f5:05", "counter '05' on f5 is out of range 1 to 5"),
        ),
        ("f4:3", poison_err("f4:3", "poison on the empty square f4")),
        ("f5:3,f5:2", poison_err("f5:3,f5:2", "f5 is listed twice")),
        ("z9:3", poison_err("z9:3", "'z9' is not a square")),
        (
            "f5-3",
            poison_err("f5-3", "item 'f5-3' is not <square>:<counter> (e.g. f5:5)"),
        ),
    ];
    for (field, error) in cases {
        let fen = format!("{base} {field}");
        assert_eq!(PoisonChess::from_fen(&fen), Err(error), "{fen}");
    }
    assert_eq!(
        PoisonChess::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 -"),
        Err(FenError::Board {
            field: "4k3/8/8/8/8/8/8/3QK3".into(),
            reason: "unknown piece letter 'Q' on rank 1".into()
        })
    );
    assert_eq!(
        PoisonChess::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 -"),
        Err(FenError::Position(PositionError::BadCastlingRight {
            color: Color::White,
            rook: sq("a1")
        }))
    );
    assert_eq!(
        PoisonChess::from_fen("4k3/8/8/8/8/8/8/4R2K w - - 0 1 -"),
        Err(FenError::Position(PositionError::OppositeCheck(
            Color::Black
        )))
    );
    // A poisoned Rook gives no check, so the same board is legal.
    assert!(PoisonChess::from_fen("4k3/8/8/8/8/8/8/4R2K w - - 0 1 e1:2").is_ok());
    assert_eq!(
        PoisonChess::from_fen("8/8/8/8/8/8/8/7K w - - 0 1 -"),
        Err(FenError::Position(PositionError::MissingKing(Color::Black)))
    );
    assert!(matches!(
        PoisonChess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - extra"),
        Err(FenError::FieldCount { found: 8, .. })
    ));
    // Through the registry, too.
    assert!(AnyGame::new(Variant::Poison, Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e4:3")).is_err());
}

#[test]
fn setups_out_of_range_are_refused() {
    for (square, counter) in [("e4", 2), ("e2", 6)] {
        let mut setup = PoisonChess::new().to_setup();
        setup.counters[sq(square).index()] = counter;
        assert_eq!(
            PoisonChess::from_setup(setup),
            Err(PositionError::BadPoison {
                square: sq(square),
                counter
            })
        );
    }
}

#[test]
fn repetition_key_includes_the_counters() {
    let key = |fen: &str| PoisonChess::from_fen(fen).unwrap().repetition_key();
    let a = key("4k3/8/8/5n2/8/8/8/4K3 w - - 0 1 f5:3");
    let b = key("4k3/8/8/5n2/8/8/8/4K3 w - - 0 1 f5:2");
    let c = key("4k3/8/8/5n2/8/8/8/4K3 w - - 0 1 -");
    assert!(a != b && b != c && a != c);
    // The clocks are not part of it.
    assert_eq!(a, key("4k3/8/8/5n2/8/8/8/4K3 w - - 17 30 f5:3"));
}

/// Sorted long forms of the legal actions.
fn legal(fen: &str) -> Vec<String> {
    legal_long(&PoisonChess::from_fen(fen).unwrap())
}

#[test]
fn depth_one_lists_of_perft_positions() {
    // tests/data/poison.perft, position 2 (the text's problem).
    assert_eq!(
        legal("2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -"),
        sorted(&[
            "g1f1", "g1h1", "g1h2", "h7g5", "h7f6", "h7f8", "h4g3", "h4g5", "h4f6", "h4e7", "h4d8",
            "e3c1", "e3e1", "e3d2", "e3e2", "e3b3", "e3c3", "e3d3", "e3f3", "e3g3", "e3d4", "e3e4",
            "e3f4", "e3c5", "e3g5", "e3b6", "e3h6", "e5e4", "e5b5", "e5c5", "e5d5", "e5e6", "e5e7",
            "b2b3", "b2b4", "f2f3", "f2f4", "g2g3", "g2g4", "a3a4", "c4c5", "e5*f5",
        ])
    );
    // Position 3 (castling, a dying Harpy).
    assert_eq!(
        legal("4k2h/8/8/8/8/8/3h4/H3K2H w KQk - 0 1 d2:1"),
        sorted(&[
            "e1d1", "e1f1", "e1d2", "e1e2", "e1f2", "a1b1", "a1c1", "a1d1", "a1a2", "a1a3", "a1a4",
            "a1a5", "a1a6", "a1a7", "a1a8", "h1f1", "h1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6",
            "h1h7", "h1h8", "e1c1", "e1g1",
        ])
    );
    // Position 4 (poisoned King and Doctor).
    assert_eq!(
        legal("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2"),
        sorted(&[
            "b2a1", "b2a3", "b2c3", "b2d4", "b2e5", "b2f6", "b2g7", "f1d1", "f1e1", "f1e2", "c1a1",
            "c1b1", "c1d1", "c1e1", "c1c2", "c1c3", "c1c4", "c1c5", "f2f3", "f2f4", "g2g3", "g2g4",
            "h2h3", "h2h4", "f1~g1",
        ])
    );
}
