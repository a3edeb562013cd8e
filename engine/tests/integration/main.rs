//! heterodox-engine's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

#[path = "../support/mod.rs"]
mod support;

mod behaviour;
mod endgames;
mod hidden;
mod leaf;
mod mates;
mod nnue;
mod puzzles;
mod teach;
mod tune;
mod unknown_variant;
