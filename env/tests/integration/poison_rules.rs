//! Poison Chess rules, one test per ruling (P1-P13 of RULINGS.md) plus the
//! cases the issue names: the text's problem, a countdown played out to
//! death, a cure on the last possible turn, a poisoned King stalemated, a
//! poisoned checker that no longer checks, poisoning the checker to escape
//! check, a King next to a poisoned King, and a mate by a doomed King.

use crate::support;

use heterodox_env::{
    Color, Game, MoveError, Piece, PoisonAction, PoisonChess, Position, Role, Termination,
};
use support::rules::{
    assert_malformed, draw, legal_long as legal, sorted, sq, white_castlings, win,
};

fn pos(fen: &str) -> PoisonChess {
    PoisonChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays `text` (any notation) and returns the standard notation written
/// for it before it was played.
fn play(position: &mut PoisonChess, text: &str) -> String {
    let action = position
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let written = position.notation(&action);
    position.play(&action).unwrap();
    written
}

/// The Harpy on `harpy` poisoning the piece on `target`.
fn poisoning(harpy: &str, target: &str) -> PoisonAction {
    PoisonAction::Poison {
        harpy: sq(harpy),
        target: sq(target),
    }
}

#[test]
fn p01_start_position_pieces_and_promotions() {
    let start = PoisonChess::new();
    assert_eq!(
        start.fen(),
        "hnbdkbnh/pppppppp/8/8/8/8/PPPPPPPP/HNBDKBNH w KQkq - 0 1 -"
    );
    // No Queen in this game.
    assert!(PoisonChess::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 -").is_err());
    // Promotion to Guard, Rook, Bishop, Knight; never Harpy, Doctor, Queen.
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 -");
    let promotions: Vec<String> = {
        let mut actions = Vec::new();
        p.legal_actions(&mut actions);
        actions
            .iter()
            .filter(|a| a.role() == Role::Pawn)
            .map(|a| format!("{a} {}", p.notation(a)))
            .collect()
    };
    assert_eq!(
        promotions,
        ["a7a8g a8=G+", "a7a8r a8=R+", "a7a8b a8=B", "a7a8n a8=N"]
    );
    for bad in ["a7a8q", "a7a8h", "a7a8d", "a8=Q", "a8=H", "a8=D"] {
        assert!(p.parse_action(bad).is_err(), "{bad}");
    }
    // The Harpy moves as a rook and captures Harpies only; the Doctor
    // moves as a queen.
    let moves_from = |fen: &str, from: &str| -> Vec<String> {
        legal(&pos(fen))
            .into_iter()
            .filter(|a| a.starts_with(from))
            .collect()
    };
    assert_eq!(
        moves_from("4k3/8/8/3n4/8/8/8/h2HK3 w - - 0 1 -", "d1"),
        sorted(&["d1a1", "d1b1", "d1c1", "d1d2", "d1d3", "d1d4"])
    );
    assert_eq!(
        moves_from("4k3/8/8/8/8/8/1p6/D3K3 w - - 0 1 -", "a1"),
        sorted(&[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1c1", "a1d1", "a1b2"
        ])
    );
}

#[test]
fn p02_harpy_poisons_a_neighbour_and_leaves_the_board() {
    // Harpy d3: c3 is already poisoned (not again), e3 and d4 are enemies,
    // e2 is a friend (never).
    let mut p = pos("4k3/8/8/8/3p4/2pHn3/4P3/4K3 w - - 0 1 c3:4");
    let poisons: Vec<String> = legal(&p).into_iter().filter(|a| a.contains('*')).collect();
    assert_eq!(poisons, ["d3*d4", "d3*e3"]);
    assert_eq!(play(&mut p, "d3*e3"), "xHd3[c3,3;e3,5]");
    assert_eq!(p.board().piece_at(sq("d3")), None);
    assert_eq!(p.counter(sq("e3")), Some(5));
    assert_eq!(
        p.poisoned(Color::Black),
        [sq("c3"), sq("e3")].into_iter().collect()
    );
    assert_eq!(p.fen(), "4k3/8/8/8/3p4/2p1n3/4P3/4K3 b - - 0 1 c3:3,e3:5");
    // A poisoned Harpy cannot poison (P4) and a King can be poisoned.
    let p = pos("8/8/8/8/8/8/4kH2/7K w - - 0 1 f2:3");
    assert!(!legal(&p).iter().any(|a| a.contains('*')));
    let p = pos("8/8/8/8/8/8/4kH2/7K w - - 0 1 -");
    assert_eq!(
        legal(&p)
            .iter()
            .filter(|a| a.contains('*'))
            .collect::<Vec<_>>(),
        ["f2*e2"]
    );
}

#[test]
fn p03_countdown_kills_on_fifth_move() {
    let mut p = pos("4k3/8/8/8/8/8/1n6/H6K w - - 0 1 -");
    let line = [
        ("xHa1", "xHa1[b2,5]"),
        ("Ke7", "Ke7"),
        ("Kg1", "Kg1[b2,4]"),
        ("Ke8", "Ke8"),
        ("Kh1", "Kh1[b2,3]"),
        ("Ke7", "Ke7"),
        ("Kg1", "Kg1[b2,2]"),
        ("Ke8", "Ke8"),
        ("Kh1", "Kh1[b2,1]"),
        ("Ke7", "Ke7"),
    ];
    let mut counters = Vec::new();
    for (text, written) in line {
        assert_eq!(play(&mut p, text), written);
        counters.push(p.counter(sq("b2")));
    }
    assert_eq!(
        counters,
        [5, 5, 4, 4, 3, 3, 2, 2, 1, 1].map(Some),
        "the poisoner's moves count down; the victim's five turns do not"
    );
    // The poisoner's fifth move after the poisoning kills.
    assert_eq!(play(&mut p, "Kg1"), "Kg1[xb2]");
    assert_eq!(p.board().piece_at(sq("b2")), None);
    assert_eq!(p.counter(sq("b2")), None);
    assert_eq!(p.fen(), "8/4k3/8/8/8/8/8/6K1 b - - 0 6 -");
}

#[test]
fn p03_counters_of_both_sides_run_independently() {
    let mut p = pos("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2");
    assert_eq!(play(&mut p, "h3"), "h3[d6,1]");
    assert_eq!(
        (p.counter(sq("g1")), p.counter(sq("d6"))),
        (Some(4), Some(1))
    );
    assert_eq!(play(&mut p, "h6"), "h6[g1,3]");
    assert_eq!(
        (p.counter(sq("g1")), p.counter(sq("d6"))),
        (Some(3), Some(1))
    );
    assert_eq!(play(&mut p, "h4"), "h4[xd6]");
    assert_eq!(
        p.fen(),
        "h5k1/5pp1/2n4p/8/7P/8/1B2hPP1/2H2DK1 b - - 0 2 g1:3"
    );
}

#[test]
fn p03_p05_cure_on_the_last_possible_turn() {
    let mut p = pos("4k3/8/8/8/8/2d5/1n6/H6K w - - 0 1 -");
    for text in [
        "xHa1", "Ke7", "Kg1", "Ke8", "Kh1", "Ke7", "Kg1", "Ke8", "Kh1",
    ] {
        play(&mut p, text);
    }
    // Black's fifth turn since the poisoning, counter 1: the last chance.
    assert_eq!(p.counter(sq("b2")), Some(1));
    let mut cured = p.clone();
    assert_eq!(play(&mut cured, "Dc3"), "Dc3[b2,C]");
    assert_eq!(cured.counter(sq("b2")), None);
    assert_eq!(play(&mut cured, "Kg1"), "Kg1");
    assert_eq!(
        cured.board().piece_at(sq("b2")),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    // Too late one turn later.
    assert_eq!(play(&mut p, "Ke7"), "Ke7");
    assert_eq!(play(&mut p, "Kg1"), "Kg1[xb2]");
    assert_eq!(p.board().piece_at(sq("b2")), None);
}

#[test]
fn p04_frozen_pieces_do_not_move_and_a_poisoned_doctor_cures_itself() {
    // Poisoned Doctor d2 and Harpy e2: the Harpy neither moves nor stings,
    // the Doctor can only cure itself (not the Harpy next to it).
    let p = pos("4k3/8/8/8/8/5p2/3DH3/4K3 w - - 0 1 d2:3,e2:2");
    assert_eq!(legal(&p), sorted(&["e1d1", "e1f1", "e1f2", "d2~d2"]));
    let mut cured = p.clone();
    assert_eq!(play(&mut cured, "d2~d2"), "Dd2[d2,C]");
    assert_eq!(cured.poisoned(Color::White), squares(&["e2"]));
    // A poisoned King is frozen too.
    let p = pos("4k3/8/8/8/8/8/8/4K2N w - - 0 1 e1:2");
    assert_eq!(legal(&p), sorted(&["h1f2", "h1g3"]));
}

/// A set of squares by name.
fn squares(names: &[&str]) -> heterodox_env::Bitboard {
    names.iter().map(|n| sq(n)).collect()
}

#[test]
fn p05_cure_only_a_poisoned_friend_and_the_doctor_stays() {
    let mut p = pos("4k3/8/8/8/8/8/3DH3/4K3 w - - 0 1 e2:2");
    let cures: Vec<String> = legal(&p).into_iter().filter(|a| a.contains('~')).collect();
    // Not the unpoisoned King e1, not the unpoisoned Doctor itself.
    assert_eq!(cures, ["d2~e2"]);
    assert!(p.parse_action("d2~e1").is_err());
    assert!(p.parse_action("d2~d2").is_err());
    assert_eq!(play(&mut p, "Dd2"), "Dd2[e2,C]");
    assert_eq!(p.all_poisoned(), heterodox_env::Bitboard::EMPTY);
    assert_eq!(
        p.board().piece_at(sq("d2")),
        Some(Piece::new(Color::White, Role::Doctor))
    );
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/3DH3/4K3 b - - 0 1 -");
}

#[test]
fn p06_poisoned_pieces_and_harpies_attack_nothing() {
    // A poisoned Rook on the King's rank gives no check, guards nothing.
    let p = pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1 a1:3");
    assert!(!p.is_check());
    assert_eq!(legal(&p), sorted(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]));
    // Unpoisoned, it checks.
    assert!(pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1 -").is_check());
    // A Harpy never gives check.
    let p = pos("4k3/8/8/8/8/8/8/h3K3 w - - 0 1 -");
    assert!(!p.is_check());
    assert_eq!(legal(&p).len(), 5);
    // The King may take a piece guarded by a poisoned Rook or by a Harpy,
    // not one guarded by an unpoisoned Rook.
    let take = "e1d2";
    assert!(legal(&pos("3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1 d8:2")).contains(&take.to_owned()));
    assert!(legal(&pos("3hk3/8/8/8/8/8/3n4/4K3 w - - 0 1 -")).contains(&take.to_owned()));
    assert!(!legal(&pos("3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1 -")).contains(&take.to_owned()));
}

#[test]
fn p06_a_poisoned_checking_piece_no_longer_checks() {
    // The black Rook checks; the Harpy poisons it, and the King is free.
    let mut p = pos("k3r3/8/8/8/8/8/3H4/4K3 w - - 0 1 -");
    assert!(p.is_check());
    assert_eq!(legal(&p), sorted(&["e1d1", "e1f1", "e1f2", "d2e2"]));
    let mut q = pos("k7/8/8/8/8/8/3Hr3/4K3 w - - 0 1 -");
    assert!(q.is_check());
    assert_eq!(play(&mut q, "xHd2"), "xHd2[e2,5]");
    play(&mut q, "Ka7");
    assert!(!q.is_check(), "the poisoned Rook on e2 no longer checks");
    assert!(
        legal(&q).contains(&"e1d2".to_owned()),
        "its squares are free"
    );
    // Here the Harpy is next to nothing: it blocks instead.
    assert_eq!(play(&mut p, "He2"), "He2");
}

#[test]
fn p07_poisoning_the_checker_is_the_escape() {
    // Knight check: King steps, cxd3, and poisoning the Knight from c4;
    // not from e2, which would uncover the Guard e7 on the King.
    let p = pos("6k1/4g1pp/8/8/2H5/3n4/P1P1H2P/4K3 w - - 0 1 a2:2,h7:4");
    assert_eq!(
        legal(&p),
        sorted(&["e1d1", "e1d2", "e1f1", "c2d3", "c4*d3"])
    );
    assert_eq!(
        p.parse_action("e2*d3"),
        Err(MoveError::Illegal {
            text: "e2*d3".into(),
            fen: p.fen()
        })
    );
    let mut after = p.clone();
    assert_eq!(play(&mut after, "xHc4"), "xHc4[d3,5;h7,3]");
    assert!(after
        .attackers_to(sq("e1"), Color::Black, after.board().occupied())
        .is_empty());
}

#[test]
fn p07_legality_is_judged_after_the_deaths() {
    // The black pawn e4 dies at the end of any White action and uncovers
    // the Rook e8: the King must leave the e-file now.
    let p = pos("4r1k1/8/8/8/4p3/8/8/4K3 w - - 0 1 e4:1");
    assert_eq!(legal(&p), sorted(&["e1d1", "e1d2", "e1f1", "e1f2"]));
    let mut reference = Vec::new();
    p.legal_actions_by_playing(&mut reference);
    assert_eq!(reference.len(), 4);
    // The Harpy leaving the board uncovers a check on the enemy King: the
    // text's mate.
    let mut problem = pos("2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -");
    assert_eq!(play(&mut problem, "xHe5"), "xHe5#[f5,5]");
    assert!(problem.is_check());
}

#[test]
fn p08_king_next_to_a_poisoned_king() {
    // Unpoisoned Kings never touch...
    let p = pos("4k3/8/4K3/8/8/8/8/8 w - - 0 1 -");
    assert!(!legal(&p).contains(&"e6e7".to_owned()));
    // ...but a King may step next to a poisoned King, which is then in
    // check and, frozen, mated.
    let mut p = pos("4k3/8/4K3/8/8/8/8/8 w - - 0 1 e8:4");
    assert_eq!(
        legal(&p),
        sorted(&["e6d5", "e6e5", "e6f5", "e6d6", "e6f6", "e6d7", "e6e7", "e6f7"])
    );
    assert_eq!(play(&mut p, "Ke7"), "Ke7#[e8,3]");
    assert_eq!(p.outcome(), win(Color::White, Termination::Checkmate));
    // Not if another unpoisoned enemy piece guards the square.
    let p = pos("4k3/8/4K3/8/8/8/8/3r4 w - - 0 1 e8:4");
    assert!(!legal(&p).contains(&"e6d7".to_owned()));
    // The checked poisoned King's only way out: poison the checking King.
    let p = pos("2h1k3/1P1K2pp/6G1/7d/8/8/8/8 b - - 0 1 e8:3,g6:1");
    assert!(p.is_check());
    assert_eq!(legal(&p), ["c8*d7"]);
    assert_eq!(
        p.notation(&p.parse_action("c8*d7").unwrap()),
        "xHc8[xg6;d7,5]"
    );
    // With a Rook behind the Harpy, poisoning uncovers a check: mate.
    let p = pos("R1h1k3/3K2pp/8/8/8/8/8/8 b - - 0 1 e8:3");
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), win(Color::White, Termination::Checkmate));
}

#[test]
fn p09_poisoned_king_dies_and_the_poisoner_wins() {
    let mut game = Game::new(pos("4k3/8/8/8/8/8/8/4K2N w - - 0 1 e8:1"));
    let action = game.position().parse_action("Kd1").unwrap();
    assert_eq!(game.position().notation(&action), "Kd1[xe8]");
    game.play(&action).unwrap();
    assert_eq!(game.outcome(), win(Color::White, Termination::PoisonDeath));
    let mut actions = Vec::new();
    game.position().legal_actions(&mut actions);
    assert!(actions.is_empty());
    assert!(matches!(game.play_text("Ke7"), Err(MoveError::GameOver(_))));
}

#[test]
fn p10_poisoned_king_stalemated_is_a_draw() {
    let p = pos("4k3/8/8/8/8/8/8/4K2H b - - 0 1 e8:3");
    assert!(legal(&p).is_empty());
    assert_eq!(p.outcome(), draw(Termination::Stalemate));
}

#[test]
fn p10_mate_by_a_poisoned_king_without_doctor_is_a_draw() {
    let mut p = pos("2h1k3/1P1K2pp/6G1/7d/8/8/8/8 b - - 0 1 e8:3,g6:1");
    play(&mut p, "xHc8");
    assert_eq!(play(&mut p, "b8=G"), "b8=G#[e8,2]");
    assert_eq!(p.outcome(), draw(Termination::DoomedCheckmate));
    // A poisoned Doctor still counts: the same mate wins.
    let mut p = pos("2h1k3/1P1K2pp/6G1/7d/8/8/8/D7 b - - 0 1 a1:2,e8:3,g6:1");
    play(&mut p, "xHc8");
    assert_eq!(play(&mut p, "b8=R"), "b8=R#[e8,2]");
    assert_eq!(p.outcome(), win(Color::White, Termination::Checkmate));
}

#[test]
fn p10_insufficient_material_counts_the_poison_pieces() {
    let dead = |fen: &str| pos(fen).is_insufficient_material();
    assert!(dead("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 -"));
    assert!(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -"));
    for fen in [
        "4k3/8/8/8/8/8/8/4K2H w - - 0 1 -",
        "4k3/8/8/8/8/8/8/3DK3 w - - 0 1 -",
        "4k3/8/8/8/8/8/8/3GK3 w - - 0 1 -",
        "4k3/8/8/8/8/8/8/3RK3 w - - 0 1 -",
        // A poisoned King may still die (P9).
        "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 e8:3",
    ] {
        assert!(!dead(fen), "{fen}");
    }
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 -").outcome(),
        draw(Termination::InsufficientMaterial)
    );
}

#[test]
fn p11_castling_with_an_unmoved_harpy() {
    let mut p = pos("4k2h/8/8/8/8/8/3h4/H3K2H w KQk - 0 1 d2:1");
    assert_eq!(white_castlings(&p), ["e1c1", "e1g1"]);
    assert_eq!(play(&mut p, "O-O"), "O-O[xd2]");
    assert_eq!(p.fen(), "4k2h/8/8/8/8/8/8/H4HK1 b k - 0 1 -");
    // Neither the King nor the Harpy may be poisoned.
    let castling = |fen: &str| white_castlings(&pos(fen));
    assert_eq!(castling("4k3/8/8/8/8/8/8/H3K2H w KQ - 0 1 h1:3"), ["e1c1"]);
    assert!(castling("4k3/8/8/8/8/8/8/H3K2H w KQ - 0 1 e1:3").is_empty());
    // Attacked squares follow P6: a Rook on f8 stops O-O, a poisoned Rook
    // or a Harpy does not.
    assert!(castling("4kr2/8/8/8/8/8/8/4K2H w K - 0 1 -").is_empty());
    assert_eq!(castling("4kr2/8/8/8/8/8/8/4K2H w K - 0 1 f8:2"), ["e1g1"]);
    assert_eq!(castling("4kh2/8/8/8/8/8/8/4K2H w K - 0 1 -"), ["e1g1"]);
}

#[test]
fn p12_fifty_move_counter_resets_on_poison_cure_and_death() {
    let mut p = pos("4k3/8/8/8/8/8/1n6/H6K w - - 30 20 -");
    play(&mut p, "xHa1");
    assert_eq!(p.halfmoves(), 0, "poisoning");
    play(&mut p, "Ke7");
    play(&mut p, "Kg1");
    assert_eq!(p.halfmoves(), 2, "a countdown alone does not reset");
    let mut p = pos("4k3/8/8/8/8/8/3DH3/4K3 w - - 30 20 e2:2");
    play(&mut p, "d2~e2");
    assert_eq!(p.halfmoves(), 0, "cure");
    let mut p = pos("4k3/8/8/8/8/8/1n6/7K w - - 30 20 b2:1");
    play(&mut p, "Kg1");
    assert_eq!(p.halfmoves(), 0, "death by poison");
    let mut p = pos("4k3/8/8/8/8/8/8/H3K3 w - - 99 80 -");
    play(&mut p, "Ha2");
    assert_eq!(p.halfmoves(), 100);
    assert_eq!(p.outcome(), draw(Termination::FiftyMoves));
}

#[test]
fn p13_the_texts_problem_xhe5_mates_and_hc5_does_not() {
    let problem = pos("2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -");
    let mate = problem.parse_action("xHe5").unwrap();
    assert_eq!(mate, poisoning("e5", "f5"));
    for text in ["xHe5#", "xHe5#[f5,5]", "xHe5[f5,5]", "e5*f5"] {
        assert_eq!(problem.parse_action(text), Ok(mate), "{text}");
    }
    assert_eq!(problem.notation(&mate), "xHe5#[f5,5]");
    let mut after = problem.clone();
    after.play(&mate).unwrap();
    assert_eq!(after.outcome(), win(Color::White, Termination::Checkmate));
    // 2. Hc5 is only check: the Knight takes the Doctor.
    let mut after = problem.clone();
    assert_eq!(play(&mut after, "Hc5"), "Hc5+");
    assert_eq!(after.outcome(), None);
    assert_eq!(play(&mut after, "Nxe3"), "Nxe3");
}

#[test]
fn p13_notation_suffixes_are_written_and_checked() {
    let cases = [
        (
            "k7/8/6D1/6N1/8/8/8/4K3 w - - 0 1 g5:3",
            "g6~g5",
            "Dg6[g5,C]",
        ),
        ("k7/8/8/6n1/4P3/8/8/4K3 w - - 0 1 g5:5", "e4e5", "e5[g5,4]"),
        ("k7/8/1p6/8/8/8/8/4KB2 w - - 0 1 b6:1", "f1c4", "Bc4[xb6]"),
        (
            "k7/8/1p6/6n1/8/8/8/4KB2 w - - 0 1 g5:3,b6:5",
            "f1c4",
            "Bc4[g5,2;b6,4]",
        ),
    ];
    for (fen, long, standard) in cases {
        let p = pos(fen);
        let action = p.parse_action(long).unwrap();
        assert_eq!(p.notation(&action), standard, "{fen}");
        assert_eq!(p.parse_action(standard), Ok(action), "{standard}");
        let bare = standard.split('[').next().unwrap();
        assert_eq!(p.parse_action(bare), Ok(action), "{bare}");
    }
    let p = pos("k7/8/1p6/6n1/8/8/8/4KB2 w - - 0 1 g5:3,b6:5");
    let bc4 = p.parse_action("Bc4").unwrap();
    assert_eq!(p.parse_action("Bc4[b6,4;g5,2]"), Ok(bc4), "any item order");
    assert_eq!(p.parse_action("Bc4[g5,2]"), Ok(bc4), "a partial list");
    assert_eq!(
        p.parse_action("Bc4[g5,3]"),
        Err(MoveError::SuffixMismatch {
            text: "Bc4[g5,3]".into(),
            item: "g5,3".into(),
            expected: "[g5,2;b6,4]".into()
        })
    );
    assert_eq!(
        p.parse_action("Bc4[g5,7]"),
        Err(MoveError::Syntax {
            text: "Bc4[g5,7]".into(),
            reason: "suffix counter is not 1 to 5 or C"
        })
    );
    assert_malformed(&p, &["xHz9", "Bc4[g5,2"]);
    let problem = pos("2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -");
    assert_eq!(
        problem.parse_action("xHe5[f5,4]"),
        Err(MoveError::SuffixMismatch {
            text: "xHe5[f5,4]".into(),
            item: "f5,4".into(),
            expected: "[f5,5]".into()
        })
    );
    assert_eq!(
        problem.parse_action("Hc5[f5,5]"),
        Err(MoveError::SuffixMismatch {
            text: "Hc5[f5,5]".into(),
            item: "f5,5".into(),
            expected: "no suffix".into()
        })
    );
    assert_eq!(
        problem.parse_action("Hc5[f5,5]").unwrap_err().to_string(),
        "the suffix of 'Hc5[f5,5]' disagrees with the position: f5,5 is not true of this \
         action, which writes no suffix"
    );
}

/// A reader accepts every suffix item that is true of the action, whether
/// the writer lists it or not, and refuses only false ones (P13; choice 1
/// in docs/rules/poison.md).
#[test]
fn p13_readers_accept_every_true_suffix_item() {
    // Black poisoned White's f2 pawn (counter 5); White poisoned Black's a7
    // pawn earlier (counter 3). Kf6 lowers only White's own countdown.
    let p = pos("7k/p7/8/4K3/8/8/5P2/8 w - - 0 1 f2:5,a7:3");
    let kf6 = p.parse_action("e5f6").unwrap();
    assert_eq!(p.notation(&kf6), "Kf6[a7,2]");
    for text in [
        "Kf6",
        "Kf6[a7,2]",
        "Kf6[f2,5]",
        "Kf6[f2,5;a7,2]",
        "Kf6[a7,2;f2,5]",
        "Kf6+[f2,5]",
    ] {
        assert_eq!(p.parse_action(text), Ok(kf6), "{text}");
    }
    for (text, item) in [
        ("Kf6[f2,4]", "f2,4"),
        ("Kf6[a7,3]", "a7,3"),
        ("Kf6[f2,5;xa7]", "xa7"),
        ("Kf6[f2,C]", "f2,C"),
        ("Kf6[e5,5]", "e5,5"),
    ] {
        assert_eq!(
            p.parse_action(text),
            Err(MoveError::SuffixMismatch {
                text: text.into(),
                item: item.into(),
                expected: "[a7,2]".into()
            }),
            "{text}"
        );
    }

    // The Harpy on b6 poisons b5 while White's older poison kills g7: the
    // writer lists both, a reader takes either alone.
    let p = pos("4k3/6p1/1H6/1p6/8/8/8/4K3 w - - 0 1 g7:1");
    let sting = poisoning("b6", "b5");
    assert_eq!(p.notation(&sting), "xHb6[b5,5;xg7]");
    for text in ["xHb6", "xHb6[b5,5]", "xHb6[xg7]", "xHb6[xg7;b5,5]", "b6*b5"] {
        assert_eq!(p.parse_action(text), Ok(sting), "{text}");
    }
    for (text, item) in [
        ("xHb6[b5,4]", "b5,4"),
        ("xHb6[g7,1]", "g7,1"),
        ("xHb6[b5,5;xb5]", "xb5"),
    ] {
        assert_eq!(
            p.parse_action(text),
            Err(MoveError::SuffixMismatch {
                text: text.into(),
                item: item.into(),
                expected: "[b5,5;xg7]".into()
            }),
            "{text}"
        );
    }

    // Capturing a poisoned piece is not a death by poison.
    let p = pos("k7/8/1p6/8/3B4/8/8/4K3 w - - 0 1 b6:3");
    assert_eq!(p.notation(&p.parse_action("Bxb6").unwrap()), "Bxb6");
    assert_eq!(
        p.parse_action("Bxb6[xb6]"),
        Err(MoveError::SuffixMismatch {
            text: "Bxb6[xb6]".into(),
            item: "xb6".into(),
            expected: "no suffix".into()
        })
    );
}

/// The Harpy on d3 has two targets: a form both poisonings fit names
/// neither, and a suffix true of only one picks it (P13).
#[test]
fn p13_a_suffix_picks_between_two_poisonings() {
    for (fen, ambiguous, picked, target) in [
        // Two targets next to the Harpy: the bare form is ambiguous.
        (
            "4k3/8/8/8/3p4/3Hn3/8/4K3 w - - 0 1 -",
            "xHd3",
            "xHd3[e3,5]",
            "e3",
        ),
        // A true item both poisonings share leaves the bare form
        // ambiguous; one that only a single poisoning makes true picks it.
        (
            "4k3/7p/8/8/3p4/3Hn3/8/4K3 w - - 0 1 h7:4",
            "xHd3[h7,3]",
            "xHd3[h7,3;d4,5]",
            "d4",
        ),
    ] {
        let p = pos(fen);
        assert!(
            matches!(
                p.parse_action(ambiguous),
                Err(MoveError::Ambiguous { count: 2, .. })
            ),
            "{ambiguous}"
        );
        assert_eq!(
            p.parse_action(picked),
            Ok(poisoning("d3", target)),
            "{picked}"
        );
    }
}

#[test]
fn p09_a_mated_poisoner_does_not_outlive_the_countdown() {
    // White's poison would kill the black King with White's next action,
    // but every White action leaves White's King in check (P7): the game
    // ends first, by mate. Black's King is poisoned: with no Doctor the
    // mate is a draw (P10), with one Black wins.
    let p = pos("r3k3/1r6/8/8/8/8/8/K7 w - - 0 1 e8:1");
    assert!(legal(&p).is_empty());
    assert_eq!(p.outcome(), draw(Termination::DoomedCheckmate));
    let p = pos("r3k3/1r5d/8/8/8/8/8/K7 w - - 0 1 e8:1");
    assert_eq!(p.outcome(), win(Color::Black, Termination::Checkmate));
}
