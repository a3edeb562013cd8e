//! Chess rules through the public API: moves read in UCI and SAN, SAN
//! written exactly, illegal input refused with the position unchanged, game
//! endings, repetition, and round trips over seeded random games.

use crate::support;

use heterodox_env::{Chess, Color, Game, Move, MoveError, Position, Role, Square, Termination};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::rules::{draw, sq, win};

fn play_line(moves: &[&str]) -> Game<Chess> {
    let mut game = Game::new(Chess::new());
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

#[test]
fn uci_and_san_read_the_same_move() {
    let chess = Chess::new();
    let e4 = Move::Normal {
        role: Role::Pawn,
        from: sq("e2"),
        capture: None,
        to: sq("e4"),
        promotion: None,
    };
    assert_eq!(chess.parse_move("e2e4").unwrap(), e4);
    assert_eq!(chess.parse_move("e4").unwrap(), e4);
    assert_eq!(chess.parse_move(" e4 ").unwrap(), e4);
    assert_eq!(chess.parse_move("Nf3").unwrap().to_string(), "g1f3");
    assert_eq!(chess.parse_move("g1f3").unwrap().to_string(), "g1f3");
}

#[test]
fn castling_reads_as_king_move_king_takes_rook_and_o_o() {
    let chess = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let short = Move::Castle {
        king: Square::E1,
        rook: Square::H1,
    };
    let long = Move::Castle {
        king: Square::E1,
        rook: Square::A1,
    };
    for text in ["e1g1", "e1h1", "O-O", "0-0"] {
        assert_eq!(chess.parse_move(text).unwrap(), short, "{text}");
    }
    for text in ["e1c1", "e1a1", "O-O-O", "0-0-0"] {
        assert_eq!(chess.parse_move(text).unwrap(), long, "{text}");
    }
    assert_eq!(short.to_string(), "e1g1");
    assert_eq!(chess.san(&short), "O-O");
    assert_eq!(chess.san(&long), "O-O-O");
    let mut after = chess.clone();
    after.play(&short).unwrap();
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

#[test]
fn san_is_written_exactly() {
    let cases = [
        // (fen, uci, san)
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "e4d5",
            "exd5",
        ),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "f1b5",
            "Bb5",
        ),
        ("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", "a1b3", "Nab3"),
        ("4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#"),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "e5f6",
            "exf6",
        ),
    ];
    for (fen, uci, san) in cases {
        let chess = Chess::from_fen(fen).unwrap();
        let m = chess
            .parse_move(uci)
            .unwrap_or_else(|e| panic!("{fen} {uci}: {e}"));
        assert_eq!(chess.san(&m), san, "{fen} {uci}");
        assert_eq!(chess.parse_move(san).unwrap(), m, "{fen} {san}");
    }
}

