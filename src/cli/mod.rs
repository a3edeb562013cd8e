//! Argument definitions and the subcommands.

mod perft;
mod play;

use clap::{Parser, Subcommand};

use heterodox_env::{AnyGame, Variant};

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
    /// Plays a game with random legal moves and prints it.
    Play(play::PlayArgs),
    /// Lists the variants.
    Variants,
}

/// Runs a parsed command; the error is the one line to print.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Variants => {
            print_stdout(&Variant::ALL.map(|v| format!("{v}\n")).concat());
            Ok(())
        }
    }
}

/// Builds a game from the `--variant` and `--fen` options.
fn new_game(variant: &str, fen: Option<&str>) -> Result<AnyGame, String> {
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    AnyGame::new(variant, fen).map_err(|e| format!("{e}"))
}

/// Writes to stdout, ignoring a closed pipe (`heterodox play | head`): the
/// reader has what it wanted, which is no error.
fn print_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
