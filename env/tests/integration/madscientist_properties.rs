//! Seeded random games of Mad Scientist Chess: invariants after every step,
//! and the generator checked against a slow reference written straight
//! from the rulings (vectors from M2, fed to the generic
//! `attacks::leaper_attacks` / `rider_attacks`).

use crate::support;

use std::collections::HashMap;

use heterodox_env::attacks::{leaper_attacks, rider_attacks, DIAGONAL, ORTHOGONAL};
use heterodox_env::madscientist::{MadAction, MadScientist, Part, PieceKind, HAND_LIMIT};
use heterodox_env::{Bitboard, Color, Game, Position, Rank, Square, Termination, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::perft::{perft_file, read_perft_file, reference_perft};

const GAMES: u64 = 2000;
const PLY_CAP: u32 = 250;

/// M2's vectors for one part, forward being the owner's forward.
fn part_vectors(part: Part, color: Color) -> Vec<(i8, i8)> {
    let flip = |v: &[(i8, i8)]| -> Vec<(i8, i8)> {
        v.iter()
            .map(|&(df, dr)| (df, if color == Color::White { dr } else { -dr }))
            .collect()
    };
    match part {
        Part::Wazir => ORTHOGONAL.to_vec(),
        Part::Ferz => DIAGONAL.to_vec(),
        Part::Crab => flip(&[(1, 2), (-1, 2), (2, -1), (-2, -1)]),
        Part::Barc => flip(&[(2, 1), (-2, 1), (1, -2), (-1, -2)]),
    }
}

/// Every legal action in long form, computed the slow, obvious way.
fn reference_actions(p: &MadScientist) -> Vec<String> {
    let us = p.turn();
    let board = p.board();
    let mut out = Vec::new();
    let Some(scientist) = board.scientist_of(us) else {
        return out;
    };
    let hand = p.hand(us);
    if hand.total() > HAND_LIMIT {
        for part in Part::ALL {
            if hand.count(part) > 0 {
                out.push(format!("-{part}"));
            }
        }
        out.sort();
        return out;
    }
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let attacks_of = |sq: Square| -> Bitboard {
        let piece = board.piece_at(sq).unwrap();
        match piece.kind {
            PieceKind::Composite(parts) => {
                let mut a = Bitboard::EMPTY;
                for part in Part::ALL {
                    let v = part_vectors(part, piece.color);
                    match parts.count(part) {
                        0 => {}
                        1 => a |= leaper_attacks(sq, &v),
                        _ => a |= rider_attacks(sq, &v, occupied),
                    }
                }
                a
            }
            PieceKind::Scientist => {
                let mut v = ORTHOGONAL.to_vec();
                v.extend(DIAGONAL);
                leaper_attacks(sq, &v)
            }
            PieceKind::Pawn => {
                let dr = if piece.color == Color::White { 1 } else { -1 };
                leaper_attacks(sq, &[(1, dr), (-1, dr)])
            }
        }
    };
    for (from, piece) in board.pieces() {
        if piece.color != us {
            continue;
        }
        match piece.kind {
            PieceKind::Pawn => {
                let dr = if us == Color::White { 1 } else { -1 };
                let mut to = attacks_of(from) & theirs;
                if let Some(one) = from.offset(0, dr) {
                    if !occupied.contains(one) {
                        to.add(one);
                        if from.relative_rank(us) == Rank::SECOND {
                            let two = from.offset(0, 2 * dr).unwrap();
                            if !occupied.contains(two) {
                                to.add(two);
                            }
                        }
                    }
                }
                for t in to {
                    if t.relative_rank(us) == Rank::EIGHTH {
                        for c in ['q', 'r', 'b', 'n'] {
                            out.push(format!("{from}{t}{c}"));
                        }
                    } else {
                        out.push(format!("{from}{t}"));
                    }
                }
                if let Some(ep) = p.ep_square() {
                    if attacks_of(from).contains(ep) {
                        out.push(format!("{from}{ep}"));
                    }
                }
            }
            _ => {
                for t in attacks_of(from) - ours {
                    out.push(format!("{from}{t}"));
                }
            }
        }
    }
    for rook in p.castling_rights() & Bitboard::relative_rank(us, Rank::FIRST) {
        let step: i32 = if rook.file() > scientist.file() {
            1
        } else {
            -1
        };
        let mut clear = true;
        let mut sq = scientist.offset(step, 0).unwrap();
        while sq != rook {
            clear &= !occupied.contains(sq);
            sq = sq.offset(step, 0).unwrap();
        }
        if clear {
            out.push(format!(
                "{scientist}{}",
                scientist.offset(2 * step, 0).unwrap()
            ));
        }
    }
    for n in Square::all().filter(|n| n.distance(scientist) == 1) {
        match board.piece_at(n) {
            None => {
                for part in Part::ALL {
                    if hand.count(part) > 0 {
                        out.push(format!("{part}@{n}"));
                    }
                }
            }
            Some(piece) => {
                let PieceKind::Composite(parts) = piece.kind else {
                    continue;
                };
                for part in Part::ALL {
                    if hand.count(part) > 0 && parts.count(part) < 2 {
                        out.push(format!("{part}+{n}"));
                    }
                    let attacker = piece.color != us && attacks_of(n).contains(scientist);
                    if parts.count(part) > 0 && !attacker {
                        out.push(format!("{part}-{n}"));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn random_games_keep_the_invariants_and_match_the_reference() {
    let mut endings: HashMap<String, usize> = HashMap::new();
    let mut steps = 0usize;
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(MadScientist::new());
        let mut actions = Vec::new();
        let ending = loop {
            let p = game.position().clone();
            // Hands: at most eight once a turn is complete (side not to
            // move), and only the mover's may be over while discarding.
            assert!(
                p.hand(!p.turn()).total() <= HAND_LIMIT,
                "seed {seed}: {}",
                p.fen()
            );
            for (sq, piece) in p.board().pieces() {
                if let PieceKind::Composite(parts) = piece.kind {
                    assert!(!parts.is_empty(), "seed {seed}: empty piece on {sq}");
                    for part in Part::ALL {
                        assert!(parts.count(part) <= 2, "seed {seed}: {}", p.fen());
                    }
                }
            }
            // The position string reads back to the same position.
            let again = MadScientist::from_fen(&p.fen()).unwrap();
            assert_eq!(again, p, "seed {seed}");
            assert_eq!(again.repetition_key(), p.repetition_key());

            if let Some(outcome) = game.outcome() {
                break outcome.termination().name().to_owned();
            }
            if game.plies() >= PLY_CAP {
                break "ply cap".to_owned();
            }
            game.legal_actions(&mut actions);
            let mut long: Vec<String> = actions.iter().map(ToString::to_string).collect();
            long.sort();
            assert_eq!(long, reference_actions(&p), "seed {seed}: {}", p.fen());
            assert_eq!(p.count_legal_actions(), actions.len());

            let action = actions[rng.random_range(0..actions.len())];
            // Both notations read back to the action.
            assert_eq!(p.parse_action(&action.to_string()), Ok(action));
            assert_eq!(
                p.parse_action(&p.notation(&action)),
                Ok(action),
                "{}",
                p.fen()
            );
            game.play(&action).unwrap();
            steps += 1;
        };
        *endings.entry(ending).or_default() += 1;
    }
    let allowed = [
        Termination::ScientistCaptured.name(),
        Termination::FiftyMoves.name(),
        Termination::ThreefoldRepetition.name(),
        Termination::NoLegalAction.name(),
        "ply cap",
    ];
    for ending in endings.keys() {
        assert!(
            allowed.contains(&ending.as_str()),
            "unexpected ending {ending}"
        );
    }
    assert!(endings[Termination::ScientistCaptured.name()] > 0);
    println!("{steps} steps; endings: {endings:?}");
}

/// The reference generator's actions (strings), read by the position's
/// own reader.
fn reference_legal(p: &MadScientist) -> Vec<MadAction> {
    reference_actions(p)
        .iter()
        .map(|text| p.parse_action(text).unwrap())
        .collect()
}

#[test]
fn reference_perft_matches_the_file() {
    let mut checked = 0;
    for position in read_perft_file(&perft_file(Variant::MadScientist)) {
        for &(depth, nodes, _) in &position.counts {
            if depth <= 3 {
                let p = MadScientist::from_fen(&position.fen).unwrap();
                let fen = &position.fen;
                assert_eq!(
                    reference_perft(&p, depth, &reference_legal),
                    nodes,
                    "{fen} depth {depth}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 18);
}
