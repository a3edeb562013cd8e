//! Applying actions: the selection, the announcement (T3, T5, T7, T8) and
//! the move, which ends the turn.

use super::rules::{value, Commitment};
use super::selection::{start_value, PieceId, Secret, Selection};
use super::{Step, Traitor, NO_ID};
use crate::fide::en_passant;
use crate::{Bitboard, Board, CastlingSide, Color, Move, Piece, Rank, Role, Square};

/// Moves the pieces of `m` on a board and the announced set (the status of
/// a piece travels with it; a captured piece loses it). Shared by play and
/// by the legality test, which needs no more than this.
#[inline]
pub(crate) fn move_pieces(board: &mut Board, announced: &mut Bitboard, m: &Move) {
    match *m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => carry_piece(board, announced, from, to, to, promotion.unwrap_or(role)),
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            carry_piece(board, announced, from, to, captured, Role::Pawn);
        }
        Move::Castle { king, rook } => {
            let colour = board.color_at(king).expect("a king castles");
            let side = CastlingSide::from_squares(king, rook);
            board.discard_piece_at(king);
            board.discard_piece_at(rook);
            board.set_piece_at(side.king_to(colour), Piece::new(colour, Role::King));
            board.set_piece_at(side.rook_to(colour), Piece::new(colour, Role::Rook));
        }
    }
}

/// Moves the piece on `from` to `to`, where it stands as `role` (a
/// promotion changes it), taking the piece on `captured` (`to`, or the
/// pawn passed by en passant) off the board: the mover's status travels
/// with it, the captured piece's is lost.
#[inline]
fn carry_piece(
    board: &mut Board,
    announced: &mut Bitboard,
    from: Square,
    to: Square,
    captured: Square,
    role: Role,
) {
    let colour = board.color_at(from).expect("a piece moves");
    let status = announced.contains(from);
    board.discard_piece_at(captured);
    board.discard_piece_at(from);
    announced.remove(captured);
    announced.remove(from);
    board.set_piece_at(to, Piece::new(colour, role));
    if status {
        announced.add(to);
    }
}

/// The square of the pawn that double-stepped over `ep`.
#[inline]
pub(crate) fn double_stepped_pawn(ep: Square) -> Option<Square> {
    if ep.rank() == Rank::THIRD {
        ep.offset(0, 1)
    } else if ep.rank() == Rank::SIXTH {
        ep.offset(0, -1)
    } else {
        None
    }
}

impl Traitor {
    pub(crate) fn play_select(&mut self, selection: Selection) {
        self.secrets[self.fide.turn.index()] = Secret::Remaining(selection);
        if self.fide.turn == Color::White {
            self.fide.turn = Color::Black;
        } else {
            self.fide.turn = Color::White;
            self.step = Step::Open;
        }
    }

    /// What an announcement of the piece on `sq` costs the announcer.
    pub(crate) fn announcement_cost(&self, sq: Square, id: PieceId) -> u8 {
        match self.rules.commitment {
            Commitment::Standard => start_value(id),
            _ => value(self.fide.board.role_at(sq).unwrap_or(Role::King)),
        }
    }

    pub(crate) fn play_announce(&mut self, id: PieceId) {
        let Some(sq) = self.square_of(id) else {
            return;
        };
        self.play_announce_at(sq, id);
    }

