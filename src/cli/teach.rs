//! `heterodox teach`: teacher data for networks. The alpha-beta engine
//! plays itself from varied openings and every position it plays is
//! written with its policy and value targets, in the shard format that
//! self-play writes and the trainer reads ([`heterodox_engine::teach`]).

use std::path::PathBuf;

use clap::Args;
use heterodox_engine::nnue::network::rules_string;
use heterodox_engine::{teach, teach_shard, TeachConfig, TeachProgress};
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};
use heterodox_selfplay::agent::nnue::shipped_file;

#[derive(Args, Debug)]
pub struct TeachArgs {
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// The engine that labels, in the arena's agent grammar: `ab@N`
    /// scores every legal action at depth N (1 to 64) with the rule set's
    /// shipped net where one exists, `ab@N/classical` with the classical
    /// evaluation. A depth, not a time: the labels are then the same on
    /// any machine.
    #[arg(long, default_value = "ab@2")]
    engine: String,
    /// Labelled positions the directory should hold (a stopped run
    /// continues to this many).
    #[arg(long, default_value_t = 100_000)]
    positions: u64,
    /// Directory of the shards (`teach-NNNNN.hdxshard`, `teach.json`).
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Uniformly random steps opening each game: 0 to this many.
    #[arg(long, default_value_t = TeachConfig::default().random_plies)]
    random_plies: u32,
    /// Labelled steps per game whose move is drawn from the policy target
    /// (later ones play the best move).
    #[arg(long, default_value_t = TeachConfig::default().sample_plies)]
    sample_plies: u32,
    /// Softmax temperature of the policy target, centipawns.
    #[arg(long, default_value_t = TeachConfig::default().policy_temperature)]
    policy_temperature: f32,
    /// Steps after which a game is adjudicated by the engine (0: the
    /// variant's cap).
    #[arg(long, default_value_t = TeachConfig::default().max_plies)]
    max_plies: u32,
    /// Centipawns ahead at the ply cap that score a win; less is a draw.
    #[arg(long, default_value_t = TeachConfig::default().adjudicate_cp)]
    adjudicate_cp: i32,
    /// Games per shard.
    #[arg(long, default_value_t = TeachConfig::default().games_per_shard)]
    games_per_shard: u32,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
    /// Writes shard K alone (`teach-K.hdxshard`, the same bytes a whole
    /// run writes as its K-th; one already there is kept) and prints its
    /// positions: a task of a run split across machines (`python -m
    /// heterodox.ray teach`, docs/scale-out.md). --positions is then
    /// only recorded.
    #[arg(long, value_name = "K")]
    shard: Option<usize>,
    /// Value targets only, for a learned evaluation (`heterodox nnue
    /// train`): each position is searched once and the best move played,
    /// instead of every legal action scored.
    #[arg(long)]
    value_only: bool,
    /// The engine evaluates with this net file (a learned evaluation)
    /// instead of the variant's shipped net or, with `ab@N/classical`,
    /// the classical evaluation.
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
}

/// The depth named by an engine string `ab@N` or `ab@N/classical`, and
/// whether it asks for the classical evaluation.
fn parse_engine(spec: &str) -> Result<(u32, bool), String> {
    let (depth, classical) = match spec.strip_suffix("/classical") {
        Some(depth) => (depth, true),
        None => (spec, false),
    };
    depth
        .strip_prefix("ab@")
        .and_then(|d| d.parse().ok())
        .map(|d| (d, classical))
        .ok_or_else(|| {
            format!("--engine '{spec}': the teacher is the engine at a fixed depth, ab@DEPTH or ab@DEPTH/classical (e.g. ab@2)")
        })
}

pub fn run(args: &TeachArgs) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let options = args.rules.options()?;
    let (depth, classical) = parse_engine(&args.engine)?;
    if classical && args.net.is_some() {
        return Err(format!(
            "--engine {} asks for the classical evaluation; --net gives a learned one: choose one",
            args.engine
        ));
    }
    let config = TeachConfig {
        positions: args.positions,
        depth,
        random_plies: args.random_plies,
        sample_plies: args.sample_plies,
        policy_temperature: args.policy_temperature,
        max_plies: args.max_plies,
        adjudicate_cp: args.adjudicate_cp,
        games_per_shard: args.games_per_shard,
        seed: args.seed,
        value_only: args.value_only,
        network: args.net.clone(),
        ..TeachConfig::default()
    };
    config.validate().map_err(|e| e.to_string())?;
    variant.visit(Teach {
        args,
        options,
        config,
        classical,
    })
}

struct Teach<'a> {
    args: &'a TeachArgs,
    options: RuleOptions,
    config: TeachConfig,
    /// `ab@N/classical`: no net, even where one is shipped.
    classical: bool,
}

impl VariantVisitor for Teach<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(mut self) -> Self::Output {
        let rules = P::parse_rules(&self.options).map_err(|e| e.to_string())?;
        if !self.classical && self.config.network.is_none() {
            // The shipped net of these rules, where there is one.
            self.config.network =
                shipped_file::<P>(&rules_string::<P>(&rules)).map_err(|e| e.to_string())?;
        }
        if let Some(k) = self.args.shard {
            let shard = teach_shard::<P>(&rules, &self.config, &self.args.out, k, &|_| {})
                .map_err(|e| e.to_string())?;
            super::print_stdout(&format!(
                "shard {k}: {} positions in {} games: {}\n",
                shard.positions,
                shard.games,
                shard.path.display()
            ));
            return Ok(());
        }
        let bar =
            crate::progress::Progress::counter(self.args.quiet, self.config.positions, "positions");
        let progress = |p: TeachProgress| {
            bar.set_position(p.positions.min(p.target));
            bar.set_message(format!("{} games", p.games));
        };
        let summary = teach::<P>(&rules, &self.config, &self.args.out, &progress)
            .map_err(|e| e.to_string())?;
        bar.finish();
        super::print_stdout(&format!(
            "{} positions in {} games, {} shards in {}\n\
             this run: {} positions in {} games in {:.1} s ({:.0} positions/s), \
             White +{} ={} -{}, {} adjudicated at the ply cap\n",
            summary.positions,
            summary.games,
            summary.shards.len(),
            self.args.out.display(),
            summary.new_positions,
            summary.new_games,
            summary.seconds,
            summary.positions_per_second(),
            summary.white_wins,
            summary.draws,
            summary.black_wins,
            summary.adjudicated,
        ));
        Ok(())
    }
}
