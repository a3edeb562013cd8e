//! The action type: one step by one player (docs/architecture.md).

use std::fmt;

use super::selection::{PieceId, Selection};
use crate::Move;

/// One step of play. A turn is an optional `Announce` then a `Move` by the
/// same player (T3); each player's secret choice is one `Select`.
///
/// `Display` writes the long form: `S-c1,g2,h1` or `S-NBPPP` (a selection),
/// `T-h1` (announce the piece that started on h1), UCI for moves (`g8f6`,
/// castling as king to destination, `e1g1`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TraitorAction {
    Select(Selection),
    Announce(PieceId),
    Move(Move),
}

impl fmt::Display for TraitorAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraitorAction::Select(selection) => write!(f, "S-{selection}"),
            TraitorAction::Announce(id) => write!(f, "T-{id}"),
            TraitorAction::Move(m) => write!(f, "{m}"),
        }
    }
}
