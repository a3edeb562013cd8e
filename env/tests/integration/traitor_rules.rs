//! Traitor Chess family: one test per ruling (T1-T11, T4a), notation,
//! position strings and the text's sample game as the rulings read it.

use crate::support;

use heterodox_env::traitor::{
    AnnounceCheck, Commitment, Mode, Secret, Selection, Step, Traitor, TraitorAction, TraitorRules,
    TraitorView,
};
use heterodox_env::{
    AnyGame, Bitboard, Color, FenError, Game, HiddenInformation, MoveError, Position,
    PositionError, RuleOptions, Square, StateSampler, Variant,
};
use support::rules::sq;

/// The view's observation tensor (the variant's one encoder).
fn observation(view: &TraitorView) -> Vec<f32> {
    let mut out = vec![f32::NAN; view.num_channels() * 64];
    view.encode(&mut out);
    out
}

fn rules(mode: Mode, commitment: Commitment) -> TraitorRules {
    TraitorRules::new(mode, commitment)
}

fn position(fen: &str, mode: Mode, commitment: Commitment) -> Traitor {
    Traitor::from_fen(fen, rules(mode, commitment)).unwrap()
}

fn actions(p: &Traitor) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_actions(&mut out);
    out.iter().map(ToString::to_string).collect()
}

fn announcements(p: &Traitor) -> Vec<String> {
    actions(p)
        .into_iter()
        .filter(|a| a.starts_with("T-"))
        .collect()
}

