//! Mad Scientist Chess: its material by kind for the piece-values claim,
//! pawns and the parts of the pieces on the board and in hand.

use heterodox_env::madscientist::{Part, PieceKind};
use heterodox_env::{Color, MadScientist};

use super::MaterialInventory;

impl MaterialInventory for MadScientist {
    /// Pawns, then each part (in [`Part::ALL`]'s order) in the side's
    /// pieces on the board, then each part in its hand. A FIDE queen is
    /// two Wazirs and two Ferzes, a knight a Crab and a Barc.
    const MATERIAL_KINDS: &'static [&'static str] = &[
        "pawn",
        "wazir",
        "ferz",
        "crab",
        "barc",
        "wazir in hand",
        "ferz in hand",
        "crab in hand",
        "barc in hand",
    ];

    fn material_difference(&self) -> Vec<i32> {
        let sign = |color| if color == Color::White { 1 } else { -1 };
        let mut counts = vec![0; 9];
        for (_, piece) in self.board().pieces() {
            match piece.kind {
                PieceKind::Pawn => counts[0] += sign(piece.color),
                PieceKind::Composite(parts) => {
                    for part in Part::ALL {
                        counts[1 + part.index()] +=
                            sign(piece.color) * i32::from(parts.count(part));
                    }
                }
                PieceKind::Scientist => {}
            }
        }
        for color in [Color::White, Color::Black] {
            for part in Part::ALL {
                counts[5 + part.index()] += sign(color) * i32::from(self.hand(color).count(part));
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::assert_inventory;
    use super::*;

    #[test]
    fn the_inventory_counts_pawns_parts_and_hands() {
        // White: a queen (2W 2F), a [WWC] and two pawns, a Barc and a Ferz
        // in hand; Black: a knight (C B), a rook (2W), a pawn, a Crab in
        // hand.
        let mad = MadScientist::from_fen("4k3/3p4/2nr4/8/8/8/PP6/Q[WWC]2K3 w - - BFc 0 1").unwrap();
        assert_inventory(&MadScientist::new(), &mad, &[1, 2, 2, 0, -1, 0, 1, -1, 1]);
    }
}
