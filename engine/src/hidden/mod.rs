//! What the engine does about hidden information beyond averaging its
//! search over determinizations: the threat guard ([`threats`]), which
//! checks every root action against what any consistent secret lets the
//! opponent do next, and the Traitor secret selection as a game
//! ([`selection`], solved by [`equilibrium`]) for a mixed strategy that an
//! opponent who knows it cannot exploit.

pub mod equilibrium;
pub mod selection;
pub mod threats;
