//! What a diagram of a Mad Scientist position shows: composite pieces by
//! their part letters (`[WWC]`), the hands beside the home ranks, and
//! whether the side to act moves or discards.

use crate::render::{to_move, Cell, Diagram, Reserve, ReserveMen};
use crate::Color;

use super::parts::Part;
use super::MadScientist;

/// Part-pieces, hands and a pending discard.
pub(super) fn diagram(position: &MadScientist) -> Diagram {
    let mut diagram = Diagram::empty();
    for (sq, piece) in position.board().pieces() {
        diagram.cells[sq.index()] = Cell {
            token: piece.token(),
            color: Some(piece.color),
            ..Cell::default()
        };
    }
    for color in Color::ALL {
        let hand = position.hand(color).to_string();
        let letters = match color {
            Color::White => hand,
            Color::Black => hand.to_ascii_lowercase(),
        };
        let shown = if letters.is_empty() { "-" } else { &letters };
        let hand = position.hand(color);
        diagram.reserves.push(Reserve {
            owner: color,
            area: "hand",
            rank: color.fold(0, 7),
            label: format!("{} hand: {shown}", color.name()),
            men: Part::ALL
                .into_iter()
                .filter(|&part| hand.count(part) > 0)
                .map(|part| ReserveMen {
                    letter: part.char(),
                    color,
                    count: hand.count(part),
                })
                .collect(),
        });
    }
    let turn = position.turn();
    diagram.below.push(if position.is_discarding() {
        format!("{} to discard", turn.name())
    } else {
        to_move(turn)
    });
    diagram.below.push(
        "parts: W wazir, F ferz, C crab, B barc; [WWC] is one piece of those parts, \
         two of a part ride"
            .to_owned(),
    );
    diagram
}
