//! Hostage Chess rules: one test per ruling (H1-H8), the text's Fried Liver
//! line and Parr-Pritchard game, exact legal action lists, and the
//! generator checked against a brute-force reference.

use crate::support;

use heterodox_env::{
    perft, FenError, Game, Hostage, HostageAction, MoveError, Position, PositionError, Role,
    Square, Termination,
};
use support::hostage::{reference_legal, sorted_strings};
use support::perft::reference_perft;
use support::rules::{assert_illegal, draw, win};

fn position(fen: &str) -> Hostage {
    Hostage::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays moves in any accepted notation, returning each in standard notation.
fn play_all(game: &mut Game<Hostage>, moves: &str) -> Vec<String> {
    moves
        .split_whitespace()
        .map(|text| {
            let action = game
                .position()
                .parse_action(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let written = game.position().notation(&action);
            game.play(&action).unwrap();
            written
        })
        .collect()
}

/// The position string after `moves` (as for [`play_all`]) from `pos`.
fn fen_after(pos: &Hostage, moves: &str) -> String {
    let mut game = Game::new(pos.clone());
    play_all(&mut game, moves);
    game.position().fen()
}

fn legal_strings(pos: &Hostage) -> Vec<String> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    sorted_strings(&actions)
}

// Positions with every man accounted for (32 in all).

/// White's d7 pawn has nothing to promote to (Black's prison holds only
/// white pawns). Depth 1 = 529, see tests/data/hostage.perft.
const BLOCKED_PAWN: &str = "4k3/3P4/8/8/8/8/8/K7[qrbnpppp/PPPP/QRRBBNNPPP/rbnpppp] w - - 0 1";
/// The same pawn with a white queen in Black's prison: it checks e8.
const ACTIVE_PAWN_CHECK: &str = "4k3/3P4/8/8/8/8/8/K7[qrbnpppp/QPPPP/RRBBNNPPP/rbnpppp] b - - 0 1";
/// White's king has never moved; a rook waits in White's airfield.
const ROOK_IN_AIRFIELD: &str = "k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w E - 0 1";
/// White may promote on d8 to a queen or a rook, nothing else.
const PROMOTION: &str = "k7/3P4/8/8/8/8/8/4K3[qrbnpppp/QRPPP/RBBNNPPPP/rbnpppp] w - - 0 1";

/// A composed position (6 men, see docs/rules/hostage.md): both pawns are
/// blocked (both prisons are empty), White may castle short and drop a
/// knight. Counted by hand in `composed_position_perft_by_hand`.
const COMPOSED: &str = "4k3/1P6/8/8/8/8/6p1/4K2R[-/-/N/-] w K - 0 1";

const FRIED_LIVER: &str = "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Nxd5 Nxf7 Kxf7 Qf3+ Ke6";

const PARR_PRITCHARD: &str = "d4 d5 c4 dxc4 Nc3 e5 d5 c6 e4 b5 dxc6 (P-P)*d4 *d7 Nxc6 \
    Qxd4 Bxd7 Qd1 (P-P)*d4 Nd5 Bb4+ Bd2 Bxd2+ Qxd2 Be6 a4 Bxd5 exd5 (B-B)B*b4 *c3 dxc3 \
    bxc3 Bxc3! Qxc3 (N-B)B*b4 Qxb4 Nxb4 Rb1 (P-P)*d2+ Kxd2 Qxd5+ Kc1 Na2+ Kc2 (P-P)*b3+ \
    Kb2 (Q-B)B*c3+ Ka3 b4#";

#[test]
fn h1_captured_man_goes_to_the_capturers_prison_with_its_type() {
    let mut game = Game::new(Hostage::new());
    play_all(&mut game, "e4 d5 exd5");
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[p/-/-/-] b KQkq - 0 2"
    );
    // A promoted queen is captured as a queen, and the promoting pawn sits
    // in Black's prison beside it.
    let mut game = Game::new(position(
        "r6k/1P6/8/8/8/8/8/4K3[qrbbnnpppppppp/Q/RRBBNNPPPPPPP/-] w - - 0 1",
    ));
    assert_eq!(play_all(&mut game, "b8=*Q+ Rxb8"), ["b8=*Q+", "Rxb8"]);
    assert_eq!(
        game.position()
            .prison(heterodox_env::Color::Black)
            .count(Role::Queen),
        1
    );
    assert_eq!(
        game.position()
            .prison(heterodox_env::Color::Black)
            .count(Role::Pawn),
        1
    );
    assert_eq!(
        game.position().fen(),
        "1r5k/8/8/8/8/8/8/4K3[qrbbnnpppppppp/QP/RRBBNNPPPPPPP/-] w - - 0 2"
    );
}

