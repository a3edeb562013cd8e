//! Legal action generation.
//!
//! The fast path generates legal actions directly, as FIDE chess does (king
//! steps to unattacked squares, pinned pieces on their line, single-check
//! evasions), with the Poison attack rules of P6 and frozen pieces (P4).
//! That reasoning holds while the action cannot kill: when some enemy piece
//! is on its last count (counter 1), every action of the side to move ends
//! with its death (P3), which can uncover a check on the mover's King or
//! lift one (a dying King's), so P7 is then judged the simple way: each
//! pseudo-legal action is played on a copy and the mover's King tested.
//! [`PoisonChess::legal_actions_by_playing`] does that for every position;
//! the property tests check the fast path against it.
//!
//! Generation feeds an [`ActionVisitor`] with (role, from, destinations),
//! so counting (perft's bulk counting) builds no action and listing
//! allocates nothing beyond the caller's buffer.

use arrayvec::ArrayVec;

use crate::attacks;
use crate::fide::{castling, en_passant, legality, move_groups};
use crate::{Bitboard, Move, Role, Square};

use super::{PoisonAction, PoisonChess, PROMOTIONS};

/// Pseudo-legal actions of one position: at most about 220 moves (the FIDE
/// bound with Guards for Queens), 16 poisonings (two Harpies, eight
/// neighbours) and 9 cures; 512 leaves ample room.
const MAX_PSEUDO_ACTIONS: usize = 512;

/// Receives generated actions, moves grouped by origin.
pub trait ActionVisitor {
    /// Moves of a piece from `from` to each square of `targets` (for pawns,
    /// a target on the last rank stands for the four promotions).
    fn piece_moves(&mut self, position: &PoisonChess, role: Role, from: Square, targets: Bitboard);
    /// One action (en passant, castling, poisoning, cure).
    fn action(&mut self, action: PoisonAction);
}

/// Counts actions without building them.
pub struct CountVisitor(pub usize);

impl ActionVisitor for CountVisitor {
    #[inline]
    fn piece_moves(&mut self, _: &PoisonChess, role: Role, _: Square, targets: Bitboard) {
        self.0 += move_groups::count_moves(role, targets, || PROMOTIONS.len());
    }

    #[inline]
    fn action(&mut self, _: PoisonAction) {
        self.0 += 1;
    }
}

/// Collects actions into a list.
pub struct ListVisitor<'a, L: Extend<PoisonAction>>(pub &'a mut L);

impl<L: Extend<PoisonAction>> ActionVisitor for ListVisitor<'_, L> {
    #[inline]
    fn piece_moves(&mut self, position: &PoisonChess, role: Role, from: Square, targets: Bitboard) {
        for_each_move(position, role, from, targets, |m| {
            self.0.extend([PoisonAction::Move(m)]);
        });
    }

    #[inline]
    fn action(&mut self, action: PoisonAction) {
        self.0.extend([action]);
    }
}

/// Looks for one action (legality test without a list).
pub(super) struct FindVisitor<'a> {
    pub wanted: PoisonAction,
    pub found: &'a mut bool,
}

impl ActionVisitor for FindVisitor<'_> {
    fn piece_moves(&mut self, position: &PoisonChess, role: Role, from: Square, targets: Bitboard) {
        if let PoisonAction::Move(wanted @ Move::Normal { from: f, to, .. }) = self.wanted {
            if f == from && targets.contains(to) {
                for_each_move(position, role, from, Bitboard::from_square(to), |m| {
                    *self.found |= m == wanted;
                });
            }
        }
    }

    fn action(&mut self, action: PoisonAction) {
        *self.found |= action == self.wanted;
    }
}

/// Stops caring after the first action: "is there any legal action?".
struct AnyVisitor(bool);

impl ActionVisitor for AnyVisitor {
    #[inline]
    fn piece_moves(&mut self, _: &PoisonChess, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn action(&mut self, _: PoisonAction) {
        self.0 = true;
    }
}

/// The moves a (role, from, targets) group stands for, promotions expanded.
#[inline]
fn for_each_move(
    position: &PoisonChess,
    role: Role,
    from: Square,
    targets: Bitboard,
    f: impl FnMut(Move),
) {
    move_groups::for_each_move(position.board(), role, from, targets, || PROMOTIONS, f);
}

impl PoisonChess {
    /// Enemy poisoned pieces on their last count: the side to move's next
    /// action kills them (P3).
    pub fn dying(&self) -> Bitboard {
        let mut dying = Bitboard::EMPTY;
        for sq in self.poisoned[(!self.fide.turn).index()] {
            if self.counters[sq.index()] == 1 {
                dying.add(sq);
            }
        }
        dying
    }

