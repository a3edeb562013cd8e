//! One [`Diagram`] builder per variant: what of its state a person needs
//! to see, and where it goes.

use crate::hostage::Reserve;
use crate::traitor::{Secret, Step};
use crate::{Board, Chess, Color, Hostage, MadScientist, PoisonChess, Square, Traitor};

use super::{Cell, Diagram};

/// The pieces of a shared [`Board`] as cells.
fn board_diagram(board: &Board) -> Diagram {
    let mut diagram = Diagram::empty();
    for (sq, piece) in board.pieces() {
        diagram.cells[sq.index()] = Cell {
            token: piece.char().to_string(),
            color: Some(piece.color),
            ..Cell::default()
        };
    }
    diagram
}

fn to_move(turn: Color) -> String {
    format!("{} to move", turn.name())
}

/// FIDE chess: the board and the side to move.
pub fn chess(position: &Chess) -> Diagram {
    let mut diagram = board_diagram(position.board());
    diagram.below.push(to_move(position.turn()));
    diagram
}

/// Poison Chess: countdowns around poisoned pieces.
pub fn poison(position: &PoisonChess) -> Diagram {
    let mut diagram = board_diagram(position.board());
    for sq in position.all_poisoned() {
        diagram.cells[sq.index()].countdown = position.counter(sq);
    }
    diagram.below.push(to_move(position.turn()));
    diagram
}

/// A reserve's men, most valuable first, in the case of their colour
/// (`qrp` for black men); `-` when empty.
fn reserve_letters(reserve: &Reserve, men: Color) -> String {
    let letters = reserve.to_string();
    match men {
        Color::White => letters,
        Color::Black => letters.to_ascii_lowercase(),
    }
}

/// Hostage Chess: each side's prison (the enemy men it holds) and airfield
/// (its own men to drop) beside its home ranks.
pub fn hostage(position: &Hostage) -> Diagram {
    let mut diagram = board_diagram(position.board());
    for color in Color::ALL {
        let (prison_rank, airfield_rank) = color.fold((1, 0), (6, 7));
        diagram.beside[prison_rank] = Some(format!(
            "{} prison: {}",
            color.name(),
            reserve_letters(position.prison(color), !color)
        ));
        diagram.beside[airfield_rank] = Some(format!(
            "{} airfield: {}",
            color.name(),
            reserve_letters(position.airfield(color), color)
        ));
    }
    diagram.below.push(to_move(position.turn()));
    diagram
}

/// Mad Scientist Chess: composite pieces by their part letters, hands
/// beside the home ranks, and a pending discard below.
pub fn madscientist(position: &MadScientist) -> Diagram {
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
        diagram.beside[color.fold(0, 7)] = Some(format!("{} hand: {shown}", color.name()));
    }
    let turn = position.turn();
    diagram.below.push(if position.is_discarding() {
        format!("{} to discard", turn.name())
    } else {
        to_move(turn)
    });
    diagram
}

/// How a secret reads below a Traitor board.
fn secret_text(secret: Secret) -> String {
    match secret {
        Secret::Unchosen => "not chosen yet".to_owned(),
        Secret::Remaining(selection) => match selection.long() {
            text if text.is_empty() => "-".to_owned(),
            text => text,
        },
        Secret::Nothing => "-".to_owned(),
    }
}

/// Traitor Chess (every mode): announced pieces marked, who controls each,
/// the step, budgets, and both secrets (the full state).
pub fn traitor(position: &Traitor) -> Diagram {
    let mut diagram = board_diagram(position.board());
    let rules = position.rules();
    diagram.below.push(format!(
        "mode {}, commitment {}",
        rules.mode.name(),
        rules.commitment.name()
    ));
    let turn = position.turn().name();
    diagram.below.push(match position.step() {
        Step::Select => format!("{turn} to select"),
        Step::Open => format!("{turn} to move"),
        Step::Announced(id) => format!("{turn} to move after announcing the piece from {id}"),
    });
    for sq in position.announced() {
        diagram.cells[sq.index()].announced = true;
        let controllers = position.controllers(sq);
        let by = match (controllers.white, controllers.black) {
            (true, true) => "both",
            (true, false) => "white",
            (false, true) => "black",
            (false, false) => "nobody",
        };
        let id = position
            .id_at(sq)
            .map_or("?".to_owned(), |id: Square| id.to_string());
        diagram
            .below
            .push(format!("announced {sq} (from {id}): moved by {by}"));
    }
    diagram.below.push(format!(
        "budgets: white {}, black {}",
        position.budget(Color::White),
        position.budget(Color::Black)
    ));
    if rules.commitment.has_secrets() {
        diagram.below.push(format!(
            "secrets: white {}, black {}",
            secret_text(position.secret(Color::White)),
            secret_text(position.secret(Color::Black))
        ));
    }
    diagram
}