#[test]
fn h2_exchanges_follow_the_value_order_and_count_once_per_type_and_square() {
    let pos = position(PROMOTION);
    // Black's prison holds Q, R and three pawns; White's q, r, b, n, p.
    for (text, legal) in [
        ("(Q-Q)Q*c3", true),
        ("(Q-R)R*c3", true),
        ("(R-R)R*c3", true),
        ("(B-R)R*c3", false),
        ("(N-Q)Q*c3", false),
        ("(R-Q)Q*c3", false),
        ("(N-P)*c3", true),
        ("(P-P)*c3", true),
        ("(B-B)B*c3", false), // no white bishop in Black's prison
    ] {
        let parsed = pos.parse_action(text);
        assert_eq!(parsed.is_ok(), legal, "{text}: {parsed:?}");
    }
    assert_eq!(
        pos.parse_action("(B-R)R*c3"),
        Err(MoveError::Illegal {
            text: "(B-R)R*c3".into(),
            fen: PROMOTION.into()
        })
    );
    // Three white pawns in Black's prison give one (P-P) exchange per square.
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let pawn_swaps = actions
        .iter()
        .filter(|a| {
            matches!(
                a,
                HostageAction::Exchange {
                    given: Role::Pawn,
                    rescued: Role::Pawn,
                    ..
                }
            )
        })
        .count();
    assert_eq!(pawn_swaps, 47); // ranks 2-7 minus d7

    // The exchange moves the given man to the opponent's airfield.
    assert_eq!(
        fen_after(&pos, "(N-P)*c3"),
        "k7/3P4/8/8/8/2P5/8/4K3[qrbpppp/QRPP/RBBNNPPPP/rbnnpppp] b - - 0 1"
    );
}

#[test]
fn h3_drops_go_to_empty_squares_pawns_never_on_a_back_rank_and_may_mate() {
    let pos = position("7k/6pp/8/8/8/8/8/K7[qrrbbnnpppppp/-/QRRBBNNPPPPPPPP/-] w - - 0 1");
    for (text, ok) in [
        ("*c7", true),
        ("*c8", false),
        ("*c1", false),
        ("*g7", false),
        ("N*c8", true),
        ("Q*a1", false),
    ] {
        assert_eq!(pos.parse_action(text).is_ok(), ok, "{text}");
    }
    let mate = pos.parse_action("Q*f8").unwrap();
    assert_eq!(
        mate,
        HostageAction::Drop {
            role: Role::Queen,
            to: Square::F8
        }
    );
    assert_eq!(pos.notation(&mate), "Q*f8#");
    let check = pos.parse_action("N*f7").unwrap();
    assert_eq!(pos.notation(&check), "N*f7+");
    let mut game = Game::new(pos);
    play_all(&mut game, "Q*f8#");
    assert_eq!(
        game.outcome(),
        win(heterodox_env::Color::White, Termination::Checkmate)
    );
}

#[test]
fn h4_second_rank_drop_may_double_step_and_drops_create_no_en_passant() {
    let start = "7k/8/8/8/5p2/8/8/K7[qrrbbnnppppppp/-/QRRBBNNPPPPPPPP/-] w - - 0 1";
    let mut game = Game::new(position(start));
    play_all(&mut game, "*e2 Kg8 e4");
    assert_eq!(
        game.position().fen(),
        "6k1/8/8/8/4Pp2/8/8/K7[qrrbbnnppppppp/-/QRRBBNNPPPPPPP/-] b - e3 0 2"
    );
    assert!(game.position().parse_action("fxe3").is_ok());
    // Dropped straight onto e4: no en passant right.
    let mut game = Game::new(position(start));
    play_all(&mut game, "*e4");
    assert_eq!(game.position().ep_square(), None);
    assert!(game.position().parse_action("fxe3").is_err());
    assert_eq!(
        game.position().fen(),
        "7k/8/8/8/4Pp2/8/8/K7[qrrbbnnppppppp/-/QRRBBNNPPPPPPP/-] b - - 0 1"
    );
}

