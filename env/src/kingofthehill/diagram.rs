//! What a diagram of a King of the Hill position shows: chess's (the board
//! and the side to move) and where the hill is.

use crate::render::Diagram;
use crate::variant::GameVariant;

use super::KingOfTheHill;

/// Chess's diagram with the hill named below it.
pub(super) fn diagram(position: &KingOfTheHill) -> Diagram {
    let mut diagram = position.chess.diagram();
    diagram
        .below
        .push("the hill: d4 e4 d5 e5 (a King there wins)".to_owned());
    diagram
}