#[test]
fn illegal_and_malformed_moves_leave_the_position_unchanged() {
    let mut game = play_line(&["e4", "e5"]);
    let before = game.position().clone();
    let fen = before.fen();
    let cases: [(&str, MoveError); 6] = [
        (
            "e2e5",
            MoveError::Illegal {
                text: "e2e5".into(),
                fen: fen.clone(),
            },
        ),
        (
            "Ke3",
            MoveError::Illegal {
                text: "Ke3".into(),
                fen: fen.clone(),
            },
        ),
        (
            "e4e5",
            MoveError::Illegal {
                text: "e4e5".into(),
                fen: fen.clone(),
            },
        ),
        (
            "",
            MoveError::Syntax {
                text: "".into(),
                reason: "empty move",
            },
        ),
        (
            "Zf3",
            MoveError::Syntax {
                text: "Zf3".into(),
                reason: "unknown piece letter",
            },
        ),
        (
            "e9",
            MoveError::Syntax {
                text: "e9".into(),
                reason: "bad destination square",
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(game.play_text(text).unwrap_err(), expected, "{text}");
        assert_eq!(game.position(), &before);
        assert_eq!(game.plies(), 2);
    }
    // A well-formed move that is not legal here, given as a Move value.
    let bogus = Move::Normal {
        role: Role::Queen,
        from: sq("d1"),
        capture: None,
        to: sq("d8"),
        promotion: None,
    };
    assert!(matches!(game.play(&bogus), Err(MoveError::Illegal { .. })));
    assert_eq!(game.position(), &before);
}

#[test]
fn ambiguous_san_is_an_error() {
    let chess = Chess::from_fen("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1").unwrap();
    assert_eq!(
        chess.parse_move("Nb3").unwrap_err(),
        MoveError::Ambiguous {
            text: "Nb3".into(),
            fen: "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1".into(),
            count: 2
        }
    );
    assert_eq!(chess.parse_move("Ncb3").unwrap().to_string(), "c1b3");
}

#[test]
fn en_passant_square_is_kept_only_when_a_capture_is_possible() {
    let game = play_line(&["e4"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let game = play_line(&["e4", "d5", "e5", "f5"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    );
    let mut game = game;
    assert_eq!(game.play_text("exf6").unwrap().to_string(), "e5f6");
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

#[test]
fn checkmate_stalemate_and_dead_positions() {
    let fools = play_line(&["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(fools.outcome(), win(Color::Black, Termination::Checkmate));
    assert!(fools.position().is_checkmate());
    let mut over = fools.clone();
    assert_eq!(
        over.play_text("e4").unwrap_err(),
        MoveError::GameOver("0-1 (checkmate)".into())
    );

    let stalemate = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(stalemate.is_stalemate());
    assert_eq!(stalemate.outcome(), draw(Termination::Stalemate));

    let dead = |fen: &str| Chess::from_fen(fen).unwrap().is_insufficient_material();
    assert!(dead("8/8/4k3/8/8/8/4K3/8 w - - 0 1"));
    assert!(dead("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1"));
    assert!(dead("8/8/4k3/8/8/2N5/4K3/8 w - - 0 1"));
    assert!(
        dead("8/8/4kb2/8/8/2B5/4K3/8 w - - 0 1"),
        "bishops on the same colour"
    );
    assert!(
        !dead("8/8/4k1b1/8/8/2B5/4K3/8 w - - 0 1"),
        "bishops on both colours"
    );
    assert!(
        !dead("8/8/4kn2/8/8/2N5/4K3/8 w - - 0 1"),
        "two knights can mate with help"
    );
    assert!(!dead("8/8/4k3/8/8/2R5/4K3/8 w - - 0 1"));
    assert!(!dead("8/8/4k3/8/8/2P5/4K3/8 w - - 0 1"));
    assert_eq!(
        Chess::from_fen("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1")
            .unwrap()
            .outcome(),
        draw(Termination::InsufficientMaterial)
    );
}

#[test]
fn fifty_move_rule_and_mate_on_the_hundredth_half_move() {
    let drawn = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    assert_eq!(drawn.outcome(), draw(Termination::FiftyMoves));
    let not_yet = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert_eq!(not_yet.outcome(), None);
    // Checkmate delivered with the 100th half-move wins: mate comes first.
    let mut mating = Chess::from_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    let mate = mating.parse_move("Ra8").unwrap();
    mating.play(&mate).unwrap();
    assert_eq!(mating.halfmoves(), 100);
    assert_eq!(mating.outcome(), win(Color::White, Termination::Checkmate));
}

#[test]
fn threefold_repetition_by_zobrist_key() {
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut game = play_line(&shuffle);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    for m in &shuffle[..3] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.outcome(), None);
    game.play_text("Ng8").unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), draw(Termination::ThreefoldRepetition));
}

#[test]
fn castling_rights_are_part_of_the_repetition_key() {
    // Same placement, but the king moved out and back: rights are gone.
    let fresh = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let moved = play_from(&fresh, &["Ke2", "Ke7", "Ke1", "Ke8"]);
    assert_eq!(fresh.board(), moved.board());
    assert_ne!(fresh.repetition_key(), moved.repetition_key());
    // Transpositions reach the same key.
    let a = play_from(&Chess::new(), &["Nf3", "Nf6", "Nc3"]);
    let b = play_from(&Chess::new(), &["Nc3", "Nf6", "Nf3"]);
    assert_eq!(a.repetition_key(), b.repetition_key());
    // An en passant square no pawn can use does not count.
    let with_ep = Chess::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    let without = Chess::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
    assert_eq!(with_ep.repetition_key(), without.repetition_key());
    let usable = Chess::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    let unusable = Chess::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(usable.repetition_key(), unusable.repetition_key());
}

fn play_from(start: &Chess, moves: &[&str]) -> Chess {
    let mut chess = start.clone();
    for m in moves {
        let parsed = chess.parse_move(m).unwrap();
        chess.play(&parsed).unwrap();
    }
    chess
}

/// Over seeded random games: FEN, UCI and SAN round-trip for every
/// position and every legal move; the move list has no duplicates and
/// agrees with `is_legal`; the count agrees with the list.
#[test]
fn round_trips_over_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut positions = 0;
    for _ in 0..150 {
        let mut game = Game::new(Chess::new());
        let mut actions = Vec::new();
        while game.outcome().is_none() && game.plies() < 300 {
            let chess = game.position().clone();
            positions += 1;
            let fen = chess.fen();
            let reread = Chess::from_fen(&fen).unwrap();
            assert_eq!(reread, chess, "{fen}");
            assert_eq!(reread.fen(), fen);
            game.legal_actions(&mut actions);
            assert_eq!(actions.len(), chess.count_legal_moves(), "{fen}");
            for (i, m) in actions.iter().enumerate() {
                assert!(!actions[..i].contains(m), "duplicate {m} in {fen}");
                assert!(chess.is_legal(m));
                assert_eq!(
                    chess.parse_move(&m.to_string()).unwrap(),
                    *m,
                    "uci {m} in {fen}"
                );
                let san = chess.san(m);
                assert_eq!(chess.parse_move(&san).unwrap(), *m, "san {san} in {fen}");
                let mut after = chess.clone();
                after.play_unchecked(m);
                assert!(!after
                    .board()
                    .attackers_to(
                        after.board().king_of(chess.turn()).unwrap(),
                        after.turn(),
                        after.board().occupied()
                    )
                    .any());
            }
            let pick = actions[rng.random_range(0..actions.len())];
            game.play(&pick).unwrap();
        }
    }
    assert!(positions > 10_000, "only {positions} positions");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let run = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Chess::new());
        let mut actions = Vec::new();
        while game.outcome().is_none() && game.plies() < 200 {
            game.legal_actions(&mut actions);
            game.play_unchecked(&actions[rng.random_range(0..actions.len())]);
        }
        game.position().fen()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}
