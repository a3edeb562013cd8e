//! FEN reading and writing: round trips and an exact error for each field.

use heterodox_env::{Chess, Color, FenError, Position, PositionError, Role, Square};

fn err(fen: &str) -> FenError {
    Chess::from_fen(fen).expect_err(fen)
}

#[test]
fn standard_fens_round_trip_exactly() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 42",
    ] {
        assert_eq!(Chess::from_fen(fen).unwrap().fen(), fen);
    }
}

#[test]
fn four_field_epd_gets_default_counters() {
    let chess = Chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(chess, Chess::new());
}

#[test]
fn field_count_errors() {
    assert_eq!(err(""), FenError::Empty);
    assert!(matches!(
        err("8/8/8/8/8/8/8/8 w"),
        FenError::FieldCount { found: 2, .. }
    ));
    assert!(matches!(
        err("a b c d e f g"),
        FenError::FieldCount { found: 7, .. }
    ));
}

#[test]
fn board_field_errors_name_the_problem() {
    let cases = [
        (
            "8/8/8/8/8/8/8 w - - 0 1",
            "expected 8 ranks separated by '/', found 7",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2X w - - 0 1",
            "unknown piece letter 'X' on rank 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2H w - - 0 1",
            "unknown piece letter 'H' on rank 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
            "rank 1 has more than 8 squares",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            "rank 1 has 7 squares, expected 8",
        ),
        (
            "4k3/8/8/8/8/8/9/4K3 w - - 0 1",
            "bad empty-square count '9' on rank 2",
        ),
        (
            "4k3/8/8/8/8/8/08/4K3 w - - 0 1",
            "bad empty-square count '0' on rank 2",
        ),
    ];
    for (fen, reason) in cases {
        match err(fen) {
            FenError::Board { reason: got, .. } => assert_eq!(got, reason, "{fen}"),
            other => panic!("{fen}: {other:?}"),
        }
    }
}

#[test]
fn other_field_errors() {
    let k = "4k3/8/8/8/8/8/8/4K3";
    let cases = [
        ("x - - 0 1", FenError::Turn("x".into())),
        ("w KK - 0 1", FenError::Castling("KK".into())),
        ("w qK - 0 1", FenError::Castling("qK".into())),
        ("w X - 0 1", FenError::Castling("X".into())),
        ("w - e5 0 1", FenError::EnPassant("e5".into())),
        ("w - z9 0 1", FenError::EnPassant("z9".into())),
        ("w - - -1 1", FenError::HalfmoveClock("-1".into())),
        ("w - - abc 1", FenError::HalfmoveClock("abc".into())),
        ("w - - 0 0", FenError::FullmoveNumber("0".into())),
        ("w - - 0 x", FenError::FullmoveNumber("x".into())),
    ];
    for (fields, expected) in cases {
        assert_eq!(err(&format!("{k} {fields}")), expected, "{fields}");
    }
}

#[test]
fn illegal_position_errors() {
    use PositionError::*;
    let pos = |fen: &str| match err(fen) {
        FenError::Position(e) => e,
        other => panic!("{fen}: {other:?}"),
    };
    let cases = [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", MissingKing(Color::Black)),
        ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", TooManyKings(Color::White)),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", PawnOnBackRank(Square::A1)),
        (
            "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
            TooManyPawns(Color::Black, 9),
        ),
        (
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
            OppositeCheck(Color::Black),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            BadCastlingRight {
                color: Color::White,
                rook: Square::H1,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w q - 0 1",
            BadCastlingRight {
                color: Color::Black,
                rook: Square::A8,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            BadEnPassant("e6".parse().unwrap()),
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 b - e3 0 1",
            BadEnPassant("e3".parse().unwrap()),
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(pos(fen), expected, "{fen}");
    }
    assert_eq!(
        pos("4r1k1/8/8/8/8/8/2np4/4K3 w - - 0 1").to_string(),
        "impossible check: white is attacked by more than two pieces"
    );
}

#[test]
fn error_messages_read_well() {
    let cases = [
        (
            "4k3/8/8/8/8/8/8/4K3 w - e5 0 1",
            "invalid en passant field 'e5': expected '-' or a square on rank 3 or 6",
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "illegal position: black has no king",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2x w - - 0 1",
            "invalid board field '4k3/8/8/8/8/8/8/4K2x': unknown piece letter 'x' on rank 1",
        ),
    ];
    for (fen, message) in cases {
        assert_eq!(err(fen).to_string(), message);
    }
}

#[test]
fn non_fide_roles_are_rejected_by_validation() {
    let mut setup = heterodox_env::Setup::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    setup.board.set_piece_at(
        Square::A1,
        heterodox_env::Piece::new(Color::White, Role::Harpy),
    );
    assert_eq!(
        Chess::from_setup(setup).unwrap_err(),
        PositionError::UnsupportedRole {
            role: Role::Harpy,
            square: Square::A1,
            variant: "chess"
        }
    );
}
