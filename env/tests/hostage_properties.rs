//! Seeded random games of Hostage Chess: material is conserved, no side is
//! left in check by its own action, the generator agrees with the
//! brute-force reference and with its counter, notations round-trip, and
//! every game ends with a valid outcome or at the ply cap.

mod hostage_support;

use heterodox_env::{Game, Hostage, Outcome, Position, Termination};
use hostage_support::{reference_legal, sorted_strings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GAMES: u64 = 2000;
const PLY_CAP: u32 = 200;
/// Games in which every tenth position is also checked against the slow
/// reference generator.
const REFERENCE_GAMES: u64 = 300;

#[test]
fn random_games_keep_the_invariants() {
    let mut actions = Vec::new();
    let mut endings = [0usize; 5];
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Hostage::new());
        loop {
            let pos = game.position().clone();
            assert_eq!(pos.total_men(), 32, "seed {seed}: {}", pos.fen());
            // The FEN round trip revalidates conservation role by role.
            assert_eq!(
                Hostage::from_fen(&pos.fen()).as_ref(),
                Ok(&pos),
                "seed {seed}"
            );
            if let Some(outcome) = game.outcome() {
                check_outcome(&game, outcome);
                endings[match outcome.termination() {
                    Termination::Checkmate => 0,
                    Termination::Stalemate => 1,
                    Termination::FiftyMoves => 2,
                    Termination::ThreefoldRepetition => 3,
                    other => panic!("seed {seed}: unexpected ending {other:?}"),
                }] += 1;
                break;
            }
            if game.plies() >= PLY_CAP {
                endings[4] += 1;
                break;
            }
            game.legal_actions(&mut actions);
            assert_eq!(
                pos.count_legal_actions(),
                actions.len(),
                "seed {seed}: {}",
                pos.fen()
            );
            if seed < REFERENCE_GAMES && game.plies() % 10 == 0 {
                assert_eq!(
                    sorted_strings(&actions),
                    sorted_strings(&reference_legal(&pos)),
                    "seed {seed}: {}",
                    pos.fen()
                );
            }
            let action = actions[rng.random_range(0..actions.len())];
            assert_eq!(pos.parse_action(&action.to_string()), Ok(action));
            assert_eq!(pos.parse_action(&pos.notation(&action)), Ok(action));
            let mover = pos.turn();
            game.play(&action).unwrap();
            let after = game.position();
            let king = after.board().king_of(mover).unwrap();
            assert!(
                after
                    .attackers_to(king, !mover, after.board().occupied())
                    .is_empty(),
                "seed {seed}: {action} leaves {mover} in check"
            );
        }
    }
    println!("mate, stalemate, fifty moves, repetition, cap: {endings:?}");
    assert_eq!(endings.iter().sum::<usize>(), GAMES as usize);
}

fn check_outcome(game: &Game<Hostage>, outcome: Outcome) {
    let pos = game.position();
    match outcome.termination() {
        Termination::Checkmate => {
            assert!(pos.is_checkmate());
            assert_eq!(outcome.winner(), Some(!pos.turn()));
        }
        Termination::Stalemate => assert!(pos.is_stalemate()),
        Termination::FiftyMoves => assert!(pos.halfmoves() >= 100),
        Termination::ThreefoldRepetition => assert!(game.repetitions() >= 3),
        other => panic!("unexpected ending {other:?}"),
    }
}
