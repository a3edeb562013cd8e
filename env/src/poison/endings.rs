//! How a Poison game ends (P9, P10, FIDE's other draws).

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
        if !has_legal_action {
            return Some(if self.is_check() {
                let winner = !self.turn;
                if self.is_doomed_mate(winner) {
                    Outcome::Draw {
                        termination: Termination::DoomedCheckmate,
                    }
                } else {
                    Outcome::Decisive {
                        winner,
                        termination: Termination::Checkmate,
                    }
                }
            } else {
                Outcome::Draw {
                    termination: Termination::Stalemate,
                }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw {
                termination: Termination::InsufficientMaterial,
            });
        }
        if self.halfmoves >= 100 {
            return Some(Outcome::Draw {
                termination: Termination::FiftyMoves,
            });
        }
        None
    }

    /// P10: a mate by `mater` counts as a draw when its own King is
    /// poisoned and it has no Doctor on the board (a poisoned Doctor still
    /// counts as one).
    fn is_doomed_mate(&self, mater: Color) -> bool {
        (self.king_set(mater) & self.poisoned(mater)).any()
            && self
                .board
                .by_piece(Piece::new(mater, Role::Doctor))
                .is_empty()
    }

    /// FIDE's dead material with the Poison pieces: any Pawn, Rook, Harpy,
    /// Doctor or Guard is mating material (P10); otherwise Kings alone, one
    /// minor piece in all, or only Bishops all on one colour of square.
    /// Never while a King is poisoned: it may still die (P9).
    pub fn is_insufficient_material(&self) -> bool {
        let board = &self.board;
        if (board.by_role(Role::King) & self.all_poisoned()).any() {
            return false;
        }
        let mating = [
            Role::Pawn,
            Role::Rook,
            Role::Harpy,
            Role::Doctor,
            Role::Guard,
        ];
        if mating.iter().any(|role| board.by_role(*role).any()) {
            return false;
        }
        let minors = board.by_role(Role::Knight) | board.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = board.by_role(Role::Bishop);
        board.by_role(Role::Knight).is_empty()
            && (bishops.intersects(Bitboard::DARK_SQUARES)
                ^ bishops.intersects(Bitboard::LIGHT_SQUARES))
    }
}
