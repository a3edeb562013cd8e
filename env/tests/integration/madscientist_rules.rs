//! Mad Scientist Chess: one test per ruling (M1-M6), movement of every part
//! and rider, the parts pawns become, the Scientist's powers and their
//! limits, discards. Positions are written in the variant's position
//! string (docs/rules/madscientist.md).

use crate::support;

use heterodox_env::madscientist::{MadAction, MadScientist, Part, Parts, PieceKind};
use heterodox_env::{Color, FenError, Game, Position, PositionError, Square, Termination};
use support::rules::{assert_illegal, draw, sorted, sq, white_castlings, win};

fn pos(fen: &str) -> MadScientist {
    MadScientist::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn long_actions(p: &MadScientist) -> Vec<String> {
    let mut actions = Vec::new();
    p.legal_actions(&mut actions);
    actions.iter().map(ToString::to_string).collect()
}

/// Sorted destination squares of the board moves from `from`.
fn targets(p: &MadScientist, from: &str) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_actions_vec()
        .into_iter()
        .filter_map(|a| match a {
            MadAction::Move(m) if m.from == sq(from) => Some(m.to.to_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn play(p: &mut MadScientist, text: &str) {
    let action = p
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(&action).unwrap();
}

/// The position reached by playing `text` from `fen`.
fn after(fen: &str, text: &str) -> MadScientist {
    let mut p = pos(fen);
    play(&mut p, text);
    p
}

fn parts_at(p: &MadScientist, square: &str) -> Option<Parts> {
    match p.board().piece_at(sq(square))?.kind {
        PieceKind::Composite(parts) => Some(parts),
        _ => None,
    }
}

// ---------------------------------------------------------------- M1

#[test]
fn m1_capturing_the_scientist_wins_and_ends_the_game() {
    // White's rook on e1 takes the Black Scientist on e8.
    let p = after("4k3/8/8/8/8/8/8/K3R3 w - - - 0 1", "Rxe8");
    assert_eq!(
        p.outcome(),
        win(Color::White, Termination::ScientistCaptured)
    );
    assert_eq!(long_actions(&p), Vec::<String>::new());
    assert_eq!(p.fen(), "4R3/8/8/8/8/8/8/K7 b - - - 0 1");
    // The finished position reads back (the loser, to move, has no Scientist).
    assert_eq!(MadScientist::from_fen(&p.fen()).unwrap(), p);
}

#[test]
fn m1_scientist_ignores_check_and_may_move_into_attack() {
    // Black's rook on d8 attacks the whole d-file; White's Scientist on e1
    // may step to d1 and d2 all the same, and nothing forces it off e1
    // when a rook gives "check" along the e-file.
    let p = pos("3rr2k/8/8/8/8/8/8/4K3 w - - - 0 1");
    assert_eq!(targets(&p, "e1"), sorted(&["d1", "d2", "e2", "f1", "f2"]));
    assert_eq!(p.outcome(), None);
}

#[test]
fn m1_no_legal_action_is_a_draw() {
    // White's Scientist on a6 is walled in by its own blocked pawns, its
    // Barc on a8 and Crab on b8 cannot leap anywhere, the d7 pawn is
    // blocked by a Black rook, and White has nothing in hand.
    let p = pos("[B][C]1r4/PP1P4/KP6/PP6/8/8/8/7k w - - - 0 1");
    assert_eq!(long_actions(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), draw(Termination::NoLegalAction));
}

#[test]
fn m1_castling_ignores_attacks_on_the_scientists_path() {
    // Black rooks attack e1, f1 and g1; White castles king side anyway.
    let mut p = pos("k3rrr1/8/8/8/8/8/8/4K2R w K - - 0 1");
    assert!(long_actions(&p).contains(&"e1g1".to_owned()));
    play(&mut p, "O-O");
    assert_eq!(p.fen(), "k3rrr1/8/8/8/8/8/8/5RK1 b - - - 1 1");
}

#[test]
fn m1_castling_needs_an_unmoved_scientist_and_an_unmodified_rook() {
    let mut p = pos("k7/8/8/8/8/8/8/R3K2R w KQ - - 0 1");
    assert_eq!(white_castlings(&p), ["e1c1", "e1g1"]);
    assert_eq!(p.notation(&p.parse_action("e1c1").unwrap()), "O-O-O");
    play(&mut p, "Kf1");
    assert_eq!(p.fen(), "k7/8/8/8/8/8/8/R4K1R b - - - 1 1");

    // Black's Scientist takes a Wazir off White's h1 rook and later puts
    // it back: a two-Wazir piece again, but modified, so no castling.
    let mut p = after("8/8/8/8/8/8/P5k1/4K2R b K - - 0 1", "W-h1");
    assert_eq!(p.fen(), "8/8/8/8/8/8/P5k1/4K2[W] w - - w 0 2");
    play(&mut p, "a3");
    play(&mut p, "W+h1");
    assert_eq!(p.fen(), "8/8/8/8/8/P7/6k1/4K2R w - - - 0 3");
    assert!(!long_actions(&p).contains(&"e1g1".to_owned()));

    // A castling right on a modified rook is refused.
    assert_eq!(
        MadScientist::from_fen("k7/8/8/8/8/8/8/4K2[WWF] w K - - 0 1").unwrap_err(),
        FenError::Position(PositionError::BadCastlingRight {
            color: Color::White,
            rook: Square::H1
        })
    );
}

#[test]
fn m1_no_insufficient_material_draw() {
    let p = pos("8/8/4k3/8/8/3K4/8/8 w - - - 0 1");
    assert_eq!(p.outcome(), None);
}

// ---------------------------------------------------------------- M2

#[test]
fn m2_single_part_pieces_move_by_their_vectors_both_colours() {
    // Each part alone on d4 (White) or d5 (Black), Scientists in corners.
    let cases = [
        (Color::White, "[W]", &["c4", "d3", "d5", "e4"][..]),
        (Color::White, "[F]", &["c3", "c5", "e3", "e5"][..]),
        // White Crab: narrow forward (+-1,+2), wide back (+-2,-1).
        (Color::White, "[C]", &["b3", "c6", "e6", "f3"][..]),
        // White Barc: wide forward (+-2,+1), narrow back (+-1,-2).
        (Color::White, "[B]", &["b5", "c2", "e2", "f5"][..]),
        // Black: forward is down the board.
        (Color::Black, "[w]", &["c5", "d4", "d6", "e5"][..]),
        (Color::Black, "[f]", &["c4", "c6", "e4", "e6"][..]),
        (Color::Black, "[c]", &["b6", "c3", "e3", "f6"][..]),
        (Color::Black, "[b]", &["b4", "c7", "e7", "f4"][..]),
    ];
    for (colour, token, expected) in cases {
        let (fen, square) = match colour {
            Color::White => (format!("7k/8/8/8/3{token}4/8/8/K7 w - - - 0 1"), "d4"),
            Color::Black => (format!("7k/8/8/3{token}4/8/8/8/K7 b - - - 0 1"), "d5"),
        };
        assert_eq!(targets(&pos(&fen), square), sorted(expected), "{token}");
    }
    // From a corner and an edge.
    assert_eq!(
        targets(&pos("7k/8/8/8/8/8/8/[C]6K w - - - 0 1"), "a1"),
        sorted(&["b3"])
    );
    assert_eq!(
        targets(&pos("7k/8/8/8/8/8/8/[B]6K w - - - 0 1"), "a1"),
        sorted(&["c2"])
    );
    assert_eq!(
        targets(&pos("7k/8/8/8/[c]7/8/8/K7 b - - - 0 1"), "a4"),
        sorted(&["b2", "c5"])
    );
}

#[test]
fn m2_riders_crab_barc_and_nightrider_both_colours() {
    // Crab rider (two Crabs), White on d4: rides (1,2) e6 f8, (-1,2) c6 b8,
    // (2,-1) f3 h2, (-2,-1) b3.
    let p = pos("7k/8/8/8/3[CC]4/8/8/K7 w - - - 0 1");
    assert_eq!(
        targets(&p, "d4"),
        sorted(&["b3", "b8", "c6", "e6", "f3", "f8", "h2"])
    );
    // Barc rider, White on d4: (2,1) f5 h6, (-2,1) b5, (1,-2) e2, (-1,-2) c2.
    let p = pos("7k/8/8/8/3[BB]4/8/8/K7 w - - - 0 1");
    assert_eq!(targets(&p, "d4"), sorted(&["b5", "c2", "e2", "f5", "h6"]));
    // Nightrider (two Crabs and two Barcs): all eight knight rays.
    let p = pos("7k/8/8/8/3[CCBB]4/8/8/K7 w - - - 0 1");
    assert_eq!(
        targets(&p, "d4"),
        sorted(&["b3", "b5", "b8", "c2", "c6", "e2", "e6", "f3", "f5", "f8", "h2", "h6"])
    );
    // Black Crab rider on d5 mirrors White's on d4.
    let p = pos("k7/8/8/3[cc]4/8/8/8/7K b - - - 0 1");
    assert_eq!(
        targets(&p, "d5"),
        sorted(&["b1", "b6", "c3", "e3", "f1", "f6", "h7"])
    );
    // Black Barc rider on d5.
    let p = pos("k7/8/8/3[bb]4/8/8/8/7K b - - - 0 1");
    assert_eq!(targets(&p, "d5"), sorted(&["b4", "c7", "e7", "f4", "h3"]));
    // A rider stops at the first piece: captures an enemy, not a friend.
    // White Crab rider d4; Black pawn on e6 (taken, f8 beyond is cut off),
    // White pawn on c6 (blocks b8 and c6).
    let p = pos("7k/8/2P1p3/8/3[CC]4/8/8/K7 w - - - 0 1");
    assert_eq!(targets(&p, "d4"), sorted(&["b3", "e6", "f3", "h2"]));
}

#[test]
fn m2_composite_pieces_combine_their_parts() {
    // Rook plus a Ferz: rides orthogonally, steps diagonally.
    let p = pos("7k/8/8/8/8/8/1P6/[WWF]6K w - - - 0 1");
    assert_eq!(
        targets(&p, "a1"),
        sorted(&["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1"])
    );
    // Bishop plus a Wazir on f1, start-like: steps to e1? no (own), f2 own.
    let p = pos("7k/8/8/8/8/8/8/[WFF]6K w - - - 0 1");
    assert_eq!(
        targets(&p, "a1"),
        sorted(&["a2", "b1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"])
    );
}

// ---------------------------------------------------------------- M3

#[test]
fn m3_capturing_a_piece_puts_all_its_parts_in_hand() {
    let p = after("k7/8/8/8/3q4/8/8/K2R4 w - - - 0 1", "Rxd4");
    assert_eq!(p.hand(Color::White).to_string(), "WWFF");
    assert_eq!(p.fen(), "k7/8/8/8/3R4/8/8/K7 b - - WWFF 0 1");
}

#[test]
fn m3_a_captured_pawn_becomes_the_part_of_the_capturing_vector() {
    // (position, capture, part expected in the capturer's hand)
    let cases = [
        // Orthogonal: rook takes a pawn along the file.
        ("k7/8/8/3p4/8/8/8/K2R4 w - - - 0 1", "Rxd5", Part::Wazir),
        // Diagonal: bishop.
        ("k7/8/8/8/8/8/6p1/K4B2 w - - - 0 1", "Bxg2", Part::Ferz),
        // Scientist, diagonal and orthogonal.
        ("k7/8/8/8/8/8/1p6/K7 w - - - 0 1", "Kxb2", Part::Ferz),
        ("k7/8/8/8/8/8/p7/K7 w - - - 0 1", "Kxa2", Part::Wazir),
        // Crab forward (+1,+2) and back (-2,-1).
        ("k7/8/8/4p3/8/3[C]4/8/K7 w - - - 0 1", "[C]xe5", Part::Crab),
        ("k7/8/8/8/8/3[C]4/1p6/K7 w - - - 0 1", "[C]xb2", Part::Crab),
        // Barc forward (+2,+1) and back (+1,-2).
        ("k7/8/8/8/5p2/3[B]4/8/K7 w - - - 0 1", "[B]xf4", Part::Barc),
        ("k7/8/8/8/3[B]4/8/4p3/K7 w - - - 0 1", "[B]xe2", Part::Barc),
        // A knight (Crab + Barc): the vector decides.
        ("k7/8/8/4p3/8/3N4/8/K7 w - - - 0 1", "Nxe5", Part::Crab),
        ("k7/8/8/8/5p2/3N4/8/K7 w - - - 0 1", "Nxf4", Part::Barc),
        // Nightrider's double (2,4) step is a Crab vector.
        (
            "k7/8/4p3/8/8/8/2[CCBB]5/K7 w - - - 0 1",
            "[CCBB]xe6",
            Part::Crab,
        ),
        // Pawn takes pawn: diagonal.
        ("k7/8/8/8/3p4/4P3/8/K7 w - - - 0 1", "exd4", Part::Ferz),
    ];
    for (fen, capture, part) in cases {
        let p = after(fen, capture);
        let hand = p.hand(Color::White);
        assert_eq!((hand.total(), hand.count(part)), (1, 1), "{fen} {capture}");
    }
    // Black's forward is down the board: a Black Crab taking (-1,-2) from
    // its own side is a Crab move; the same vector for White is a Barc's.
    let p = after("k7/8/3[c]4/8/2P5/8/8/K7 b - - - 0 1", "[C]xc4");
    assert_eq!(p.hand(Color::Black).to_string(), "C");
    // En passant is a diagonal capture: a Ferz.
    let p = after("k7/8/8/3pP3/8/8/8/K7 w - d6 - 0 1", "exd6");
    assert_eq!(p.hand(Color::White).to_string(), "F");
    assert_eq!(p.fen(), "k7/8/3P4/8/8/8/8/K7 b - - F 0 1");
}

#[test]
fn m3_promotion_makes_part_pieces() {
    for (promotion, parts) in [
        ("q", Parts::QUEEN),
        ("r", Parts::ROOK),
        ("b", Parts::BISHOP),
        ("n", Parts::KNIGHT),
    ] {
        let p = after(
            "k7/4P3/8/8/8/8/8/K7 w - - - 0 1",
            &format!("e7e8{promotion}"),
        );
        assert_eq!(parts_at(&p, "e8"), Some(parts));
    }
    let p = after("k4r2/4P3/8/8/8/8/8/K7 w - - - 0 1", "exf8=N");
    assert_eq!(p.fen(), "k4N2/8/8/8/8/8/8/K7 b - - WW 0 1");
}

// ---------------------------------------------------------------- M4

#[test]
fn m4_discards_continue_the_same_turn_down_to_eight() {
    // White holds eight parts and takes a queen: twelve, four to discard.
    let mut p = after("k7/8/8/8/3q4/8/8/K2R4 w - - WWFFCCBB 7 10", "Rxd4");
    assert_eq!(p.turn(), Color::White);
    assert!(p.is_discarding());
    assert_eq!(p.fen(), "k7/8/8/8/3R4/8/8/K7 w - - WWWWFFFFCCBB 0 10");
    assert_eq!(long_actions(&p), ["-W", "-F", "-C", "-B"]);
    for discard in ["-W", "-W", "-C"] {
        play(&mut p, discard);
        assert_eq!(p.turn(), Color::White);
    }
    assert_eq!(p.hand(Color::White).total(), 9);
    play(&mut p, "-B");
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.fen(), "k7/8/8/8/3R4/8/8/K7 b - - WWFFFFCB 0 10");
}

#[test]
fn m4_a_remove_into_a_full_hand_discards_one() {
    let mut p = after("k7/8/8/8/8/8/8/KN6 w - - WWFFCCBB 3 1", "C-b1");
    assert_eq!(p.turn(), Color::White);
    assert_eq!(long_actions(&p), ["-W", "-F", "-C", "-B"]);
    play(&mut p, "-C");
    assert_eq!(p.fen(), "k7/8/8/8/8/8/8/K[B]6 b - - WWFFCCBB 0 1");
}

// ---------------------------------------------------------------- M5

#[test]
fn m5_animate_puts_a_one_part_piece_on_an_empty_neighbour() {
    let mut p = pos("k7/8/8/8/8/8/PP6/K7 w - - C 0 1");
    let animations: Vec<String> = long_actions(&p)
        .into_iter()
        .filter(|a| a.contains('@'))
        .collect();
    assert_eq!(animations, ["C@b1"]);
    play(&mut p, "C@b1");
    assert_eq!(p.fen(), "k7/8/8/8/8/8/PP6/K[C]6 b - - - 0 1");
    // Not next to the Scientist, or on an occupied square: refused.
    let p = pos("k7/8/8/8/8/8/PP6/K7 w - - C 0 1");
    assert_illegal(&p, &["C@c1", "C@a2"]);
    // A part not in hand cannot be animated.
    assert_illegal(&p, &["W@b1"]);
}

#[test]
fn m5_attach_refused_on_pawns_scientists_and_a_third_part() {
    // White Scientist b2; neighbours: pawn a2, Black Scientist... no:
    // Scientists may not be adjacent in play, but a Black Scientist next to
    // White's is a legal position (it could be captured).
    let p = pos("8/8/8/8/8/2k5/PK6/R7 w - - WF 0 1");
    let attaches: Vec<String> = long_actions(&p)
        .into_iter()
        .filter(|a| a.contains('+'))
        .collect();
    // Only the rook on a1 takes a part, and only the Ferz (a third Wazir
    // is refused); the pawn on a2 and the Scientist on c3 take none.
    assert_eq!(attaches, ["F+a1"]);
    assert_illegal(&p, &["W+a1", "W+a2", "F+a2", "F+c3"]);
}

#[test]
fn m5_attach_to_an_enemy_piece_leaves_it_enemy() {
    let p = after("k7/8/8/8/8/8/1b6/K7 w - - W 0 1", "W+b2");
    assert_eq!(p.fen(), "k7/8/8/8/8/8/1[wff]6/K7 b - - - 0 1");
    assert_eq!(p.board().color_at(sq("b2")), Some(Color::Black));
}

#[test]
fn m5_remove_refused_from_an_enemy_piece_that_attacks_the_scientist() {
    // White Scientist d4. Black rook d5 (attacks d4: refused), Black bishop
    // e4 (orthogonal neighbour, does not attack: allowed), Black bishop c3
    // (diagonal neighbour, attacks: refused), White rook c4 (own: allowed).
    let p = pos("k7/8/8/3r4/2RKb3/2b5/8/8 w - - - 0 1");
    let removes: Vec<String> = long_actions(&p)
        .into_iter()
        .filter(|a| a.len() == 4 && &a[1..2] == "-")
        .collect();
    assert_eq!(removes, ["W-c4", "F-e4"]);
    assert_illegal(&p, &["W-d5", "F-c3"]);
}

#[test]
fn m5_removing_the_last_part_takes_the_piece_off_the_board() {
    let p = after("k7/8/8/8/8/8/8/K[f]6 w - - - 0 1", "F-b1");
    assert_eq!(p.fen(), "k7/8/8/8/8/8/8/K7 b - - F 0 1");
}

// ---------------------------------------------------------------- M6

#[test]
fn m6_fifty_move_counter_reset_by_captures_pawn_moves_and_powers() {
    let mut p = after("k7/8/8/8/8/8/4P3/K[W]6 w - - F 10 1", "F+b1"); // power: reset
    assert_eq!(p.halfmoves(), 0);
    play(&mut p, "Kb8"); // Scientist move: counts
    assert_eq!(p.halfmoves(), 1);
    play(&mut p, "[WF]c2");
    assert_eq!(p.halfmoves(), 2);
    play(&mut p, "Ka8");
    play(&mut p, "e4"); // pawn move: reset
    assert_eq!(p.halfmoves(), 0);
    // A quiet move at 99 ends the game.
    let p = after("k7/8/8/8/8/8/8/K[W]6 w - - - 99 80", "[W]c1");
    assert_eq!(p.outcome(), draw(Termination::FiftyMoves));
}

// ---------------------------------------------------------------- repetition

#[test]
fn repetition_counts_across_scientist_powers() {
    // Remove a Wazir from the rook, move, attach it back, move back: the
    // position recurs (powers reset the 50-move counter but are not
    // irreversible: parts return).
    let mut game = Game::new(pos("k7/8/8/8/8/8/8/KR6 w - - - 0 1"));
    for _ in 0..2 {
        for text in ["W-b1", "Kb8", "W+b1", "Ka8"] {
            game.play_text(text).unwrap();
        }
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), draw(Termination::ThreefoldRepetition));
}

// ---------------------------------------------------------------- depth 1

#[test]
fn start_position_actions_are_exactly_these() {
    let p = MadScientist::new();
    let expected = [
        "b1a3", "b1c3", "g1f3", "g1h3", "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3",
        "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4", "W-d1", "F-d1",
        "F-f1",
    ];
    assert_eq!(long_actions(&p), expected);
}

#[test]
fn hands_and_riders_position_actions_are_exactly_these() {
    // White: Scientist b2, Crab rider a1 (boxed in: its rides go b3... see
    // below), pawn c2; hand W, C. Black: Scientist h8, Barc on c3.
    let p = pos("7k/8/8/8/8/2[b]5/1KP5/[CC]7 w - - WC 0 1");
    let expected = [
        // Crab rider a1 (White): (1,2) b3 c5 d7; (2,-1) off board.
        "a1b3", "a1c5", "a1d7", // Scientist b2: a2, a3, b1, b3, c1, c3 (capture).
        "b2a2", "b2a3", "b2b3", "b2c3", "b2b1", "b2c1",
        // Pawn c2: c3 is occupied; takes nothing (b3, d3 empty).
        // Animate W and C on the empty neighbours a2 a3 b1 b3 c1.
        "W@a2", "W@a3", "W@b1", "W@b3", "W@c1", "C@a2", "C@a3", "C@b1", "C@b3", "C@c1",
        // Attach to a1 (W; not C: it has two) and to the enemy Barc c3.
        "W+a1", "W+c3", "C+c3",
        // (A Black Barc on c3 leaps to a2, e2, b5, d5: not b2.)
        // Remove from a1 (Crab); the Barc on c3 does not attack b2: allowed.
        "C-a1", "B-c3",
    ];
    let mut got = long_actions(&p);
    let mut want: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}
