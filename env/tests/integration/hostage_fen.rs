//! The Hostage FEN dialect: round trips and typed errors.

use heterodox_env::{Bitboard, Color, FenError, Hostage, Position, PositionError, Role, Square};

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

/// A composed position (a study, a puzzle, a curriculum start) holds fewer
/// than 32 men; it reads, and keeps its material from then on.
#[test]
fn composed_positions_with_fewer_men_read() {
    let fen = "4k3/1P6/8/8/8/8/6p1/4K2R[-/-/N/-] w K - 0 1";
    let pos = Hostage::from_fen(fen).unwrap();
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.total_men(), 6);
    assert_eq!(pos.airfield(Color::White).count(Role::Knight), 1);
    assert_eq!(pos.castling_rights(), Bitboard::from_square(Square::H1));
    // A plain FIDE endgame is a Hostage position with empty reserves.
    let plain = Hostage::from_fen("8/8/8/4k3/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(plain.total_men(), 3);
    assert_eq!(plain.fen(), "8/8/8/4k3/8/8/8/4K2R[-/-/-/-] w K - 0 1");
    // Kings alone.
    assert_eq!(
        Hostage::from_fen("k7/8/8/8/8/8/8/4K3[-/-/-/-] w - - 0 1")
            .unwrap()
            .total_men(),
        2
    );
}

/// No action creates a man (a promotion swaps a pawn for a piece from
/// prison), so a side never has more men of a role than its full set,
/// counted across board, prisons and airfields.
#[test]
fn more_men_of_a_role_than_a_side_owns_are_refused() {
    let too_many = |fen: &str, color: Color, role: Role, found: usize, limit: usize| {
        let err = Hostage::from_fen(fen).unwrap_err();
        assert_eq!(
            err,
            FenError::Position(PositionError::TooManyMen {
                color,
                role,
                found,
                limit
            }),
            "{fen}"
        );
        err
    };
    // Nine white pawns: five on the board, two in Black's prison, two in
    // White's airfield; each place alone is within the limit.
    let white_pawns = "4k3/8/8/8/8/8/PPPPP3/4K3[-/PP/PP/-] w - - 0 1";
    too_many(white_pawns, Color::White, Role::Pawn, 9, 8);
    // Three black knights: one on the board, one in White's prison, one in
    // Black's airfield.
    let black_knights = "4k1n1/8/8/8/8/8/8/4K3[n/-/-/n] w - - 0 1";
    too_many(black_knights, Color::Black, Role::Knight, 3, 2);
    // Two white queens, one on the board, one in the airfield: a promoted
    // queen would have to come out of Black's prison, so there is only one.
    let white_queens = "4k3/8/8/8/8/8/8/3QK3[-/-/Q/-] w - - 0 1";
    let err = too_many(white_queens, Color::White, Role::Queen, 2, 1);
    assert_eq!(
        err.to_string(),
        "illegal position: white has 2 queens on the board, in prisons and in airfields; \
         a side owns at most 1 (men never leave the game and a promotion only swaps a pawn for a piece from prison)"
    );
    // Exactly eight pawns, spread the same way, read.
    assert_eq!(
        Hostage::from_fen("4k3/8/8/8/8/8/PPPPP3/4K3[-/PP/P/-] w - - 0 1")
            .unwrap()
            .total_men(),
        10
    );
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
