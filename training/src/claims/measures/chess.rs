//! FIDE chess: King-zone pressure and material on the board (the attacker
//! claim's control), and its men by role (the default inventory).

use heterodox_env::{Chess, Color};

use super::{board_material, board_pressure, fide_inventory, MaterialInventory, PositionFeatures};

impl PositionFeatures for Chess {
    fn king_zone_pressure(&self, color: Color) -> i32 {
        board_pressure(self.board(), color)
    }

    fn material_balance(&self, color: Color) -> i32 {
        board_material(self.board(), color) - board_material(self.board(), !color)
    }
}

impl MaterialInventory for Chess {
    fn material_difference(&self) -> Vec<i32> {
        fide_inventory(self.board())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_inventory, assert_level};
    use super::*;

    #[test]
    fn the_start_position_is_level() {
        assert_level(&Chess::default());
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
    fn the_inventory_counts_men_by_role() {
        // White: 3 pawns, a knight, a rook; Black: a bishop and a queen.
        let chess = Chess::from_fen("3qkb2/8/8/8/8/8/PPP5/RN2K3 w - - 0 1").unwrap();
        assert_inventory(&Chess::default(), &chess, &[3, 1, -1, 1, -1]);
        assert_eq!(
            Chess::MATERIAL_KINDS,
            ["pawn", "knight", "bishop", "rook", "queen"]
        );
    }
}
