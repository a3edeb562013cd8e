//! What the rules tests share, one module per concern: `rules` (squares by
//! name, sorted legal actions, expected outcomes), `encoding` (action
//! indices by notation, observations, planes by name), `perft` (the perft
//! files and reference counts) and `hostage` (Hostage Chess's independent
//! reference generator). The tests binary (integration/main.rs) and each
//! test file apart declare `mod support;`; each uses the parts it needs.

#![allow(dead_code)] // each test file uses a subset

pub mod encoding;
pub mod hostage;
pub mod perft;
pub mod rules;
