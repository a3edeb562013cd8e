//! heterodox's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

#[path = "../support/mod.rs"]
mod support;

mod arena_cli;
mod claim_cli;
mod cli;
mod engine_cli;
mod nnue_cli;
mod play_cli;
mod protocol_cli;
mod protocol_fuzz;
mod selfplay_cli;
mod serve;
mod serve_hidden;
mod teach_cli;
mod train_cli;
mod zoo;
