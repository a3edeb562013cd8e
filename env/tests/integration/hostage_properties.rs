//! Seeded random games of Hostage Chess, from the standard start and from
//! composed positions with fewer men: material is conserved from the start
//! position (each colour's count of each role, across board, prisons and
//! airfields), no side is left in check by its own action, the generator
//! agrees with the brute-force reference and with its counter, notations
//! round-trip, and every game ends with a valid outcome or at the ply cap.

use crate::support;

use heterodox_env::hostage::RESERVE_ROLES;
use heterodox_env::{Color, Game, Hostage, Outcome, Piece, Position, Termination};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::hostage::{reference_legal, sorted_strings};

const GAMES: u64 = 2000;
const PLY_CAP: u32 = 200;
/// Games in which every tenth position is also checked against the slow
/// reference generator.
const REFERENCE_GAMES: u64 = 300;
/// Composed starts (fewer than 32 men), each played for
/// `COMPOSED_GAMES` seeds.
const COMPOSED: [&str; 3] = [
    "4k3/1P6/8/8/8/8/6p1/4K2R[-/-/N/-] w K - 0 1",
    "r3k3/pp6/8/8/8/8/6PP/4K2R[b/P/Q/-] w Kq - 0 1",
    "4k3/8/8/8/8/8/8/4K3[-/-/RP/nb] b E - 0 1",
];
const COMPOSED_GAMES: u64 = 200;

/// Men of each colour and reserve role across board, prisons and airfields.
fn material(pos: &Hostage) -> [[usize; 5]; 2] {
    Color::ALL.map(|color| {
        RESERVE_ROLES.map(|role| {
            pos.board().count(Piece::new(color, role))
                + usize::from(pos.prison(!color).count(role))
                + usize::from(pos.airfield(color).count(role))
        })
    })
}

#[test]
fn random_games_keep_the_invariants() {
    let start = Hostage::new();
    assert_eq!(start.total_men(), 32);
    assert_eq!(material(&start), [[8, 2, 2, 2, 1]; 2]);
    let endings = play_random_games(&start, 0..GAMES);
    println!("mate, stalemate, fifty moves, repetition, cap: {endings:?}");
    assert_eq!(endings.iter().sum::<usize>(), GAMES as usize);
}

#[test]
fn random_games_from_composed_positions_keep_their_material() {
    for fen in COMPOSED {
        let start = Hostage::from_fen(fen).unwrap();
        assert!(start.total_men() < 32, "{fen}");
        let endings = play_random_games(&start, 0..COMPOSED_GAMES);
        println!("{fen}: mate, stalemate, fifty moves, repetition, cap: {endings:?}");
        assert_eq!(endings.iter().sum::<usize>(), COMPOSED_GAMES as usize);
    }
}

/// Plays one seeded random game from `start` per seed, checking the
/// invariants after every action; returns how the games ended (mate,
/// stalemate, fifty moves, repetition, ply cap).
fn play_random_games(start: &Hostage, seeds: std::ops::Range<u64>) -> [usize; 5] {
    let start_material = material(start);
    let mut actions = Vec::new();
    let mut endings = [0usize; 5];
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(start.clone());
        loop {
            let pos = game.position().clone();
            // Conserved from the start position, colour by colour and role
            // by role (32 men only when the game began with 32).
            assert_eq!(material(&pos), start_material, "seed {seed}: {}", pos.fen());
            assert_eq!(pos.total_men(), start.total_men(), "seed {seed}");
            // The FEN round trip revalidates the position.
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
    endings
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