fn play(p: &mut Traitor, text: &str) {
    let action = p.parse_step(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(&action).unwrap();
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -";

/// The start position of an Impromptu game in `mode` (no selection
/// phase: straight to play).
fn impromptu_start(mode: Mode) -> Traitor {
    position(
        &format!("{START} 9,9 -/- -/- open - -"),
        mode,
        Commitment::Impromptu,
    )
}

/// Impromptu Defector from the start, after `line` (long forms).
fn defector_after(line: &str) -> Traitor {
    let mut p = impromptu_start(Mode::Defector);
    for step in line.split_whitespace() {
        play(&mut p, step);
    }
    p
}

#[test]
fn t01_values_budget_and_promoted_traitor_keeps_identity() {
    // Budget 4 left: pawns (1) and minor pieces (3) fit, rooks and the queen do not.
    let p = position(
        &format!("{START} 4,9 -/- -/- open - -"),
        Mode::Traitor,
        Commitment::Impromptu,
    );
    assert_eq!(
        announcements(&p),
        [
            "T-a7", "T-b7", "T-c7", "T-d7", "T-e7", "T-f7", "T-g7", "T-h7", "T-b8", "T-c8", "T-f8",
            "T-g8"
        ]
    );
    // A black pawn (id b7) announced by White promotes and stays White's traitor.
    let mut p = position(
        "4k3/8/8/8/8/7K/1p6/8 w - - 0 1 b2=b7,h3=e1 b2 8,9 b7/- -/- open - -",
        Mode::Traitor,
        Commitment::Impromptu,
    );
    play(&mut p, "b2b1q");
    assert_eq!(
        p.fen(),
        "4k3/8/8/8/8/7K/8/1q6 b - - 0 1 b1=b7,h3=e1 b1 8,9 b7/- -/- open - -"
    );
    assert!(p.movable(Color::White).contains(Square::B1));
    assert!(!p.movable(Color::Black).contains(Square::B1));
}

#[test]
fn t02_commitments_decide_what_may_be_announced() {
    // Standard: exactly the chosen pieces.
    let p = position(
        &format!("{START} 9,9 -/- c8,g7/c1,g2,h1 open - -"),
        Mode::Traitor,
        Commitment::Standard,
    );
    assert_eq!(announcements(&p), ["T-g7", "T-c8"]);
    // Simplified: any piece of a chosen type (here one knight, one pawn).
    let p = position(
        &format!("{START} 9,9 -/- NP/RBP open - -"),
        Mode::Traitor,
        Commitment::Simplified,
    );
    assert_eq!(announcements(&p).len(), 10);
    // After announcing one pawn, the pawn slot is spent: the secret is N.
    let mut p = p;
    play(&mut p, "T-a7");
    assert_eq!(
        p.secret(Color::White),
        Secret::Remaining(Selection::Types(heterodox_env::traitor::RoleCounts([
            0, 1, 0, 0, 0
        ])))
    );
    assert_eq!(p.budget(Color::White), 8);
    // Selection phase: 2204 Standard and 46 Simplified choices.
    let standard = Traitor::new(rules(Mode::Traitor, Commitment::Standard)).unwrap();
    assert_eq!(standard.count_legal_actions(), 2204);
    let simplified = Traitor::new(rules(Mode::Traitor, Commitment::Simplified)).unwrap();
    assert_eq!(simplified.count_legal_actions(), 46);
}

#[test]
fn t03_announcement_is_not_a_move_and_needs_one() {
    let mut p = impromptu_start(Mode::Traitor);
    play(&mut p, "T-g8");
    assert_eq!(p.turn(), Color::White);
    assert_eq!(p.step(), Step::Announced(Square::G8));
    assert_eq!(p.fullmoves(), 1);
    assert!(announcements(&p).is_empty(), "one announcement a turn");
    // The announced knight is White's now: 20 own moves + h6, f6 and :e7
    // (a traitor takes regular pieces of either colour).
    assert_eq!(p.count_legal_actions(), 23);
    // Notation: an announcement alone is refused, with the whole turn it is read.
    let q = impromptu_start(Mode::Traitor);
    assert!(matches!(
        q.parse_step("(T-Ng8)"),
        Err(MoveError::Syntax { .. })
    ));
    assert!(matches!(
        q.parse_turn("(T-Ng8)"),
        Err(MoveError::Syntax { .. })
    ));
    let steps = q.parse_turn("(T-Ng8)N:h6").unwrap_err();
    assert!(
        matches!(steps, MoveError::Illegal { .. }),
        "h6 is empty: no capture"
    );
    let steps = q.parse_turn("(T-Ng8)Nh6").unwrap();
    assert_eq!(
        steps.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["T-g8", "g8h6"]
    );
    assert_eq!(q.turn_notation(&steps).unwrap(), "(T-Ng8)Nh6");
}

#[test]
fn t04_traitor_captures_and_checks() {
    // Black Bc3 and Ne5 are White's traitors (see tests/data/traitor.perft, position 2).
    let p = position(
        "7k/r7/8/4n3/8/2b5/8/R6K w - - 0 1 h8=e8,e5=b8,c3=c8,a7=a8,h1=e1 c3,e5 0,9 b8,c8/- -/- open - -",
        Mode::Traitor,
        Commitment::Impromptu,
    );
    assert_eq!(
        actions(&p),
        [
            "a1b1", "a1c1", "a1d1", "a1e1", "a1f1", "a1g1", "a1a2", "a1a3", "a1a4", "a1a5", "a1a6",
            "a1a7", "h1g1", "h1g2", "h1h2", "c3a1", "c3e1", "c3b2", "c3d2", "c3b4", "c3d4", "c3a5",
            "e5d3", "e5f3", "e5c4", "e5g4", "e5c6", "e5g6", "e5d7", "e5f7"
        ]
    );
    // The traitor knight uncovers the traitor bishop: check to Black.
    assert_eq!(p.notation(&p.parse_step("e5g4").unwrap()), "Ng4+");
    assert_eq!(p.notation(&p.parse_step("c3a1").unwrap()), "B:a1");
    // White in check from its own traitor rook: only answers that end it.
    let q = position(
        "k7/8/8/4r3/8/8/8/4K3 w - - 0 1 a8=e8,e5=a8 e5 4,9 a8/- -/- open - -",
        Mode::Traitor,
        Commitment::Impromptu,
    );
    assert!(q.is_check());
    assert_eq!(
        actions(&q),
        ["e1d1", "e1f1", "e1d2", "e1f2", "e5a5", "e5b5", "e5c5", "e5d5", "e5f5", "e5g5", "e5h5"]
    );
}

#[test]
fn t04_sample_game_as_the_rulings_read_it() {
    // The text's game cannot be replayed: after 5...(T-Rh1) the traitor rook
    // on f1 already checks White's King, and 6.Qe2 does not answer it. Under
    // T4 Black's fifth turn is mate.
    let fen = format!("{START} 9,9 -/- d8/c1,g2,h1 open - -");
    let mut options = RuleOptions::new();
    options.set("selection", "fixed");
    let mut game = AnyGame::with_options(Variant::Traitor, Some(&fen), &options).unwrap();
    // Each turn as played and as the game writes it back.
    for (turn, written) in [
        ("e4", "e4"),
        ("e5", "e5"),
        ("Nf3", "Nf3"),
        ("Nf6", "Nf6"),
        ("Bc4", "Bc4"),
        ("Ng4", "Ng4"),
        ("0-0", "O-O"),
        ("Bc5", "Bc5"),
        ("Nc3", "Nc3"),
        ("(T-Rh1)N:f2", "(T-Rh1)N:f2#"),
    ] {
        assert_eq!(game.play(turn).unwrap().1, written, "{turn}");
    }
    assert_eq!(game.outcome().unwrap().to_string(), "0-1 (checkmate)");
    assert_eq!(
        game.fen(),
        "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -"
    );
    assert!(matches!(game.play("Qe2"), Err(MoveError::GameOver(_))));
}

#[test]
fn t04a_announce_check_setting() {
    let start = format!("{START} 9,9 -/- -/- open - -");
    // The text (default): 1.(T-Qd8) mates after every White move but the
    // queen's own :c7, which leaves the King's neighbourhood.
    let mut p = position(&start, Mode::Traitor, Commitment::Impromptu);
    assert_eq!(p.count_legal_actions(), 35);
    play(&mut p, "T-d8");
    let mut replies = Vec::new();
    p.legal_actions(&mut replies);
    let not_mate: Vec<String> = replies
        .iter()
        .filter(|reply| {
            let mut after = p.clone();
            after.play(reply).unwrap();
            after.outcome().map(|o| o.to_string()) != Some("1-0 (checkmate)".to_owned())
        })
        .map(ToString::to_string)
        .collect();
    assert_eq!((replies.len(), not_mate), (24, vec!["d8c7".to_owned()]));
    // announce_check=forbidden: no T-d8, the only announcement that checks.
    let mut options = RuleOptions::new();
    options.set("mode", "traitor");
    options.set("commitment", "impromptu");
    options.set("announce_check", "forbidden");
    let forbidden = TraitorRules::from_options(&options).unwrap();
    assert_eq!(forbidden.announce_check, AnnounceCheck::Forbidden);
    let q = Traitor::from_fen(&start, forbidden).unwrap();
    assert_eq!(q.count_legal_actions(), 34);
    assert!(!announcements(&q).contains(&"T-d8".to_owned()));
    let mut refused = q.clone();
    assert!(matches!(
        refused.play(&TraitorAction::Announce(Square::D8)),
        Err(MoveError::Illegal { .. })
    ));
    assert_eq!(refused, q);
    let game = AnyGame::with_options(Variant::Traitor, None, &options).unwrap();
    assert!(!game.legal_moves().contains(&"T-d8".to_owned()));
    assert_eq!(game.legal_moves().len(), 34);
    options.set("announce_check", "sometimes");
    assert_eq!(
        AnyGame::with_options(Variant::Traitor, None, &options)
            .unwrap_err()
            .to_string(),
        "invalid value 'sometimes' for traitor option 'announce_check' (valid values: allowed, forbidden)"
    );
    // White in check from a black knight it may announce: the setting
    // forbids it where the announced knight would still check (traitor,
    // double agent, mercenary: White's own King); a defector knight turns
    // white and checks nobody, so T-g8 stays legal there either way.
    let checked = "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1 f3=g8 - 9,9 -/- -/- open - -";
    for (mode, allowed, forbidden) in [
        (Mode::Traitor, 5, 4),
        (Mode::Defector, 5, 5),
        (Mode::DoubleAgent, 5, 4),
        (Mode::DefectorDoubleAgent, 5, 5),
        (Mode::Mercenary, 5, 4),
    ] {
        let mut r = rules(mode, Commitment::Impromptu);
        let text = Traitor::from_fen(checked, r).unwrap();
        r.announce_check = AnnounceCheck::Forbidden;
        let strict = Traitor::from_fen(checked, r).unwrap();
        assert_eq!(
            (text.count_legal_actions(), strict.count_legal_actions()),
            (allowed, forbidden),
            "{mode:?}"
        );
        assert_eq!(announcements(&text), ["T-g8"], "{mode:?}");
    }
}

#[test]
fn t05_defector_no_check_and_no_immediate_undo() {
    // d7, f7 and d8 would check the black King as white pieces.
    let p = impromptu_start(Mode::Defector);
    assert_eq!(announcements(&p).len(), 12);
    for forbidden in ["T-d7", "T-f7", "T-d8"] {
        assert!(!announcements(&p).contains(&forbidden.to_owned()));
    }
    let mut p = p;
    play(&mut p, "T-g8");
    assert_eq!(p.board().color_at(Square::G8), Some(Color::White));
    play(&mut p, "g8f6");
    // Black may not make the same knight defect straight back...
    assert!(!announcements(&p).contains(&"T-g8".to_owned()));
    assert_eq!(p.undo_forbidden(), Some(Square::G8));
    // ...unless the setting is off.
    let mut off = rules(Mode::Defector, Commitment::Impromptu);
    off.no_immediate_undo = false;
    let mut q = Traitor::from_fen(&format!("{START} 9,9 -/- -/- open - -"), off).unwrap();
    play(&mut q, "T-g8");
    play(&mut q, "g8f6");
    assert!(announcements(&q).contains(&"T-g8".to_owned()));
}

#[test]
fn t06_double_agent_moves_for_both_with_weak_ko() {
    let mut p = impromptu_start(Mode::DoubleAgent);
    play(&mut p, "T-b8");
    // A black double agent captures only white pieces: not the d7 pawn.
    let moves = actions(&p);
    assert!(moves.contains(&"b8c6".to_owned()) && moves.contains(&"b8a6".to_owned()));
    assert!(!moves.contains(&"b8d7".to_owned()));
    play(&mut p, "b8c6");
    let black = actions(&p);
    assert!(black.contains(&"c6d4".to_owned()), "Black moves it too");
    assert!(!black.contains(&"c6b8".to_owned()), "weak ko");
    assert_eq!(p.last_move(), Some((Square::B8, sq("c6"))));
}

#[test]
fn t07_defector_double_agent_changes_colour() {
    let mut p = impromptu_start(Mode::DefectorDoubleAgent);
    assert_eq!(announcements(&p).len(), 12, "T5's no-check rule");
    play(&mut p, "T-b8");
    assert_eq!(p.board().color_at(Square::B8), Some(Color::White));
    assert!(
        actions(&p).contains(&"b8d7".to_owned()),
        "now white, it takes the black pawn"
    );
    play(&mut p, "b8d7");
    let black = actions(&p);
    assert!(!black.contains(&"d7b8".to_owned()), "weak ko");
    // Black moves the white double agent: it captures black pieces.
    assert!(black.contains(&"d7f8".to_owned()));
    assert!(p.movable(Color::Black).contains(sq("d7")));
}

#[test]
fn t08_mercenary_captures_any_colour() {
    let mut p = impromptu_start(Mode::Mercenary);
    assert!(
        !announcements(&p).contains(&"T-d8".to_owned()),
        "a queen mercenary would check"
    );
    assert_eq!(announcements(&p).len(), 14);
    play(&mut p, "T-b8");
    play(&mut p, "b8d7");
    let black = actions(&p);
    assert!(
        black.contains(&"d7f8".to_owned()),
        "takes a black piece for Black"
    );
    assert!(black.contains(&"d7c5".to_owned()));
    // Nf6 would check Black's own King: a mercenary attacks both Kings.
    assert!(!black.contains(&"d7f6".to_owned()));
    assert!(!black.contains(&"d7b8".to_owned()), "weak ko");
    // A mercenary checks both Kings: White's own mercenary on d3 checks e1? No: knight d3 attacks e1.
    let q = position(
        "4k3/8/8/8/8/3n4/8/4K3 w - - 0 1 e8=e8,e1=e1,d3=b8 d3 6,9 b8/- -/- open - -",
        Mode::Mercenary,
        Commitment::Impromptu,
    );
    assert!(q.is_check());
}

#[test]
fn t09_castling_needs_a_regular_unmoved_rook() {
    let mut p = position(
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K1NR w KQkq - 0 1 - - 9,9 -/- -/- open - -",
        Mode::Traitor,
        Commitment::Impromptu,
    );
    play(&mut p, "a2a3");
    // Black announces the h1 rook (blocked by the knight, it checks nobody).
    play(&mut p, "T-h1");
    assert_eq!(
        p.castling_rights(),
        Bitboard::from_square(Square::A1)
            .with(Square::A8)
            .with(Square::H8)
    );
    play(&mut p, "a7a6");
    assert!(actions(&p).contains(&"e1c1".to_owned()));
    assert!(!actions(&p).contains(&"e1g1".to_owned()));
    // A castling right on an announced rook is refused.
    let err = Traitor::from_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 - h1 4,9 -/h1 -/- open - -",
        rules(Mode::Traitor, Commitment::Impromptu),
    )
    .unwrap_err();
    assert_eq!(
        err,
        FenError::Position(PositionError::BadCastlingRight {
            color: Color::White,
            rook: Square::H1
        })
    );
}

#[test]
fn t09_a_defected_rook_that_came_back_castles() {
    // The h8 rook defects to White and back without moving: its right stays.
    let mut p = defector_after("T-h8 a2a3");
    assert_eq!(p.board().color_at(Square::H8), Some(Color::White));
    assert!(p.castling_rights().contains(Square::H8));
    assert!(p
        .fen()
        .starts_with("rnbqkbnR/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - "));
    assert_eq!(Traitor::from_fen(&p.fen(), *p.rules()).unwrap(), p);
    for step in "g7g6 b2b3 T-h8 g8f6 c2c3 f8g7 d2d3".split_whitespace() {
        play(&mut p, step);
    }
    assert_eq!(p.count_legal_actions(), 37);
    assert!(actions(&p).contains(&"e8g8".to_owned()));
    play(&mut p, "e8g8");
    assert_eq!(p.board().role_at(sq("f8")), Some(heterodox_env::Role::Rook));
    // A defected rook that moves loses the right for good.
    let q = defector_after("T-h8 h8h7");
    assert_eq!(
        q.castling_rights(),
        Bitboard::from_square(Square::A1)
            .with(Square::H1)
            .with(Square::A8)
    );
    // In Traitor mode the right is not kept: a status is for good.
    let err = Traitor::from_fen(
        "rnbqkbnR/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - 0 1 a3=a2 - 4,9 h8/- -/- open - -",
        rules(Mode::Traitor, Commitment::Impromptu),
    )
    .unwrap_err();
    assert!(
        matches!(err, FenError::VariantField { field: "ids", .. }),
        "{err}"
    );
}

#[test]
fn t11_en_passant_belongs_to_the_pawn_that_may_capture_next() {
    // c4 double-steps beside White's own b4 pawn: the right is kept...
    let p = defector_after("b2b4 a7a6 c2c4");
    assert_eq!(p.ep_square(), Some(sq("c3")));
    assert_eq!(
        p.fen(),
        "rnbqkbnr/1ppppppp/p7/8/1PP5/8/P2PPPPP/RNBQKBNR b KQkq c3 0 2 b4=b2,c4=c2,a6=a7 - 9,9 -/- -/- open - -"
    );
    // ...for Black's announcement makes b4 a black pawn that may take it.
    for mut q in [p.clone(), Traitor::from_fen(&p.fen(), *p.rules()).unwrap()] {
        play(&mut q, "T-b2");
        assert_eq!(q.count_legal_actions(), 21);
        assert!(actions(&q).contains(&"b4c3".to_owned()));
        play(&mut q, "b4c3");
        assert_eq!(q.board().piece_at(sq("c4")), None);
    }
    // Without an announcement no black pawn can take: the 19 moves of the
    // board, none of them en passant.
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 19);
    assert!(!moves
        .iter()
        .any(|m| matches!(m, heterodox_env::Move::EnPassant { .. })));
    // Announcing another pawn of the same file keeps the right of d4.
    let mut r = position(
        "4k3/8/2P5/8/2Pp4/8/8/4K3 b - c3 0 1 e8=e8,c6=b2,c4=c2,d4=d7 - 9,9 -/- -/- open - -",
        Mode::Defector,
        Commitment::Impromptu,
    );
    play(&mut r, "T-b2");
    assert_eq!(r.ep_square(), Some(sq("c3")));
    assert_eq!(
        actions(&r),
        ["d4d3", "d4c3", "c6c5", "e8d7", "e8e7", "e8f7", "e8d8", "e8f8"]
    );
    // Announcing the double-stepped pawn itself ends the right.
    let mut s = position(
        "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 1 c4=c2,d4=d7 - 9,9 -/- -/- open - -",
        Mode::Defector,
        Commitment::Impromptu,
    );
    play(&mut s, "T-c2");
    assert_eq!(s.ep_square(), None);
    assert!(!actions(&s).contains(&"d4c3".to_owned()));
}

