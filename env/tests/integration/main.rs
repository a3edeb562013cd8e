//! heterodox-env's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

#[path = "../support/mod.rs"]
mod support;

mod chess_fen;
mod chess_rules;
mod gesture;
mod hidden_information;
mod hostage_encoding;
mod hostage_fen;
mod hostage_properties;
mod hostage_rules;
mod layout;
mod madscientist_encoding;
mod madscientist_fen;
mod madscientist_properties;
mod madscientist_rules;
mod poison_encoding;
mod poison_fen;
mod poison_props;
mod poison_rules;
mod render;
mod search_api;
mod traitor_encoding;
mod traitor_movegen;
mod traitor_properties;
mod traitor_rules;
