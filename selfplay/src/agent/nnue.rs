//! The engine's shipped learned evaluations: `agents/NAME/nnue.safetensors`
//! beside the rule set's network, each made for one variant, rule set and
//! feature set (its card, `agents/NAME/README.md`, says how and how
//! strong). An engine agent without `/classical` evaluates with the one
//! made for its rules; a rule set without one keeps the classical
//! evaluation.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use heterodox_engine::nnue::network::rules_text;
use heterodox_engine::nnue::{feature_set, Network};
use heterodox_engine::{Engine, EngineConfig, EngineError, Evaluation};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;

use super::spec::zoo_dir;

/// The file name of a shipped net inside its agent's directory.
pub const NNUE_FILE: &str = "nnue.safetensors";

/// (agents directory, variant, rule settings) -> the net found there.
type Found = HashMap<(PathBuf, &'static str, String), Option<(PathBuf, Arc<Network>)>>;

/// Nets read so far in this process: each file is read once, however many
/// engines play with it.
fn cache() -> &'static Mutex<Found> {
    static CACHE: OnceLock<Mutex<Found>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The shipped net of `P` under the rule settings `rules` (`key=value`
/// pairs joined by `,`, as a net file names them) and its path: the first
/// `agents/*/nnue.safetensors`, by directory name, made for them. A file
/// that cannot be read, or is for other rules, is passed over.
pub fn shipped_network<P: GameVariant>(rules: &str) -> Option<(PathBuf, Arc<Network>)> {
    let dir = zoo_dir();
    let key = (dir.clone(), P::VARIANT.name(), rules.to_owned());
    let mut found = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(net) = found.get(&key) {
        return net.clone();
    }
    let features = feature_set::<P>()?;
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path().join(NNUE_FILE)))
        .filter(|path| path.is_file())
        .collect();
    names.sort();
    let net = names.into_iter().find_map(|path| {
        let net = Network::load(&path).ok()?;
        let made_for = net.header.variant == P::VARIANT.name()
            && net.header.rules == rules
            && net.header.feature_set == features.name
            && net.header.feature_version == features.version
            && net.header.inputs == features.inputs
            && net.header.encoding_version == P::ENCODING_VERSION;
        made_for.then(|| (path, Arc::new(net)))
    });
    found.insert(key, net.clone());
    net
}

/// The rule settings of an encoding as a net file names them.
pub fn rules_of(encoding: &EncodingSpec) -> String {
    rules_text(
        encoding
            .options
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )
}

/// An engine for games of `P` under `rules` (as [`shipped_network`] reads
/// them) with `evaluation`: the shipped net for [`Evaluation::Learned`]
/// where there is one.
pub fn engine_with<P: GameVariant>(
    config: EngineConfig,
    evaluation: Evaluation,
    rules: &str,
) -> Result<Engine<P>, EngineError> {
    let mut engine = Engine::new(EngineConfig {
        weights: evaluation.weights(),
        ..config
    })?;
    if evaluation == Evaluation::Learned {
        if let Some((_, net)) = shipped_network::<P>(rules) {
            engine
                .set_network(Some(net))
                .expect("a shipped net is checked against its variant when found");
        }
    }
    Ok(engine)
}