#[test]
fn h5_rook_dropped_on_its_home_corner_may_castle() {
    let mut game = Game::new(position(ROOK_IN_AIRFIELD));
    assert_eq!(play_all(&mut game, "R*h1 Kb8"), ["R*h1", "Kb8"]);
    assert_eq!(
        game.position().fen(),
        "1k6/8/8/8/8/8/8/4K2R[qrrbbnnpppppppp/-/QRBBNNPPPPPPPP/-] w K - 1 2"
    );
    assert_eq!(play_all(&mut game, "O-O"), ["O-O"]);
    // Queen side too, through the long notation.
    let mut game = Game::new(position(ROOK_IN_AIRFIELD));
    play_all(&mut game, "R@a1 Kb8 e1c1");
    assert_eq!(
        game.position().fen(),
        "1k6/8/8/8/8/8/8/2KR4[qrrbbnnpppppppp/-/QRBBNNPPPPPPPP/-] b - - 2 2"
    );
    // A king that has moved gains nothing from a dropped rook.
    let moved = ROOK_IN_AIRFIELD.replace(" E ", " - ");
    let mut game = Game::new(position(&moved));
    play_all(&mut game, "R*h1 Kb8");
    assert!(game.position().castling_rights().is_empty());
    assert!(game.position().parse_action("O-O").is_err());
    // Neither does a rook dropped on a corner that is not its own.
    let mut game = Game::new(position(ROOK_IN_AIRFIELD));
    play_all(&mut game, "R*h8+ Kb7");
    assert!(game.position().castling_rights().is_empty());
}

#[test]
fn h6_promotion_releases_a_piece_from_the_opponents_prison() {
    let pos = position(PROMOTION);
    let promotions: Vec<String> = {
        let mut actions = Vec::new();
        pos.legal_actions(&mut actions);
        actions
            .iter()
            .filter(|a| matches!(a, HostageAction::Move(m) if m.promotion().is_some()))
            .map(|a| pos.notation(a))
            .collect()
    };
    assert_eq!(promotions, ["d8=*Q+", "d8=*R+"]);
    assert!(pos.parse_action("d8=B").is_err());
    assert_eq!(pos.parse_action("d8=Q"), pos.parse_action("d8=*Q"));
    assert_eq!(pos.parse_action("d7d8r").unwrap().to_string(), "d7d8r");
    assert_eq!(
        fen_after(&pos, "d8=*Q+"),
        "k2Q4/8/8/8/8/8/8/4K3[qrbnpppp/RPPPP/RBBNNPPPP/rbnpppp] b - - 0 1"
    );
}

#[test]
fn h6_seventh_rank_pawn_without_a_piece_neither_advances_nor_checks() {
    let pos = position(BLOCKED_PAWN);
    assert!(pos.parse_action("d8=Q").is_err());
    assert!(pos.parse_action("d7d8q").is_err());
    let black = position(&BLOCKED_PAWN.replace(" w ", " b "));
    assert!(!black.is_check());
    // The same pawn with a queen to promote to checks, so White to move
    // there is an illegal position.
    assert_eq!(
        Hostage::from_fen(&ACTIVE_PAWN_CHECK.replace(" b ", " w ")),
        Err(FenError::Position(PositionError::OppositeCheck(
            heterodox_env::Color::Black
        )))
    );
    assert!(position(ACTIVE_PAWN_CHECK).is_check());
}

