//! The FIDE machinery that chess and the variants share: the state fields
//! beside the board (side to move, castling rights, en passant square, the
//! move clocks), castling, en passant, the FIDE endings and SAN matching.
//! `chess` is one user among the others; nothing here knows a variant.

pub mod castling;
pub mod en_passant;
pub mod endings;
pub mod san;
pub(crate) mod state;

pub use castling::validate_castling_rights;
pub use en_passant::validate_ep_square;
pub(crate) use state::FideState;

use crate::{Bitboard, Board, Color, Piece, PositionError, Role};

/// Checks the material any FIDE-like board must have: one king a side, no
/// pawns on the back ranks, at most 16 men and 8 pawns a side.
pub fn validate_fide_material(board: &Board) -> Result<(), PositionError> {
    for color in Color::ALL {
        let kings = board.by_piece(Piece::new(color, Role::King)).count();
        if kings == 0 {
            return Err(PositionError::MissingKing(color));
        }
        if kings > 1 {
            return Err(PositionError::TooManyKings(color));
        }
        let men = board.by_color(color).count();
        if men > 16 {
            return Err(PositionError::TooManyPieces(color, men));
        }
        let pawns = board.by_piece(Piece::new(color, Role::Pawn)).count();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns(color, pawns));
        }
    }
    if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    Ok(())
}
