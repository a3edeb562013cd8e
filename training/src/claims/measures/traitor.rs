//! The Traitor family: its men by kind for the piece-values claim, FIDE's
//! roles and the announced men.

use heterodox_env::{Color, Traitor};

use super::{fide_inventory, MaterialInventory};

impl MaterialInventory for Traitor {
    /// The roles by the colour a man stands as on the board, then the
    /// announced men (with a status: traitor, double agent, mercenary) by
    /// that colour, each counted in its role too. The true state: the
    /// judge of finished games reads it, no player does.
    const MATERIAL_KINDS: &'static [&'static str] =
        &["pawn", "knight", "bishop", "rook", "queen", "announced man"];

    fn material_difference(&self) -> Vec<i32> {
        let board = self.board();
        let mut counts = fide_inventory(board);
        let announced = |color| (self.announced() & board.by_color(color)).count() as i32;
        counts.push(announced(Color::White) - announced(Color::Black));
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::assert_inventory;
    use super::*;
    use heterodox_env::traitor::{Commitment, Mode, TraitorRules};

    #[test]
    fn the_inventory_counts_roles_and_announced_men() {
        let rules = TraitorRules {
            mode: Mode::Traitor,
            commitment: Commitment::Impromptu,
            ..TraitorRules::default()
        };
        // White: King, Rook; Black: King, Rook and the announced Knight
        // on e5 and Bishop on c3.
        let traitor = Traitor::from_fen(
            "7k/r7/8/4n3/8/2b5/8/R6K w - - 0 1 h8=e8,e5=b8,c3=c8,a7=a8,h1=e1 c3,e5 0,9 b8,c8/- -/- open - -",
            rules,
        )
        .unwrap();
        let start = Traitor::new(rules).unwrap();
        assert_inventory(&start, &traitor, &[0, -1, -1, 0, 0, -2]);
    }
}
