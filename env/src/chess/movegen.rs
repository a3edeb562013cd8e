//! Legal move generation for FIDE chess.
//!
//! Moves are generated directly legal (no make/unmake test) by the shared
//! FIDE generator ([`crate::fide::movegen`]) with FIDE attacks: the king
//! avoids attacked squares, pinned pieces stay on their pin line, and in
//! check the other pieces must capture or block the single checker.
//! Generation feeds a [`MoveVisitor`] with (piece, from, destination set),
//! so counting (perft's bulk counting) never materialises moves and listing
//! never allocates.

use crate::fide::move_groups;
use crate::fide::movegen::{BoardMoves, MoveSink};
use crate::{Bitboard, Move, Piece, Role, Square};

use super::Chess;

/// Receives generated moves grouped by origin: any sink of the shared
/// FIDE generator over chess positions ([`MoveSink`]: `piece_moves` with
/// (piece, from, targets), for pawns a target on the last rank standing for
/// the four promotions; `special` for en passant and castling; `is_done` to
/// stop early).
pub trait MoveVisitor: MoveSink<Chess> {}

impl<T: MoveSink<Chess>> MoveVisitor for T {}

/// Counts moves without building them.
pub struct CountVisitor(pub usize);

impl MoveSink<Chess> for CountVisitor {
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

impl<L: Extend<Move>> MoveSink<Chess> for ListVisitor<'_, L> {
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
    /// The position as the shared FIDE generator sees it: FIDE attacks.
    #[inline(always)]
    fn board_moves(
        &self,
    ) -> BoardMoves<
        '_,
        impl Fn(Square, Bitboard) -> Bitboard + '_,
        impl Fn(Square, Bitboard) -> bool + '_,
    > {
        let board = self.board();
        let us = self.turn();
        BoardMoves {
            board,
            us,
            king: self.our_king(),
            checkers: self.checkers(),
            ep_square: self.ep_square(),
            castling_rights: self.castling_rights(),
            pawns: board.by_piece(Piece::new(us, Role::Pawn)),
            forbidden: Bitboard::EMPTY,
            attackers: move |sq, occupied| board.attackers_to(sq, !us, occupied),
            king_step_attacked: move |to, occupied| board.attackers_to(to, !us, occupied).any(),
        }
    }

    /// Generates every legal move into the visitor.
    #[inline]
    pub fn visit_legal_moves<V: MoveVisitor>(&self, visitor: &mut V) {
        self.board_moves().visit(self, visitor);
    }

    /// Generates the legal en passant captures into the visitor.
    pub(super) fn visit_en_passant<V: MoveVisitor>(&self, visitor: &mut V, ep: Square) {
        self.board_moves().visit_en_passant(ep, visitor);
    }
}
