//! Hostage Chess actions as clicks: a drop points at the man in the
//! mover's airfield, then the square; an exchange at the prisoner given
//! (in the mover's prison), the man rescued (in the opponent's prison),
//! then the square. A promotion's piece is the board move's choice.

use crate::gesture::{Gesture, Gestures, Target};
use crate::{Hostage, HostageAction};

impl Gestures for Hostage {
    fn gesture(&self, action: &HostageAction) -> Gesture {
        let mover = self.turn();
        match *action {
            HostageAction::Move(m) => Gesture::board_move(&m),
            HostageAction::Drop { role, to } => Gesture::new(
                "drop",
                vec![
                    Target::reserve(mover, "airfield", role.upper_char()),
                    Target::Square(to),
                ],
            ),
            HostageAction::Exchange { given, rescued, to } => Gesture::new(
                "exchange",
                vec![
                    Target::reserve(mover, "prison", given.upper_char()),
                    Target::reserve(!mover, "prison", rescued.upper_char()),
                    Target::Square(to),
                ],
            ),
        }
    }
}
