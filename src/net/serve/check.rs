//! Where the page marks check: the square of the king of the side to move
//! when that king is in check. The `Position` trait has no notion of
//! check (Mad Scientist's Scientist is never in check, M1), so each variant
//! with a checkable king answers through its own `is_check`, reached by a
//! downcast; any other position type has no check to mark.
//!
//! Check is public even under hidden information: a Traitor king is
//! checked by announced pieces only, never by a secret selection
//! (`traitor::control::checkers`), so every seat may be shown it.

use std::any::Any;

use heterodox_env::{Board, Chess, Color, GameVariant, Hostage, PoisonChess, Square, Traitor};

/// The square of the side to move's king when it is in check.
pub fn checked_king<P: GameVariant>(position: &P) -> Option<Square> {
    let any: &dyn Any = position;
    let (board, turn, check) = if let Some(p) = any.downcast_ref::<Chess>() {
        (p.board(), p.turn(), p.is_check())
    } else if let Some(p) = any.downcast_ref::<Hostage>() {
        (p.board(), p.turn(), p.is_check())
    } else if let Some(p) = any.downcast_ref::<PoisonChess>() {
        (p.board(), p.turn(), p.is_check())
    } else if let Some(p) = any.downcast_ref::<Traitor>() {
        (p.board(), p.turn(), p.is_check())
    } else {
        return None;
    };
    king_in_check(board, turn, check)
}

fn king_in_check(board: &Board, turn: Color, check: bool) -> Option<Square> {
    if check {
        board.king_of(turn)
    } else {
        None
    }
}