    /// Generates every legal action into the visitor. Nothing is legal once
    /// a King has died (P9: the game is over).
    pub fn visit_legal_actions<V: ActionVisitor>(&self, visitor: &mut V) {
        if self.king_set(self.fide.turn).is_empty() || self.king_set(!self.fide.turn).is_empty() {
            return;
        }
        if self.dying().any() {
            self.visit_by_playing(visitor);
        } else {
            self.generate::<V, true>(visitor);
        }
    }

    /// True when the side to move has a legal action.
    pub fn has_legal_action(&self) -> bool {
        let mut any = AnyVisitor(false);
        self.visit_legal_actions(&mut any);
        any.0
    }

    /// The reference definition of legality (P7), for any position: every
    /// pseudo-legal action, played on a copy, that leaves the mover's King
    /// unattacked. Slower than [`Position::legal_actions`](crate::Position)
    /// and equal to it; tests compare the two.
    pub fn legal_actions_by_playing(&self, out: &mut Vec<PoisonAction>) {
        out.clear();
        if self.king_set(self.fide.turn).is_empty() || self.king_set(!self.fide.turn).is_empty() {
            return;
        }
        self.visit_by_playing(&mut ListVisitor(out));
    }

    fn visit_by_playing<V: ActionVisitor>(&self, visitor: &mut V) {
        let mut pseudo: ArrayVec<PoisonAction, MAX_PSEUDO_ACTIONS> = ArrayVec::new();
        self.generate::<_, false>(&mut ListVisitor(&mut pseudo));
        for action in pseudo {
            let mut after = self.clone();
            after.play_action_unchecked(&action);
            if !after.king_attacked(self.fide.turn) {
                visitor.action(action);
            }
        }
    }

