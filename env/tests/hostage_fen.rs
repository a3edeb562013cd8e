//! The Hostage FEN dialect: round trips and typed errors.

use heterodox_env::{Color, FenError, Hostage, Position, PositionError, Role};

#[test]
fn start_position_reads_with_or_without_brackets() {
    let written = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1";
    assert_eq!(Hostage::new().fen(), written);
    assert_eq!(Hostage::from_fen(written).unwrap(), Hostage::new());
    let plain = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(Hostage::from_fen(plain).unwrap(), Hostage::new());
}

#[test]
fn round_trips() {
    for fen in [
        "r3k1nr/p4ppp/8/1p1qp3/P1p5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] b kq - 1 24",
        "k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w E - 0 1",
        "4k2r/8/8/8/8/8/8/4K3[qbbnnpppppppp/-/QRRBBNNPPPPPPPP/r] b Ek - 3 9",
    ] {
        assert_eq!(Hostage::from_fen(fen).unwrap().fen(), fen);
    }
    let pos =
        Hostage::from_fen("k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w E - 0 1")
            .unwrap();
    assert_eq!(pos.unmoved_kings().count(), 1);
    assert_eq!(pos.airfield(Color::White).count(Role::Pawn), 8);
    assert_eq!(pos.prison(Color::White).count(Role::Rook), 2);
    assert_eq!(pos.total_men(), 32);
}

fn reserves_error(fen: &str) -> String {
    match Hostage::from_fen(fen) {
        Err(FenError::VariantField { field, reason, .. }) => format!("{field}: {reason}"),
        other => panic!("{fen}: expected a field error, got {other:?}"),
    }
}

#[test]
fn reserve_errors_are_typed() {
    let board = "k7/8/8/8/8/8/8/4K3";
    for (reserves, message) in [
        ("[k/-/-/-]", "prisons and airfields: a king never leaves the board, but White's prison holds one"),
        ("[nnn/-/-/-]", "prisons and airfields: White's prison holds 3 black knights, but a side has only 2"),
        ("[ppppppppp/-/-/-]", "prisons and airfields: White's prison holds 9 black pawns, but a side has only 8"),
        ("[N/-/-/-]", "prisons and airfields: White's prison holds only black men (lowercase letters), found 'N'"),
        ("[-/-/x/-]", "prisons and airfields: unknown piece letter 'x' in White's airfield"),
        ("[-/-/-]", "prisons and airfields: expected 4 lists separated by '/' (White's prison, Black's prison, White's airfield, Black's airfield), found 3"),
        ("[-//-/-]", "prisons and airfields: Black's prison is empty: write '-'"),
        ("[-/-/-/-", "prisons and airfields: expected ']' at the end of the field"),
    ] {
        assert_eq!(reserves_error(&format!("{board}{reserves} w - - 0 1")), message, "{reserves}");
    }
    assert_eq!(
        reserves_error("k7/8/8/8/8/8/8/4K3[-/-/-/-] w KE - 0 1"),
        "castling: 'E'/'e' marks an unmoved king without castling rights; it is implied by K or Q"
    );
    assert_eq!(
        reserves_error("k7/8/8/8/8/8/8/4K3[-/-/-/-] w EK - 0 1"),
        "castling: expected '-' or letters from K, Q, E, k, q, e, each at most once, in that order"
    );
}

#[test]
fn material_must_be_conserved() {
    // One black knight missing: 31 men.
    assert_eq!(
        Hostage::from_fen("k7/8/8/8/8/8/8/4K3[qrrbbnpppppppp/-/QRRBBNNPPPPPPPP/-] w - - 0 1"),
        Err(FenError::Position(PositionError::MaterialNotConserved {
            color: Color::Black,
            role: Role::Knight,
            found: 1,
            expected: 2
        }))
    );
    // A plain FIDE endgame is not a Hostage position.
    assert_eq!(
        Hostage::from_fen("8/8/8/4k3/8/8/8/4K2R w K - 0 1"),
        Err(FenError::Position(PositionError::MaterialNotConserved {
            color: Color::White,
            role: Role::Pawn,
            found: 0,
            expected: 8
        }))
    );
    // Three white queens: one on the board, two off it.
    assert!(matches!(
        Hostage::from_fen("k7/8/8/8/8/8/8/3QK3[qrrbbnnpppppppp/Q/QRRBBNNPPPPPPPP/-] w - - 0 1"),
        Err(FenError::Position(PositionError::MaterialNotConserved {
            role: Role::Queen,
            found: 3,
            ..
        }))
    ));
}

#[test]
fn unmoved_king_marker_needs_the_king_at_home() {
    assert_eq!(
        Hostage::from_fen("k7/8/8/8/8/8/8/3K4[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w E - 0 1"),
        Err(FenError::Position(PositionError::UnmovedKingNotHome(
            Color::White
        )))
    );
    assert!(matches!(
        Hostage::from_fen("k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w K - 0 1"),
        Err(FenError::Position(PositionError::BadCastlingRight { .. }))
    ));
}

#[test]
fn fide_field_errors_still_apply() {
    assert_eq!(Hostage::from_fen(""), Err(FenError::Empty));
    assert_eq!(
        Hostage::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] x KQkq - 0 1"),
        Err(FenError::Turn("x".into()))
    );
    assert!(matches!(
        Hostage::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 0"),
        Err(FenError::FullmoveNumber(_))
    ));
}
