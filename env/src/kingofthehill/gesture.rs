//! King of the Hill's actions as clicks: every action is a board move.

use crate::gesture::{Gesture, Gestures};
use crate::Move;

use super::KingOfTheHill;

impl Gestures for KingOfTheHill {
    fn gesture(&self, action: &Move) -> Gesture {
        Gesture::board_move(action)
    }
}
