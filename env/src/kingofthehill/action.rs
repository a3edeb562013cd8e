//! The action of King of the Hill is chess's: one board move, the shared
//! [`Move`], written in UCI (long form) and SAN (notation.rs), indexed by
//! chess's move planes (encoding.rs). The one thing the hill adds is which
//! moves end the game.

use crate::{Move, Role};

use super::HILL;

/// True when `m` takes a King onto the hill (a castle never does: the King
/// lands on c1, g1, c8 or g8).
pub fn reaches_hill(m: &Move) -> bool {
    m.role() == Role::King && !m.is_castle() && HILL.contains(m.to())
}
