//! [`Seat`]: who a request speaks for. Its own module, below the store
//! (which hands a seat out for a token) and the session (which answers
//! each seat what it may see), so that neither depends on the other for
//! it: the store holds sessions, and a session names no store.

use heterodox_env::Color;

/// Who a request speaks for: a player's seat, or the referee of a game
/// between two agents (who may see everything: nobody plays it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Player(Color),
    Referee,
}

impl Seat {
    pub fn name(self) -> &'static str {
        match self {
            Seat::Player(color) => color.name(),
            Seat::Referee => "referee",
        }
    }

    pub fn color(self) -> Option<Color> {
        match self {
            Seat::Player(color) => Some(color),
            Seat::Referee => None,
        }
    }
}
