//! Measures of a position that strategy claims are phrased in: pressure on
//! the Kings and material. They are read off the rules engine's own board
//! (and, where a variant keeps men off the board, its reserves), so a claim
//! measures what the rules say, not a copy of them.
//!
//! Only the variants whose claims use them implement [`PositionFeatures`]
//! (FIDE chess and Hostage Chess, each in its `variant.rs`); the helpers
//! below are what such an implementation reads a shared [`Board`] with.
//! The definitions are in docs/claims.md.

use crate::attacks::king_attacks;
use crate::{Board, Color, Role};

/// The usual point values (P 1, N 3, B 3, R 5, Q 9; the King 0): Hostage's
/// exchange ladder (H2: Q > R > B = N > P) orders the roles the same way.
pub const fn point_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        _ => 0,
    }
}

/// King-zone pressure and material, from `color`'s side.
pub trait PositionFeatures {
    /// The squares of the enemy King's zone (its square and the squares
    /// next to it) that `color` attacks, minus the squares of `color`'s
    /// own King zone that the enemy attacks.
    fn king_zone_pressure(&self, color: Color) -> i32;

    /// `color`'s material minus the opponent's, in points.
    fn material_balance(&self, color: Color) -> i32;
}

/// The squares of `defender`'s King zone attacked by the other side.
fn attacked_zone_squares(board: &Board, defender: Color) -> i32 {
    let Some(king) = board.king_of(defender) else {
        return 0;
    };
    let occupied = board.occupied();
    let zone = king_attacks(king).with(king);
    zone.filter(|&sq| board.attackers_to(sq, !defender, occupied).any())
        .count() as i32
}

/// [`PositionFeatures::king_zone_pressure`] by FIDE attacks on a shared
/// [`Board`].
pub fn board_pressure(board: &Board, color: Color) -> i32 {
    attacked_zone_squares(board, !color) - attacked_zone_squares(board, color)
}

/// The point values of `color`'s men on `board`.
pub fn board_material(board: &Board, color: Color) -> i32 {
    board
        .pieces()
        .filter(|(_, piece)| piece.color == color)
        .map(|(_, piece)| point_value(piece.role))
        .sum()
}
