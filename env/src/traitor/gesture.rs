//! Traitor actions as clicks: an announcement points at the enemy piece
//! announced (one click, then a confirmation: the piece does not move); a
//! Standard selection at the chosen pieces in any order; a Simplified
//! selection (types and counts, no particular piece) is chosen from a list.

use crate::gesture::{Gesture, Gestures, Target};
use crate::{Traitor, TraitorAction};

use super::Selection;

impl Gestures for Traitor {
    fn gesture(&self, action: &TraitorAction) -> Gesture {
        // A piece is named by where it started (T1); point at where it is.
        let at = |id| Target::Square(self.square_of(id).unwrap_or(id));
        match *action {
            TraitorAction::Move(m) => Gesture::board_move(&m),
            TraitorAction::Announce(id) => Gesture::new("announce", vec![at(id)]),
            TraitorAction::Select(Selection::Pieces(ids)) => Gesture {
                kind: "select",
                targets: ids.map(at).collect(),
                ordered: false,
            },
            TraitorAction::Select(Selection::Types(_)) => Gesture {
                kind: "select",
                targets: Vec::new(),
                ordered: false,
            },
        }
    }
}
