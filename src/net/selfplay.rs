//! `heterodox selfplay` (served by `heterodox-net`): plays games with the
//! search against itself and writes them as shards of game records (and,
//! with `--pgn`, as PGN), with a progress bar.
//!
//! ```text
//! heterodox selfplay --variant hostage --net uniform --games 64 --sims 64 --out runs/h1
//! heterodox selfplay --variant traitor --option mode=defector --net runs/h1/net --games 256 --sims 128 --out data
//! ```
//!
//! Shards are written every `--shard-games` finished games, each
//! atomically, so a killed run keeps every shard it finished. Everything is
//! checked before the first game starts: the variant and its options, the
//! search settings, the checkpoint and its encoding, the output directory.

use std::path::{Path, PathBuf};

use clap::Args;

use heterodox_data::shard::{write_shard, ShardHeader};
use heterodox_data::{pgn, GameRecord};
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};
use heterodox_models::{NetEvaluator, Network};
use heterodox_selfplay::{
    Evaluator, RolloutEvaluator, RootPolicy, SearchConfig, SelfPlay, SelfPlayConfig, SelfPlayStats,
    UniformEvaluator,
};

use crate::choice::Choices;

#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// The evaluator: `uniform` (uniform priors, value 0), `rollout` (one
    /// random playout per leaf), or a checkpoint directory.
    #[arg(long, default_value = "uniform")]
    net: String,
    /// Games to play.
    #[arg(long, default_value_t = 64)]
    games: u32,
    /// Simulations per move.
    #[arg(long, default_value_t = 64)]
    sims: u32,
    /// Root policy: puct or gumbel.
    #[arg(long, default_value = "gumbel")]
    policy: String,
    /// Games in progress at once (their leaves share each evaluation).
    #[arg(long, default_value_t = 64)]
    concurrent: u32,
    /// Steps after which a game is cut (0: the variant's default).
    #[arg(long, default_value_t = 0)]
    max_plies: u32,
    /// Each game opens with 0 to this many uniformly random plies, recorded
    /// without a policy (not training positions).
    #[arg(long, default_value_t = 0)]
    opening_plies: u32,
    /// T: positions stacked in an observation (must match the checkpoint).
    #[arg(long, default_value_t = 1)]
    history: usize,
    /// Base seed: the same seed and evaluator play the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Finished games per shard file.
    #[arg(long, default_value_t = 256)]
    shard_games: usize,
    /// Also write every game as PGN into OUT/games.pgn.
    #[arg(long)]
    pgn: bool,
    #[command(flatten)]
    device: crate::device::DeviceArgs,
    /// Output directory (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// No progress bar (logs and tests).
    #[arg(long)]
    quiet: bool,
}

/// Makes `dir` and checks that a file can be written in it, before any
/// game is played.
pub fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
    let probe = dir.join(format!(".write-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write into {}: {e}", dir.display()))
}

/// The values of `--policy`.
const ROOT_POLICIES: Choices<RootPolicy> = Choices {
    kind: "root policy",
    kinds: "policies",
    names: &[("puct", RootPolicy::Puct), ("gumbel", RootPolicy::Gumbel)],
};

pub fn run(args: &SelfPlayArgs) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let options = args.rules.options()?;
    if args.shard_games == 0 {
        return Err("--shard-games must be at least 1".to_owned());
    }
    variant.visit(Run { args, options })
}

struct Run<'a> {
    args: &'a SelfPlayArgs,
    options: RuleOptions,
}

