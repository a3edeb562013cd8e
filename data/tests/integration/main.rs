//! heterodox-data's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

#[path = "../support/mod.rs"]
mod support;

mod atomic;
mod loader;
mod pgn;
mod shard;
