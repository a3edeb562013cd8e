//! One agent playing one game for a front end: [`AgentPlayer`] lives in
//! [`heterodox_selfplay::agent::player`]; [`load_player`] makes one with
//! its network loaded (the networks need libtorch, which the selfplay
//! crate does not link).

pub use heterodox_selfplay::agent::player::*;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_models::tch::Device;

use super::agent::AgentSpec;
use super::evaluator_for;
use crate::error::TrainError;

/// The agent `spec` for positions encoded as `encoding`, a network loaded
/// onto `device` and checked against it. `seed` drives its search and its
/// random choices: the same seed, the same moves.
pub fn load_player<P: GameVariant>(
    spec: &AgentSpec,
    encoding: &EncodingSpec,
    seed: u64,
    device: Device,
) -> Result<AgentPlayer<P>, TrainError> {
    let network = evaluator_for::<P>(spec, encoding, seed, device)?;
    Ok(AgentPlayer::new(spec, encoding, seed, network)?)
}
