//! `heterodox analyse`: the alpha-beta engine on one position, one line per
//! completed iteration in UCI's `info` form (the principal variation in
//! the variant's notation), then `bestmove`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use heterodox_engine::nnue::network::rules_string;
use heterodox_engine::nnue::Network;
use heterodox_engine::{EngineConfig, EvalWeights, Evaluation, Info, Limits};
use heterodox_env::{AnyGame, Game, GameVariant, Position, VariantVisitor};
use heterodox_selfplay::agent::nnue::engine_with;

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
    /// The evaluation: learned (the rule set's shipped net where one
    /// exists, else the classical evaluation with --weights), classical
    /// (--weights' numbers), hand (the numbers set by hand).
    #[arg(long, default_value = "learned")]
    evaluation: Evaluation,
    /// Evaluates with this net file instead (a learned evaluation,
    /// `heterodox nnue train`'s).
    #[arg(long, value_name = "FILE", conflicts_with = "evaluation")]
    net: Option<PathBuf>,
    /// Steps played from the position before the one analysed, in the
    /// variant's notation, separated by spaces. Under hidden information
    /// the engine weighs the opponent's steps among them into its belief
    /// about the opponent's secret, printed after `bestmove`.
    #[arg(long, value_name = "STEPS")]
    moves: Option<String>,
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let game = args.game.new_game()?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        stop: None,
    };
    let evaluation = match (args.evaluation, args.weights) {
        (Evaluation::Learned, EvalWeights::Hand) => Evaluation::Classical(EvalWeights::Hand),
        (evaluation, _) => evaluation,
    };
    let config = EngineConfig {
        hash_mib: args.hash,
        threads: args.threads,
        weights: evaluation.weights(),
        ..EngineConfig::default()
    };
    game.variant().visit(Analyse {
        game: &game,
        limits,
        config,
        evaluation,
        net: args.net.as_deref(),
        moves: args.moves.as_deref().unwrap_or(""),
    })
}

struct Analyse<'a> {
    game: &'a AnyGame,
    limits: Limits,
    config: EngineConfig,
    evaluation: Evaluation,
    net: Option<&'a Path>,
    moves: &'a str,
}

/// How many of the likeliest secrets `analyse` prints.
const SECRETS_SHOWN: usize = 8;

impl VariantVisitor for Analyse<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let start: &Game<P> = self
            .game
            .downcast_ref()
            .expect("the game is of its variant");
        let mut game = start.clone();
        let mut history = Vec::new();
        for word in self.moves.split_whitespace() {
            let before = game.position().clone();
            let action = game
                .play_text(word)
                .map_err(|e| format!("--moves: '{word}': {e}"))?;
            history.push((before, action));
        }
        let game = &game;
        let rules = game.position().rules();
        let mut engine = engine_with::<P>(self.config, self.evaluation, &rules_string::<P>(&rules))
            .map_err(|e| e.to_string())?;
        if let Some(path) = self.net {
            let net = Network::load_for::<P>(path, &rules).map_err(|e| e.to_string())?;
            engine
                .set_network(Some(Arc::new(net)))
                .map_err(|e| e.to_string())?;
        }
        let player = game.position().turn();
        for (position, action) in history.iter().filter(|(p, _)| p.turn() == player) {
            engine.update_beliefs(position);
            engine.played(*action);
        }
        let report = engine
            .search(game, &self.limits, |info| {
                super::print_stdout(&format!("{}\n", info_line(game.position(), info)));
            })
            .map_err(|e| e.to_string())?;
        super::print_stdout(&format!(
            "bestmove {}\n",
            game.position().notation(&report.best)
        ));
        if let Some(beliefs) = engine.beliefs().filter(|_| !history.is_empty()) {
            let shown: Vec<String> = beliefs
                .secrets
                .iter()
                .take(SECRETS_SHOWN)
                .map(|b| format!("{} {:.4}", b.secret, b.probability))
                .collect();
            super::print_stdout(&format!(
                "info string belief {} secrets, {:.2} bits, {} opponent turns weighed: {}\n",
                beliefs.secrets.len(),
                beliefs.entropy_bits,
                beliefs.turns,
                shown.join(", ")
            ));
        }
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
