//! Legal action generation for Hostage Chess.
//!
//! Board moves are generated directly legal by the shared FIDE generator
//! ([`crate::fide::movegen`]: king steps avoid attacked squares, pinned
//! pieces keep to their line, a single check is captured or blocked), with
//! the Hostage attack rule: a seventh-rank pawn with nothing to promote to
//! attacks nothing (H6). Every legality
//! test uses the prisons as they are after the action, which leaves two
//! cases where an action changes who attacks:
//!
//! * a capture of a knight, bishop, rook or queen gives the opponent a
//!   piece to promote to, waking its blocked seventh-rank pawns: a capture
//!   that lets such a pawn check our King is illegal;
//! * an exchange that gives away the opponent's last promotable piece puts
//!   its seventh-rank pawns back to sleep: it answers their check.
//!
//! Drops and exchanges never uncover an attack, so they are legal unless we
//! are in check; then they must block the one remaining sliding checker.
//! Actions go to an [`ActionVisitor`] grouped by origin and destination set,
//! so counting (perft's bulk counting) never builds them.

use crate::attacks;
use crate::fide::move_groups;
use crate::fide::movegen::{AnyMove, BoardMoves, MoveSink};
use crate::{Bitboard, Move, Piece, Rank, Role, Square};

use super::reserve::{exchange_value, PROMOTION_ROLES};
use super::{Hostage, HostageAction};

/// Receives generated actions in groups: the board moves as any sink of
/// the shared FIDE generator over Hostage positions ([`MoveSink`]; for
/// pawns, a target on the last rank stands for one promotion per kind of
/// piece the mover may release from the opponent's prison), then drops and
/// exchanges. `is_done` lets generation stop early (the "any legal
/// action?" test of every step's outcome).
pub trait ActionVisitor: MoveSink<Hostage> {
    /// Drops of `role` from the mover's airfield onto each of `targets`.
    fn drops(&mut self, role: Role, targets: Bitboard);
    /// Exchanges giving `given`, rescuing `rescued` and dropping it onto
    /// each of `targets`.
    fn exchanges(&mut self, given: Role, rescued: Role, targets: Bitboard);
}

/// Counts actions without building them.
pub struct CountVisitor(pub usize);

impl MoveSink<Hostage> for CountVisitor {
    #[inline]
    fn piece_moves(&mut self, position: &Hostage, role: Role, _from: Square, targets: Bitboard) {
        self.0 += move_groups::count_moves(role, targets, || position.promotion_choices().count());
    }

    #[inline]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl ActionVisitor for CountVisitor {
    #[inline]
    fn drops(&mut self, _role: Role, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline]
    fn exchanges(&mut self, _given: Role, _rescued: Role, targets: Bitboard) {
        self.0 += targets.count();
    }
}

/// Collects actions into a list (a reused `Vec`, an `ArrayVec`, ...).
pub struct ListVisitor<'a, L: Extend<HostageAction>>(pub &'a mut L);

impl<L: Extend<HostageAction>> MoveSink<Hostage> for ListVisitor<'_, L> {
    #[inline]
    fn piece_moves(&mut self, position: &Hostage, role: Role, from: Square, targets: Bitboard) {
        // A promotion releases a piece of the mover's from the opponent's
        // prison (H6).
        let promotions = || position.promotion_choices();
        move_groups::for_each_move(position.board(), role, from, targets, promotions, |m| {
            self.0.extend([HostageAction::Move(m)]);
        });
    }

    #[inline]
    fn special(&mut self, m: Move) {
        self.0.extend([HostageAction::Move(m)]);
    }
}

impl<L: Extend<HostageAction>> ActionVisitor for ListVisitor<'_, L> {
    #[inline]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        self.0
            .extend(targets.map(|to| HostageAction::Drop { role, to }));
    }

    #[inline]
    fn exchanges(&mut self, given: Role, rescued: Role, targets: Bitboard) {
        self.0
            .extend(targets.map(|to| HostageAction::Exchange { given, rescued, to }));
    }
}

/// Stops at the first action, drops and exchanges included: cheap "is the
/// game over?" checks.
impl ActionVisitor for AnyMove {
    fn drops(&mut self, _: Role, targets: Bitboard) {
        self.0 |= targets.any();
    }
    fn exchanges(&mut self, _: Role, _: Role, targets: Bitboard) {
        self.0 |= targets.any();
    }
}

