//! [`Contender`]: an agent made ready for duels (the arena, the claims,
//! the trainer's yardsticks, Python's `heterodox.play`): what its
//! [`AgentSpec`] needs (an evaluator and search settings, an engine per
//! game slot, a seeded greedy player) built once, and handed to
//! [`crate::Duel`] as a [`Player`]. A network agent's evaluator is loaded
//! by the caller (the networks live above this crate) and handed in.
//!
//! The alpha-beta engine and the greedy player are [`Chooser`]s: a duel
//! asks them for each step in its parallel pass. An engine keeps its
//! transposition table between the moves of a game; each duel slot has its
//! own engine, cleared when the slot's next game begins, so a depth or node
//! budget plays the same games for the same seed however many games run at
//! once.

use std::sync::{Arc, Mutex};

use heterodox_engine::nnue::Network;
use heterodox_engine::{Engine, EngineConfig, Evaluation, Greedy, Limits};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Game, GameVariant};

use super::nnue::{rules_of, shipped_network};
use super::player::{builtin_evaluator, engine_config, AgentError};
use super::spec::{AgentKind, AgentSpec};
use super::variety::{varied_move, Variety};
use crate::{Choice, Chooser, Evaluator, Player, SearchConfig};

/// An agent ready to play duels.
pub struct Contender<P: GameVariant> {
    kind: Kind<P>,
}

enum Kind<P: GameVariant> {
    Random,
    Search {
        config: SearchConfig,
        evaluator: Box<dyn Evaluator<P>>,
    },
    Chooser(Box<dyn Chooser<P>>),
}

impl<P: GameVariant> Contender<P> {
    /// `agent` for positions encoded as `encoding`, its searches from
    /// `search` with the agent's budget; `seed` seeds its evaluator and its
    /// engine's draws. `network`: the evaluator of a network agent
    /// (`net:`, `zoo:`), loaded by the caller; the others ignore it, and a
    /// network agent without one is refused ([`AgentError::NoNetwork`]).
    pub fn new(
        agent: &AgentSpec,
        encoding: &EncodingSpec,
        search: &SearchConfig,
        seed: u64,
        network: Option<Box<dyn Evaluator<P>>>,
    ) -> Result<Contender<P>, AgentError> {
        let invalid = |reason: String| AgentError::Settings {
            agent: agent.to_string(),
            reason,
        };
        let kind = match &agent.kind {
            AgentKind::Random => Kind::Random,
            AgentKind::Greedy => Kind::Chooser(Box::new(GreedyChooser)),
            AgentKind::Engine(budget, evaluation) => {
                let network = match evaluation {
                    Evaluation::Learned => shipped_network::<P>(&rules_of(encoding))
                        .map_err(|e| invalid(e.to_string()))?
                        .map(|(_, net)| net),
                    Evaluation::Classical(_) => None,
                };
                Kind::Chooser(Box::new(
                    EngineChooser::<P>::new(
                        EngineConfig {
                            threat_guard: !agent.naive,
                            selection_strategy: !agent.naive,
                            beliefs: !agent.naive,
                            ..engine_config(seed, evaluation.weights())
                        },
                        budget.limits(),
                        network,
                    )
                    .map_err(invalid)?
                    .with_variety(agent.vary),
                ))
            }
            _ => {
                let evaluator = match builtin_evaluator::<P>(agent, seed) {
                    Some(evaluator) => evaluator,
                    None => network.ok_or_else(|| AgentError::NoNetwork(agent.to_string()))?,
                };
                let config = agent
                    .search_config(search)
                    .expect("a search agent has search settings");
                Kind::Search { config, evaluator }
            }
        };
        Ok(Contender { kind })
    }

    /// The duel player.
    pub fn player(&self) -> Player<'_, P> {
        match &self.kind {
            Kind::Random => Player::Random,
            Kind::Search { config, evaluator } => Player::Search {
                config,
                evaluator: evaluator.as_ref(),
            },
            Kind::Chooser(chooser) => Player::Chooser(chooser.as_ref()),
        }
    }
}

/// The alpha-beta engine as a duel player: one engine per slot.
pub struct EngineChooser<P: GameVariant> {
    config: EngineConfig,
    limits: Limits,
    network: Option<Arc<Network>>,
    /// Per slot: the game it is playing (its number) and its engine, taken
    /// out while it searches.
    slots: Mutex<Vec<Option<SlotEngine<P>>>>,
    /// The agent's `/vary=PLIES:CP` ([`super::variety`]), drawn from the
    /// duel's seed of the game and the ply; `None`: the engine's move.
    vary: Option<Variety>,
}

/// The game a slot's engine is playing (its number) and the engine.
type SlotEngine<P> = (u32, Engine<P>);

impl<P: GameVariant> EngineChooser<P> {
    /// Checks the settings and the limits once, before any game; the
    /// error names the problem. `network`: the learned evaluation every
    /// slot's engine plays with (`None`: the classical one of `config`).
    pub fn new(
        config: EngineConfig,
        limits: Limits,
        network: Option<Arc<Network>>,
    ) -> Result<EngineChooser<P>, String> {
        limits.validate().map_err(|e| e.to_string())?;
        config.validate().map_err(|e| e.to_string())?;
        Ok(EngineChooser {
            config,
            limits,
            network,
            slots: Mutex::new(Vec::new()),
            vary: None,
        })
    }

    /// The chooser with the agent's seeded variety (`None`: none).
    pub fn with_variety(self, vary: Option<Variety>) -> EngineChooser<P> {
        EngineChooser { vary, ..self }
    }

    fn take(&self, slot: usize) -> Option<SlotEngine<P>> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= slot {
            slots.resize_with(slot + 1, || None);
        }
        slots[slot].take()
    }

    fn put_back(&self, slot: usize, engine: (u32, Engine<P>)) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots[slot] = Some(engine);
    }
}

impl<P: GameVariant> Chooser<P> for EngineChooser<P> {
    fn choose(
        &self,
        slot: usize,
        game_number: u32,
        game: &Game<P>,
        seed: u64,
    ) -> Choice<P::Action> {
        let (number, mut engine) = match self.take(slot) {
            Some(kept) => kept,
            None => (game_number, {
                let mut engine = Engine::new(self.config).expect("the settings were checked");
                engine
                    .set_network(self.network.clone())
                    .expect("the net was found for this variant");
                engine
            }),
        };
        if number != game_number {
            engine.new_game();
        }
        let report = engine
            .search(game, &self.limits, |_| {})
            .expect("the limits were checked and the game is not over");
        let drawn = self.vary.and_then(|vary| {
            varied_move(&mut engine, game, report.depth, vary, seed)
                .expect("the game is not over and the depth is in range")
        });
        if let Some(drawn) = &drawn {
            // The step played is not the search's: the beliefs follow it.
            engine.played(drawn.action);
        }
        self.put_back(slot, (game_number, engine));
        match drawn {
            Some(drawn) => Choice {
                action: drawn.action,
                value: drawn.score.expected_result(),
            },
            None => Choice {
                action: report.best,
                value: report.score.expected_result(),
            },
        }
    }
}

/// The greedy player as a duel player, seeded by the duel's step seed.
pub struct GreedyChooser;

impl<P: GameVariant> Chooser<P> for GreedyChooser {
    fn choose(
        &self,
        _slot: usize,
        _game_number: u32,
        game: &Game<P>,
        seed: u64,
    ) -> Choice<P::Action> {
        let action = Greedy::new(seed)
            .choose(game)
            .expect("a chooser is asked only while the game goes on");
        Choice { action, value: 0.0 }
    }
}
