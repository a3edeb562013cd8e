//! Mad Scientist Chess position strings and notation: round trips, the
//! documented syntax, and typed errors for bad input (state unchanged).

use heterodox_env::madscientist::{MadAction, MadScientist, MoveKind, Part, PieceMove};
use heterodox_env::{Color, FenError, MoveError, Position, PositionError, Square};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - 0 1";

fn board_error(fen: &str) -> String {
    match MadScientist::from_fen(fen) {
        Err(FenError::Board { reason, .. }) => reason,
        other => panic!("{fen}: expected a board error, got {other:?}"),
    }
}

#[test]
fn start_position_string() {
    assert_eq!(MadScientist::new().fen(), START);
    assert_eq!(MadScientist::from_fen(START).unwrap(), MadScientist::new());
}

#[test]
fn part_pieces_and_hands_round_trip() {
    // Letters in any order are written W, F, C, B; FIDE sets as letters.
    let p = MadScientist::from_fen("k[cbww]6/8/8/8/8/8/8/K[FWFW][BC]5 b - - FCwb 12 30").unwrap();
    assert_eq!(p.fen(), "k[wwcb]6/8/8/8/8/8/8/KQN5 b - - FCwb 12 30");
    assert_eq!(p.hand(Color::White).to_string(), "FC");
    assert_eq!(p.hand(Color::Black).to_string(), "WB");
    // The counters are optional.
    assert_eq!(
        MadScientist::from_fen("k7/8/8/8/8/8/8/K7 w - - -")
            .unwrap()
            .fen(),
        "k7/8/8/8/8/8/8/K7 w - - - 0 1"
    );
}

#[test]
fn malformed_piece_tokens_are_typed_errors() {
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[WWW]6 w - - - 0 1"),
        "'[WWW]' has three or more Wazir parts (at most two of a type) on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[PW]6 w - - - 0 1"),
        "'[PW]': a pawn carries no parts on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[KF]6 w - - - 0 1"),
        "'[KF]': a Scientist carries no parts on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[]6 w - - - 0 1"),
        "empty part list '[]': a piece has at least one part on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[Wf]6 w - - - 0 1"),
        "mixed case in '[Wf]': all upper case (White) or all lower case (Black) on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[WX]6 w - - - 0 1"),
        "unknown part letter 'X' in '[WX]' (expected W, F, C, B) on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[WF6 w - - - 0 1"),
        "unclosed '[' on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/KH6 w - - - 0 1"),
        "unknown piece letter 'H' on rank 1"
    );
    assert_eq!(
        board_error("k7/8/8/8/8/8/8/K[W]7 w - - - 0 1"),
        "rank 1 has more than 8 squares"
    );
}

#[test]
fn hands_over_eight_after_a_completed_turn_are_refused() {
    // The side to move may hold more: it is discarding.
    let p = MadScientist::from_fen("k7/8/8/8/8/8/8/K7 b - - wwffccbbw 0 1").unwrap();
    assert!(p.is_discarding());
    // Black's hand, (fen, parts held, the limit): eight when Black is not
    // to move (its turn is complete, so nine parts is wrong), sixteen while
    // it discards.
    for (fen, count, limit) in [
        ("k7/8/8/8/8/8/8/K7 w - - wwffccbbw 0 1", 9, 8),
        ("k7/8/8/8/8/8/8/K7 b - - wwwwwwwwffffffffc 0 1", 17, 16),
    ] {
        assert_eq!(
            MadScientist::from_fen(fen).unwrap_err(),
            FenError::Position(PositionError::HandTooLarge {
                color: Color::Black,
                count,
                limit
            }),
            "{fen}"
        );
    }
    assert_eq!(
        MadScientist::from_fen("k7/8/8/8/8/8/8/K7 w - - WX 0 1").unwrap_err(),
        FenError::VariantField {
            field: "hands",
            text: "WX".into(),
            reason: "unknown part letter 'X' (W, F, C, B for White; w, f, c, b for Black; '-' when both are empty)".into()
        }
    );
}

