//! `heterodox analyse`: the alpha-beta engine on one position, one line per
//! completed iteration in UCI's `info` form (the principal variation in
//! the variant's notation), then `bestmove`.

use std::time::Duration;

use clap::Args;
use heterodox_engine::{Engine, EngineConfig, EvalWeights, Info, Limits};
use heterodox_env::{AnyGame, Game, GameVariant, Position, VariantVisitor};

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "movetime", "nodes"])))]
pub struct AnalyseArgs {
    #[command(flatten)]
    game: crate::args::GameArgs,
    /// Iterations to complete (1 to 64).
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds to search.
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes to search.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (1 to 65536).
    #[arg(long, default_value_t = 64)]
    hash: u64,
    /// Search threads (Lazy SMP; one is deterministic).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The evaluation's numbers: tuned, or hand (set by hand, before
    /// tuning; docs/engine.md, "Tuning").
    #[arg(long, default_value_t = EvalWeights::Tuned)]
    weights: EvalWeights,
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let game = args.game.new_game()?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        stop: None,
    };
    let config = EngineConfig {
        hash_mib: args.hash,
        threads: args.threads,
        weights: args.weights,
        ..EngineConfig::default()
    };
    game.variant().visit(Analyse {
        game: &game,
        limits,
        config,
    })
}

struct Analyse<'a> {
    game: &'a AnyGame,
    limits: Limits,
    config: EngineConfig,
}

impl VariantVisitor for Analyse<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let game: &Game<P> = self
            .game
            .downcast_ref()
            .expect("the game is of its variant");
        let mut engine = Engine::<P>::new(self.config).map_err(|e| e.to_string())?;
        let report = engine
            .search(game, &self.limits, |info| {
                super::print_stdout(&format!("{}\n", info_line(game.position(), info)));
            })
            .map_err(|e| e.to_string())?;
        super::print_stdout(&format!(
            "bestmove {}\n",
            game.position().notation(&report.best)
        ));
        Ok(())
    }
}

/// `info depth 5 seldepth 9 score cp 35 nodes 1234 nps 56789 time 21 pv e4 e5`.
pub fn info_line<P: Position>(position: &P, info: &Info<P::Action>) -> String {
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        line_notation(position, &info.pv)
    )
}

/// A line of actions in the variant's notation, each written in the
/// position it is played from.
fn line_notation<P: Position>(position: &P, line: &[P::Action]) -> String {
    let mut position = position.clone();
    let mut words = Vec::with_capacity(line.len());
    for action in line {
        words.push(position.notation(action));
        position.play_unchecked(action);
    }
    words.join(" ")
}
