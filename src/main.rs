//! `heterodox`: the command-line program. The rules-only subcommands
//! (`perft`, `play`, `variants`, and the alpha-beta engine's `analyse` and
//! `bench`) run here; those that may run a network (`model`, `selfplay`,
//! `train`, `arena`, `claim`, `play --agent`) are served by the sibling
//! binary `heterodox-net` (see [`cli::net`]).
//!
//! This binary does not link libtorch: loading libtorch_cpu alone takes
//! about a quarter of a second, its CUDA libraries as much again, and the
//! rules-only commands start in a few milliseconds without them.
//!
//! Every error is one line on stderr and a non-zero exit code.

mod cli;

use heterodox::{args, common, progress};

use std::process::ExitCode;

fn main() -> ExitCode {
    common::main_with(cli::run)
}
