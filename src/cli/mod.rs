//! Argument definitions and the subcommands.

mod analyse;
mod beliefs;
mod bench;
pub mod net;
mod perft;
mod play;
mod selection;
mod teach;
mod tune;

use clap::{Parser, Subcommand};
use heterodox_env::Variant;

use crate::common::print_stdout;

#[derive(Parser, Debug)]
#[command(
    name = "heterodox",
    version,
    about = "Self-play environment for heterodox chess variants"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the leaf nodes of the legal-move tree (last line: `nodes <N>`).
    Perft(perft::PerftArgs),
    /// Plays a game: random moves for both sides, printed (--random), or
    /// you against an agent in the terminal (--agent).
    Play(play::PlayArgs),
    /// Lists the variants.
    Variants,
    /// Searches a position with the alpha-beta engine: UCI-style info
    /// lines per iteration, then the best move.
    Analyse(analyse::AnalyseArgs),
    /// The engine's benchmark: nodes per variant (the search's signature)
    /// and nodes per second.
    Bench(bench::BenchArgs),
    /// Teacher data for networks: the engine plays itself from varied
    /// openings and labels every position (policy and value targets) in
    /// shards the trainer reads.
    Teach(teach::TeachArgs),
    /// Texel tuning of a variant's evaluation on the games of shards:
    /// prints each pass and the numbers moved.
    Tune(tune::TuneArgs),
    /// The equilibrium of a Traitor rule set's secret selections: each
    /// side's mixed strategy, written as the file the engine ships.
    Selection(selection::SelectionArgs),
    /// Fits the move model behind the engine's beliefs about a Traitor
    /// opponent's secret on self-play games: each model of a grid with
    /// the bits it gains about the true secret.
    Beliefs(beliefs::BeliefsArgs),
    /// Builds a network, runs one forward pass, reports sizes and device
    /// (`heterodox model --help` for its options).
    #[command(disable_help_flag = true)]
    Model(net::NetArgs),
    /// Plays games with the search against itself and writes game records
    /// (`heterodox selfplay --help` for its options).
    #[command(disable_help_flag = true)]
    Selfplay(net::NetArgs),
    /// Trains an agent: self-play, replay window, SGD, evaluation and
    /// checkpoints (`heterodox train --help` for its options).
    #[command(disable_help_flag = true)]
    Train(net::NetArgs),
    /// The engine's learned evaluation (NNUE): `nnue train` fits a net to
    /// teacher data (`heterodox nnue train --help` for its options).
    #[command(disable_help_flag = true)]
    Nnue(net::NetArgs),
    /// Paired games between agents with scores, Elo and SPRT
    /// (`heterodox arena --help` for its options).
    #[command(disable_help_flag = true)]
    Arena(net::NetArgs),
    /// Plays and judges a strategy claim, writes a report directory
    /// (`heterodox claim --help` for its options, `--list` for the claims).
    #[command(disable_help_flag = true)]
    Claim(net::NetArgs),
    /// Speaks UCI with the engine or an agent, for chess programs
    /// (`heterodox uci --help` for its options).
    #[command(disable_help_flag = true)]
    Uci(net::NetArgs),
    /// Speaks XBoard's CECP with the engine or an agent
    /// (`heterodox xboard --help` for its options).
    #[command(disable_help_flag = true)]
    Xboard(net::NetArgs),
    /// A local web server: play any variant in the browser against an
    /// agent or a person, or watch two agents (`heterodox serve --help`
    /// for its options).
    #[command(disable_help_flag = true)]
    Serve(net::NetArgs),
}

/// Runs a parsed command; the error is the one line to print.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Teach(args) => teach::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Selection(args) => selection::run(&args),
        Command::Beliefs(args) => beliefs::run(&args),
        Command::Model(args) => net::exec("model", &args),
        Command::Selfplay(args) => net::exec("selfplay", &args),
        Command::Train(args) => net::exec("train", &args),
        Command::Nnue(args) => net::exec("nnue", &args),
        Command::Arena(args) => net::exec("arena", &args),
        Command::Claim(args) => net::exec("claim", &args),
        Command::Uci(args) => net::exec("uci", &args),
        Command::Xboard(args) => net::exec("xboard", &args),
        Command::Serve(args) => net::exec("serve", &args),
        Command::Variants => {
            print_stdout(&Variant::ALL.map(|v| format!("{v}\n")).concat());
            Ok(())
        }
    }
}
