//! What a diagram of a Poison position shows: the board with each
//! poisoned piece's countdown around it (`4B4`, as the rule text draws
//! it), the side to move, and a key to the letters.

use crate::render::{to_move, Diagram};

use super::PoisonChess;

/// Countdowns around poisoned pieces.
pub(super) fn diagram(position: &PoisonChess) -> Diagram {
    let mut diagram = Diagram::of_board(position.board());
    for sq in position.all_poisoned() {
        diagram.cells[sq.index()].countdown = position.counter(sq);
    }
    diagram.below.push(to_move(position.turn()));
    diagram
        .below
        .push("H harpy, D doctor, G guard (white upper case, black lower case)".to_owned());
    if !position.all_poisoned().is_empty() {
        diagram.below.push(
            "4B4: a poisoned piece; the digits count the opposing moves before it dies".to_owned(),
        );
    }
    diagram
}
