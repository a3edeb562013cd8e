//! Legal action generation. Moves are generated pseudo-legally by colour
//! and control (control.rs) and kept when the mover's King is not in check
//! afterwards (T4: traitors can check their own controller's King, so a
//! pin test alone would not do). Buffers are fixed-capacity `ArrayVec`s
//! on the stack: nothing allocates per node.

use arrayvec::ArrayVec;

use super::actions::TraitorAction;
use super::control;
use super::play::move_pieces;
use super::rules::{value, Commitment, Mode};
use super::selection::{visit_selections, Secret, Selection};
use super::{Step, Traitor};
use crate::attacks;
use crate::{Bitboard, CastlingSide, Color, Move, Rank, Role, Square};

/// 32 pieces can be movable by one player in the shared modes; each moves
/// to at most 27 squares, and a pawn's 3 targets give 12 promotion moves:
/// 32 x 27 = 864 < 1024.
pub const MAX_PSEUDO_MOVES: usize = 1024;

pub type PseudoMoves = ArrayVec<Move, MAX_PSEUDO_MOVES>;

impl Traitor {
    /// Every legal action, in generator order: selections; or
    /// announcements (by square, a1 first) then moves.
    pub(crate) fn visit_legal_actions(&self, visit: &mut impl FnMut(TraitorAction)) {
        match self.step {
            Step::Select => visit_selections(
                &self.board,
                &self.ids,
                self.turn,
                self.rules.commitment == Commitment::Standard,
                &mut |selection| visit(TraitorAction::Select(selection)),
            ),
            Step::Open => {
                self.visit_announcements(&mut |id| visit(TraitorAction::Announce(id)));
                self.visit_legal_moves(&mut |m| visit(TraitorAction::Move(m)));
            }
            Step::Announced(_) => self.visit_legal_moves(&mut |m| visit(TraitorAction::Move(m))),
        }
    }

    /// True when the player to act has any legal action.
    pub(crate) fn has_legal_action(&self) -> bool {
        match self.step {
            Step::Select => true,
            Step::Announced(_) => self.has_legal_move(),
            Step::Open => {
                self.has_legal_move() || {
                    let mut any = false;
                    self.visit_announcements(&mut |_| any = true);
                    any
                }
            }
        }
    }

    /// Every legal move of the player to act.
    pub fn legal_moves(&self) -> PseudoMoves {
        let mut moves = PseudoMoves::new();
        if self.step != Step::Select {
            self.generate_pseudo_moves(&mut moves);
            moves.retain(|m| self.is_safe(m));
        }
        moves
    }

    pub(crate) fn visit_legal_moves(&self, visit: &mut impl FnMut(Move)) {
        let mut moves = PseudoMoves::new();
        self.generate_pseudo_moves(&mut moves);
        for m in moves {
            if self.is_safe(&m) {
                visit(m);
            }
        }
    }

    pub(crate) fn has_legal_move(&self) -> bool {
        let mut moves = PseudoMoves::new();
        self.generate_pseudo_moves(&mut moves);
        moves.iter().any(|m| self.is_safe(m))
    }

    /// The mover's King is not in check after `m` (T4: by any piece that
    /// attacks it, the mover's own traitors and mercenaries included).
    #[inline]
    fn is_safe(&self, m: &Move) -> bool {
        let mut board = self.board.clone();
        let mut announced = self.announced;
        move_pieces(&mut board, &mut announced, m);
        control::checkers(&board, announced, self.rules.mode, self.turn).is_empty()
    }

