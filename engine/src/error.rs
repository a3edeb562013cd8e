//! Typed errors: every bad argument names itself and its valid range.

use crate::limits::{MAX_DEPTH, MAX_MULTIPV};
use crate::tt::{MAX_HASH_MIB, MIN_HASH_MIB};

/// A search limit outside its range. The message names the argument, so a
/// CLI or Python caller can pass it on unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("depth {0} is out of range (1 to {MAX_DEPTH})")]
    Depth(u32),
    #[error("nodes {0} is out of range (at least 1)")]
    Nodes(u64),
    #[error("movetime {0} ms is out of range (at least 1 ms)")]
    Movetime(u128),
    #[error("no limit given: set depth, nodes, movetime or a stop flag")]
    Unbounded,
    #[error("multipv {0} is out of range (1 to {MAX_MULTIPV})")]
    MultiPv(usize),
}

/// A configuration value outside its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("hash {0} MiB is out of range ({MIN_HASH_MIB} to {MAX_HASH_MIB} MiB)")]
    HashSize(u64),
    #[error("could not allocate a {0} MiB transposition table")]
    HashAllocation(u64),
    #[error("threads {0} is out of range (1 to {max})", max = crate::engine::MAX_THREADS)]
    Threads(usize),
    #[error("determinizations {0} is out of range (1 to {max})", max = crate::engine::MAX_DETERMINIZATIONS)]
    Determinizations(usize),
}

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
