//! The engine mates with King and Queen (chess) and King and Doctor
//! (Poison) against a lone King, playing both sides, from 20 seeded random
//! positions each, within the 50-move rule.

use crate::support;

use heterodox_engine::Limits;
use heterodox_env::poison::PoisonSetup;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{
    Board, Chess, Color, Game, GameVariant, Outcome, Piece, PoisonChess, Role, Setup, Square,
    Termination,
};

/// A board with White's King and `piece`, and Black's King, on distinct
/// squares drawn from `rng` (legality is checked by the variant).
fn random_board(rng: &mut SplitMix64, piece: Role) -> Board {
    let mut board = Board::empty();
    let mut used = Vec::new();
    for (color, role) in [
        (Color::White, Role::King),
        (Color::White, piece),
        (Color::Black, Role::King),
    ] {
        let square = loop {
            let sq = Square::new(rng.below(64) as u32).unwrap();
            if !used.contains(&sq) {
                break sq;
            }
        };
        used.push(square);
        board.set_piece_at(square, Piece::new(color, role));
    }
    board
}

/// Draws positions until one is legal and not over.
fn random_position<P: GameVariant>(
    rng: &mut SplitMix64,
    make: impl Fn(Board) -> Option<P>,
    piece: Role,
) -> P {
    loop {
        if let Some(position) = make(random_board(rng, piece)) {
            if position.outcome().is_none() {
                return position;
            }
        }
    }
}

/// Plays the engine against itself (one engine a side) until the game
/// ends; returns the outcome and the number of plies.
fn play_out<P: GameVariant>(position: P) -> (Outcome, u32) {
    let mut game = Game::new(position);
    let mut engines = [support::engine::<P>(4), support::engine::<P>(4)];
    let limits = Limits::depth(7);
    while game.outcome().is_none() {
        let side = game.position().turn().index();
        let report = engines[side].search(&game, &limits, |_| {}).unwrap();
        game.play(&report.best).unwrap();
    }
    (game.outcome().unwrap(), game.plies())
}

fn mates_from_twenty_positions<P: GameVariant>(make: impl Fn(Board) -> Option<P>, piece: Role) {
    let mut rng = SplitMix64::new(2024);
    let mut longest = 0;
    for game in 0..20 {
        let position = random_position(&mut rng, &make, piece);
        let fen = position.fen();
        let (outcome, plies) = play_out(position);
        assert_eq!(
            outcome,
            Outcome::Decisive {
                winner: Color::White,
                termination: Termination::Checkmate
            },
            "game {game} from {fen}"
        );
        // No capture or pawn move happens: the mate came before the
        // fiftieth move.
        assert!(plies < 100, "game {game} from {fen}: {plies} plies");
        longest = longest.max(plies);
    }
    assert!(
        longest > 10,
        "the positions were not all trivial: {longest}"
    );
}

#[test]
fn king_and_queen_mate_the_lone_king() {
    mates_from_twenty_positions(
        |board| {
            Chess::from_setup(Setup {
                board,
                ..Setup::empty()
            })
            .ok()
        },
        Role::Queen,
    );
}

#[test]
fn king_and_doctor_mate_the_lone_king() {
    mates_from_twenty_positions(
        |board| {
            PoisonChess::from_setup(PoisonSetup {
                base: Setup {
                    board,
                    ..Setup::empty()
                },
                counters: [0; 64],
            })
            .ok()
        },
        Role::Doctor,
    );
}
