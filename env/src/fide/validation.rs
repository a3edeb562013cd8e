//! The checks that turn a FIDE-like setup into a position, in pieces each
//! variant composes in its own `from_setup` (Mad Scientist's board is not a
//! [`Board`], so the pawn checks take bitboards).

use super::{castling, validate_ep_square};
use crate::{Bitboard, Board, Color, Piece, PositionError, Role, Setup};

/// What a variant with FIDE material limits allows on its board.
pub struct SetupRules {
    /// The variant's name, for errors.
    pub variant: &'static str,
    /// The roles it plays with.
    pub roles: &'static [Role],
    /// The piece the king castles with (rook; Poison's Harpy).
    pub castling_partner: Role,
    /// Castling rights only on the corners (else anywhere on the back
    /// rank the partner stands).
    pub partner_on_corners: bool,
}

/// Every check of a setup that has no state beyond the FIDE fields: a
/// positive move number, only the variant's roles, the FIDE material
/// limits ([`validate_fide_material`]), castling rights backed by the king
/// on e1/e8 and its partner, a possible en passant square. What needs the
/// variant's attack rules (the side not to move in check) is the
/// variant's.
pub fn validate_fide_setup(setup: &Setup, rules: &SetupRules) -> Result<(), PositionError> {
    let board = &setup.board;
    validate_fullmoves(setup.fullmoves)?;
    validate_roles(board, rules.roles, rules.variant)?;
    validate_fide_material(board)?;
    castling::validate_rights_with(
        board,
        setup.castling_rights,
        rules.castling_partner,
        rules.partner_on_corners,
    )?;
    if let Some(ep) = setup.ep_square {
        validate_ep_square(board, setup.turn, ep)?;
    }
    Ok(())
}

/// The move number starts at 1.
#[inline]
pub fn validate_fullmoves(fullmoves: u32) -> Result<(), PositionError> {
    if fullmoves == 0 {
        return Err(PositionError::ZeroFullmoves);
    }
    Ok(())
}

/// Only `roles` stand on the board (`variant` names the variant in the
/// error).
pub fn validate_roles(
    board: &Board,
    roles: &[Role],
    variant: &'static str,
) -> Result<(), PositionError> {
    for (square, piece) in board.pieces() {
        if !roles.contains(&piece.role) {
            return Err(PositionError::UnsupportedRole {
                role: piece.role,
                square,
                variant,
            });
        }
    }
    Ok(())
}

/// At most eight pawns of `color` (`pawns`: its pawns).
#[inline]
pub fn validate_pawn_count(color: Color, pawns: Bitboard) -> Result<(), PositionError> {
    let count = pawns.count();
    if count > 8 {
        return Err(PositionError::TooManyPawns(color, count));
    }
    Ok(())
}

/// No pawn (of either colour, `pawns`) on the first or last rank.
#[inline]
pub fn validate_back_ranks(pawns: Bitboard) -> Result<(), PositionError> {
    if let Some(sq) = (pawns & Bitboard::BACKRANKS).first() {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    Ok(())
}

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
        validate_pawn_count(color, board.by_piece(Piece::new(color, Role::Pawn)))?;
    }
    validate_back_ranks(board.by_role(Role::Pawn))
}
