//! The observation planes of the FIDE state, written the same way by every
//! variant played on a FIDE-like board: the piece planes, the castling
//! rights, the en passant square, the no-progress counter and the side to
//! move. Chess's layout is these and nothing else; the variants put their
//! own planes around them (docs/encoding.md).

use super::{write_bitboard_plane, write_constant_plane, SQUARES};
use crate::{Bitboard, Board, CastlingSide, Color, Rank, Role, Setup, Square};

/// The six FIDE roles in plane order: [`Role::FIDE`]'s, P N B R Q K.
pub const FIDE_PLANE_ROLES: [Role; 6] = Role::FIDE;

/// Planes written by [`encode_fide_state`].
pub const FIDE_STATE_PLANES: usize = 8;

/// The names of chess's observation planes: the twelve piece planes of
/// [`encode_fide_pieces`], then the [`FIDE_STATE_PLANES`] of
/// [`encode_fide_state`]. Variants that keep chess's layout start with
/// them (Hostage); the others name the state planes the same way.
pub const FIDE_CHANNEL_NAMES: [&str; 12 + FIDE_STATE_PLANES] = [
    "own_pawn",
    "own_knight",
    "own_bishop",
    "own_rook",
    "own_queen",
    "own_king",
    "their_pawn",
    "their_knight",
    "their_bishop",
    "their_rook",
    "their_queen",
    "their_king",
    "own_kingside_castling",
    "own_queenside_castling",
    "their_kingside_castling",
    "their_queenside_castling",
    "en_passant",
    "no_progress",
    "side_to_move",
    "ones",
];

/// The names of the planes [`encode_fide_state`] writes, in its order.
pub const FIDE_STATE_PLANE_NAMES: &[&str] = FIDE_CHANNEL_NAMES.split_at(12).1;

/// 1.0 for true, 0.0 for false (flags as constant planes).
#[inline]
pub fn flag(value: bool) -> f32 {
    if value {
        1.0
    } else {
        0.0
    }
}

/// The no-progress feature: half-moves toward the 50-move rule / 100, at
/// most 1.
#[inline]
pub fn no_progress(halfmoves: u32) -> f32 {
    (halfmoves as f32 / 100.0).min(1.0)
}

/// Writes one plane per role of `roles` for `observer`'s pieces, then as
/// many for the opponent's, into `out[..2 * roles.len() * 64]`, seen from
/// `observer`'s side.
#[inline]
pub fn encode_pieces(board: &Board, roles: &[Role], observer: Color, out: &mut [f32]) {
    let planes = &mut out[..2 * roles.len() * SQUARES];
    for (side, color) in [observer, !observer].into_iter().enumerate() {
        let ours = board.by_color(color);
        for (index, role) in roles.iter().enumerate() {
            let first = (side * roles.len() + index) * SQUARES;
            write_bitboard_plane(
                &mut planes[first..first + SQUARES],
                board.by_role(*role) & ours,
                observer,
            );
        }
    }
}

/// Writes the twelve FIDE piece planes (own P N B R Q K, then the
/// opponent's) of `board` as seen by `observer` into `out[..12 * 64]`.
#[inline]
pub fn encode_fide_pieces(board: &Board, observer: Color, out: &mut [f32]) {
    encode_pieces(board, &FIDE_PLANE_ROLES, observer, out);
}

/// Which castling rights `color` holds: (king-side, queen-side). Rights are
/// the squares of the king's partners (rooks; Poison's Harpies); one on the
/// king's right is king-side.
pub fn castling_sides(rights: Bitboard, color: Color) -> (bool, bool) {
    let king_home = Square::E1.relative_to(color);
    let mut sides = (false, false);
    for rook in rights & Bitboard::relative_rank(color, Rank::FIRST) {
        match CastlingSide::from_squares(king_home, rook) {
            CastlingSide::KingSide => sides.0 = true,
            CastlingSide::QueenSide => sides.1 = true,
        }
    }
    sides
}

/// The en passant square as a plane (empty without one).
#[inline]
pub fn write_en_passant_plane(plane: &mut [f32], ep_square: Option<Square>, observer: Color) {
    let squares = ep_square.map_or(Bitboard::EMPTY, Bitboard::from_square);
    write_bitboard_plane(plane, squares, observer);
}

/// Writes the [`FIDE_STATE_PLANES`] planes of the fields beside the board
/// of `state` (a variant's `fide` field or a setup), in chess's order:
/// castling own king-side, own queen-side, their king-side, their
/// queen-side (constant 0/1); the en passant square; the no-progress
/// counter; the side to move (1 when White is to act); ones.
#[inline]
pub fn encode_fide_state<B>(state: &Setup<B>, observer: Color, out: &mut [f32]) {
    let mut planes = out[..FIDE_STATE_PLANES * SQUARES].chunks_exact_mut(SQUARES);
    let mut next = || planes.next().expect("eight planes");
    for side in [observer, !observer] {
        let (kingside, queenside) = castling_sides(state.castling_rights, side);
        write_constant_plane(next(), flag(kingside));
        write_constant_plane(next(), flag(queenside));
    }
    write_en_passant_plane(next(), state.ep_square, observer);
    write_constant_plane(next(), no_progress(state.halfmoves));
    write_constant_plane(next(), flag(state.turn.is_white()));
    write_constant_plane(next(), 1.0);
}
