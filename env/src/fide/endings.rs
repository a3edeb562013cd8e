//! The FIDE endings: checkmate and stalemate given whether a legal action
//! exists, dead material, and the 50-move rule.

use crate::{Bitboard, Board, Color, Outcome, Role, Setup, Termination};

/// No legal action: checkmate (`turn` lost) when in check, else stalemate.
#[inline]
pub fn checkmate_or_stalemate(in_check: bool, turn: Color) -> Outcome {
    if in_check {
        Outcome::Decisive {
            winner: !turn,
            termination: Termination::Checkmate,
        }
    } else {
        Outcome::Draw {
            termination: Termination::Stalemate,
        }
    }
}

/// The 50-move draw: a hundred half-moves without a zeroing action.
#[inline]
pub fn fifty_moves(halfmoves: u32) -> Option<Outcome> {
    (halfmoves >= 100).then_some(Outcome::Draw {
        termination: Termination::FiftyMoves,
    })
}

/// The FIDE endings in order: `no_action()` when there is no legal action
/// (usually [`checkmate_or_stalemate`]), then dead material, then the
/// 50-move rule.
#[inline]
pub fn outcome_given(
    has_legal_action: bool,
    no_action: impl FnOnce() -> Outcome,
    insufficient_material: impl FnOnce() -> bool,
    halfmoves: u32,
) -> Option<Outcome> {
    if !has_legal_action {
        return Some(no_action());
    }
    if insufficient_material() {
        return Some(Outcome::Draw {
            termination: Termination::InsufficientMaterial,
        });
    }
    fifty_moves(halfmoves)
}

/// FIDE's dead material given the men that can mate (`mating`: pawns,
/// rooks, queens, and any variant's additions): none of them, and kings
/// alone, or with one knight or bishop in all, or with only bishops all on
/// squares of one colour.
#[inline]
pub fn insufficient_material(board: &Board, mating: Bitboard) -> bool {
    if mating.any() {
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

/// [`insufficient_material`] with FIDE's mating men: pawns, rooks, queens.
#[inline]
pub fn fide_insufficient_material(board: &Board) -> bool {
    insufficient_material(board, board.by_role(Role::Pawn) | board.rooks_and_queens())
}

/// [`outcome_given`] with FIDE's endings for a position of FIDE roles on a
/// shared board (its `fide` state): checkmate or stalemate (`in_check()` is
/// asked only without a legal action), FIDE's dead material, 50 moves.
#[inline]
pub fn fide_outcome_given(
    has_legal_action: bool,
    state: &Setup,
    in_check: impl FnOnce() -> bool,
) -> Option<Outcome> {
    outcome_given(
        has_legal_action,
        || checkmate_or_stalemate(in_check(), state.turn),
        || fide_insufficient_material(&state.board),
        state.halfmoves,
    )
}
