//! Poison Chess actions as clicks: a poisoning or a cure points at the
//! Harpy or the Doctor, then at its target (a Doctor may cure itself: the
//! same square twice).

use crate::gesture::{Gesture, Gestures, Target};
use crate::{PoisonAction, PoisonChess};

impl Gestures for PoisonChess {
    fn gesture(&self, action: &PoisonAction) -> Gesture {
        match *action {
            PoisonAction::Move(m) => Gesture::board_move(&m),
            PoisonAction::Poison { harpy, target } => Gesture::new(
                "poison",
                vec![Target::Square(harpy), Target::Square(target)],
            ),
            PoisonAction::Cure { doctor, target } => {
                Gesture::new("cure", vec![Target::Square(doctor), Target::Square(target)])
            }
        }
    }
}
