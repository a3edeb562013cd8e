//! Typed errors of the batched environment. On any of them nothing changed.

use crate::{NewGameError, OptionError};

/// Why a step was refused. The environment is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("expected {expected} actions (one per env), got {found}")]
    ActionCount { expected: usize, found: usize },
    #[error("illegal action {action} in env {env}: not the index of a legal action (the action mask; indices run 0..{num_actions}) in position {fen}")]
    IllegalAction {
        env: usize,
        action: i64,
        num_actions: usize,
        fen: String,
    },
}

/// A configuration the environment cannot run with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvConfigError {
    #[error("num_envs must be at least 1")]
    NoEnvs,
    #[error("history (T) must be at least 1")]
    NoHistory,
    #[error("max_plies must be at least 1")]
    ZeroPlyCap,
}

/// Why [`super::make_batch_env`] could not build an environment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MakeEnvError {
    #[error(transparent)]
    Game(#[from] NewGameError),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error(transparent)]
    Config(#[from] EnvConfigError),
}