#[test]
fn h6_capture_that_lets_a_blocked_pawn_check_is_illegal() {
    // The text's note to 8...Bxd7: after 8.Qxd4, ...exd4 would put the
    // white queen in Black's prison and let d7 promote with check.
    let mut game = Game::new(Hostage::new());
    play_all(
        &mut game,
        "d4 d5 c4 dxc4 Nc3 e5 d5 c6 e4 b5 dxc6 (P-P)*d4 *d7 Nxc6 Qxd4",
    );
    let pos = game.position();
    assert_illegal(pos, &["exd4", "Nxd4"]);
    assert!(pos.parse_action("Bxd7").is_ok());
    // Capturing a pawn wakes nothing: Kxd7 and Qxd7 stay legal.
    assert_eq!(pos.parse_action("Qxd7").unwrap().to_string(), "d8d7");
}

#[test]
fn h6_exchange_giving_the_last_promotion_piece_answers_the_check() {
    let pos = position(ACTIVE_PAWN_CHECK);
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    assert_eq!(actions.len(), 296);
    // Every exchange gives the queen; none gives a pawn; no airfield drop.
    assert!(actions.iter().all(|a| match a {
        HostageAction::Exchange { given, .. } => *given == Role::Queen,
        HostageAction::Drop { .. } => false,
        HostageAction::Move(m) => m.role() == Role::King,
    }));
    let answer = pos.parse_action("(Q-N)N*a5").unwrap();
    assert_eq!(pos.notation(&answer), "(Q-N)N*a5");
    assert!(pos.parse_action("(P-P)*a5").is_err());
}

#[test]
fn h7_no_insufficient_material_and_drops_exchanges_reset_the_fifty_move_counter() {
    // Kings alone on the board: FIDE would call it dead, Hostage does not.
    let pos = position("k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w - - 60 40");
    assert_eq!(pos.outcome(), None);
    let mut game = Game::new(pos.clone());
    play_all(&mut game, "Kd2 Kb8");
    assert_eq!(game.position().halfmoves(), 62);
    play_all(&mut game, "N*c3");
    assert_eq!(game.position().halfmoves(), 0);
    let mut game = Game::new(position(PROMOTION.replace(" 0 1", " 30 1").as_str()));
    play_all(&mut game, "(N-P)*c3");
    assert_eq!(game.position().halfmoves(), 0);
    // The hundredth half-move without a zeroing action draws.
    let mut game = Game::new(position(
        "k7/8/8/8/8/8/8/4K3[qrrbbnnpppppppp/-/QRRBBNNPPPPPPPP/-] w - - 99 80",
    ));
    play_all(&mut game, "Kd2");
    assert_eq!(game.outcome(), draw(Termination::FiftyMoves));
}

#[test]
fn h7_repetition_includes_prisons_and_airfields() {
    let a = position(BLOCKED_PAWN);
    // One white pawn moved from Black's prison to White's airfield.
    let b = position("4k3/3P4/8/8/8/8/8/K7[qrbnpppp/PPP/QRRBBNNPPPP/rbnpppp] w - - 0 1");
    assert_eq!(a.board(), b.board());
    assert_ne!(a.repetition_key(), b.repetition_key());
    // Shuffling kings repeats the position three times: a draw.
    let mut game = Game::new(position(ROOK_IN_AIRFIELD.replace(" E ", " - ").as_str()));
    play_all(&mut game, "Kd1 Kb8 Ke1 Ka8 Kd1 Kb8 Ke1");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "Ka8");
    assert_eq!(game.outcome(), draw(Termination::ThreefoldRepetition));
}

