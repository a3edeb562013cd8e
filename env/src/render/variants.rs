//! One [`Diagram`] builder per variant: what of its state a person needs
//! to see, and where it goes.

use crate::hidden::{HiddenInformation, StateSampler};
use crate::hostage::{Reserve, RESERVE_ROLES};
use crate::madscientist::Part;
use crate::traitor::{Secret, Step, TraitorView};
use crate::{Board, Chess, Color, Hostage, MadScientist, PoisonChess, Square, Traitor};

use super::{Cell, Diagram, ReserveMen};

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
        .below
        .push("H harpy, D doctor, G guard (white upper case, black lower case)".to_owned());
    if !position.all_poisoned().is_empty() {
        diagram.below.push(
            "4B4: a poisoned piece; the digits count the opposing moves before it dies".to_owned(),
        );
    }
    diagram
}

/// A reserve's men by name with their counts, most valuable first
/// (`1 black queen, 2 black pawns`), so a reader needs no FEN letters;
/// `empty` when there are none.
fn reserve_names(reserve: &Reserve, men: Color) -> String {
    let named: Vec<String> = RESERVE_ROLES
        .into_iter()
        .rev()
        .filter(|&role| reserve.count(role) > 0)
        .map(|role| {
            let count = reserve.count(role);
            let plural = if count == 1 { "" } else { "s" };
            format!("{count} {} {}{plural}", men.name(), role.name())
        })
        .collect();
    if named.is_empty() {
        "empty".to_owned()
    } else {
        named.join(", ")
    }
}

/// A Hostage reserve's men, most valuable first.
fn reserve_men(reserve: &Reserve, men: Color) -> Vec<ReserveMen> {
    RESERVE_ROLES
        .into_iter()
        .rev()
        .filter(|&role| reserve.count(role) > 0)
        .map(|role| ReserveMen {
            letter: role.upper_char(),
            color: men,
            count: reserve.count(role),
        })
        .collect()
}

/// Hostage Chess: each side's prison (the enemy men it holds) and airfield
/// (its own men to drop) beside its home ranks.
pub fn hostage(position: &Hostage) -> Diagram {
    let mut diagram = board_diagram(position.board());
    for color in Color::ALL {
        let (prison_rank, airfield_rank) = color.fold((1, 0), (6, 7));
        for (area, rank, reserve, men) in [
            ("prison", prison_rank, position.prison(color), !color),
            ("airfield", airfield_rank, position.airfield(color), color),
        ] {
            diagram.reserves.push(super::Reserve {
                owner: color,
                area,
                rank,
                label: format!("{} {area}: {}", color.name(), reserve_names(reserve, men)),
                men: reserve_men(reserve, men),
            });
        }
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
        let hand = position.hand(color);
        diagram.reserves.push(super::Reserve {
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

/// How a secret reads below a Traitor board (`None`: hidden from the
/// diagram's reader).
fn secret_text(secret: Option<Secret>) -> String {
    let Some(secret) = secret else {
        return "hidden".to_owned();
    };
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
    let secrets = Color::ALL.map(|color| Some(position.secret(color)));
    traitor_with_secrets(position, secrets)
}

/// What one Traitor player may know: the public state, its own secret,
/// and `hidden` for the opponent's. Built from the view alone: the board
/// is drawn from a state the view allows, and its made-up opponent secret
/// is never shown.
pub fn traitor_view(view: &TraitorView) -> Diagram {
    let state = Traitor::sampler(view).state(0);
    traitor_with_secrets(&state, view.setup().secrets)
}

/// [`traitor`] with the secrets shown given (white's, black's; `None`
/// shows `hidden`).
fn traitor_with_secrets(position: &Traitor, secrets: [Option<Secret>; 2]) -> Diagram {
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
            secret_text(secrets[Color::White.index()]),
            secret_text(secrets[Color::Black.index()])
        ));
    }
    diagram
}
