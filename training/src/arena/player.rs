//! [`AgentPlayer`]: one agent playing one game, a move at a time, for the
//! front ends a person or another program talks to (`heterodox play`, the
//! web server, the UCI and XBoard protocols). Duels and the arena play
//! many games at once through `heterodox_selfplay::duel` instead; both
//! turn an [`AgentSpec`] into the same players.
//!
//! Besides the move, an agent says what it thinks ([`AgentMove`]): its
//! value and its top moves. Under hidden information these numbers were
//! computed from the agent's own secret, so a front end shows them to the
//! opponent only when [`knows_everything`] says the opponent's view holds
//! no secret of the agent's; [`is_secret_step`] tells which of the agent's
//! steps the opponent cannot tell apart (a Traitor secret selection).

use heterodox_engine::score::RESULT_SCALE_CP;
use heterodox_engine::{Engine, Greedy, Limits, Score};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{mix64, SplitMix64};
use heterodox_env::{Color, Game, GameVariant, StateSampler};
use heterodox_models::tch::Device;
use heterodox_selfplay::{Evaluator, LeafBatch, Player, Search, SearchConfig};

use super::agent::{AgentKind, AgentSpec};
use super::contender::engine_config;
use super::evaluator_for;
use crate::error::TrainError;

/// One of the moves an agent considered, with what its search says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct TopMove<A> {
    pub action: A,
    /// Simulations that went through the move (a tree search).
    pub visits: u32,
    /// The search's policy target for it (improved policy or visit share).
    pub policy: f32,
}

/// An agent's move and what it thinks of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentMove<A> {
    pub action: A,
    /// The expected result for the agent, in [-1, 1] (a searching agent).
    pub value: Option<f32>,
    /// The engine's score, from the agent's side (the alpha-beta engine;
    /// a tree search's value turned into centipawns).
    pub score: Option<Score>,
    /// The line the agent expects, its move first (the engine's principal
    /// variation; the tree search's move alone).
    pub pv: Vec<A>,
    /// The tree search's moves considered, the one played first, then by
    /// visits and policy (empty for the other agents).
    pub top: Vec<TopMove<A>>,
    /// Nodes searched (engine) or simulations run (tree search).
    pub nodes: u64,
    /// Iterations completed (engine).
    pub depth: u32,
}

impl<A> AgentMove<A> {
    fn chosen(action: A) -> AgentMove<A> {
        AgentMove {
            action,
            value: None,
            score: None,
            pv: Vec::new(),
            top: Vec::new(),
            nodes: 0,
            depth: 0,
        }
    }
}

/// What an agent may spend on one move when a front end says (UCI's `go`):
/// the engine takes it as its limits, a tree search keeps its simulations
/// and ignores it.
#[derive(Clone, Debug, Default)]
pub struct MoveBudget {
    pub limits: Option<Limits>,
}

/// One agent, ready to move in games of `P`.
pub struct AgentPlayer<P: GameVariant> {
    spec: AgentSpec,
    seed: u64,
    kind: Kind<P>,
    batch: LeafBatch<P>,
    actions: Vec<P::Action>,
}

enum Kind<P: GameVariant> {
    Random,
    Greedy,
    Engine(Box<Engine<P>>, Limits),
    Search(Box<Search<P>>, Box<dyn Evaluator<P>>),
}

impl<P: GameVariant> AgentPlayer<P> {
    /// The agent `spec` for positions encoded as `encoding` (a network is
    /// loaded onto `device` and checked against it). `seed` drives its
    /// search and its random choices: the same seed, the same moves.
    pub fn new(
        spec: &AgentSpec,
        encoding: &EncodingSpec,
        seed: u64,
        device: Device,
    ) -> Result<AgentPlayer<P>, TrainError> {
        let invalid = |message: String| TrainError::Config {
            path: None,
            message,
        };
        let kind = match &spec.kind {
            AgentKind::Random => Kind::Random,
            AgentKind::Greedy => Kind::Greedy,
            AgentKind::Engine(budget, weights) => {
                let engine = Engine::new(engine_config(seed, *weights))
                    .map_err(|e| invalid(e.to_string()))?;
                Kind::Engine(Box::new(engine), budget.limits())
            }
            _ => {
                let evaluator = evaluator_for::<P>(spec, encoding, seed, device)?
                    .expect("a search agent has an evaluator");
                let config = spec
                    .search_config(&SearchConfig::default())
                    .expect("a search agent has search settings");
                let config = Player::<P>::evaluation_config(&config);
                let search =
                    Search::<P>::new(config, encoding).map_err(|e| invalid(e.to_string()))?;
                Kind::Search(Box::new(search), evaluator)
            }
        };
        Ok(AgentPlayer {
            spec: spec.clone(),
            seed,
            kind,
            batch: LeafBatch::new(encoding),
            actions: Vec::new(),
        })
    }

