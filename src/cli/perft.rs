//! `heterodox perft`.

use std::time::Instant;

use clap::Args;

/// Deeper than this takes hours from the start position; refuse it.
const MAX_DEPTH: u32 = 12;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    game: crate::args::GameArgs,
    /// Plies to search, 0 to 12.
    #[arg(long)]
    depth: u32,
    /// Also print the count under each legal move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    if args.depth > MAX_DEPTH {
        return Err(format!(
            "depth {} is out of range (0 to {MAX_DEPTH})",
            args.depth
        ));
    }
    let game = args.game.new_game()?;
    let start = Instant::now();
    let mut out = String::new();
    let nodes = if args.divide {
        let mut lines = game.divide(args.depth);
        lines.sort();
        for (action, count) in &lines {
            out.push_str(&format!("{action}: {count}\n"));
        }
        lines
            .iter()
            .map(|(_, count)| count)
            .sum::<u64>()
            .max(u64::from(args.depth == 0))
    } else {
        game.perft(args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "time {seconds:.3} s, {:.0} nodes/s",
        nodes as f64 / seconds.max(1e-9)
    );
    out.push_str(&format!("nodes {nodes}\n"));
    super::print_stdout(&out);
    Ok(())
}
