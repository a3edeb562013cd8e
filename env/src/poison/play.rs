//! Executing an action: the board move (or the poisoning or cure), then the
//! countdown of the pieces the mover poisoned earlier, with deaths (P3).

use crate::attacks;
use crate::{Bitboard, CastlingSide, Color, Move, Piece, Rank, Role, Square};

use super::{PoisonAction, PoisonChess, POISON_COUNTDOWN};

impl PoisonChess {
    /// Plays an action known to be legal: the fast path (no legality check).
    pub fn play_action_unchecked(&mut self, action: &PoisonAction) {
        let us = self.turn;
        let them = !us;
        self.ep_square = None;
        self.halfmoves += 1;
        let mut zeroing = action.is_zeroing();
        match *action {
            PoisonAction::Move(m) => self.play_move(&m),
            PoisonAction::Poison { harpy, .. } => {
                // The Harpy stings once and leaves the board (P2).
                self.board.toggle_piece(Piece::new(us, Role::Harpy), harpy);
                self.castling_rights.remove(harpy);
            }
            PoisonAction::Cure { target, .. } => self.clear_poison(us, target),
        }
        // Countdown of the enemy pieces we poisoned on earlier turns: a
        // piece whose counter would reach 0 dies now (P3, P9).
        let theirs_poisoned = self.poisoned[them.index()];
        for sq in theirs_poisoned {
            let counter = &mut self.counters[sq.index()];
            if *counter <= 1 {
                self.clear_poison(them, sq);
                self.board.discard_piece_at(sq);
                self.castling_rights.remove(sq);
                zeroing = true;
            } else {
                *counter -= 1;
            }
        }
        if let PoisonAction::Poison { target, .. } = *action {
            self.poisoned[them.index()].add(target);
            self.counters[target.index()] = POISON_COUNTDOWN;
        }
        if zeroing {
            self.halfmoves = 0;
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
    }

    #[inline]
    fn clear_poison(&mut self, color: Color, sq: Square) {
        self.poisoned[color.index()].remove(sq);
        self.counters[sq.index()] = 0;
    }

    /// A board move as in chess; a captured piece takes its poison with it
    /// (the poison is wasted, not transferred).
    fn play_move(&mut self, m: &Move) {
        let us = self.turn;
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    self.board.toggle_piece(Piece::new(!us, captured), to);
                    self.castling_rights.remove(to);
                    self.clear_poison(!us, to);
                }
                self.board.move_piece(Piece::new(us, role), from, to);
                if let Some(promoted) = promotion {
                    self.board.toggle_piece(Piece::new(us, Role::Pawn), to);
                    self.board.toggle_piece(Piece::new(us, promoted), to);
                }
                match role {
                    Role::King => self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST),
                    Role::Pawn if from.rank().index().abs_diff(to.rank().index()) == 2 => {
                        let skipped = Square::from_index_masked(
                            (from.index() as u32 + to.index() as u32) / 2,
                        );
                        // Kept only when an unpoisoned enemy pawn could take.
                        let takers = attacks::pawn_attacks(us, skipped)
                            & self.board.by_piece(Piece::new(!us, Role::Pawn))
                            & !self.poisoned[(!us).index()];
                        if takers.any() {
                            self.ep_square = Some(skipped);
                        }
                    }
                    _ => {}
                }
                self.castling_rights.remove(from);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board
                    .toggle_piece(Piece::new(!us, Role::Pawn), captured);
                self.clear_poison(!us, captured);
                self.board.move_piece(Piece::new(us, Role::Pawn), from, to);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                self.board.toggle_piece(Piece::new(us, Role::King), king);
                self.board.toggle_piece(Piece::new(us, Role::Harpy), rook);
                self.board
                    .toggle_piece(Piece::new(us, Role::King), side.king_to(us));
                self.board
                    .toggle_piece(Piece::new(us, Role::Harpy), side.rook_to(us));
                self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST);
            }
        }
    }
}