impl Hostage {
    /// The pieces the side to move may promote to: its own knights,
    /// bishops, rooks and queens in the opponent's prison, queen first.
    pub fn promotion_choices(&self) -> impl Iterator<Item = Role> + '_ {
        let prison = self.prison(!self.turn());
        PROMOTION_ROLES.into_iter().filter(|r| prison.contains(*r))
    }

    /// Every legal action.
    pub fn legal_action_list(&self) -> Vec<HostageAction> {
        let mut actions = Vec::new();
        self.visit_legal_actions(&mut ListVisitor(&mut actions));
        actions
    }

    /// Stops at the first legal action.
    pub fn has_legal_action(&self) -> bool {
        let mut any = AnyMove(false);
        self.visit_legal_actions(&mut any);
        any.0
    }

    /// True when a legal en passant capture exists (only then does the en
    /// passant square count for repetition).
    pub fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.ep_square() else {
            return false;
        };
        let mut any = AnyMove(false);
        self.board_moves(self.checkers())
            .visit_en_passant::<Hostage>(ep, &mut any);
        any.0
    }

    /// Generates every legal action into the visitor: board moves, then
    /// drops, then exchanges.
    pub fn visit_legal_actions<V: ActionVisitor>(&self, visitor: &mut V) {
        let checkers = self.checkers();
        self.board_moves(checkers).visit(self, visitor);
        if visitor.is_done() {
            return;
        }
        self.visit_drops_and_exchanges(visitor, checkers);
    }

    /// The position as the shared FIDE generator sees it, with the Hostage
    /// attack rule (H6): blocked seventh-rank pawns attack nothing, a
    /// capture of a piece wakes them, and they neither advance nor capture.
    #[inline(always)]
    fn board_moves(
        &self,
        checkers: Bitboard,
    ) -> BoardMoves<
        '_,
        impl Fn(Square, Bitboard) -> Bitboard + '_,
        impl Fn(Square, Bitboard) -> bool + '_,
    > {
        let board = self.board();
        let us = self.turn();
        let them = !us;
        let king = self.our_king();
        // Their pieces other than pawns and king: capturing one gives them a
        // piece to promote to (H6).
        let their_pieces =
            board.by_color(them) - board.by_role(Role::Pawn) - board.by_role(Role::King);
        let they_can_promote = self.can_promote(them);
        // A blocked pawn of theirs diagonally before our king would check as
        // soon as we capture a piece (the note to 8...Bxd7 in the text).
        let forbidden = if (attacks::pawn_attacks(us, king) & self.blocked_pawns(them)).any() {
            their_pieces
        } else {
            Bitboard::EMPTY
        };
        // H6: with nothing to promote to, a seventh-rank pawn cannot move.
        let mut pawns = board.by_piece(Piece::new(us, Role::Pawn));
        if !self.can_promote(us) {
            pawns = pawns - Bitboard::relative_rank(us, Rank::SEVENTH);
        }
        BoardMoves {
            board,
            us,
            king,
            checkers,
            ep_square: self.ep_square(),
            castling_rights: self.castling_rights(),
            pawns,
            forbidden,
            // A captured pawn gives them nothing to promote to, so en
            // passant and castling see the attack rule as it is now.
            attackers: move |sq, occupied| self.attackers_to(sq, them, occupied),
            // The king is no blocker for the squares it leaves, and a
            // capture of a piece wakes every blocked pawn of theirs.
            king_step_attacked: move |to, occupied| {
                if !they_can_promote && their_pieces.contains(to) {
                    board.attackers_to(to, them, occupied).any()
                } else {
                    self.attackers_to(to, them, occupied).any()
                }
            },
        }
    }

    /// Squares a drop may go to, given the checkers that remain after the
    /// action: any empty square out of check; between the King and a lone
    /// distant slider in check; none otherwise (a drop never captures).
    fn drop_squares(&self, king: Square, checkers: Bitboard) -> Bitboard {
        if checkers.is_empty() {
            !self.board().occupied()
        } else if let Some(checker) = checkers.single_square() {
            attacks::between(king, checker)
        } else {
            Bitboard::EMPTY
        }
    }

    fn visit_drops_and_exchanges<V: ActionVisitor>(&self, visitor: &mut V, checkers: Bitboard) {
        let us = self.turn();
        let them = !us;
        let king = self.our_king();
        // H3: no pawn on either back rank.
        let pawn_mask = |role: Role| {
            if role == Role::Pawn {
                !Bitboard::BACKRANKS
            } else {
                Bitboard::FULL
            }
        };
        let squares = self.drop_squares(king, checkers);
        if squares.any() {
            for role in self.airfield(us).roles() {
                visitor.drops(role, squares & pawn_mask(role));
            }
        }

        let our_prison = *self.prison(us);
        let their_prison = *self.prison(them);
        if their_prison.is_empty() {
            return;
        }
        for given in our_prison.roles() {
            // Giving away their last promotable piece silences their
            // seventh-rank pawns (H6): those checks no longer count.
            let mut after = our_prison;
            after.remove(given);
            let remaining = if our_prison.has_promotion_piece() && !after.has_promotion_piece() {
                checkers
                    - (self.board().by_piece(Piece::new(them, Role::Pawn))
                        & Bitboard::relative_rank(them, Rank::SEVENTH))
            } else {
                checkers
            };
            let squares = self.drop_squares(king, remaining);
            if squares.is_empty() {
                continue;
            }
            let value = exchange_value(given);
            for rescued in their_prison.roles() {
                if exchange_value(rescued) <= value {
                    visitor.exchanges(given, rescued, squares & pawn_mask(rescued));
                }
            }
        }
    }
}
