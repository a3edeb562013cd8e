//! Chess actions as clicks: every action is a board move.

use crate::gesture::{Gesture, Gestures};
use crate::{Chess, Move};

impl Gestures for Chess {
    fn gesture(&self, action: &Move) -> Gesture {
        Gesture::board_move(action)
    }
}
