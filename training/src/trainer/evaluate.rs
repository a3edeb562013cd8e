//! Evaluation while training: the agent (the current network guiding the
//! search) against three fixed opponents: random play, the same search
//! guided by the uniform evaluator at the same number of simulations, and
//! the greedy player (one ply of material, [`heterodox_engine::Greedy`]).
//!
//! Each opponent gets `evaluation.games` games in pairs (one opening, both
//! colours; [`heterodox_selfplay::duel`]). The openings are seeded by the
//! run's seed only, not the iteration, so every evaluation of a run plays
//! the same openings and scores are comparable along the curve.

use std::time::Instant;

use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_selfplay::{
    Duel, DuelConfig, DuelGame, DuelTally, Evaluator, Player, SearchConfig, UniformEvaluator,
};

use crate::arena::contender::GreedyChooser;
use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;
use crate::trainer::config::TrainConfig;

/// Seed stream of the evaluation openings.
const OPENINGS_STREAM: u64 = 3;

/// Scores of one evaluation, with its games.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub simulations: u32,
    pub vs_random: ScoreEstimate,
    pub vs_uniform: ScoreEstimate,
    pub vs_greedy: ScoreEstimate,
    /// The games against each opponent.
    pub games_vs_random: Vec<DuelGame>,
    pub games_vs_uniform: Vec<DuelGame>,
    pub games_vs_greedy: Vec<DuelGame>,
    pub seconds: f64,
}

impl Evaluation {
    pub fn average_length(&self) -> f64 {
        let games = self
            .games_vs_random
            .iter()
            .chain(&self.games_vs_uniform)
            .chain(&self.games_vs_greedy);
        let (n, plies) = games.fold((0usize, 0usize), |(n, p), g| {
            (n + 1, p + g.record.steps.len())
        });
        plies as f64 / n.max(1) as f64
    }
}

/// Plays the evaluation of `agent` (an evaluator of the current network);
/// `on_game` is called after each game (for a progress display).
pub fn evaluate<P: GameVariant>(
    rules: &P::Rules,
    config: &TrainConfig,
    agent: &dyn Evaluator<P>,
    mut on_game: impl FnMut(),
) -> Result<Evaluation, TrainError> {
    let started = Instant::now();
    let simulations = config.evaluation_simulations();
    let search = SearchConfig {
        simulations,
        ..config.search.clone()
    };
    let duel = Duel::<P>::new(
        rules.clone(),
        DuelConfig {
            games: config.evaluation.games,
            concurrent: config.selfplay.concurrent.max(2),
            max_plies: config.evaluation.max_plies,
            opening_plies: config.evaluation.opening_plies,
            seed: derive_seed(config.seed, 0, OPENINGS_STREAM),
            history: config.history,
            ..DuelConfig::default()
        },
    )?;
    let agent_player = Player::Search {
        config: &search,
        evaluator: agent,
    };
    let games_vs_random = duel.run(agent_player, Player::Random, |_| on_game())?;
    // The uniform search is a fixed yardstick: it never probes for wins
    // in one, whatever the run's search does.
    let uniform = SearchConfig {
        immediate_wins: false,
        ..search.clone()
    };
    let games_vs_uniform = duel.run(
        agent_player,
        Player::Search {
            config: &uniform,
            evaluator: &UniformEvaluator,
        },
        |_| on_game(),
    )?;
    let games_vs_greedy = duel.run(agent_player, Player::Chooser(&GreedyChooser), |_| on_game())?;
    Ok(Evaluation {
        simulations,
        vs_random: ScoreEstimate::of(DuelTally::of(&games_vs_random)),
        vs_uniform: ScoreEstimate::of(DuelTally::of(&games_vs_uniform)),
        vs_greedy: ScoreEstimate::of(DuelTally::of(&games_vs_greedy)),
        games_vs_random,
        games_vs_uniform,
        games_vs_greedy,
        seconds: started.elapsed().as_secs_f64(),
    })
}
