//! What a diagram of a chess position shows: the board and the side to
//! move.

use crate::render::{to_move, Diagram};

use super::Chess;

/// The board and the side to move.
pub(super) fn diagram(position: &Chess) -> Diagram {
    let mut diagram = Diagram::of_board(position.board());
    diagram.below.push(to_move(position.turn()));
    diagram
}
