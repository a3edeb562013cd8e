//! The engine's shipped learned evaluations, as the catalogue of shipped
//! agents lists them ([`Zoo`]): each made for one variant, rule set and
//! feature set (its card says how and how strong). An engine agent without
//! `/classical` evaluates with the one made for its rules; a rule set
//! without one keeps the classical evaluation.

use std::path::PathBuf;
use std::sync::Arc;

use heterodox_engine::nnue::network::rules_text;
use heterodox_engine::nnue::{Network, NnueError};
use heterodox_engine::{Engine, EngineConfig, EngineError, Evaluation};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;

use super::zoo::{Zoo, ZooError};

/// The shipped net of `P` under the rule settings `rules` (`key=value`
/// pairs joined by `,`, as a net file names them), from the current
/// catalogue ([`Zoo::current`]), with where its file is
/// ([`Zoo::shown_path`]: `agents/hostage/nnue.safetensors` when built in).
pub fn shipped_network<P: GameVariant>(
    rules: &str,
) -> Result<Option<(PathBuf, Arc<Network>)>, ZooError> {
    let zoo = Zoo::current()?;
    Ok(zoo.nnue::<P>(rules)?.map(|(agent, net)| {
        let file = agent.nnue.as_deref().expect("an agent with a net");
        (zoo.shown_path(file), net)
    }))
}

/// The file of the net [`shipped_network`] gives, on disk for readers
/// that take a path (the teacher's): a `$HETERODOX_ZOO` catalogue's own
/// file, or the built-in copy written once to a cache directory
/// ([`Zoo::on_disk`]). Checked as [`shipped_network`] checks it.
pub fn shipped_file<P: GameVariant>(rules: &str) -> Result<Option<PathBuf>, ZooError> {
    let zoo = Zoo::current()?;
    let Some((agent, _)) = zoo.nnue::<P>(rules)? else {
        return Ok(None);
    };
    let file = agent.nnue.clone().expect("an agent with a net");
    Ok(Some(zoo.on_disk(std::slice::from_ref(&file))?.join(file)))
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

/// Why an engine with its evaluation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum EngineWithError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The catalogue or its net for these rules could not be read.
    #[error(transparent)]
    Zoo(#[from] ZooError),
    #[error(transparent)]
    Network(#[from] NnueError),
}

/// An engine for games of `P` under `rules` (as [`shipped_network`] reads
/// them) with `evaluation`: the shipped net for [`Evaluation::Learned`]
/// where there is one.
pub fn engine_with<P: GameVariant>(
    config: EngineConfig,
    evaluation: Evaluation,
    rules: &str,
) -> Result<Engine<P>, EngineWithError> {
    let mut engine = Engine::new(EngineConfig {
        weights: evaluation.weights(),
        ..config
    })?;
    if evaluation == Evaluation::Learned {
        if let Some((_, net)) = shipped_network::<P>(rules)? {
            engine.set_network(Some(net))?;
        }
    }
    Ok(engine)
}
