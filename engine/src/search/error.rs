//! Why a search could not run: a limit or a setting out of range (each
//! defined beside its ranges, in limits.rs and config.rs, and only wrapped
//! here), or a game already over.

use crate::search::config::ConfigError;
use crate::search::limits::LimitError;

/// Why a search could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The game is already over: there is nothing to choose.
    #[error("the game is over: {0}")]
    GameOver(String),
}
