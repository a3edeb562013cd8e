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
//!
//! The trainer's evaluation step is here too (`Trainer::evaluate`): these
//! games with the network lent to an evaluator, the metrics line, and the
//! games' PGN.

use std::time::Instant;

use heterodox_data::atomic::write_file;
use heterodox_data::pgn;
use heterodox_engine::{EvalWeights, Limits};
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_selfplay::agent::player::engine_config;
use heterodox_selfplay::{
    Duel, DuelConfig, DuelGame, DuelTally, Evaluator, Player, SearchConfig, UniformEvaluator,
};

use super::metrics::{self, EvaluationLine};
use super::{Event, Trainer};
use crate::arena::contender::{EngineChooser, GreedyChooser};
use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;
use crate::trainer::config::TrainConfig;

/// The yardsticks are a setting (`evaluation.opponents`), so config.rs
/// defines them; named here too, where they are played.
pub use crate::trainer::config::Yardstick;

/// Seed stream of the evaluation openings.
const OPENINGS_STREAM: u64 = 3;

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
                )
                .map_err(|message| TrainError::Config {
                    path: None,
                    message,
                })?;
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

// The trainer's evaluation step: the games above with the network lent to
// an evaluator, then the metrics line and the games' PGN.
impl<P: GameVariant> Trainer<P> {
    pub(super) fn evaluate(
        &mut self,
        started: Instant,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<EvaluationLine, TrainError> {
        let iteration = self.iteration;
        let total = self.config.evaluation.opponents.len() as u32
            * self.config.evaluation.games.div_ceil(2)
            * 2;
        let mut done = 0;
        let rules = self.rules.clone();
        let config = self.config.clone();
        let evaluation: Evaluation = self.with_evaluator(|evaluator| {
            evaluate::<P>(&rules, &config, evaluator, || {
                done += 1;
                on_event(Event::EvaluationGame {
                    iteration,
                    done,
                    total,
                });
            })
        })?;
        self.write_evaluation_pgn(&evaluation)?;
        let engine = evaluation
            .scores
            .iter()
            .map(|s| s.opponent)
            .find(|o| matches!(o, Yardstick::Engine(_)));
        let line = EvaluationLine {
            kind: "evaluation".to_owned(),
            iteration,
            step: self.step,
            elapsed_seconds: self.elapsed(started),
            simulations: evaluation.simulations,
            average_length: evaluation.average_length(),
            vs_random: evaluation.against(Yardstick::Random),
            vs_uniform: evaluation.against(Yardstick::Uniform),
            vs_greedy: evaluation.against(Yardstick::Greedy),
            vs_engine: engine.and_then(|e| evaluation.against(e)),
            engine: engine.map(|e| e.to_string()),
            seconds: evaluation.seconds,
        };
        metrics::append(&self.run.metrics_path(), &line)?;
        on_event(Event::Evaluated(&line));
        Ok(line)
    }

    /// The evaluation games as PGN, the agent named in the tags.
    fn write_evaluation_pgn(&self, evaluation: &Evaluation) -> Result<(), TrainError> {
        let agent = format!("heterodox iteration {}", self.iteration);
        let mut text = String::new();
        for score in &evaluation.scores {
            let opponent = match score.opponent {
                Yardstick::Uniform => format!("uniform search {}", evaluation.simulations),
                other => other.to_string(),
            };
            let (games, opponent) = (&score.games, opponent.as_str());
            for game in games {
                let pgn = pgn::record_to_pgn::<P>(
                    &game.record,
                    &self.rules,
                    "heterodox train evaluation",
                    game.index as usize,
                )
                .map_err(|e| TrainError::Shard(e.to_string()))?;
                let (white, black) = if game.a_white {
                    (agent.as_str(), opponent)
                } else {
                    (opponent, agent.as_str())
                };
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&pgn::with_players(&pgn, white, black));
            }
        }
        Ok(write_file(
            &self.run.eval_pgn_path(self.iteration),
            text.as_bytes(),
        )?)
    }
}
