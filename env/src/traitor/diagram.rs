//! What a diagram of a Traitor position shows (every mode): announced
//! pieces marked, who controls each, the step, the budgets, and both
//! players' secrets. [`diagram`] is the **full state** (a referee's
//! diagram); [`view_diagram`] is what one player may know, the opponent's
//! secret shown as `hidden`.

use crate::hidden::{HiddenInformation, StateSampler};
use crate::render::Diagram;
use crate::{Color, Square};

use super::selection::Secret;
use super::view::TraitorView;
use super::{Step, Traitor};

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

/// Announcements, control, step, budgets and both secrets.
pub(super) fn diagram(position: &Traitor) -> Diagram {
    let secrets = Color::ALL.map(|color| Some(position.secret(color)));
    with_secrets(position, secrets)
}

/// What one Traitor player may know: the public state, its own secret,
/// and `hidden` for the opponent's. Built from the view alone: the board
/// is drawn from a state the view allows, and its made-up opponent secret
/// is never shown.
pub(super) fn view_diagram(view: &TraitorView) -> Diagram {
    let state = Traitor::sampler(view).state(0);
    with_secrets(&state, view.setup().secrets)
}

/// [`diagram`] with the secrets shown given (white's, black's; `None`
/// shows `hidden`).
fn with_secrets(position: &Traitor, secrets: [Option<Secret>; 2]) -> Diagram {
    let mut diagram = Diagram::of_board(position.board());
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
