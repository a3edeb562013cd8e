//! Hostage Chess actions: a board move, a drop from the airfield, or a
//! hostage exchange (give a prisoner, rescue one of one's own men, drop it).
//!
//! Drops and exchanges are identified by types and square only (H2): two
//! pawns in a prison give one exchange, not two.

use std::fmt;

use crate::{Move, Role, Square};

/// One step of Hostage Chess.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HostageAction {
    /// A board move. A promotion names the piece released from the
    /// opponent's prison (H6); the pawn goes into that prison.
    Move(Move),
    /// A man of the mover's colour leaves the mover's airfield for `to`.
    Drop { role: Role, to: Square },
    /// The mover hands `given` (an enemy man in the mover's prison) to the
    /// opponent's airfield, releases `rescued` (one of the mover's own men
    /// in the opponent's prison) and drops it on `to`.
    Exchange {
        given: Role,
        rescued: Role,
        to: Square,
    },
}

impl HostageAction {
    /// The square a man arrives on.
    pub fn to(&self) -> Square {
        match *self {
            HostageAction::Move(m) => m.to(),
            HostageAction::Drop { to, .. } | HostageAction::Exchange { to, .. } => to,
        }
    }

    /// The role of the man dropped (drops and exchanges only).
    pub fn dropped_role(&self) -> Option<Role> {
        match *self {
            HostageAction::Move(_) => None,
            HostageAction::Drop { role, .. } => Some(role),
            HostageAction::Exchange { rescued, .. } => Some(rescued),
        }
    }

    /// H7: drops, exchanges, captures and pawn moves reset the 50-move
    /// counter.
    pub fn is_zeroing(&self) -> bool {
        match self {
            HostageAction::Move(m) => m.is_zeroing(),
            HostageAction::Drop { .. } | HostageAction::Exchange { .. } => true,
        }
    }
}

impl From<Move> for HostageAction {
    fn from(m: Move) -> HostageAction {
        HostageAction::Move(m)
    }
}

impl fmt::Display for HostageAction {
    /// Long (UCI-style) notation: moves as UCI (`e2e4`, `e7e8q`, `e1g1`),
    /// drops as `P@d7` / `N@f3`, exchanges as `N-B@f7` (given - rescued).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HostageAction::Move(m) => write!(f, "{m}"),
            HostageAction::Drop { role, to } => write!(f, "{}@{to}", role.upper_char()),
            HostageAction::Exchange { given, rescued, to } => {
                write!(f, "{}-{}@{to}", given.upper_char(), rescued.upper_char())
            }
        }
    }
}
