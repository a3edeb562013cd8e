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

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{mix64, SplitMix64};
use heterodox_env::{Color, Game, GameVariant, StateSampler};
use heterodox_models::tch::Device;
use heterodox_selfplay::{Evaluator, LeafBatch, Player, Search, SearchConfig};

use super::agent::AgentSpec;
use super::evaluator_for;
use crate::error::TrainError;

/// One of the moves an agent considered, with what its search says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct TopMove<A> {
    pub action: A,
    /// Simulations that went through the move.
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
    /// The moves it considered, the one played first, then by visits and
    /// policy (empty for random play).
    pub top: Vec<TopMove<A>>,
}

/// One agent, ready to move in games of `P`.
pub struct AgentPlayer<P: GameVariant> {
    spec: AgentSpec,
    seed: u64,
    search: Option<(Search<P>, Box<dyn Evaluator<P>>)>,
    batch: LeafBatch<P>,
    actions: Vec<P::Action>,
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
        let evaluator = evaluator_for::<P>(spec, encoding, seed, device)?;
        let search = match (spec.search_config(&SearchConfig::default()), evaluator) {
            (Some(config), Some(evaluator)) => {
                let config = Player::<P>::evaluation_config(&config);
                let search =
                    Search::<P>::new(config, encoding).map_err(|e| TrainError::Config {
                        path: None,
                        message: e.to_string(),
                    })?;
                Some((search, evaluator))
            }
            _ => None,
        };
        Ok(AgentPlayer {
            spec: spec.clone(),
            seed,
            search,
            batch: LeafBatch::new(encoding),
            actions: Vec::new(),
        })
    }

    /// The agent this player is.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The agent's move in `game` (which must not be over), seeded by the
    /// player's seed and the ply.
    pub fn choose(&mut self, game: &Game<P>) -> Result<AgentMove<P::Action>, TrainError> {
        let seed = mix64(self.seed ^ u64::from(game.plies()));
        let Some((search, evaluator)) = &mut self.search else {
            game.legal_actions(&mut self.actions);
            if self.actions.is_empty() {
                return Err(game_over());
            }
            let mut rng = SplitMix64::new(seed);
            return Ok(AgentMove {
                action: self.actions[rng.below(self.actions.len())],
                value: None,
                top: Vec::new(),
            });
        };
        search.start(game, &[], seed).map_err(|_| game_over())?;
        let result = search.run(evaluator.as_ref(), &mut self.batch);
        let mut order: Vec<usize> = (0..result.actions.len()).collect();
        order.sort_by(|&a, &b| {
            (b == result.best)
                .cmp(&(a == result.best))
                .then(result.visits[b].cmp(&result.visits[a]))
                .then(result.policy[b].total_cmp(&result.policy[a]))
        });
        Ok(AgentMove {
            action: result.actions[result.best],
            value: Some(result.value),
            top: order
                .into_iter()
                .map(|k| TopMove {
                    action: result.actions[k],
                    visits: result.visits[k],
                    policy: result.policy[k],
                })
                .collect(),
        })
    }
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