#[test]
fn h8_notation_reads_and_writes_the_texts_forms() {
    let pos = position(PROMOTION);
    for (text, long, standard) in [
        ("*c3", "P@c3", "*c3"),
        ("P*c3", "P@c3", "*c3"),
        ("N*f3", "N@f3", "N*f3"),
        ("N@f3", "N@f3", "N*f3"),
        ("(Q-R)R*a7", "Q-R@a7", "(Q-R)R*a7+"),
        ("Q-R@b8", "Q-R@b8", "(Q-R)R*b8+"),
        ("(P-P)*d4", "P-P@d4", "(P-P)*d4"),
        ("(P-P)P*d4", "P-P@d4", "(P-P)*d4"),
        ("d8=*Q", "d7d8q", "d8=*Q+"),
        ("d8=Q+", "d7d8q", "d8=*Q+"),
        ("Kd2", "e1d2", "Kd2"),
    ] {
        let action = pos
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(action.to_string(), long, "{text}");
        assert_eq!(pos.notation(&action), standard, "{text}");
    }
    for (text, reason) in [
        ("K*e4", "expected one of the letters P, N, B, R, Q"),
        ("(N-B)Q*f7", "the dropped piece must be the rescued one"),
        ("*z9", "bad destination square"),
        (
            "(NB)*f7",
            "expected an exchange '(N-B)' of two piece letters",
        ),
        ("NBR@f7", "expected a drop 'N@f3' or an exchange 'N-B@f7'"),
        ("", "empty move"),
    ] {
        assert_eq!(
            pos.parse_action(text),
            Err(MoveError::Syntax {
                text: text.into(),
                reason
            }),
            "{text}"
        );
    }
}

#[test]
fn fried_liver_exchange_wins_the_queen() {
    let mut game = Game::new(Hostage::new());
    play_all(&mut game, FRIED_LIVER);
    assert_eq!(
        game.position().fen(),
        "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"
    );
    assert_eq!(play_all(&mut game, "Bxd5+ Qxd5"), ["Bxd5+", "Qxd5"]);
    let pos = game.position();
    let exchange = pos
        .parse_action("9.(N-B)B*f7+".trim_start_matches("9."))
        .unwrap();
    assert_eq!(
        exchange,
        HostageAction::Exchange {
            given: Role::Knight,
            rescued: Role::Bishop,
            to: "f7".parse::<Square>().unwrap()
        }
    );
    assert_eq!(pos.notation(&exchange), "(N-B)B*f7+");
    game.play(&exchange).unwrap();
    assert!(game.position().is_check());
    assert_eq!(
        game.position().fen(),
        "r1b2b1r/ppp2Bpp/2n1k3/3qp3/8/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/n] b KQ - 0 9"
    );
    // Whatever Black does, the queen on d5 falls: the king must step off
    // the diagonal (or take on f7? no: f7 is guarded by the queen on f3).
    assert!(game.position().parse_action("Kxf7").is_err());
}

#[test]
fn parr_pritchard_game_replays_ply_by_ply_to_mate() {
    let mut game = Game::new(Hostage::new());
    let mut written = Vec::new();
    for text in PARR_PRITCHARD.split_whitespace() {
        let pos = game.position().clone();
        let action = pos
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let standard = pos.notation(&action);
        match text {
            // 7.*d7: no check, White has nothing to promote to.
            "*d7" => {
                assert_eq!(standard, "*d7");
                game.play(&action).unwrap();
                assert!(!game.position().is_check());
                continue;
            }
            // After 8.Qxd4 Black may not take the queen.
            "Bxd7" => {
                assert!(pos.parse_action("exd4").is_err());
                assert!(pos.parse_action("Nxd4").is_err());
            }
            _ => {}
        }
        written.push(standard.clone());
        game.play(&action).unwrap();
        // Every annotation the text gives (+, #) is what we write.
        let mark = |s: &str| {
            s.chars()
                .filter(|c| *c == '+' || *c == '#')
                .collect::<String>()
        };
        assert_eq!(mark(text), mark(&standard), "{text} written {standard}");
    }
    assert_eq!(written.len(), 47);
    assert_eq!(
        game.position().fen(),
        "r3k1nr/p4ppp/8/3qp3/Ppp5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] w kq - 0 25"
    );
    assert_eq!(
        game.outcome(),
        win(heterodox_env::Color::Black, Termination::Checkmate)
    );
}

#[test]
fn parr_pritchard_19th_move_exchange_is_check() {
    let mut game = Game::new(Hostage::new());
    let moves: Vec<&str> = PARR_PRITCHARD.split_whitespace().collect();
    let at = moves.iter().position(|m| *m == "(P-P)*d2+").unwrap();
    play_all(&mut game, &moves[..at].join(" "));
    let action = game.position().parse_action("(P-P)*d2").unwrap();
    assert_eq!(game.position().notation(&action), "(P-P)*d2+");
    game.play(&action).unwrap();
    assert!(game.position().is_check());
}

