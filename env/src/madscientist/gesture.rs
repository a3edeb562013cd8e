//! Mad Scientist actions as clicks: a part from hand points at the hand's
//! part, then the square it animates or the piece it joins; a removal at
//! the piece (which part leaves is asked); a discard at the hand's part.

use crate::gesture::{Gesture, Gestures, Target};
use crate::{MadAction, MadScientist};

use super::PieceMove;

fn hand(scientist: &MadScientist, part: super::Part) -> Target {
    Target::reserve(scientist.turn(), "hand", part.char())
}

impl Gestures for MadScientist {
    fn gesture(&self, action: &MadAction) -> Gesture {
        let square = Target::Square;
        match *action {
            MadAction::Move(PieceMove { from, to, .. }) => {
                Gesture::new("move", vec![square(from), square(to)])
            }
            MadAction::Animate { part, to } => {
                Gesture::new("animate", vec![hand(self, part), square(to)])
            }
            MadAction::Attach { part, target } => {
                Gesture::new("attach", vec![hand(self, part), square(target)])
            }
            MadAction::Remove { from, .. } => Gesture::new("remove", vec![square(from)]),
            MadAction::Discard { part } => Gesture::new("discard", vec![hand(self, part)]),
        }
    }
}
