//! heterodox-models's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

#[path = "../support/mod.rs"]
mod support;

mod checkpoint;
mod evaluator;
mod network;
mod spec;
