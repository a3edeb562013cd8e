//! What a diagram of a Traitor position shows (every mode): announced
//! pieces marked, who controls each, the step, the budgets, and both
//! players' secrets. This is the **full state** (a referee's diagram); a
//! player's view, without the opponent's secret, is `AnyGame::view`.

use crate::render::Diagram;
use crate::{Color, Square};

use super::selection::Secret;
use super::{Step, Traitor};

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

/// Announcements, control, step, budgets and both secrets.
pub(super) fn diagram(position: &Traitor) -> Diagram {
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
            secret_text(position.secret(Color::White)),
            secret_text(position.secret(Color::Black))
        ));
    }
    diagram
}
