//! Attacks under P6: a poisoned piece attacks nothing, and a Harpy attacks
//! only enemy Harpies, so neither ever gives check nor guards a square
//! against a King. Every piece, poisoned or not, still blocks lines.

use crate::attacks;
use crate::fide::legality;
use crate::{Bitboard, Color, Piece, Role, Square};

use super::PoisonChess;

impl PoisonChess {
    /// Pieces that slide orthogonally: Rook, Guard and Doctor.
    #[inline]
    fn orthogonal_sliders(&self) -> Bitboard {
        self.fide.board.by_role(Role::Rook)
            | self.fide.board.by_role(Role::Guard)
            | self.fide.board.by_role(Role::Doctor)
    }

    /// Pieces that slide diagonally: Bishop, Guard and Doctor.
    #[inline]
    fn diagonal_sliders(&self) -> Bitboard {
        self.fide.board.by_role(Role::Bishop)
            | self.fide.board.by_role(Role::Guard)
            | self.fide.board.by_role(Role::Doctor)
    }

    /// The unpoisoned pieces of `attacker` that attack `sq` (and so give
    /// check there or guard it from a King), with `occupied` as blockers.
    /// Harpies are never among them (P6).
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let board = &self.fide.board;
        let active = board.by_color(attacker) & !self.poisoned[attacker.index()];
        active
            & ((attacks::rook_attacks(sq, occupied) & self.orthogonal_sliders())
                | (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders())
                | (attacks::knight_attacks(sq) & board.by_role(Role::Knight))
                | (attacks::king_attacks(sq) & board.by_role(Role::King))
                | (attacks::pawn_attacks(!attacker, sq) & board.by_role(Role::Pawn)))
    }

    /// The enemy pieces checking the King of the side to move (none when
    /// that King has died of poison).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.fide.board.king_of(self.fide.turn) {
            Some(king) => self.attackers_to(king, !self.fide.turn, self.fide.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// True when the King of `color` stands attacked (P6 attacks).
    #[inline]
    pub(super) fn king_attacked(&self, color: Color) -> bool {
        match self.fide.board.king_of(color) {
            Some(king) => self
                .attackers_to(king, !color, self.fide.board.occupied())
                .any(),
            None => false,
        }
    }

    /// Pieces of the side to move that shield its King from an unpoisoned
    /// enemy slider (Harpies and poisoned sliders pin nothing).
    #[inline]
    pub(super) fn pinned(&self, king: Square) -> Bitboard {
        let board = &self.fide.board;
        let us = self.fide.turn;
        let them = board.by_color(!us) & !self.poisoned[(!us).index()];
        legality::pinned(
            king,
            board.by_color(us),
            board.occupied(),
            self.orthogonal_sliders() & them,
            self.diagonal_sliders() & them,
        )
    }

    /// The enemy King as a set (empty once it has died).
    #[inline]
    pub(super) fn king_set(&self, color: Color) -> Bitboard {
        self.fide.board.by_piece(Piece::new(color, Role::King))
    }
}
