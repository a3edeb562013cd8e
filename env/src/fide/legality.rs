//! The legality rules of direct FIDE move generation, shared by every
//! generator that produces legal moves without playing them (chess,
//! Hostage, Poison's fast path): pins, the king's safe steps, and the
//! moves of the men a pin or a check restricts. Each variant supplies what
//! attacks and pins in its rules (Poison: no poisoned piece, no Harpy;
//! Hostage: blocked seventh-rank pawns attack nothing).

use crate::attacks;
use crate::{Bitboard, Board, Color, Role, Square};

/// Our men (`ours`) pinned to our king on `king` by the enemy sliders
/// that may pin: `orthogonal` (rook-like) and `diagonal` (bishop-like).
/// A pinned man may only move along the line between the king and its
/// pinner.
#[inline(always)]
pub fn pinned(
    king: Square,
    ours: Bitboard,
    occupied: Bitboard,
    orthogonal: Bitboard,
    diagonal: Bitboard,
) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & orthogonal)
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & diagonal);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers & ours;
        }
    }
    pinned
}

/// The king's steps among `candidates` that `attacked(to, occupied)`
/// does not forbid, asked with the king lifted off `occupied`: the king
/// is no blocker for the squares it leaves.
#[inline(always)]
pub fn safe_king_steps(
    king: Square,
    candidates: Bitboard,
    occupied: Bitboard,
    attacked: impl Fn(Square, Bitboard) -> bool,
) -> Bitboard {
    let without_king = occupied.without(king);
    let mut steps = candidates;
    for to in candidates {
        if attacked(to, without_king) {
            steps.remove(to);
        }
    }
    steps
}

/// The squares a man other than the king must move to: onto the single
/// checker or between it and the king in check, anywhere but onto our own
/// men (`ours`) out of check. Double check leaves only king moves; the
/// caller stops before asking.
#[inline(always)]
pub fn evasion_target(king: Square, checkers: Bitboard, ours: Bitboard) -> Bitboard {
    match checkers.first() {
        Some(checker) => attacks::between(king, checker).with(checker),
        None => !ours,
    }
}

/// The moves of `us`'s knights, bishops, rooks and queens and of `pawns`
/// (our pawns that may move) on a FIDE board, restricted to `target` (see
/// [`evasion_target`]) and, for the `pinned` men, to their pin line
/// through `king`. `emit(role, from, targets)` receives them by man
/// (knights, bishops, rooks, queens, then pawns with a target) and answers
/// whether it has seen enough: generation then stops at the next role.
#[inline(always)]
pub fn visit_men_moves(
    board: &Board,
    us: Color,
    king: Square,
    target: Bitboard,
    pinned: Bitboard,
    pawns: Bitboard,
    mut emit: impl FnMut(Role, Square, Bitboard) -> bool,
) {
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let mut done = false;
    for from in ours & board.by_role(Role::Knight) & !pinned {
        done = emit(Role::Knight, from, attacks::knight_attacks(from) & target);
    }
    for role in [Role::Bishop, Role::Rook, Role::Queen] {
        if done {
            return;
        }
        for from in ours & board.by_role(role) {
            let mut targets = match role {
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            } & target;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            done = emit(role, from, targets);
        }
    }
    if done {
        return;
    }
    let enemies = board.by_color(!us);
    for from in pawns {
        let mut targets = (attacks::pawn_pushes(us, from, occupied)
            | (attacks::pawn_attacks(us, from) & enemies))
            & target;
        if pinned.contains(from) {
            targets &= attacks::line(king, from);
        }
        if targets.any() {
            emit(Role::Pawn, from, targets);
        }
    }
}