#[test]
fn t11_double_step_only_on_the_first_move() {
    // White's b-pawn, moved four times, now Black's on b7.
    let p = position(
        "rnbqkbnr/1pppppp1/8/7p/8/8/P1PPPPPP/RNBQKBNR b KQkq - 0 4 h5=h7,b7=b2 - 9,8 -/b2 -/- b2 - -",
        Mode::Defector,
        Commitment::Impromptu,
    );
    assert_eq!(p.count_legal_actions(), 24);
    assert!(actions(&p).contains(&"b7b6".to_owned()));
    assert!(!actions(&p).contains(&"b7b5".to_owned()));
    // A pawn that changed colour twice can stand on its starting square
    // again, moved: written b2=b2*, no double step.
    let mut q = defector_after("b2b3 T-b2 b3b2 a2a3 a7a6 T-b2");
    assert_eq!(q.returned_pawns(), Bitboard::from_square(sq("b2")));
    assert!(!q.pawn_unmoved(sq("b2")));
    let fen = q.fen();
    assert_eq!(
        fen,
        "rnbqkbnr/1ppppppp/p7/8/8/P7/1PPPPPPP/RNBQKBNR w KQkq - 0 3 b2=b2*,a3=a2,a6=a7 - 8,8 b2/b2 -/- b2 - -"
    );
    assert_eq!(Traitor::from_fen(&fen, *q.rules()).unwrap(), q);
    assert!(actions(&q).contains(&"b2b3".to_owned()));
    assert!(!actions(&q).contains(&"b2b4".to_owned()));
    // Once it moves on, the mark goes with it (its id tells).
    play(&mut q, "b2b3");
    assert_eq!(q.returned_pawns(), Bitboard::EMPTY);
    // A string without the mark reads as before: an unmoved pawn.
    let old = Traitor::from_fen(&fen.replace("b2=b2*", "b2=b2"), *p.rules()).unwrap();
    assert!(old.pawn_unmoved(sq("b2")));
    assert!(actions(&old).contains(&"b2b4".to_owned()));
    // The mark belongs to pawns only.
    assert!(matches!(
        Traitor::from_fen(&fen.replace("b2=b2*", "b1=b1*"), *p.rules()),
        Err(FenError::VariantField { field: "ids", .. })
    ));
}

