//! The fast legal generator (King test prepared once per position) against
//! the reference that plays every pseudo-legal move on a copy
//! (`Traitor::legal_actions_by_playing`): same actions in the same order,
//! the same count from `count_legal_actions`, and an end of game exactly
//! when the reference finds nothing to do, on every position of seeded
//! random games of all fifteen mode x commitment combinations.

use crate::support;

use heterodox_env::traitor::{
    Commitment, Mode, SelectionSetting, Step, Traitor, TraitorAction, TraitorRules,
};
use heterodox_env::{Outcome, Position, Termination, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::perft::{perft_file, read_perft_file};

const GAMES_PER_COMBINATION: u64 = 100;
const PLY_CAP: u32 = 400;

/// Plays one seeded random game, comparing both generators at every
/// position; returns the number of positions compared.
fn compare_game(rules: TraitorRules, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = Traitor::new(rules).unwrap();
    let mut fast = Vec::new();
    let mut reference = Vec::new();
    let mut compared = 0;
    for _ in 0..PLY_CAP {
        position.legal_actions(&mut fast);
        position.legal_actions_by_playing(&mut reference);
        assert_eq!(fast, reference, "{}", position.fen());
        assert_eq!(
            position.count_legal_actions(),
            reference.len(),
            "{}",
            position.fen()
        );
        let moves: Vec<TraitorAction> = position
            .legal_moves()
            .into_iter()
            .map(TraitorAction::Move)
            .collect();
        let reference_moves: Vec<TraitorAction> = reference
            .iter()
            .copied()
            .filter(|a| matches!(a, TraitorAction::Move(_)))
            .collect();
        if position.step() != Step::Select {
            assert_eq!(moves, reference_moves, "{}", position.fen());
        }
        compared += 1;
        if reference.is_empty() {
            let expected = if position.is_check() {
                Outcome::Decisive {
                    winner: !position.turn(),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome::Draw {
                    termination: Termination::Stalemate,
                }
            };
            assert_eq!(position.outcome(), Some(expected), "{}", position.fen());
            break;
        }
        if position.step() == Step::Open {
            assert!(
                !matches!(
                    position.outcome(),
                    Some(Outcome::Decisive {
                        termination: Termination::Checkmate,
                        ..
                    }) | Some(Outcome::Draw {
                        termination: Termination::Stalemate
                    })
                ),
                "{}",
                position.fen()
            );
        }
        let action = reference[rng.random_range(0..reference.len())];
        position.play_unchecked(&action);
    }
    compared
}

#[test]
fn fast_generator_matches_the_reference_in_all_fifteen_combinations() {
    let mut total = 0;
    for (m, mode) in Mode::ALL.into_iter().enumerate() {
        for (c, commitment) in Commitment::ALL.into_iter().enumerate() {
            for game in 0..GAMES_PER_COMBINATION {
                let seed = 1_000 * (m as u64 * 3 + c as u64) + game;
                let rules = TraitorRules {
                    selection: SelectionSetting::Random { seed },
                    ..TraitorRules::new(mode, commitment)
                };
                total += compare_game(rules, seed);
            }
        }
    }
    // Every game reaches at least its first position and most the ply cap.
    assert!(total > 15 * GAMES_PER_COMBINATION as usize * 100, "{total}");
}

/// Every position within three plies of each position of
/// `tests/data/traitor.perft`, whose cases were chosen for what random play
/// rarely reaches (a check by one's own traitor, pins by traitors, double
/// agents under the weak ko, defections out of check, en passant after an
/// announcement, a rook back from defecting, announce_check=forbidden).
#[test]
fn fast_generator_matches_the_reference_around_the_perft_positions() {
    let mut positions = 0;
    let mut compared = 0;
    for entry in read_perft_file(&perft_file(Variant::Traitor)) {
        let rules = TraitorRules::from_options(&entry.options).unwrap();
        let position = Traitor::from_fen(&entry.fen, rules).unwrap();
        // Selections (2204 a player in Standard) are compared at the root only.
        let depth = if position.step() == Step::Select {
            1
        } else {
            3
        };
        compared += compare_tree(&position, depth);
        positions += 1;
    }
    assert_eq!(positions, 17);
    assert!(compared > 11 * 100, "{compared}");
}

/// Compares both generators at `position` and every position below it to
/// `depth` plies; returns the number of positions compared.
fn compare_tree(position: &Traitor, depth: u32) -> usize {
    let mut reference = Vec::new();
    position.legal_actions_by_playing(&mut reference);
    let mut fast = Vec::new();
    position.legal_actions(&mut fast);
    assert_eq!(fast, reference, "{}", position.fen());
    assert_eq!(position.count_legal_actions(), reference.len());
    let mut compared = 1;
    if depth > 1 {
        for action in &reference {
            let mut child = position.clone();
            child.play_unchecked(action);
            compared += compare_tree(&child, depth - 1);
        }
    }
    compared
}