    /// The agent this player is.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// Forgets what the agent learnt of the game so far (the engine's
    /// table): call it when a new game begins.
    pub fn new_game(&mut self) {
        if let Kind::Engine(engine, _) = &mut self.kind {
            engine.new_game();
        }
    }

    /// The agent's move in `game` (which must not be over) with its own
    /// budget, seeded by the player's seed and the ply.
    pub fn choose(&mut self, game: &Game<P>) -> Result<AgentMove<P::Action>, TrainError> {
        self.choose_with(game, &MoveBudget::default(), &mut |_| {})
    }

    /// [`AgentPlayer::choose`] with a budget from the front end and a
    /// report after each of the engine's iterations (and once at the end of
    /// a tree search), for UCI's `info` lines.
    pub fn choose_with(
        &mut self,
        game: &Game<P>,
        budget: &MoveBudget,
        on_info: &mut dyn FnMut(&AgentMove<P::Action>),
    ) -> Result<AgentMove<P::Action>, TrainError> {
        let seed = mix64(self.seed ^ u64::from(game.plies()));
        if game.outcome().is_some() {
            return Err(game_over());
        }
        match &mut self.kind {
            Kind::Random => {
                game.legal_actions(&mut self.actions);
                let mut rng = SplitMix64::new(seed);
                Ok(AgentMove::chosen(
                    self.actions[rng.below(self.actions.len())],
                ))
            }
            Kind::Greedy => {
                let action = Greedy::new(seed).choose(game).ok_or_else(game_over)?;
                Ok(AgentMove::chosen(action))
            }
            Kind::Engine(engine, limits) => {
                let limits = budget.limits.as_ref().unwrap_or(limits);
                let report = engine
                    .search(game, limits, |info| {
                        on_info(&AgentMove {
                            action: info.pv[0],
                            value: Some(info.score.expected_result()),
                            score: Some(info.score),
                            pv: info.pv.clone(),
                            top: Vec::new(),
                            nodes: info.nodes,
                            depth: info.depth,
                        })
                    })
                    .map_err(|e| TrainError::Config {
                        path: None,
                        message: e.to_string(),
                    })?;
                Ok(AgentMove {
                    action: report.best,
                    value: Some(report.score.expected_result()),
                    score: Some(report.score),
                    pv: report.pv,
                    top: Vec::new(),
                    nodes: report.nodes,
                    depth: report.depth,
                })
            }
            Kind::Search(search, evaluator) => {
                search.start(game, &[], seed).map_err(|_| game_over())?;
                let result = search.run(evaluator.as_ref(), &mut self.batch);
                let mut order: Vec<usize> = (0..result.actions.len()).collect();
                order.sort_by(|&a, &b| {
                    (b == result.best)
                        .cmp(&(a == result.best))
                        .then(result.visits[b].cmp(&result.visits[a]))
                        .then(result.policy[b].total_cmp(&result.policy[a]))
                });
                let chosen = AgentMove {
                    action: result.actions[result.best],
                    value: Some(result.value),
                    score: Some(score_of_value(result.value)),
                    pv: vec![result.actions[result.best]],
                    top: order
                        .into_iter()
                        .map(|k| TopMove {
                            action: result.actions[k],
                            visits: result.visits[k],
                            policy: result.policy[k],
                        })
                        .collect(),
                    nodes: u64::from(search.simulations()),
                    depth: 1,
                };
                on_info(&chosen);
                Ok(chosen)
            }
        }
    }
}

/// A value in [-1, 1] as centipawns: the inverse of
/// [`Score::expected_result`], so that both families speak one scale.
fn score_of_value(value: f32) -> Score {
    let clamped = value.clamp(-0.999, 0.999);
    Score::Cp((clamped.atanh() * RESULT_SCALE_CP).round() as i32)
}

fn game_over() -> TrainError {
    TrainError::Config {
        path: None,
        message: "the game is over: there is no move to choose".to_owned(),
    }
}

/// Whether `observer` cannot tell `action` from another legal action of
/// the game's position: after either, its view is the same (a Traitor
/// secret selection). A front end announces such a step without naming it.
pub fn is_secret_step<P: GameVariant>(game: &Game<P>, action: &P::Action, observer: Color) -> bool {
    if P::PERFECT_INFORMATION {
        return false;
    }
    let key_after = |a: &P::Action| {
        let mut next = game.clone();
        next.play_unchecked(a);
        next.position().information_set_key(observer)
    };
    let key = key_after(action);
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    actions.iter().any(|a| a != action && key_after(a) == key)
}

/// Whether `observer`'s view determines the whole position (no secret of
/// the opponent's is hidden from it): only then may it see numbers that
/// were computed from the whole position.
pub fn knows_everything<P: GameVariant>(position: &P, observer: Color) -> bool {
    P::PERFECT_INFORMATION || P::sampler(&position.view(observer)).len() == 1
}
