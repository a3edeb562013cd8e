//! FIDE chess: the shared board terms, endgame corrections and move
//! knowledge with chess values (docs/engine.md, "Chess"), and the null
//! move (sound unless the side to act has only King and pawns, where
//! zugzwang is common). Everything here but the role table is the shared
//! machinery applied as is: chess is the reference the variants depart
//! from.

use heterodox_env::chess::ListVisitor;
use heterodox_env::{Bitboard, Chess, Color, Move};

use super::endgame::endgame;
use super::fide::{self, material_balance, role, s, RoleTable, Shape, Taper, NO_ROLE};
use super::fide_moves::{has_pieces, noisy_move, see_at_least, see_value, NoisyMoves};
use super::{for_side_to_act, pass_turn, Evaluated, Knowledge, Noisy, Pruning, Tuning};

/// The chess role table set by hand (docs/engine.md, "Chess"): move
/// ordering, static exchange and the greedy player's material use it, and
/// it is the tuner's starting point.
pub(crate) const ROLES: RoleTable = [
    role(s(85, 110), Shape::Pawn, 0, Taper::ZERO, 0, 0),
    role(s(320, 300), Shape::Knight, 1, s(4, 4), 4, 2),
    role(s(335, 320), Shape::Bishop, 1, s(5, 5), 6, 2),
    role(s(470, 520), Shape::Rook, 2, s(2, 4), 6, 3),
    role(s(960, 960), Shape::Queen, 4, s(1, 2), 12, 5),
    role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
    NO_ROLE,
    NO_ROLE,
    NO_ROLE,
];

pub(crate) struct ChessKnowledge;

/// The knowledge Chess is searched with.
impl Evaluated for Chess {
    type Knowledge = ChessKnowledge;
}

impl Tuning for ChessKnowledge {
    /// The role table: values and mobility.
    type Weights = RoleTable;
    const HAND: RoleTable = ROLES;
    /// The hand-set table: the numbers tuned on the engine's depth-2 games
    /// played 16 Elo worse at 20,000 nodes a move, [-43, +12]
    /// (docs/engine.md, "Tuning"), so they were not adopted.
    const TUNED: RoleTable = ROLES;
}

impl Knowledge for ChessKnowledge {
    type Pos = Chess;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &Chess, roles: &RoleTable) -> i32 {
        let board = pos.board();
        let (terms, phase) = fide::board_terms(board, roles, Bitboard::EMPTY);
        for_side_to_act(endgame(board, terms.blend(phase), roles), pos.turn())
    }

    fn material(pos: &Chess, side: Color) -> i32 {
        material_balance(pos.board(), side, &ROLES)
    }

    fn in_check(pos: &Chess) -> bool {
        pos.is_check()
    }

    fn noisy(_pos: &Chess, action: &Move) -> Option<Noisy> {
        noisy_move(action, see_value, see_value)
    }

    fn noisy_actions(pos: &Chess, out: &mut Vec<Move>) -> bool {
        out.clear();
        let mut noisy = NoisyMoves::new(ListVisitor(out), pos.board(), pos.turn());
        pos.visit_legal_moves(&mut noisy);
        true
    }

    fn see_at_least(pos: &Chess, action: &Move, threshold: i32) -> bool {
        see_at_least(pos.board(), pos.turn(), action, threshold)
    }

    fn null_move(pos: &Chess) -> Option<Chess> {
        if !has_pieces(pos.board(), pos.turn()) {
            return None;
        }
        let mut setup = pos.to_setup();
        pass_turn(&mut setup);
        Chess::from_setup(setup).ok()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::TEMPO;
    use heterodox_env::{Board, Piece, Position, Square};

    /// The position with colours swapped and the board turned over.
    pub(crate) fn mirrored(setup: &heterodox_env::Setup) -> heterodox_env::Setup {
        let mut board = Board::empty();
        for (sq, piece) in setup.board.pieces() {
            board.set_piece_at(sq.flip_vertical(), Piece::new(!piece.color, piece.role));
        }
        heterodox_env::Setup {
            board,
            turn: !setup.turn,
            castling_rights: setup.castling_rights.flip_vertical(),
            ep_square: setup.ep_square.map(Square::flip_vertical),
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        }
    }

    #[test]
    fn the_evaluation_does_not_care_which_colour_is_which() {
        let mut rng = heterodox_env::rng::SplitMix64::new(11);
        let mut actions = Vec::new();
        for _ in 0..20 {
            let mut pos = Chess::new();
            for _ in 0..60 {
                pos.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                pos.play_unchecked(&actions[rng.below(actions.len())]);
                let flipped = Chess::from_setup(mirrored(&pos.to_setup())).unwrap();
                assert_eq!(
                    ChessKnowledge::evaluate(&pos, &ChessKnowledge::TUNED),
                    ChessKnowledge::evaluate(&flipped, &ChessKnowledge::TUNED),
                    "{}",
                    pos.fen()
                );
            }
        }
    }

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        let pos = Chess::new();
        assert_eq!(
            ChessKnowledge::evaluate(&pos, &ChessKnowledge::TUNED),
            TEMPO
        );
        let mut black = pos.clone();
        black.play(&black.parse_action("e2e4").unwrap()).unwrap();
        let after = ChessKnowledge::evaluate(&black, &ChessKnowledge::TUNED);
        assert!(after < 0, "White's centre pawn is worth something: {after}");
    }
}