    /// Moves by movement, colour and control only; the King test comes later.
    fn generate_pseudo_moves(&self, out: &mut PseudoMoves) {
        let board = &self.board;
        let us = self.turn;
        let mode = self.rules.mode;
        let occupied = board.occupied();
        let empty = !occupied;
        // Weak ko (T6-T8): the piece the opponent just moved may not go straight back.
        let ko = self.last_move.filter(|_| mode.shared());
        for from in self.movable(us) {
            let piece = board.piece_at(from).expect("movable piece");
            let victims = control::capturable_by(board, self.announced, mode, from);
            let mut targets = match piece.role {
                Role::Pawn => {
                    let single = Bitboard::from_square(from).shift_forward(piece.color) & empty;
                    let double = (single & Bitboard::relative_rank(piece.color, Rank::THIRD))
                        .shift_forward(piece.color)
                        & empty;
                    single | double | (attacks::pawn_attacks(piece.color, from) & victims)
                }
                _ => control::piece_attacks(piece, from, occupied) & (empty | victims),
            };
            if let Some((ko_from, ko_to)) = ko {
                if from == ko_to {
                    targets.remove(ko_from);
                }
            }
            for to in targets {
                let capture = board.role_at(to);
                if piece.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                    for promotion in Role::FIDE_PROMOTIONS {
                        push(
                            out,
                            Move::Normal {
                                role: piece.role,
                                from,
                                capture,
                                to,
                                promotion: Some(promotion),
                            },
                        );
                    }
                } else {
                    push(
                        out,
                        Move::Normal {
                            role: piece.role,
                            from,
                            capture,
                            to,
                            promotion: None,
                        },
                    );
                }
            }
            if piece.role == Role::Pawn {
                if let Some(ep) = self.ep_square {
                    let captured = Square::from_coords(ep.file(), from.rank());
                    if attacks::pawn_attacks(piece.color, from).contains(ep)
                        && board.by_role(Role::Pawn).contains(captured)
                        && victims.contains(captured)
                        && !occupied.contains(ep)
                    {
                        push(out, Move::EnPassant { from, to: ep });
                    }
                }
            }
        }
        self.generate_castling(out);
    }

    /// T9: an unmoved King and an unmoved regular rook of the castling
    /// side (the rights), empty squares between, and no square the King
    /// stands on, crosses or reaches attacked.
    fn generate_castling(&self, out: &mut PseudoMoves) {
        let board = &self.board;
        let us = self.turn;
        let Some(king) = board.king_of(us) else {
            return;
        };
        let rights = self.castling_rights & Bitboard::relative_rank(us, Rank::FIRST);
        if rights.is_empty() {
            return;
        }
        let enemies = control::king_enemies(board, self.announced, self.rules.mode, us);
        for rook in rights {
            if board.piece_at(rook) != Some(crate::Piece::new(us, Role::Rook))
                || self.announced.contains(rook)
            {
                continue;
            }
            let side = CastlingSide::from_squares(king, rook);
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            let must_be_empty = (attacks::between(king, king_to).with(king_to)
                | attacks::between(rook, rook_to).with(rook_to))
                - king
                - rook;
            if board.occupied().intersects(must_be_empty) {
                continue;
            }
            let occupied = board.occupied() - king - rook;
            let path = attacks::between(king, king_to).with(king_to).with(king);
            if path
                .into_iter()
                .all(|sq| control::attackers_to(board, sq, enemies, occupied).is_empty())
            {
                push(out, Move::Castle { king, rook });
            }
        }
    }

    /// The pieces the player to act may announce now, by id (T2-T8).
    pub(crate) fn visit_announcements(&self, visit: &mut impl FnMut(Square)) {
        if self.step != Step::Open {
            return;
        }
        let us = self.turn;
        let mode = self.rules.mode;
        let mut candidates = self.board.by_color(!us) - self.board.by_role(Role::King);
        if mode.keeps_status() {
            candidates = candidates - self.announced;
        }
        let budget = self.budgets[us.index()];
        for sq in candidates {
            let Some(id) = self.id_at(sq) else { continue };
            let role = self.board.role_at(sq).expect("occupied");
            let allowed = match self.secrets[us.index()] {
                Secret::Remaining(Selection::Pieces(ids)) => ids.contains(id),
                Secret::Remaining(Selection::Types(counts)) => counts.get(role) > 0,
                Secret::Nothing => self.rules.commitment == Commitment::Impromptu,
                Secret::Unchosen => false,
            } && self.announcement_cost(sq, id) <= budget
                && value(role) > 0;
            if !allowed || (self.rules.forbids_immediate_undo() && self.undo_forbidden == Some(id))
            {
                continue;
            }
            let mut after = self.clone();
            after.play_announce(id);
            let forbidden_check = match mode {
                // T5, T7: a defection may not give check to either King.
                Mode::Defector | Mode::DefectorDoubleAgent => Color::ALL.into_iter().any(|king| {
                    control::gives_check(&after.board, after.announced, mode, sq, king)
                }),
                // T8: a new mercenary may not check the opponent's King.
                Mode::Mercenary => {
                    control::gives_check(&after.board, after.announced, mode, sq, !us)
                }
                Mode::Traitor | Mode::DoubleAgent => false,
            };
            // T3: an announcement is not a turn; a move must be possible after it.
            if !forbidden_check && after.has_legal_move() {
                visit(id);
            }
        }
    }
}

#[inline]
fn push(out: &mut PseudoMoves, m: Move) {
    // The capacity bound above makes overflow impossible; stay safe anyway.
    let _ = out.try_push(m);
}
