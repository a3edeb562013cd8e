//! `heterodox-net`: the subcommands of `heterodox` that run a network
//! (`model`, `selfplay`, `train`, `nnue`, `arena`, `claim`, `play --agent`,
//! `serve`). `heterodox`
//! execs this binary, which sits beside it, with the subcommand and its
//! arguments, so only these commands pay for loading libtorch.
//!
//! This binary links libtorch, and its CUDA backend eagerly (build.rs), so
//! that `Device::cuda_if_available()` finds the GPU where there is one.
//! It reads the same command lines as `heterodox` and reports errors the
//! same way: one line on stderr and a non-zero exit code.

mod arena;
mod choice;
mod claim;
mod device;
mod model;
mod nnue;
mod play;
mod protocol;
mod selfplay;
mod serve;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use heterodox::{args, common, progress};

#[derive(Parser, Debug)]
#[command(
    name = "heterodox-net",
    bin_name = "heterodox",
    version,
    about = "The network subcommands of heterodox (run through `heterodox <subcommand>`)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Builds a network, runs one forward pass, reports sizes and device.
    Model(model::ModelArgs),
    /// Plays games with the search against itself and writes game records.
    Selfplay(selfplay::SelfPlayArgs),
    /// Trains an agent: self-play, replay window, SGD, evaluation, checkpoints.
    Train(train::TrainArgs),
    /// The engine's learned evaluation (NNUE): `train` fits a net to
    /// teacher data.
    Nnue(nnue::NnueArgs),
    /// Paired games between agents: scores, Elo, pentanomial statistics, SPRT.
    Arena(arena::ArenaArgs),
    /// Plays and judges a strategy claim; writes a report directory.
    Claim(claim::ClaimArgs),
    /// A game against an agent in the terminal.
    Play(play::PlayArgs),
    /// Speaks UCI on standard input and output (engines, agents, variants).
    Uci(protocol::ProtocolArgs),
    /// Speaks XBoard's CECP on standard input and output.
    Xboard(protocol::ProtocolArgs),
    /// A local web server: play any variant in the browser against an
    /// agent or a person, or watch two agents.
    Serve(serve::ServeArgs),
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Model(args) => model::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Nnue(args) => nnue::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Claim(args) => claim::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Uci(args) => protocol::uci::run(args.setup()?),
        Command::Xboard(args) => protocol::xboard::run(args.setup()?),
        Command::Serve(args) => serve::run(&args),
    }
}

fn main() -> ExitCode {
    common::main_with(run)
}
