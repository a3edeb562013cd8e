//! An agent made ready for duels with its network loaded: the duel player
//! itself is [`heterodox_selfplay::agent::Contender`] (shared with
//! Python's `heterodox.play`, which has no libtorch); this crate adds the
//! one thing it cannot, a network agent's evaluator.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_models::tch::Device;
pub use heterodox_selfplay::agent::{Contender, EngineChooser, GreedyChooser};
use heterodox_selfplay::SearchConfig;

use super::agent::{AgentKind, AgentSpec};
use super::evaluator_for;
use crate::error::TrainError;

/// `agent` ready for duels of positions encoded as `encoding`
/// ([`Contender::new`]), a network agent's evaluator loaded onto `device`.
pub fn contender<P: GameVariant>(
    agent: &AgentSpec,
    encoding: &EncodingSpec,
    search: &SearchConfig,
    seed: u64,
    device: Device,
) -> Result<Contender<P>, TrainError> {
    let network = match agent.kind {
        AgentKind::Net(_) | AgentKind::Zoo(_) => evaluator_for::<P>(agent, encoding, seed, device)?,
        _ => None,
    };
    Ok(Contender::new(agent, encoding, search, seed, network)?)
}
