//! Measures of a position that strategy claims are phrased in: pressure on
//! the Kings and material. They are read off the rules engine's own board
//! and reserves, so a claim measures what the rules say, not a copy of them.
//!
//! Only the variants whose claims use them implement [`PositionFeatures`]
//! (FIDE chess and Hostage Chess); the definitions are in docs/claims.md.

use crate::attacks::king_attacks;
use crate::hostage::{Reserve, RESERVE_ROLES};
use crate::{Board, Chess, Color, Hostage, Role};

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

fn board_pressure(board: &Board, color: Color) -> i32 {
    attacked_zone_squares(board, !color) - attacked_zone_squares(board, color)
}

fn board_material(board: &Board, color: Color) -> i32 {
    board
        .pieces()
        .filter(|(_, piece)| piece.color == color)
        .map(|(_, piece)| point_value(piece.role))
        .sum()
}

fn reserve_material(reserve: &Reserve) -> i32 {
    RESERVE_ROLES
        .iter()
        .map(|&role| i32::from(reserve.count(role)) * point_value(role))
        .sum()
}

impl PositionFeatures for Chess {
    fn king_zone_pressure(&self, color: Color) -> i32 {
        board_pressure(self.board(), color)
    }

    fn material_balance(&self, color: Color) -> i32 {
        board_material(self.board(), color) - board_material(self.board(), !color)
    }
}

/// In Hostage Chess no man leaves the game: a side's material is its men on
/// the board, its men waiting in its airfield to be dropped, and the
/// prisoners it holds, each at its point value (a prisoner buys back one
/// of the holder's own men of equal or lower rank, H2). A capture thus
/// moves the captured man's value from one side to the other.
fn hostage_material(position: &Hostage, color: Color) -> i32 {
    board_material(position.board(), color)
        + reserve_material(position.airfield(color))
        + reserve_material(position.prison(color))
}

impl PositionFeatures for Hostage {
    fn king_zone_pressure(&self, color: Color) -> i32 {
        board_pressure(self.board(), color)
    }

    fn material_balance(&self, color: Color) -> i32 {
        hostage_material(self, color) - hostage_material(self, !color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_level() {
        let chess = Chess::default();
        let hostage = Hostage::new();
        for color in [Color::White, Color::Black] {
            assert_eq!(chess.king_zone_pressure(color), 0);
            assert_eq!(chess.material_balance(color), 0);
            assert_eq!(hostage.king_zone_pressure(color), 0);
            assert_eq!(hostage.material_balance(color), 0);
        }
    }

    #[test]
    fn pressure_counts_attacked_king_zone_squares() {
        let chess = Chess::from_fen("6k1/8/8/5N1Q/8/8/8/6K1 w - - 0 1").unwrap();
        // Black's zone: f8 g8 h8 f7 g7 h7. Attacked by White: h7 (Qh5),
        // f7 (Qh5 via g6), g7 (Nf5), h8 (Qh5 along the h-file through h6
        // and h7). Nothing attacks White's zone.
        assert_eq!(chess.king_zone_pressure(Color::White), 4);
        assert_eq!(chess.king_zone_pressure(Color::Black), -4);
    }

    #[test]
    fn material_counts_the_board_in_chess() {
        let chess = Chess::from_fen("4k3/8/8/8/8/8/PPP5/RN2K3 w - - 0 1").unwrap();
        assert_eq!(chess.material_balance(Color::White), 3 + 3 + 5);
        assert_eq!(chess.material_balance(Color::Black), -11);
    }

    #[test]
    fn hostage_material_counts_airfields_and_prisons() {
        // White holds two black pawns in prison and has a knight to drop;
        // Black holds a white knight and a white pawn. Board: White is a
        // knight and two pawns short of a full set (the knight in Black's
        // prison, the pawn in Black's prison, the other knight in White's
        // airfield), Black two pawns short.
        let hostage = Hostage::from_fen(
            "r1bqkb1r/pppp2pp/2n2n2/8/8/8/PPPPP1PP/R1BQKB1R[pp/NP/N/-] w KQkq - 0 1",
        )
        .unwrap();
        // White: 7 pawns, R B Q B R = 7 + 5 + 3 + 9 + 3 + 5 = 32, airfield N 3,
        // prison p p 2: 37. Black: 6 pawns, 2 N 2 B 2 R Q = 6 + 6 + 6 + 10
        // + 9 = 37, prison N P 4: 41.
        assert_eq!(hostage.material_balance(Color::White), 37 - 41);
        assert_eq!(hostage.material_balance(Color::Black), 4);
    }
}