fn standard_state(white_secret: &str) -> Traitor {
    position(
        &format!("{START} 9,9 -/- {white_secret}/c1,g2,h1 open - -"),
        Mode::Traitor,
        Commitment::Standard,
    )
}

#[test]
fn t10_views_do_not_leak_secrets() {
    // Two states that differ only in White's secret.
    let a = standard_state("d8");
    let b = standard_state("c8,g7");
    assert_ne!(a.fen(), b.fen());
    let (va, vb) = (a.view(Color::Black), b.view(Color::Black));
    assert_eq!(va, vb);
    assert_eq!(va.fen(), vb.fen());
    assert_eq!(observation(&va), observation(&vb));
    assert!(observation(&va).iter().all(|x| x.is_finite()));
    assert_eq!(
        va.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- ?/c1,h1,g2 open - -"
    );
    // White's own view holds its own secret.
    assert_ne!(
        observation(&a.view(Color::White)),
        observation(&b.view(Color::White))
    );
    // Also through the selection phase: Black's view after White's choice.
    let mut s1 = Traitor::new(rules(Mode::Traitor, Commitment::Standard)).unwrap();
    let mut s2 = s1.clone();
    s1.play(&s1.parse_step("S-d8").unwrap()).unwrap();
    s2.play(&s2.parse_step("S-a8,b8").unwrap()).unwrap();
    assert_eq!(s1.view(Color::Black), s2.view(Color::Black));
    // Views read back.
    let read = TraitorView::from_fen(&va.fen(), *a.rules(), Color::Black).unwrap();
    assert_eq!(read, va);
}

