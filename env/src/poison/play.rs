//! Executing an action: the board move (or the poisoning or cure), then the
//! countdown of the pieces the mover poisoned earlier, with deaths (P3).

use crate::{Color, Move, Piece, Role, Square};

use super::{PoisonAction, PoisonChess, POISON_COUNTDOWN};

impl PoisonChess {
    /// Plays an action known to be legal: the fast path (no legality check).
    pub fn play_action_unchecked(&mut self, action: &PoisonAction) {
        let us = self.fide.turn;
        let them = !us;
        self.fide.begin_ply();
        let mut zeroing = action.is_zeroing();
        match *action {
            PoisonAction::Move(m) => self.play_move(&m),
            PoisonAction::Poison { harpy, .. } => {
                // The Harpy stings once and leaves the board (P2).
                self.fide
                    .board
                    .toggle_piece(Piece::new(us, Role::Harpy), harpy);
                self.fide.castling_rights.remove(harpy);
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
                self.fide.board.discard_piece_at(sq);
                self.fide.castling_rights.remove(sq);
                zeroing = true;
            } else {
                *counter -= 1;
            }
        }
        if let PoisonAction::Poison { target, .. } = *action {
            self.poisoned[them.index()].add(target);
            self.counters[target.index()] = POISON_COUNTDOWN;
        }
        self.fide.end_turn(zeroing);
    }

    #[inline]
    fn clear_poison(&mut self, color: Color, sq: Square) {
        self.poisoned[color.index()].remove(sq);
        self.counters[sq.index()] = 0;
    }

    /// A board move as in chess; a captured piece takes its poison with it
    /// (the poison is wasted, not transferred).
    fn play_move(&mut self, m: &Move) {
        let them = !self.fide.turn;
        if let Some(captured) = m.capture().map(|_| capture_square(m)) {
            self.clear_poison(them, captured);
        }
        // The en passant square is kept only when an unpoisoned enemy pawn
        // could take.
        let frozen = self.poisoned[them.index()];
        self.fide.play_move(m, Role::Harpy, frozen);
    }
}

/// The square of the man a capture takes.
fn capture_square(m: &Move) -> Square {
    match *m {
        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
        _ => m.to(),
    }
}