impl VariantVisitor for Run<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(self) -> Result<(), String> {
        let args = self.args;
        let rules = P::parse_rules(&self.options).map_err(|e| format!("{e}"))?;
        let root_policy = ROOT_POLICIES.parse(&args.policy)?;
        let config = SelfPlayConfig {
            games: args.games,
            concurrent: args.concurrent,
            max_plies: args.max_plies,
            opening_plies: args.opening_plies,
            seed: args.seed,
            history: args.history,
            search: SearchConfig {
                simulations: args.sims,
                root_policy,
                ..SearchConfig::default()
            },
            ..SelfPlayConfig::default()
        };
        let selfplay = SelfPlay::<P>::new(rules.clone(), config).map_err(|e| format!("{e}"))?;
        let rollout = RolloutEvaluator {
            seed: args.seed,
            ..RolloutEvaluator::default()
        };
        let network = match args.net.as_str() {
            "uniform" | "rollout" => None,
            path => {
                let device = args.device.device()?;
                let network = Network::load_for(path, selfplay.spec(), device)
                    .map_err(|e| format!("checkpoint {path}: {e}"))?;
                Some(NetEvaluator::new(network, selfplay.spec()).map_err(|e| format!("{e}"))?)
            }
        };
        let evaluator: &dyn Evaluator<P> = match (&network, args.net.as_str()) {
            (Some(net), _) => net,
            (None, "rollout") => &rollout,
            (None, _) => &UniformEvaluator,
        };
        writable_dir(&args.out)?;
        let producer = format!(
            "heterodox selfplay --net {} --sims {} --policy {} --seed {}",
            args.net, args.sims, args.policy, args.seed
        );
        let header = ShardHeader::new::<P>(&rules, producer);
        let bar = crate::progress::Progress::counter(args.quiet, u64::from(args.games), "games");
        let mut pending: Vec<GameRecord> = Vec::new();
        let mut shards = 0usize;
        let mut pgn_text = String::new();
        let mut failure: Option<String> = None;
        let stats = selfplay.run(evaluator, |record, stats| {
            if failure.is_some() {
                return;
            }
            if let Some(error) = network.as_ref().and_then(NetEvaluator::last_error) {
                failure = Some(format!("the network evaluator failed: {error}"));
                return;
            }
            if args.pgn {
                match pgn::record_to_pgn::<P>(
                    &record,
                    &rules,
                    "heterodox selfplay",
                    stats.games as usize - 1,
                ) {
                    Ok(text) => {
                        // PGN separates games by a blank line.
                        if !pgn_text.is_empty() {
                            pgn_text.push('\n');
                        }
                        pgn_text.push_str(&text);
                    }
                    Err(e) => failure = Some(format!("PGN of game {}: {e}", stats.games)),
                }
            }
            pending.push(record);
            if pending.len() >= args.shard_games {
                if let Err(e) = flush(&args.out, &mut shards, &header, &mut pending) {
                    failure = Some(e);
                }
            }
            bar.set_position(u64::from(stats.games));
            bar.set_message(progress_message(stats));
        });
        if let Some(message) = failure {
            return Err(message);
        }
        // A failed forward pass is answered with uniform priors through the
        // trait; games searched that way are not the network's: no shard
        // holds them.
        if let Some(error) = network.as_ref().and_then(NetEvaluator::last_error) {
            return Err(format!("the network evaluator failed: {error}"));
        }
        flush(&args.out, &mut shards, &header, &mut pending)?;
        if args.pgn {
            let path = args.out.join("games.pgn");
            heterodox_data::atomic::write_file(&path, pgn_text.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        bar.finish();
        crate::common::print_stdout(&format!(
            "{} games, {} positions, {:.0} positions/s, {:.0} simulations/s, average length {:.1}\n\
             white {} / draw {} / black {} / cut {}\n\
             wrote {} shard(s) to {}\n",
            stats.games,
            stats.positions,
            stats.positions_per_second(),
            stats.simulations as f64 / stats.seconds.max(1e-9),
            stats.average_length(),
            stats.white_wins,
            stats.draws,
            stats.black_wins,
            stats.truncated,
            shards,
            args.out.display()
        ));
        Ok(())
    }
}

/// Writes the finished games as the next shard.
fn flush(
    out: &Path,
    shards: &mut usize,
    header: &ShardHeader,
    pending: &mut Vec<GameRecord>,
) -> Result<(), String> {
    if pending.is_empty() {
        return Ok(());
    }
    let path = out.join(format!("shard-{:05}.hdxshard", *shards));
    write_shard(&path, header, pending).map_err(|e| format!("{e}"))?;
    *shards += 1;
    pending.clear();
    Ok(())
}

fn progress_message(stats: &SelfPlayStats) -> String {
    format!(
        "{:.0} pos/s, avg length {:.1}, W/D/L {}/{}/{}",
        stats.positions_per_second(),
        stats.average_length(),
        stats.white_wins,
        stats.draws + stats.truncated,
        stats.black_wins
    )
}
