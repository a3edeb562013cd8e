//! Evaluation while training: the agent (the current network guiding the
//! search) against fixed yardsticks, `evaluation.opponents` of the config:
//! random play, the same search guided by the uniform evaluator at the
//! same number of simulations, the greedy player (one ply of material,
//! [`heterodox_engine::Greedy`]) and the alpha-beta engine at a fixed depth
//! with its hand-written evaluation (`ab@1/classical`, the yardstick
//! agents/README.md measures every shipped network against). The first
//! three are beaten early; the engine is what shows a network learning
//! after the teacher.
//!
//! Each opponent gets `evaluation.games` games in pairs (one opening, both
//! colours; [`heterodox_selfplay::duel`]). The openings are seeded by the
//! run's seed only, not the iteration, so every evaluation of a run plays
//! the same openings and scores are comparable along the curve.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use heterodox_engine::{EvalWeights, Evaluation as EngineEvaluation, Limits, MAX_DEPTH};
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_selfplay::agent::player::engine_config;
use heterodox_selfplay::agent::{AgentKind, AgentSpec, EngineBudget};
use heterodox_selfplay::{
    Duel, DuelConfig, DuelGame, DuelTally, Evaluator, Player, SearchConfig, UniformEvaluator,
};

use crate::arena::contender::{EngineChooser, GreedyChooser};
use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;
use crate::trainer::config::TrainConfig;

/// Seed stream of the evaluation openings.
const OPENINGS_STREAM: u64 = 3;

/// A fixed opponent of the evaluation, named by its agent string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yardstick {
    Random,
    /// The search at the agent's simulations, uniform priors, value 0.
    Uniform,
    Greedy,
    /// The engine at this depth with the tuned classical evaluation
    /// (`ab@DEPTH/classical`): fixed whatever nets ship later.
    Engine(u32),
}

impl FromStr for Yardstick {
    type Err = String;

    fn from_str(text: &str) -> Result<Yardstick, String> {
        let refused = || {
            format!("evaluation opponent '{text}' is none of random, uniform, greedy, ab@DEPTH/classical (DEPTH 1 to {MAX_DEPTH})")
        };
        match text {
            "random" => return Ok(Yardstick::Random),
            "uniform" => return Ok(Yardstick::Uniform),
            "greedy" => return Ok(Yardstick::Greedy),
            _ => {}
        }
        let spec: AgentSpec = text.parse().map_err(|_| refused())?;
        match spec.kind {
            AgentKind::Engine(
                EngineBudget::Depth(depth),
                EngineEvaluation::Classical(EvalWeights::Tuned),
            ) => Ok(Yardstick::Engine(depth)),
            _ => Err(refused()),
        }
    }
}

impl fmt::Display for Yardstick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Yardstick::Random => write!(f, "random"),
            Yardstick::Uniform => write!(f, "uniform"),
            Yardstick::Greedy => write!(f, "greedy"),
            Yardstick::Engine(depth) => write!(f, "ab@{depth}/classical"),
        }
    }
}

/// The agent's score against one yardstick, with its games.
#[derive(Clone, Debug)]
pub struct YardstickScore {
    pub opponent: Yardstick,
    pub score: ScoreEstimate,
    pub games: Vec<DuelGame>,
}

/// Scores of one evaluation, in the order of `evaluation.opponents`.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub simulations: u32,
    pub scores: Vec<YardstickScore>,
    pub seconds: f64,
}

impl Evaluation {
    pub fn average_length(&self) -> f64 {
        let games = self.scores.iter().flat_map(|s| &s.games);
        let (n, plies) = games.fold((0usize, 0usize), |(n, p), g| {
            (n + 1, p + g.record.steps.len())
        });
        plies as f64 / n.max(1) as f64
    }

    /// The score against `opponent`, when it was played.
    pub fn against(&self, opponent: Yardstick) -> Option<ScoreEstimate> {
        self.scores
            .iter()
            .find(|s| s.opponent == opponent)
            .map(|s| s.score.clone())
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
    // The uniform search is a fixed yardstick: it never probes for wins
    // in one nor searches quiescence, whatever the run's search does.
    let uniform = SearchConfig {
        immediate_wins: false,
        avoid_losses_in_one: false,
        quiescence_weight: 0.0,
        ..search.clone()
    };
    let mut scores = Vec::new();
    for opponent in config.evaluation.yardsticks()? {
        let engine;
        let player = match opponent {
            Yardstick::Random => Player::Random,
            Yardstick::Uniform => Player::Search {
                config: &uniform,
                evaluator: &UniformEvaluator,
            },
            Yardstick::Greedy => Player::Chooser(&GreedyChooser),
            Yardstick::Engine(depth) => {
                engine = EngineChooser::<P>::new(
                    engine_config(config.seed, EvalWeights::Tuned),
                    Limits::depth(depth),
                    None,
                )?;
                Player::Chooser(&engine)
            }
        };
        let games = duel.run(agent_player, player, |_| on_game())?;
        scores.push(YardstickScore {
            opponent,
            score: ScoreEstimate::of(DuelTally::of(&games)),
            games,
        });
    }
    Ok(Evaluation {
        simulations,
        scores,
        seconds: started.elapsed().as_secs_f64(),
    })
}
