//! Poison Chess: its men by kind for the piece-values claim, the roles and
//! the poisoned men.

use heterodox_env::{Color, PoisonChess, Role};

use super::{board_role_difference, MaterialInventory};

/// The roles whose values the piece-values claim fits, pawn first (Poison
/// has no Queen: the Harpies start where chess's rooks do and poison
/// instead of capturing, the Doctor moves as a queen and cures, a pawn
/// promotes to a Guard, a queen mover, or to a rook, bishop or knight).
const ROLES: [Role; 7] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Harpy,
    Role::Doctor,
    Role::Guard,
];

impl MaterialInventory for PoisonChess {
    /// The roles, then the poisoned men (of any role, counted in their
    /// role too): the poisoned kind's value is what poison takes away.
    const MATERIAL_KINDS: &'static [&'static str] = &[
        "pawn",
        "knight",
        "bishop",
        "rook",
        "harpy",
        "doctor",
        "guard",
        "poisoned man",
    ];

    fn material_difference(&self) -> Vec<i32> {
        let mut counts = board_role_difference(self.board(), &ROLES);
        let poisoned = |color| self.poisoned(color).count() as i32;
        counts.push(poisoned(Color::White) - poisoned(Color::Black));
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::assert_inventory;
    use super::*;

    #[test]
    fn the_inventory_counts_roles_and_poisoned_men() {
        // White: King, Harpy, Doctor, two pawns, one of them poisoned;
        // Black: King, two Guards.
        let poison = PoisonChess::from_fen("4k3/8/2g1g3/8/8/8/P1P5/3DKH2 w - - 0 1 a2:3").unwrap();
        assert_inventory(&PoisonChess::new(), &poison, &[2, 0, 0, 0, 1, 1, -2, 1]);
    }
}
