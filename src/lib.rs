//! What the two binaries, `heterodox` and `heterodox-net`, share: the
//! argument groups several subcommands flatten in ([`args`]), how a command
//! line is parsed and run and how errors reach the user ([`common`]), and
//! the progress display of long commands ([`progress`]).
//!
//! A library of the root package rather than files included into both
//! binaries, so each item is compiled once and checked as used. It names
//! no libtorch crate, so the rules-only `heterodox` binary that links it
//! still loads no libtorch (tests/integration/cli.rs checks it).

pub mod args;
pub mod common;
pub mod progress;