#[test]
fn t10_sampler_is_consistent_and_seeded() {
    let mut p = standard_state("c8,g7");
    play(&mut p, "T-g7");
    play(&mut p, "e2e4");
    let view = p.view(Color::Black);
    // White announced g7 (1 point): 8 left, g7 out of the candidates.
    let possible = view.possible_opponent_secrets();
    assert!(possible.iter().all(|s| match s {
        Secret::Remaining(Selection::Pieces(ids)) => !ids.contains(sq("g7")),
        _ => false,
    }));
    let sampler = Traitor::sampler(&view);
    assert_eq!(sampler.len(), possible.len());
    let draw = |seed| sampler.sample(&mut heterodox_env::rng::SplitMix64::new(seed));
    assert_eq!(draw(7), draw(7));
    for seed in 0..50 {
        let sampled = draw(seed);
        assert_eq!(sampled.view(Color::Black), view);
    }
    // Before any announcement: 2204 possible selections of White.
    let q = standard_state("d8");
    assert_eq!(q.view(Color::Black).possible_opponent_secrets().len(), 2204);
}

/// The ids a Standard secret holds (empty for the other kinds).
fn secret_ids(secret: Secret) -> Bitboard {
    match secret {
        Secret::Remaining(Selection::Pieces(ids)) => ids,
        _ => Bitboard::EMPTY,
    }
}