#[test]
fn other_position_errors() {
    assert_eq!(
        MadScientist::from_fen("8/8/8/8/8/8/8/K7 w - - - 0 1").unwrap_err(),
        FenError::Position(PositionError::MissingKing(Color::Black))
    );
    assert_eq!(
        MadScientist::from_fen("kk6/8/8/8/8/8/8/K7 w - - - 0 1").unwrap_err(),
        FenError::Position(PositionError::TooManyKings(Color::Black))
    );
    assert_eq!(
        MadScientist::from_fen("k6P/8/8/8/8/8/8/K7 w - - - 0 1").unwrap_err(),
        FenError::Position(PositionError::PawnOnBackRank(Square::H8))
    );
    assert_eq!(
        MadScientist::from_fen("k7/8/8/8/8/8/8/K7 w - -").unwrap_err(),
        FenError::FieldCount {
            found: 4,
            expected:
                "5 to 7 (board, turn, castling, en passant, hands, halfmove clock, fullmove number)"
        }
    );
    assert_eq!(MadScientist::from_fen("  ").unwrap_err(), FenError::Empty);
}

#[test]
fn notation_of_every_kind_of_action() {
    let p = MadScientist::from_fen("r3k3/8/8/3p4/4P3/8/1[CC]6/R[WC]2K2R w KQ - WC 0 1").unwrap();
    let cases = [
        ("e4d5", "exd5"),
        ("e4e5", "e5"),
        ("b2c4", "[CC]c4"),
        ("b1c3", "[WC]c3"),
        ("e1e2", "Ke2"),
        ("e1g1", "O-O"),
        ("a1a8", "Rxa8"),
        ("W@e2", "W@e2"),
    ];
    for (long, standard) in cases {
        let action = p.parse_action(long).unwrap();
        assert_eq!(action.to_string(), long);
        assert_eq!(p.notation(&action), standard);
        assert_eq!(p.parse_action(standard), Ok(action));
    }
    // Powers on pieces next to the Scientist (e1: d1 f1 d2 e2 f2).
    let p = MadScientist::from_fen("k7/8/8/8/8/8/8/3RK[b]2 w - - F 0 1").unwrap();
    assert_eq!(
        p.parse_action("F+d1"),
        Ok(MadAction::Attach {
            part: Part::Ferz,
            target: "d1".parse().unwrap()
        })
    );
    assert_eq!(
        p.parse_action("B-f1"),
        Ok(MadAction::Remove {
            part: Part::Barc,
            from: "f1".parse().unwrap()
        })
    );
    // Promotion, long and standard.
    let p = MadScientist::from_fen("k7/4P3/8/8/8/8/8/K7 w - - - 0 1").unwrap();
    let promotion = p.parse_action("e7e8n").unwrap();
    assert_eq!(p.notation(&promotion), "e8=N");
    assert_eq!(p.parse_action("e8=N"), Ok(promotion));
    // Discards.
    let p = MadScientist::from_fen("k7/8/8/8/8/8/8/K7 w - - WWWWWFFFF 0 1").unwrap();
    let discard = p.parse_action("-W").unwrap();
    assert_eq!(discard, MadAction::Discard { part: Part::Wazir });
    assert_eq!(p.notation(&discard), "-W");
}

#[test]
fn notation_disambiguates_like_san() {
    // Two Wazir pieces can reach b2: the file tells them apart.
    let p = MadScientist::from_fen("k7/8/8/8/8/8/8/[W]1[W]4K w - - - 0 1").unwrap();
    let from_a1 = MadAction::Move(PieceMove {
        from: Square::A1,
        to: "b1".parse().unwrap(),
        kind: MoveKind::Normal,
    });
    assert_eq!(p.notation(&from_a1), "[W]ab1");
    assert_eq!(
        p.parse_action("[W]b1"),
        Err(MoveError::Ambiguous {
            text: "[W]b1".into(),
            fen: p.fen(),
            count: 2
        })
    );
    assert_eq!(p.parse_action("[W]ab1"), Ok(from_a1));
}

#[test]
fn bad_notation_is_a_typed_error_and_changes_nothing() {
    let mut p = MadScientist::new();
    let before = p.clone();
    for text in ["", "X@e2", "W@z9", "[WWW]e4"] {
        assert!(
            matches!(p.parse_action(text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
    for text in ["e2e5", "W@e2", "-W"] {
        assert!(
            matches!(p.parse_action(text), Err(MoveError::Illegal { .. })),
            "{text}"
        );
    }
    let illegal = MadAction::Discard { part: Part::Crab };
    assert_eq!(
        p.play(&illegal),
        Err(MoveError::Illegal {
            text: "-C".into(),
            fen: START.into()
        })
    );
    assert_eq!(p, before);
}
