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

/// Hands the shared generator's groups to a chess visitor.
struct Sink<'a, V> {
    chess: &'a Chess,
    visitor: &'a mut V,
}

impl<V: MoveVisitor> MoveSink for Sink<'_, V> {
    #[inline(always)]
    fn piece_moves(&mut self, role: Role, from: Square, targets: Bitboard) {
        self.visitor.piece_moves(self.chess, role, from, targets);
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.visitor.special(m);
    }

    #[inline(always)]
    fn is_done(&self) -> bool {
        self.visitor.is_done()
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
        self.board_moves().visit(&mut Sink {
            chess: self,
            visitor,
        });
    }

    /// Generates the legal en passant captures into the visitor.
    pub(super) fn visit_en_passant<V: MoveVisitor>(&self, visitor: &mut V, ep: Square) {
        self.board_moves().visit_en_passant(
            ep,
            &mut Sink {
                chess: self,
                visitor,
            },
        );
    }
}