#[test]
fn t10_covering_states_allow_every_announcement_any_secret_allows() {
    // Black's view before any announcement: 2204 secrets White may hold,
    // whose ids are Black's 15 pieces but the King.
    let view = standard_state("d8").view(Color::Black);
    let sampler = Traitor::sampler(&view);
    let covering = sampler.covering();
    let every = sampler
        .secrets()
        .iter()
        .fold(Bitboard::EMPTY, |all, s| all | secret_ids(*s));
    let covered = covering.iter().fold(Bitboard::EMPTY, |all, &k| {
        all | secret_ids(sampler.secrets()[k])
    });
    assert_eq!(every.count(), 15);
    assert_eq!(covered, every);
    assert!(covering.len() <= 15, "{}", covering.len());
    for &k in &covering {
        assert_eq!(sampler.state(k).view(Color::Black), view);
    }
    // After White announced g7 (1 point of 9), neither g7 nor the queen
    // (9 points, more than the 8 left) can be in what remains.
    let mut p = standard_state("c8,g7");
    play(&mut p, "T-g7");
    play(&mut p, "e2e4");
    let sampler = Traitor::sampler(&p.view(Color::Black));
    let covered = sampler.covering().iter().fold(Bitboard::EMPTY, |all, &k| {
        all | secret_ids(sampler.secrets()[k])
    });
    let gone = Bitboard::from_square(sq("g7")) | Bitboard::from_square(sq("d8"));
    assert_eq!(covered, every & !gone);
    // Simplified: one state per type some secret holds (all five).
    let mut q = Traitor::new(rules(Mode::Traitor, Commitment::Simplified)).unwrap();
    play(&mut q, "S-Q");
    let sampler = Traitor::sampler(&q.view(Color::Black));
    let types: Vec<String> = sampler
        .covering()
        .iter()
        .map(|&k| {
            Selection::long(match sampler.secrets()[k] {
                Secret::Remaining(selection) => selection,
                other => panic!("{other:?}"),
            })
        })
        .collect();
    assert_eq!(types.len(), 5, "{types:?}");
    // Nothing hidden (White's view of Black's secret before Black chose):
    // one state stands for all.
    assert_eq!(Traitor::sampler(&q.view(Color::White)).covering(), vec![0]);
}

