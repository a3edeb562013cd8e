//! How a Poison game ends (P9, P10, FIDE's other draws).

use crate::fide::endings;
use crate::{Bitboard, Color, Outcome, Piece, Role, Termination};

use super::PoisonChess;

impl PoisonChess {
    /// The result by the rules of this position alone, in this order: a
    /// King dead of poison (P9); no legal action, in check (checkmate, or a
    /// draw when the mating side's own King is poisoned and it has no
    /// Doctor, P10) or not (draw, P10); dead material; the 50-move rule.
    pub fn result(&self) -> Option<Outcome> {
        self.royal_death()
            .or_else(|| self.result_given(self.has_legal_action()))
    }

    /// A side whose King died of poison has lost; checked before any move
    /// generation, which assumes both Kings.
    pub(crate) fn royal_death(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|&color| self.king_set(color).is_empty())
            .map(|color| Outcome::Decisive {
                winner: !color,
                termination: Termination::PoisonDeath,
            })
    }

    /// The endings after [`PoisonChess::royal_death`], given whether the
    /// player to act has a legal action.
    pub(crate) fn result_given(&self, has_legal_action: bool) -> Option<Outcome> {
        endings::outcome_given(
            has_legal_action,
            || {
                let winner = !self.fide.turn;
                if self.is_check() && self.is_doomed_mate(winner) {
                    Outcome::Draw {
                        termination: Termination::DoomedCheckmate,
                    }
                } else {
                    endings::checkmate_or_stalemate(self.is_check(), self.fide.turn)
                }
            },
            || self.is_insufficient_material(),
            self.fide.halfmoves,
        )
    }

    /// P10: a mate by `mater` counts as a draw when its own King is
    /// poisoned and it has no Doctor on the board (a poisoned Doctor still
    /// counts as one).
    fn is_doomed_mate(&self, mater: Color) -> bool {
        (self.king_set(mater) & self.poisoned(mater)).any()
            && self
                .fide
                .board
                .by_piece(Piece::new(mater, Role::Doctor))
                .is_empty()
    }

    /// FIDE's dead material with the Poison pieces: any Pawn, Rook, Harpy,
    /// Doctor or Guard is mating material (P10); otherwise Kings alone, one
    /// minor piece in all, or only Bishops all on one colour of square.
    /// Never while a King is poisoned: it may still die (P9).
    pub fn is_insufficient_material(&self) -> bool {
        let board = &self.fide.board;
        if (board.by_role(Role::King) & self.all_poisoned()).any() {
            return false;
        }
        let mating = [
            Role::Pawn,
            Role::Rook,
            Role::Harpy,
            Role::Doctor,
            Role::Guard,
        ]
        .into_iter()
        .fold(Bitboard::EMPTY, |men, role| men | board.by_role(role));
        endings::insufficient_material(board, mating)
    }
}
