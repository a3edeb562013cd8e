//! `heterodox`: the command-line program. Subcommands: `perft`, `play`,
//! `variants`, `analyse` and `bench` (the alpha-beta engine), and
//! `model`, which runs a network and is therefore served by
//! the sibling binary `heterodox-net` (see [`cli::net`]); `train`,
//! `selfplay` and `arena` arrive with their crates, the ones with a
//! network in `heterodox-net` as well.
//!
//! This binary does not link libtorch: loading libtorch_cpu alone takes
//! about a quarter of a second, its CUDA libraries as much again, and the
//! rules-only commands start in a few milliseconds without them.
//!
//! Every error is one line on stderr and a non-zero exit code.

mod cli;
mod common;

use std::process::ExitCode;

fn main() -> ExitCode {
    common::main_with(cli::run)
}