#[test]
fn fen_round_trip_and_typed_errors() {
    let p = standard_state("c8,g7");
    assert_eq!(Traitor::from_fen(&p.fen(), *p.rules()).unwrap(), p);
    let r = rules(Mode::Traitor, Commitment::Standard);
    let err = |text: &str| Traitor::from_fen(text, r).unwrap_err();
    assert!(matches!(err(START), FenError::FieldCount { found: 8, .. }));
    assert_eq!(
        err(&format!("{START} 9,9 -/- g7,d8/c1 open - -")).to_string(),
        "invalid secrets field 'g7,d8/c1': white's choices cost 10, more than its budget 9"
    );
    assert!(matches!(
        err(&format!("{START} 10,9 -/- d8/c1 open - -")),
        FenError::VariantField {
            field: "budgets",
            ..
        }
    ));
    assert!(matches!(
        err(&format!("{START} 9,9 -/- ?/c1 open - -")),
        FenError::VariantField {
            field: "secrets",
            ..
        }
    ));
    assert!(matches!(
        err(&format!("{START} 9,9 -/- d8/c1 bogus - -")),
        FenError::VariantField { field: "step", .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 - - 9,9 -/- d8/c1 open - -"),
        FenError::VariantField { field: "ids", .. }
    ));
    // Bad actions leave the position unchanged.
    let mut q = p.clone();
    assert!(q.play(&TraitorAction::Announce(Square::D8)).is_err());
    assert!(matches!(q.parse_step("zz"), Err(MoveError::Syntax { .. })));
    assert_eq!(q, p);
    // A fixed selection needs a position string.
    let mut options = RuleOptions::new();
    options.set("selection", "fixed");
    assert!(AnyGame::with_options(Variant::Traitor, None, &options).is_err());
    options.set("mode", "spy");
    assert_eq!(
        AnyGame::with_options(Variant::Traitor, None, &options).unwrap_err().to_string(),
        "invalid value 'spy' for traitor option 'mode' (valid values: traitor, defector, double-agent, defector-double-agent, mercenary)"
    );
}

#[test]
fn random_selection_is_seeded() {
    let mut r = rules(Mode::Mercenary, Commitment::Simplified);
    r.selection = heterodox_env::traitor::SelectionSetting::Random { seed: 3 };
    let a = Traitor::new(r).unwrap();
    assert_eq!(a, Traitor::new(r).unwrap());
    assert_eq!(a.step(), Step::Open);
    let game = Game::new(a);
    assert!(game.outcome().is_none());
}
