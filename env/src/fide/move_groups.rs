//! The (role, from, targets) groups that FIDE-like generators hand to
//! their visitors instead of moves, so that counting builds nothing: the
//! number of moves a group stands for, and the moves themselves, a pawn's
//! target on the last rank standing for one move per promotion choice.

use crate::{Bitboard, Board, Move, Role, Square};

/// How many moves the group of `role`'s `targets` stands for, when a pawn
/// reaching the last rank has `promotion_choices()` choices (asked only
/// then).
#[inline(always)]
pub fn count_moves(
    role: Role,
    targets: Bitboard,
    promotion_choices: impl FnOnce() -> usize,
) -> usize {
    let moves = targets.count();
    if role != Role::Pawn {
        return moves;
    }
    let promotions = (targets & Bitboard::BACKRANKS).count();
    if promotions == 0 {
        return moves;
    }
    moves + promotions * (promotion_choices() - 1)
}

/// Each move of the group of the man `role` on `from` to `targets` on
/// `board`, captures read from the board; a pawn's target on the last rank
/// gives one move per role of `promotions()` (asked per such target).
#[inline(always)]
pub fn for_each_move<I: IntoIterator<Item = Role>>(
    board: &Board,
    role: Role,
    from: Square,
    targets: Bitboard,
    promotions: impl Fn() -> I,
    mut emit: impl FnMut(Move),
) {
    for to in targets {
        let capture = board.role_at(to);
        let normal = |promotion| Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        };
        if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
            for promotion in promotions() {
                emit(normal(Some(promotion)));
            }
        } else {
            emit(normal(None));
        }
    }
}
