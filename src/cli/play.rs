//! `heterodox play --random`: a seeded random game, printed move by move.
//! `heterodox play --agent SPEC`: a game against an agent, served by
//! `heterodox-net` (an agent may run a network), to which the arguments
//! are passed on as they are.

use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use heterodox_env::pgn::Movetext;

#[derive(Args, Debug)]
#[command(after_help = include_str!("play_prompt.txt"))]
pub struct PlayArgs {
    #[command(flatten)]
    game: crate::args::GameArgs,
    /// Pick uniformly random legal moves for both sides.
    #[arg(long, conflicts_with = "agent")]
    random: bool,
    /// Play against this agent (random, greedy, ab@DEPTH, ab@MSms, ab@NODESn,
    /// uniform@SIMS, rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS, networks
    /// optionally /nolosses or /nowins) in the terminal; `heterodox play --agent X --help`
    /// for its options.
    #[arg(long)]
    agent: Option<String>,
    /// With --agent: your colour, white or black.
    #[arg(long, requires = "agent")]
    color: Option<String>,
    /// With --agent: the moves listed after each of the agent's moves (a
    /// tree search's most visited, 5 unless told; the engine's best lines,
    /// 1 unless told).
    #[arg(long, requires = "agent")]
    top: Option<usize>,
    /// With --agent: where the game's PGN is written (default:
    /// play-VARIANT-YYYYMMDD-HHMMSS.pgn in the current directory).
    #[arg(long, requires = "agent")]
    pgn: Option<std::path::PathBuf>,
    /// With --agent: where a network runs (auto, cpu, cuda).
    #[arg(long, requires = "agent")]
    device: Option<String>,
    /// Seed of the random player: the same seed plays the same game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many plies (the game is then unfinished).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

pub fn run(args: &PlayArgs) -> Result<(), String> {
    if args.agent.is_some() {
        let passed: Vec<std::ffi::OsString> = std::env::args_os().skip(2).collect();
        return super::net::exec_args("play", &passed);
    }
    if !args.random {
        return Err(
            "choose the players: --random, or --agent SPEC to play against an agent".to_owned(),
        );
    }
    let mut game = args.game.new_game()?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut out = format!(
        "[Variant \"{}\"]\n[FEN \"{}\"]\n",
        game.variant(),
        game.fen()
    );
    // Turn numbers and multi-step turns (Traitor's announcement and move,
    // Mad Scientist's discards) as in every PGN Heterodox writes.
    let mut movetext = Movetext::new();
    while game.outcome().is_none() && game.plies() < args.max_plies {
        let count = game.legal_moves().len();
        let player = game.turn();
        let (_, notation) = game
            .play_nth(rng.random_range(0..count))
            .ok_or("no legal move to play")?;
        movetext.push(player, &notation);
    }
    let mut line = movetext.as_str().to_owned();
    if !line.is_empty() {
        line.push(' ');
    }
    let result = game.outcome().map_or("*".to_owned(), |o| o.to_string());
    out.push_str(&format!(
        "{line}{result}\n\n{}final FEN {}\n",
        game.render(),
        game.fen()
    ));
    super::print_stdout(&out);
    Ok(())
}
