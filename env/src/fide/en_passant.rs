//! En passant: validating the square, the square a double step skips, and
//! the legal captures.

use crate::attacks;
use crate::{Bitboard, Board, Color, Move, Piece, PositionError, Rank, Role, Square};

/// An en passant square must be on the mover's sixth rank, empty, with the
/// square behind it empty and an enemy pawn in front of it.
pub fn validate_ep_square(board: &Board, turn: Color, ep: Square) -> Result<(), PositionError> {
    validate_ep_square_by(
        turn,
        ep,
        board.occupied(),
        board.by_piece(Piece::new(!turn, Role::Pawn)),
    )
}

/// [`validate_ep_square`] from the occupied squares and the pawns of the
/// side not to move, for any kind of board.
pub fn validate_ep_square_by(
    turn: Color,
    ep: Square,
    occupied: Bitboard,
    their_pawns: Bitboard,
) -> Result<(), PositionError> {
    let bad = Err(PositionError::BadEnPassant(ep));
    if ep.relative_rank(turn) != Rank::SIXTH {
        return bad;
    }
    let (Some(pawn), Some(origin)) = (
        ep.offset(0, turn.fold(-1, 1)),
        ep.offset(0, turn.fold(1, -1)),
    ) else {
        return bad;
    };
    if occupied.contains(ep) || occupied.contains(origin) || !their_pawns.contains(pawn) {
        return bad;
    }
    Ok(())
}

/// The square a pawn's move from `from` to `to` skips, when it is a double
/// step.
#[inline(always)]
pub fn skipped_square(from: Square, to: Square) -> Option<Square> {
    (from.rank().index().abs_diff(to.rank().index()) == 2)
        .then(|| Square::from_index_masked((from.index() as u32 + to.index() as u32) / 2))
}

/// After `us`'s double step skipping `skipped`: the square, kept only when
/// one of `takers` (the enemy pawns that may capture) could capture onto
/// it, so positions that differ only in an unusable en passant square
/// compare equal.
#[inline(always)]
pub fn capturable(us: Color, skipped: Square, takers: Bitboard) -> Option<Square> {
    attacks::pawn_attacks(us, skipped)
        .intersects(takers)
        .then_some(skipped)
}

/// The square of the pawn an en passant capture onto `ep` by `us` takes.
#[inline(always)]
pub fn captured_square(ep: Square, us: Color) -> Square {
    Square::from_coords(ep.file(), us.fold(Rank::FIFTH, Rank::FOURTH))
}

/// The en passant captures onto `ep` by `us`'s pawns among `movers` that
/// leave `us`'s king safe: `king_attackers(occupied)` gives the attackers
/// of the king on the board after the capture (which removes two men from
/// one rank, which pin detection cannot see); the captured pawn's own
/// attack does not count.
#[inline(always)]
pub fn visit_legal(
    board: &Board,
    us: Color,
    ep: Square,
    movers: Bitboard,
    king_attackers: impl Fn(Bitboard) -> Bitboard,
    mut emit: impl FnMut(Move),
) {
    let captured = captured_square(ep, us);
    for from in attacks::pawn_attacks(!us, ep) & movers & board.by_piece(Piece::new(us, Role::Pawn))
    {
        let occupied = (board.occupied() - from - captured).with(ep);
        if king_attackers(occupied).without(captured).is_empty() {
            emit(Move::EnPassant { from, to: ep });
        }
    }
}
