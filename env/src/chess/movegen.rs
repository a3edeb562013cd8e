//! Legal move generation for FIDE chess.
//!
//! Moves are generated directly legal (no make/unmake test): the king avoids
//! attacked squares, pinned pieces stay on their pin line, and in check the
//! other pieces must capture or block the single checker. Generation feeds a
//! [`MoveVisitor`] with (piece, from, destination set), so counting (perft's
//! bulk counting) never materialises moves and listing never allocates.

use crate::attacks;
use crate::fide::{castling, en_passant};
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
        if role == Role::Pawn {
            let promotions = targets & Bitboard::BACKRANKS;
            self.0 += targets.count() + 3 * promotions.count();
        } else {
            self.0 += targets.count();
        }
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
        let board = chess.board();
        for to in targets {
            let capture = board.role_at(to);
            if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                for promotion in Role::FIDE_PROMOTIONS {
                    self.0.extend([Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion: Some(promotion),
                    }]);
                }
            } else {
                self.0.extend([Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: None,
                }]);
            }
        }
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
        let us = self.turn();
        let them = board.by_color(!us);
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & board.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & board.by_color(us);
            }
        }
        pinned
    }

    /// Generates every legal move into the visitor.
    pub fn visit_legal_moves<V: MoveVisitor>(&self, visitor: &mut V) {
        let board = self.board();
        let us = self.turn();
        let them = !us;
        let king = self.our_king();
        let ours = board.by_color(us);
        let occupied = board.occupied();
        let checkers = self.checkers();

        // King steps: the king itself is no blocker for the squares it leaves.
        let without_king = occupied.without(king);
        let mut king_targets = attacks::king_attacks(king) & !ours;
        for to in king_targets {
            if board.attackers_to(to, them, without_king).any() {
                king_targets.remove(to);
            }
        }
        visitor.piece_moves(self, Role::King, king, king_targets);

        if checkers.more_than_one() || visitor.is_done() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        };
        let pinned = self.pinned(king);

        for from in ours & board.by_role(Role::Knight) & !pinned {
            visitor.piece_moves(
                self,
                Role::Knight,
                from,
                attacks::knight_attacks(from) & target,
            );
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            if visitor.is_done() {
                return;
            }
            for from in ours & board.by_role(role) {
                let mut targets = match role {
                    Role::Bishop => attacks::bishop_attacks(from, occupied),
                    Role::Rook => attacks::rook_attacks(from, occupied),
                    _ => attacks::queen_attacks(from, occupied),
                } & target;
                if pinned.contains(from) {
                    targets &= attacks::line(king, from);
                }
                visitor.piece_moves(self, role, from, targets);
            }
        }

        if visitor.is_done() {
            return;
        }
        let enemies = board.by_color(them);
        for from in ours & board.by_role(Role::Pawn) {
            let mut targets = (attacks::pawn_pushes(us, from, occupied)
                | (attacks::pawn_attacks(us, from) & enemies))
                & target;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            if targets.any() {
                visitor.piece_moves(self, Role::Pawn, from, targets);
            }
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
