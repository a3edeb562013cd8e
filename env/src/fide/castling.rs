//! Castling: validating rights, the legality test of a castle, the board
//! update, and which moves lose a right.

use crate::attacks;
use crate::{Bitboard, Board, CastlingSide, Color, Move, Piece, PositionError, Rank, Role, Square};

/// Each castling right needs the king on e1/e8 and a rook of its colour on
/// the corner.
pub fn validate_castling_rights(board: &Board, rights: Bitboard) -> Result<(), PositionError> {
    validate_rights_with(board, rights, Role::Rook, false)
}

/// Each castling right needs the king on e1/e8 and a `partner` (rook;
/// Poison's Harpy) of its colour on the right's square, which must be a
/// corner when `corners_only`.
pub fn validate_rights_with(
    board: &Board,
    rights: Bitboard,
    partner: Role,
    corners_only: bool,
) -> Result<(), PositionError> {
    validate_rights_by(rights, |color, king_home, rook| {
        board.piece_at(king_home) == Some(Piece::new(color, Role::King))
            && board.piece_at(rook) == Some(Piece::new(color, partner))
            && (!corners_only || Bitboard::CORNERS.contains(rook))
    })
}

/// Each castling right (a square on the first or last rank) must be
/// `backed(color, king_home, rook)`: the variant says what stands on the
/// king's home square (e1/e8) and on the right's square. For boards that
/// are not a [`Board`] (Mad Scientist's) and rules that look further
/// (Traitor's identities).
#[inline]
pub fn validate_rights_by(
    rights: Bitboard,
    backed: impl Fn(Color, Square, Square) -> bool,
) -> Result<(), PositionError> {
    for rook in rights {
        let color = rank_color(rook);
        if !backed(color, Square::E1.relative_to(color), rook) {
            return Err(PositionError::BadCastlingRight { color, rook });
        }
    }
    Ok(())
}

/// The colour whose castling right a square on the first or last rank is.
#[inline]
pub fn rank_color(rook: Square) -> Color {
    if rook.rank() == Rank::FIRST {
        Color::White
    } else {
        Color::Black
    }
}

/// May `us` castle its king on `king` with the piece on `rook` (the right
/// being known)? The squares both cross or reach are empty, and none the
/// king crosses or reaches (nor its own square when `from_king_square`) is
/// attacked: `attacked(square, occupied)` with king and rook lifted off.
/// The caller checks that the king is not in check, unless it passes
/// `from_king_square`.
#[inline(always)]
pub fn can_castle(
    occupied: Bitboard,
    us: Color,
    king: Square,
    rook: Square,
    from_king_square: bool,
    attacked: impl Fn(Square, Bitboard) -> bool,
) -> bool {
    let side = CastlingSide::from_squares(king, rook);
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let must_be_empty = (attacks::between(king, king_to).with(king_to)
        | attacks::between(rook, rook_to).with(rook_to))
        - king
        - rook;
    if occupied.intersects(must_be_empty) {
        return false;
    }
    let occupied = occupied - king - rook;
    let mut path = attacks::between(king, king_to).with(king_to);
    if from_king_square {
        path.add(king);
    }
    path.into_iter().all(|sq| !attacked(sq, occupied))
}

/// The castles of `us`'s king on `king` with each partner of `rights` on
/// `us`'s first rank that [`can_castle`] allows (the king not in check:
/// the caller checks), emitted as [`Move::Castle`].
#[inline(always)]
pub fn visit_legal(
    occupied: Bitboard,
    us: Color,
    king: Square,
    rights: Bitboard,
    attacked: impl Fn(Square, Bitboard) -> bool,
    mut emit: impl FnMut(Move),
) {
    for rook in rights & Bitboard::relative_rank(us, Rank::FIRST) {
        if can_castle(occupied, us, king, rook, false, &attacked) {
            emit(Move::Castle { king, rook });
        }
    }
}

/// Puts `us`'s king and its castling partner (a rook; Poison's Harpy) on
/// their castled squares.
#[inline(always)]
pub fn castle_on(board: &mut Board, us: Color, king: Square, rook: Square, partner: Role) {
    let side = CastlingSide::from_squares(king, rook);
    board.toggle_piece(Piece::new(us, Role::King), king);
    board.toggle_piece(Piece::new(us, partner), rook);
    board.toggle_piece(Piece::new(us, Role::King), side.king_to(us));
    board.toggle_piece(Piece::new(us, partner), side.rook_to(us));
}

/// Does `m` castle or lose one of `rights` (a king move, a move from or
/// onto a square with a right)? Such a move makes every earlier position
/// unrepeatable.
#[inline]
pub fn touches_castling(rights: Bitboard, m: &Move) -> bool {
    m.is_castle()
        || (rights.any()
            && (m.role() == Role::King || rights.contains(m.from()) || rights.contains(m.to())))
}
