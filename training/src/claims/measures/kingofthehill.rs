//! King of the Hill, the test-only variant (env feature `test-variant`):
//! FIDE men on chess's board, so the default inventory, in one line.

use heterodox_env::kingofthehill::KingOfTheHill;

use super::{fide_inventory, MaterialInventory};

impl MaterialInventory for KingOfTheHill {
    fn material_difference(&self) -> Vec<i32> {
        fide_inventory(self.chess().board())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::assert_inventory;
    use super::*;

    #[test]
    fn king_of_the_hill_has_a_material_inventory() {
        // White: a knight more; Black: two pawns more.
        let position = KingOfTheHill::from_fen("4k3/pp6/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        assert_inventory(&KingOfTheHill::new(), &position, &[-2, 1, 0, 0, 0]);
    }
}