    /// Generates actions of unpoisoned pieces (and self-cures of a poisoned
    /// Doctor). With `LEGAL`, only those that leave the King unattacked,
    /// assuming no piece dies at the end of the action; without it, every
    /// pseudo-legal action (castling still obeys its own rules about
    /// attacked squares).
    fn generate<V: ActionVisitor, const LEGAL: bool>(&self, visitor: &mut V) {
        let board = &self.fide.board;
        let us = self.fide.turn;
        let them = !us;
        let Some(king) = board.king_of(us) else {
            return;
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(them);
        let frozen = self.poisoned[us.index()];
        let active = ours & !frozen;
        // Kings are never captured (P8); the enemy King is never attacked
        // on our turn anyway, except in hand-made positions.
        let capturable = theirs & !self.king_set(them);
        let empty = !occupied;
        let checkers = self.attackers_to(king, them, occupied);

        if active.contains(king) {
            let mut targets = attacks::king_attacks(king) & (empty | capturable);
            if LEGAL {
                targets = legality::safe_king_steps(king, targets, occupied, |to, occupied| {
                    self.attackers_to(to, them, occupied).any()
                });
            }
            visitor.piece_moves(self, Role::King, king, targets);
        }

        let (target, pinned) = if LEGAL {
            if checkers.more_than_one() {
                // A poisoning silences one checker only; a cure none.
                return;
            }
            let target = match checkers.first() {
                Some(checker) => attacks::between(king, checker) | (capturable & checker),
                None => Bitboard::FULL,
            };
            (target, self.pinned(king))
        } else {
            (Bitboard::FULL, Bitboard::EMPTY)
        };
        let pin_line = |from: Square| {
            if pinned.contains(from) {
                attacks::line(king, from)
            } else {
                Bitboard::FULL
            }
        };
        let move_targets = (empty | capturable) & target;

        for from in active & board.by_role(Role::Knight) & !pinned {
            visitor.piece_moves(
                self,
                Role::Knight,
                from,
                attacks::knight_attacks(from) & move_targets,
            );
        }
        for role in [Role::Bishop, Role::Rook, Role::Guard, Role::Doctor] {
            for from in active & board.by_role(role) {
                let reach = match role {
                    Role::Bishop => attacks::bishop_attacks(from, occupied),
                    Role::Rook => attacks::rook_attacks(from, occupied),
                    _ => attacks::queen_attacks(from, occupied),
                };
                visitor.piece_moves(self, role, from, reach & move_targets & pin_line(from));
            }
        }
        // Harpies capture enemy Harpies only (P1).
        let harpy_targets = (empty | (theirs & board.by_role(Role::Harpy))) & target;
        let our_harpies = active & board.by_role(Role::Harpy);
        for from in our_harpies {
            visitor.piece_moves(
                self,
                Role::Harpy,
                from,
                attacks::rook_attacks(from, occupied) & harpy_targets & pin_line(from),
            );
        }

        for from in active & board.by_role(Role::Pawn) {
            let targets = (attacks::pawn_pushes(us, from, board.occupied())
                | (attacks::pawn_attacks(us, from) & capturable))
                & target
                & pin_line(from);
            if targets.any() {
                visitor.piece_moves(self, Role::Pawn, from, targets);
            }
        }

        if let Some(ep) = self.fide.ep_square {
            self.visit_en_passant::<V, LEGAL>(visitor, king, ep, active);
        }
        if checkers.is_empty() && active.contains(king) {
            self.visit_castling(visitor, king);
        }

        // Poisonings (P2): an unpoisoned Harpy, an unpoisoned enemy piece
        // next to it. The Harpy leaves its square, which may uncover a
        // check; the target stops attacking, which may lift one.
        let poisonable = theirs & !self.poisoned[them.index()];
        for harpy in our_harpies {
            for victim in attacks::king_attacks(harpy) & poisonable {
                let legal = !LEGAL
                    || (checkers.is_empty() && !pinned.contains(harpy))
                    || (self.attackers_to(king, them, occupied.without(harpy)) - victim).is_empty();
                if legal {
                    visitor.action(PoisonAction::Poison {
                        harpy,
                        target: victim,
                    });
                }
            }
        }

        // Cures (P5): they change nothing that attacks our King, so they
        // are legal exactly when we are not in check. A poisoned Doctor may
        // cure itself only (P4).
        if !LEGAL || checkers.is_empty() {
            for doctor in ours & board.by_role(Role::Doctor) {
                let patients = if frozen.contains(doctor) {
                    Bitboard::from_square(doctor)
                } else {
                    attacks::king_attacks(doctor) & frozen
                };
                for patient in patients {
                    visitor.action(PoisonAction::Cure {
                        doctor,
                        target: patient,
                    });
                }
            }
        }
    }

    fn visit_en_passant<V: ActionVisitor, const LEGAL: bool>(
        &self,
        visitor: &mut V,
        king: Square,
        ep: Square,
        active: Bitboard,
    ) {
        let us = self.fide.turn;
        en_passant::visit_legal(
            &self.fide.board,
            us,
            ep,
            active,
            |occupied| {
                if LEGAL {
                    self.attackers_to(king, !us, occupied)
                } else {
                    Bitboard::EMPTY
                }
            },
            |m| visitor.action(PoisonAction::Move(m)),
        );
    }

    /// Castling (P11): the unpoisoned King and an unpoisoned unmoved Harpy,
    /// the squares between them empty, the King not in check (the caller
    /// checks that) and not passing through or landing on an attacked
    /// square (P6 attacks).
    fn visit_castling<V: ActionVisitor>(&self, visitor: &mut V, king: Square) {
        let us = self.fide.turn;
        castling::visit_legal(
            self.fide.board.occupied(),
            us,
            king,
            self.fide.castling_rights - self.poisoned[us.index()],
            |sq, occupied| self.attackers_to(sq, !us, occupied).any(),
            |m| visitor.action(PoisonAction::Move(m)),
        );
    }

    /// True when a legal en passant capture exists (only then does the en
    /// passant square count for repetition).
    pub fn has_legal_en_passant(&self) -> bool {
        struct EnPassantVisitor(bool);
        impl ActionVisitor for EnPassantVisitor {
            fn piece_moves(&mut self, _: &PoisonChess, _: Role, _: Square, _: Bitboard) {}
            fn action(&mut self, action: PoisonAction) {
                self.0 |= matches!(action, PoisonAction::Move(Move::EnPassant { .. }));
            }
        }
        if self.fide.ep_square.is_none() {
            return false;
        }
        let mut visitor = EnPassantVisitor(false);
        self.visit_legal_actions(&mut visitor);
        visitor.0
    }
}
