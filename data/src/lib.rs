//! The data layer of Heterodox: what games leave behind and how it is read
//! back. Game records (`record`), the shard files they are written to
//! (`shard`), their replay through the rules (`replay`), the training
//! loader that turns them into tensors (`loader`), PGN export (`pgn`) and
//! the one atomic writer every file that must survive goes through
//! (`atomic`).
//!
//! Kept apart from the search so that the engine (its teacher and tuner
//! write and read shards), the networks (checkpoints are written
//! atomically) and the trainer share files without depending on MCTS.
//! Depends on the rules core only (no libtorch), so the Python package can
//! use it.

pub mod atomic;
pub mod loader;
pub mod pgn;
pub mod record;
pub mod replay;
pub mod shard;

pub use record::{GameRecord, GameResult, StepRecord, RESIGNATION};
