//! heterodox-training's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

mod claims;
mod config;
mod nnue_train;
mod optimizer;
mod train;
