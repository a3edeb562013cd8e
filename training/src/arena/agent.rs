//! Agent strings (the grammar lives in [`heterodox_selfplay::agent::spec`],
//! below libtorch, so every front end reads the same strings) and what
//! only the networks' side can answer: which shipped network plays a rule
//! set.

pub use heterodox_selfplay::agent::spec::*;

use heterodox_env::encoding::EncodingSpec;
use heterodox_models::read_spec;
use heterodox_selfplay::RootPolicy;

/// The network family's agent for a rule set: the first network shipped
/// in [`zoo_dir`], in name order, whose stored spec reads and writes
/// `encoding`'s tensors (the same variant, rule settings, encoding version
/// and history), at [`DEFAULT_SIMULATIONS`]; `None` where none plays these
/// rules. agents/ holds one network for each rule set it plays (the
/// agents they replaced are in agents/archive/, which has no spec.json of
/// its own and is skipped), so name order only makes the choice
/// deterministic.
pub fn zoo_network_for(encoding: &EncodingSpec) -> Option<AgentSpec> {
    let (name, _) = shipped_networks()
        .into_iter()
        .find(|(_, stored)| encoding.check(stored).is_ok())?;
    Some(AgentSpec {
        kind: AgentKind::Zoo(name),
        simulations: DEFAULT_SIMULATIONS,
        root_policy: RootPolicy::Gumbel,
        probes: Probes::WinsAndLosses,
        quiescence: 0,
    })
}

/// The networks shipped in [`zoo_dir`] with the encoding spec each stored,
/// in name order; directories without a readable spec (agents/archive/)
/// are skipped. Every front end that offers shipped networks lists them
/// from here.
pub fn shipped_networks() -> Vec<(String, EncodingSpec)> {
    let dir = zoo_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| is_zoo_name(name))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| match read_spec(&dir.join(&name)) {
            Ok(Some(stored)) => Some((name, stored)),
            _ => None,
        })
        .collect()
}
