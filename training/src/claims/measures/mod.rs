//! Measures of a position that strategy claims are phrased in: pressure on
//! the Kings and material. They are read off the rules engine's own board
//! (and, where a variant keeps men off the board, its reserves), so a claim
//! measures what the rules say, not a copy of them; they live here, beside
//! the claims that define them (docs/claims.md), not in the rules core.
//!
//! Every registered variant implements [`MaterialInventory`] (the
//! piece-values claim plays each one: `piece_values` dispatches through
//! [`heterodox_env::for_each_variant!`], so a variant without an impl does
//! not compile) in its own file here, `measures/<variant>.rs`, with its
//! unit tests. Only the variants whose claims use it implement
//! [`PositionFeatures`] (FIDE chess and Hostage Chess, for the attacker
//! claim). The helpers below are what an implementation reads a shared
//! [`Board`] with.

mod chess;
mod hostage;
#[cfg(feature = "test-variant")]
mod kingofthehill;
mod madscientist;
mod poison;
mod traitor;

use heterodox_env::attacks::king_attacks;
use heterodox_env::{Board, Color, Piece, Role};

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

/// A FIDE army's kinds of material, pawn first: every role but the King.
/// The piece-values claim fits their values in the variants whose men are
/// FIDE men (chess, Traitor).
pub const FIDE_MATERIAL_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// King-zone pressure and material, from `color`'s side.
pub trait PositionFeatures {
    /// The squares of the enemy King's zone (its square and the squares
    /// next to it) that `color` attacks, minus the squares of `color`'s
    /// own King zone that the enemy attacks.
    fn king_zone_pressure(&self, color: Color) -> i32;

    /// `color`'s material minus the opponent's, in points.
    fn material_balance(&self, color: Color) -> i32;
}

/// The men of a position counted by kind, the predictors of the
/// piece-values claim: the logistic regression of game results on these
/// differences gives each kind's value (Tomašev et al. 2020). A kind is
/// whatever the variant's material is made of: a role on the board, a man
/// in a Hostage airfield or prison, a Mad Scientist part in hand, a
/// poisoned or announced man.
///
/// The defaults are FIDE's army: the five kinds of [`FIDE_MATERIAL_ROLES`]
/// and [`fide_inventory`] of the board. The position types share no board
/// accessor (Mad Scientist's board is a board of its own), so a variant of
/// FIDE men on a shared [`Board`] hands its board over in one line
/// (`fide_inventory(self.board())`); one with other men lists its kinds and
/// counts them.
pub trait MaterialInventory {
    /// The kinds counted, in the order of
    /// [`MaterialInventory::material_difference`]; the first is the pawn,
    /// the unit of the fitted values.
    const MATERIAL_KINDS: &'static [&'static str] = &["pawn", "knight", "bishop", "rook", "queen"];

    /// For each kind of [`MaterialInventory::MATERIAL_KINDS`], White's
    /// count minus Black's.
    fn material_difference(&self) -> Vec<i32>;
}

/// White's men of each role in `roles` on `board` minus Black's, in order.
pub fn board_role_difference(board: &Board, roles: &[Role]) -> Vec<i32> {
    roles
        .iter()
        .map(|&role| {
            let count = |color| board.count(Piece { color, role }) as i32;
            count(Color::White) - count(Color::Black)
        })
        .collect()
}

/// The default inventory of [`MaterialInventory`]: the men of each role of
/// [`FIDE_MATERIAL_ROLES`] on `board`, White's minus Black's.
pub fn fide_inventory(board: &Board) -> Vec<i32> {
    board_role_difference(board, &FIDE_MATERIAL_ROLES)
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

/// The checks every variant's measures test makes, in one place.
#[cfg(test)]
mod test_support {
    use super::{MaterialInventory, PositionFeatures};
    use heterodox_env::Color;

    /// `start` is level: neither side presses the other's King zone or
    /// leads in material.
    pub fn assert_level<P: PositionFeatures>(start: &P) {
        for color in [Color::White, Color::Black] {
            assert_eq!(start.king_zone_pressure(color), 0);
            assert_eq!(start.material_balance(color), 0);
        }
    }

    /// `start` counts no difference of any kind, `position` counts
    /// `expected`, and both count every kind of
    /// [`MaterialInventory::MATERIAL_KINDS`], no more.
    pub fn assert_inventory<P: MaterialInventory>(start: &P, position: &P, expected: &[i32]) {
        assert_eq!(expected.len(), P::MATERIAL_KINDS.len());
        assert_eq!(start.material_difference(), vec![0; expected.len()]);
        assert_eq!(position.material_difference(), expected);
    }
}
