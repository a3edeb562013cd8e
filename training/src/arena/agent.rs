//! Agent strings (the grammar lives in [`heterodox_selfplay::agent::spec`],
//! below libtorch, so every front end reads the same strings) and what
//! only the networks' side can answer: which shipped network plays a rule
//! set.

pub use heterodox_selfplay::agent::spec::*;

use heterodox_env::encoding::EncodingSpec;
use heterodox_selfplay::agent::Zoo;
use heterodox_selfplay::RootPolicy;

/// The network family's agent for a rule set: the shipped agent (in the
/// catalogue's order, [`Zoo`]) whose network's stored spec reads and
/// writes `encoding`'s tensors (the same variant, rule settings, encoding
/// version and history), at [`DEFAULT_SIMULATIONS`]; `None` where none
/// plays these rules or the catalogue cannot be read.
pub fn zoo_network_for(encoding: &EncodingSpec) -> Option<AgentSpec> {
    let agent = Zoo::current().ok()?.network_for(encoding)?;
    Some(AgentSpec {
        kind: AgentKind::Zoo(agent.name.clone()),
        simulations: DEFAULT_SIMULATIONS,
        root_policy: RootPolicy::Gumbel,
        probes: Probes::WinsAndLosses,
        quiescence: 0,
        vary: None,
        naive: false,
        beliefs: false,
    })
}
