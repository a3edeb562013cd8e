//! The knowledge of a variant the engine does not know: terminal scores
//! from the rules and the mobility of the side to act.
//!
//! A registered variant takes it in one line, `type Knowledge =
//! GenericKnowledge<Self>;` in its `eval/<variant>.rs`, until it gets an
//! evaluation of its own; a position type outside the registry gets it
//! as the fallback of the dispatch. Nothing here can tell material, check
//! or a quiet action from a noisy one, so quiescence stands pat on the
//! evaluation, there is no check extension, no null move (the `Position`
//! trait cannot pass a turn) and no futility pruning (mobility is no
//! bound on the score). Late-move reductions stay: they re-search any
//! reduced action that beats alpha.

use heterodox_env::{Color, GameVariant};

use super::{Noisy, Pruning};

/// Centipawns per legal action of the side to act.
const MOBILITY: i32 = 4;

pub(crate) const PRUNING: Pruning = Pruning {
    late_move_reductions: true,
    futility: false,
};

/// The side to act's mobility: positions that leave the opponent few
/// choices score well for the side that reached them.
pub(crate) fn evaluate<P: GameVariant>(pos: &P) -> i32 {
    MOBILITY * pos.count_legal_actions().min(200) as i32
}

/// No material is known.
pub(crate) fn material<P: GameVariant>(_pos: &P, _side: Color) -> i32 {
    0
}

pub(crate) fn in_check<P: GameVariant>(_pos: &P) -> bool {
    false
}

pub(crate) fn noisy<P: GameVariant>(_pos: &P, _action: &P::Action) -> Option<Noisy> {
    None
}
