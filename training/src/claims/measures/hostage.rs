//! Hostage Chess: King-zone pressure, and material that counts the men off
//! the board too (the attacker claim), and its men by kind, on the board,
//! in the airfields and in the prisons (the piece-values claim).

use heterodox_env::hostage::{Reserve, RESERVE_ROLES};
use heterodox_env::{Color, Hostage};

use super::{
    board_material, board_pressure, board_role_difference, point_value, MaterialInventory,
    PositionFeatures,
};

fn reserve_material(reserve: &Reserve) -> i32 {
    RESERVE_ROLES
        .iter()
        .map(|&role| i32::from(reserve.count(role)) * point_value(role))
        .sum()
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

impl MaterialInventory for Hostage {
    /// Each role three ways: on the board; in the side's airfield (its own
    /// men, to be dropped); held in the side's prison (enemy men, each
    /// buying back one of its own of equal or lower rank).
    const MATERIAL_KINDS: &'static [&'static str] = &[
        "pawn",
        "knight",
        "bishop",
        "rook",
        "queen",
        "airfield pawn",
        "airfield knight",
        "airfield bishop",
        "airfield rook",
        "airfield queen",
        "prisoner pawn",
        "prisoner knight",
        "prisoner bishop",
        "prisoner rook",
        "prisoner queen",
    ];

    fn material_difference(&self) -> Vec<i32> {
        let mut counts = board_role_difference(self.board(), &RESERVE_ROLES);
        for reserve in [Hostage::airfield, Hostage::prison] {
            counts.extend(RESERVE_ROLES.iter().map(|&role| {
                i32::from(reserve(self, Color::White).count(role))
                    - i32::from(reserve(self, Color::Black).count(role))
            }));
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_inventory, assert_level};
    use super::*;

    #[test]
    fn the_start_position_is_level() {
        assert_level(&Hostage::new());
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

    #[test]
    fn the_inventory_counts_board_airfields_and_prisons() {
        // The position above: the board lacks a white knight and pawn
        // (in Black's prison), a white knight (White's airfield) and two
        // black pawns (White's prison).
        let hostage = Hostage::from_fen(
            "r1bqkb1r/pppp2pp/2n2n2/8/8/8/PPPPP1PP/R1BQKB1R[pp/NP/N/-] w KQkq - 0 1",
        )
        .unwrap();
        assert_inventory(
            &Hostage::new(),
            &hostage,
            &[1, -2, 0, 0, 0, 0, 1, 0, 0, 0, 2 - 1, -1, 0, 0, 0],
        );
    }
}
