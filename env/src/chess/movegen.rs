//! Legal move generation for FIDE chess.
//!
//! Moves are generated directly legal (no make/unmake test): the king avoids
//! attacked squares, pinned pieces stay on their pin line, and in check the
//! other pieces must capture or block the single checker. Generation feeds a
//! [`MoveVisitor`] with (piece, from, destination set), so counting (perft's
//! bulk counting) never materialises moves and listing never allocates.

use crate::attacks;
use crate::fide::{castling, en_passant, legality, move_groups};
use crate::{Bitboard, Move, Rank, Role, Square};

use super::Chess;

/// Receives generated moves grouped by origin.
pub trait MoveVisitor {
    /// Moves of a piece from `from` to each square in `targets`. For pawns,
    /// targets on the last rank stand for the four promotions.
    fn piece_moves(&mut self, chess: &Chess, role: Role, from: Square, targets: Bitboard);
    /// A single special move (en passant, castling).
    fn special(&mut self, m: Move);
    /// True when the visitor has seen enough: generation stops early (at
    /// the next group of pieces). Lets "is there any legal move?" stop at
    /// the first one, which is usually a king step or a knight jump.
    #[inline]
    fn is_done(&self) -> bool {
        false
    }
}

/// Counts moves without building them.
pub struct CountVisitor(pub usize);

impl MoveVisitor for CountVisitor {
    #[inline]
    fn piece_moves(&mut self, _chess: &Chess, role: Role, _from: Square, targets: Bitboard) {
        self.0 += move_groups::count_moves(role, targets, || Role::FIDE_PROMOTIONS.len());
    }

    #[inline]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Collects moves into a list.
pub struct ListVisitor<'a, L: Extend<Move>>(pub &'a mut L);

impl<L: Extend<Move>> MoveVisitor for ListVisitor<'_, L> {
    #[inline]
    fn piece_moves(&mut self, chess: &Chess, role: Role, from: Square, targets: Bitboard) {
        let promotions = || Role::FIDE_PROMOTIONS;
        move_groups::for_each_move(chess.board(), role, from, targets, promotions, |m| {
            self.0.extend([m]);
        });
    }

    #[inline]
    fn special(&mut self, m: Move) {
        self.0.extend([m]);
    }
}

impl Chess {
    /// Our pieces that are pinned to our king (they may only move along the
    /// line between the king and the pinning slider).
    #[inline]
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        let board = self.board();
        let them = board.by_color(!self.turn());
        legality::pinned(
            king,
            board.by_color(self.turn()),
            board.occupied(),
            board.rooks_and_queens() & them,
            board.bishops_and_queens() & them,
        )
    }

    /// Generates every legal move into the visitor.
    pub fn visit_legal_moves<V: MoveVisitor>(&self, visitor: &mut V) {
        let board = self.board();
        let us = self.turn();
        let them = !us;
        let king = self.our_king();
        let ours = board.by_color(us);
        let checkers = self.checkers();

        let king_targets = legality::safe_king_steps(
            king,
            attacks::king_attacks(king) & !ours,
            board.occupied(),
            |to, occupied| board.attackers_to(to, them, occupied).any(),
        );
        visitor.piece_moves(self, Role::King, king, king_targets);

        if checkers.more_than_one() || visitor.is_done() {
            return;
        }
        let target = legality::evasion_target(king, checkers, ours);
        let pinned = self.pinned(king);
        let pawns = ours & board.by_role(Role::Pawn);
        legality::visit_men_moves(
            board,
            us,
            king,
            target,
            pinned,
            pawns,
            |role, from, targets| {
                visitor.piece_moves(self, role, from, targets);
                visitor.is_done()
            },
        );
        if visitor.is_done() {
            return;
        }

        if let Some(ep) = self.ep_square() {
            self.visit_en_passant(visitor, king, ep);
        }
        if checkers.is_empty() {
            self.visit_castling(visitor, king);
        }
    }

    pub(super) fn visit_en_passant<V: MoveVisitor>(
        &self,
        visitor: &mut V,
        king: Square,
        ep: Square,
    ) {
        let board = self.board();
        let us = self.turn();
        en_passant::visit_legal(
            board,
            us,
            ep,
            Bitboard::FULL,
            |occupied| board.attackers_to(king, !us, occupied),
            |m| visitor.special(m),
        );
    }

    fn visit_castling<V: MoveVisitor>(&self, visitor: &mut V, king: Square) {
        let board = self.board();
        let us = self.turn();
        for rook in self.castling_rights() & Bitboard::relative_rank(us, Rank::FIRST) {
            if castling::can_castle(board.occupied(), us, king, rook, false, |sq, occupied| {
                board.attackers_to(sq, !us, occupied).any()
            }) {
                visitor.special(Move::Castle { king, rook });
            }
        }
    }
}
