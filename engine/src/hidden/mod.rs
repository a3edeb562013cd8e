//! What the engine does about hidden information beyond averaging its
//! search over determinizations: the threat guard ([`threats`]), which
//! checks every root action against what any consistent secret lets the
//! opponent do next; beliefs ([`beliefs`]), a posterior over the
//! opponent's secret from what it has done, from which the
//! determinizations are drawn; and the Traitor secret selection as a game
//! ([`selection`], solved by [`equilibrium`]) for a mixed strategy that an
//! opponent who knows it cannot exploit.

pub mod beliefs;
pub mod equilibrium;
pub mod selection;
pub mod threats;