#[test]
fn legal_list_in_knight_check_excludes_the_capture_that_wakes_a_pawn() {
    // Black's b2 pawn has nothing to promote to; c2xb3 would give Black a
    // knight to promote to, and b2 would check a1.
    let pos = position("7k/8/8/8/8/1n6/1pP5/K7[ppp/PP/QRRBBNNPPPPP/qrrbbnpppp] w - - 0 1");
    assert_eq!(legal_strings(&pos), ["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn legal_list_in_double_check_with_an_exchange_that_silences_the_pawn() {
    let pos = position("4k3/3P4/8/8/4R3/8/8/K7[pp/Q/RBBNNPPPPPPP/qrrbbnnpppppp] b - - 0 1");
    assert_eq!(pos.checkers().count(), 2);
    assert_eq!(
        legal_strings(&pos),
        ["Q-P@e5", "Q-P@e6", "Q-P@e7", "e8d7", "e8d8", "e8f7", "e8f8"]
    );
}

/// The composed position's perft counted by hand. Depth 1: both prisons
/// are empty, so neither pawn may promote: b7 and g2 neither move nor
/// attack (H6), and White has no exchange. 74 = 5 king moves (Kd1 Kd2 Ke2
/// Kf1 Kf2) + O-O (g2 does not attack f1, H6) + 9 rook moves (Rf1 Rg1,
/// Rh2-Rh8) + N drops on the 59 empty squares. Depth 2: no White action
/// captures, so Black (empty prison and airfield, blocked g2) has only king
/// moves to d8 d7 e7 f7 f8, less those White attacks after its action:
/// king moves 5 x 5 = 25; O-O 3 (Rf1 hits f7 f8); rook moves 38 (Rf1 3,
/// Rh7 2 as it hits d7 e7 f7, Rh8+ 3 as d8 and f8 stay on the rank, the six
/// others 5 each); N drops 59 x 5 - 25 = 270, where 25 is the number of
/// (empty square, king square) pairs a knight there attacks: d8 3 (b7 is
/// taken), d7 6, e7 6, f7 6, f8 4 (a knight dropped on one of the five
/// squares can be taken by the king, nothing else defends it).
/// 25 + 3 + 38 + 270 = 336.
#[test]
fn composed_position_perft_by_hand() {
    let pos = position(COMPOSED);
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut by_kind = [0usize; 4]; // king, castle, rook, knight drop
    let mut replies = [0usize; 4];
    for action in &actions {
        let kind = match action {
            HostageAction::Move(m) if m.is_castle() => 1,
            HostageAction::Move(m) if m.role() == Role::King => 0,
            HostageAction::Move(m) if m.role() == Role::Rook => 2,
            HostageAction::Drop {
                role: Role::Knight, ..
            } => 3,
            other => panic!("unexpected action {other}"),
        };
        by_kind[kind] += 1;
        let mut after = pos.clone();
        after.play(action).unwrap();
        replies[kind] += after.count_legal_actions();
    }
    assert_eq!(by_kind, [5, 1, 9, 59]);
    assert_eq!(replies, [25, 3, 38, 270]);
    assert_eq!(perft::perft(&pos, 1), 74);
    assert_eq!(perft::perft(&pos, 2), 336);
    // The pawns stay blocked: no promotion, and g2 does not stop O-O.
    assert!(pos.parse_action("b8=N").is_err());
    assert_eq!(pos.notation(&pos.parse_action("O-O").unwrap()), "O-O");
}

#[test]
fn generator_matches_brute_force_reference_to_depth_2() {
    for fen in [
        COMPOSED,
        BLOCKED_PAWN,
        ACTIVE_PAWN_CHECK,
        ROOK_IN_AIRFIELD,
        PROMOTION,
        "r3k1nr/p4ppp/8/1p1qp3/P1p5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] b kq - 1 24",
        "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8",
    ] {
        let pos = position(fen);
        for depth in 1..=2 {
            assert_eq!(
                perft::perft(&pos, depth),
                reference_perft(&pos, depth, &reference_legal),
                "{fen} depth {depth}"
            );
        }
    }
}
