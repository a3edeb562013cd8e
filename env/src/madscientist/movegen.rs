//! Legal action generation. The Scientist is never in check (M1), so every
//! pseudo-legal action is legal: no pins, no king-safety test, and counting
//! is a sum of popcounts. Generation goes through a visitor (as in the chess
//! module) so perft's bulk counting never builds actions.

use crate::attacks;
use crate::{Bitboard, Rank, Square};

use super::action::{MadAction, MoveKind, PieceMove, Promotion};
use super::movement::composite_attacks;
use super::parts::Part;
use super::MadScientist;

/// Receives legal actions in groups.
pub(crate) trait ActionVisitor {
    /// Plain moves of the piece on `from` to each target (captures and pawn
    /// pushes included; no promotions).
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to the last rank: four actions per target.
    fn promotions(&mut self, from: Square, targets: Bitboard);
    /// Animating `part` on each target.
    fn animations(&mut self, part: Part, targets: Bitboard);
    /// Any other single action.
    fn action(&mut self, action: MadAction);
}

/// Appends every action to a vector.
pub(crate) struct ListVisitor<'a>(pub &'a mut Vec<MadAction>);

impl ActionVisitor for ListVisitor<'_> {
    #[inline]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        self.0
            .extend(targets.map(|to| MadAction::Move(PieceMove::normal(from, to))));
    }

    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for promotion in Promotion::ALL {
                self.0.push(MadAction::Move(PieceMove {
                    from,
                    to,
                    kind: MoveKind::Promotion(promotion),
                }));
            }
        }
    }

    fn animations(&mut self, part: Part, targets: Bitboard) {
        self.0
            .extend(targets.map(|to| MadAction::Animate { part, to }));
    }

    #[inline]
    fn action(&mut self, action: MadAction) {
        self.0.push(action);
    }
}

/// Counts actions without building them.
pub(crate) struct CountVisitor(pub usize);

impl ActionVisitor for CountVisitor {
    #[inline]
    fn piece_moves(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline]
    fn promotions(&mut self, _: Square, targets: Bitboard) {
        self.0 += 4 * targets.count();
    }

    #[inline]
    fn animations(&mut self, _: Part, targets: Bitboard) {
        self.0 += targets.count();
    }

    #[inline]
    fn action(&mut self, _: MadAction) {
        self.0 += 1;
    }
}

impl MadScientist {
    /// Feeds every legal action to `visitor`, in a fixed order: discards
    /// only while the hand is over eight; otherwise composite pieces,
    /// Scientist, castling, pawns, then animate, attach and remove. Nothing
    /// once the side to move has lost its Scientist (the game is over).
    pub(crate) fn visit_actions<V: ActionVisitor>(&self, visitor: &mut V) {
        let us = self.fide.turn;
        let Some(scientist) = self.fide.board.scientist_of(us) else {
            return;
        };
        let hand = self.hands[us.index()];
        if hand.is_over_limit() {
            for part in Part::ALL {
                if hand.count(part) > 0 {
                    visitor.action(MadAction::Discard { part });
                }
            }
            return;
        }
        let board = &self.fide.board;
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);

        for from in board.composites() & ours {
            let targets = composite_attacks(board.parts_at(from), us, from, occupied) - ours;
            visitor.piece_moves(from, targets);
        }

        let neighbours = attacks::king_attacks(scientist);
        visitor.piece_moves(scientist, neighbours - ours);
        self.visit_castling(visitor, scientist, occupied);
        self.visit_pawns(visitor, occupied, theirs);

        // Scientist powers (M5).
        let empty_neighbours = neighbours - occupied;
        for part in Part::ALL {
            if hand.count(part) > 0 && empty_neighbours.any() {
                visitor.animations(part, empty_neighbours);
            }
        }
        for square in neighbours & board.composites() {
            let parts = board.parts_at(square);
            for part in Part::ALL {
                if hand.count(part) > 0 && parts.can_add(part) {
                    visitor.action(MadAction::Attach {
                        part,
                        target: square,
                    });
                }
            }
            // Not from an opposing piece that attacks the Scientist now.
            if theirs.contains(square)
                && composite_attacks(parts, !us, square, occupied).contains(scientist)
            {
                continue;
            }
            for part in Part::ALL {
                if parts.count(part) > 0 {
                    visitor.action(MadAction::Remove { part, from: square });
                }
            }
        }
    }

    /// Castling (M1): an unmoved Scientist and unmoved, unmodified rook
    /// (the right says both), the squares between empty; attacks on the
    /// Scientist's path do not matter.
    fn visit_castling<V: ActionVisitor>(
        &self,
        visitor: &mut V,
        scientist: Square,
        occupied: Bitboard,
    ) {
        let us = self.fide.turn;
        let rights = self.fide.castling_rights & Bitboard::relative_rank(us, Rank::FIRST);
        for rook in rights {
            if (attacks::between(scientist, rook) & occupied).is_empty() {
                let to = if rook.file() > scientist.file() {
                    Square::G1.relative_to(us)
                } else {
                    Square::C1.relative_to(us)
                };
                visitor.action(MadAction::Move(PieceMove {
                    from: scientist,
                    to,
                    kind: MoveKind::Castle,
                }));
            }
        }
    }

    fn visit_pawns<V: ActionVisitor>(&self, visitor: &mut V, occupied: Bitboard, theirs: Bitboard) {
        let us = self.fide.turn;
        let forward = us.fold(1, -1);
        let last_rank = Bitboard::relative_rank(us, Rank::EIGHTH);
        for from in self.fide.board.pawns() & self.fide.board.by_color(us) {
            let mut targets = attacks::pawn_attacks(us, from) & theirs;
            if let Some(one) = from.offset(0, forward) {
                if !occupied.contains(one) {
                    targets.add(one);
                    if from.relative_rank(us) == Rank::SECOND {
                        if let Some(two) = one.offset(0, forward) {
                            if !occupied.contains(two) {
                                targets.add(two);
                            }
                        }
                    }
                }
            }
            visitor.piece_moves(from, targets - last_rank);
            let promotions = targets & last_rank;
            if promotions.any() {
                visitor.promotions(from, promotions);
            }
            if let Some(ep) = self.fide.ep_square {
                if attacks::pawn_attacks(us, from).contains(ep) {
                    visitor.action(MadAction::Move(PieceMove {
                        from,
                        to: ep,
                        kind: MoveKind::EnPassant,
                    }));
                }
            }
        }
    }

    /// True when the piece on `from` (of either colour) attacks `target`
    /// now: what M5's remove restriction asks of an adjacent enemy piece.
    pub fn attacks_square(&self, from: Square, target: Square) -> bool {
        let Some(piece) = self.fide.board.piece_at(from) else {
            return false;
        };
        let occupied = self.fide.board.occupied();
        match piece.kind {
            super::board::PieceKind::Scientist => attacks::king_attacks(from).contains(target),
            super::board::PieceKind::Pawn => {
                attacks::pawn_attacks(piece.color, from).contains(target)
            }
            super::board::PieceKind::Composite(parts) => {
                composite_attacks(parts, piece.color, from, occupied).contains(target)
            }
        }
    }
}