    /// The announcement of `id`, known to stand on `sq`: the generator
    /// tries every candidate and already has its square, so it skips the
    /// search by id.
    pub(crate) fn play_announce_at(&mut self, sq: Square, id: PieceId) {
        let us = self.fide.turn;
        let cost = self.announcement_cost(sq, id);
        self.budgets[us.index()] = self.budgets[us.index()].saturating_sub(cost);
        self.used[us.index()].add(id);
        match &mut self.secrets[us.index()] {
            Secret::Remaining(Selection::Pieces(ids)) => ids.remove(id),
            Secret::Remaining(Selection::Types(counts)) => {
                if let Some(role) = self.fide.board.role_at(sq) {
                    let slot = &mut counts.0[role.index()];
                    *slot = slot.saturating_sub(1);
                }
            }
            Secret::Unchosen | Secret::Nothing => {}
        }
        if self.rules.mode.changes_colour() {
            let piece = self
                .fide
                .board
                .piece_at(sq)
                .expect("announced piece on board");
            // The double-stepped pawn itself changing sides can no longer be
            // taken en passant: a pawn beside it that attacks the square
            // it skipped is now of its colour (T11). Any other announcement,
            // even of a pawn on the same file, keeps the right.
            if self.fide.ep_square.and_then(double_stepped_pawn) == Some(sq) {
                self.fide.ep_square = None;
            }
            self.fide
                .board
                .set_piece_at(sq, Piece::new(!piece.color, piece.role));
        }
        if self.rules.mode.keeps_status() {
            self.announced.add(sq);
            // T9: a rook with a status is not a regular piece of its side,
            // and a status is for good (an announced piece is never
            // announced again), so its castling right can never be used.
            // A Defector rook, regular on either side, keeps its right
            // until it moves: it may come back and castle.
            self.fide.castling_rights.remove(sq);
        }
        self.step = Step::Announced(id);
    }

    pub(crate) fn play_move(&mut self, m: &Move) {
        let us = self.fide.turn;
        let announced_now = match self.step {
            Step::Announced(id) => Some(id),
            _ => None,
        };
        self.fide.begin_ply();
        // Identities move with their pieces.
        match *m {
            Move::Normal { from, to, .. } => {
                self.ids[to.index()] = self.ids[from.index()];
                self.ids[from.index()] = NO_ID;
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.ids[captured.index()] = NO_ID;
                self.ids[to.index()] = self.ids[from.index()];
                self.ids[from.index()] = NO_ID;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                let (king_id, rook_id) = (self.ids[king.index()], self.ids[rook.index()]);
                self.ids[king.index()] = NO_ID;
                self.ids[rook.index()] = NO_ID;
                self.ids[side.king_to(us).index()] = king_id;
                self.ids[side.rook_to(us).index()] = rook_id;
            }
        }
        let mover_colour = self.fide.board.color_at(m.from());
        move_pieces(&mut self.fide.board, &mut self.announced, m);
        match *m {
            Move::Castle { .. } => self.fide.clear_castling(us),
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                self.fide.castling_rights.remove(from);
                self.fide.castling_rights.remove(to);
                if role == Role::King {
                    self.fide.clear_castling(us);
                }
                self.returned_pawns.remove(from);
                self.returned_pawns.remove(to);
                // T11: a pawn that changed colour can walk back onto the
                // square it started on; it has moved all the same.
                if role == Role::Pawn
                    && promotion.is_none()
                    && usize::from(self.ids[to.index()]) == to.index()
                {
                    self.returned_pawns.add(to);
                }
                if let Some(skipped) =
                    en_passant::skipped_square(from, to).filter(|_| role == Role::Pawn)
                {
                    let colour = mover_colour.unwrap_or(us);
                    // Keep the square when a pawn beside could take on the
                    // next move: one of the other colour, or (T11) in the
                    // modes where an announcement changes colour, one of
                    // this colour that the next player may make defect
                    // first. The generator checks who may take; the
                    // position string then restores the right.
                    let mut takers = self.fide.board.by_role(Role::Pawn);
                    if !self.rules.mode.changes_colour() {
                        takers &= self.fide.board.by_color(!colour);
                    }
                    self.fide.ep_square = en_passant::capturable(colour, skipped, takers);
                }
            }
            Move::EnPassant { from, to } => {
                self.returned_pawns.remove(from);
                self.returned_pawns
                    .remove(Square::from_coords(to.file(), from.rank()));
            }
        }
        self.last_move = self.rules.mode.shared().then(|| (m.from(), m.to()));
        self.undo_forbidden = if self.rules.forbids_immediate_undo() {
            announced_now
        } else {
            None
        };
        self.fide.end_turn(m.is_zeroing());
        self.step = Step::Open;
    }
}
