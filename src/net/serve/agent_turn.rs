//! An agent's turn in a game on the server: its player is taken out of the
//! session and searches on a blocking thread (the game stays readable
//! meanwhile), then its move is played unless the game changed or the
//! search was stopped. The search carries a stop flag: the engine's
//! `Limits::stop` (the flag UCI's `stop` sets), set when nobody will play
//! the move (its request abandoned, the game resigned or gone).

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use heterodox_engine::Limits;
use heterodox_env::{Color, GameVariant};
use heterodox_training::arena::agent::{AgentKind, AgentSpec};
use heterodox_training::arena::player::{
    knows_everything, load_player, AgentMove, AgentPlayer, MoveBudget,
};
use heterodox_training::TrainError;

use super::error::ApiError;
use super::session::{Agent, AgentTask, Reply, TypedSession};

/// How many of an agent's top moves a reply keeps.
const TOP_MOVES: usize = 8;

/// An agent's finished work.
struct AgentDone<P: GameVariant> {
    color: Color,
    player: Option<AgentPlayer<P>>,
    chosen: Result<AgentMove<P::Action>, TrainError>,
    version: u64,
    /// The search was stopped before it finished: its move is not played.
    stopped: bool,
}

/// The budget of one move of `spec`: its own, with `stop`, which ends
/// any agent's search (the engine's within its iteration, a tree
/// search's after its round in progress).
fn budget(spec: &AgentSpec, stop: &Arc<AtomicBool>) -> MoveBudget {
    let limits = match spec.kind {
        AgentKind::Engine(budget, _) => budget.limits(),
        _ => Limits::default(),
    };
    MoveBudget {
        limits: Some(Limits {
            stop: Some(Arc::clone(stop)),
            ..limits
        }),
    }
}

impl<P: GameVariant> TypedSession<P> {
    /// The colour and agent to move, when an agent may be asked to move:
    /// none thinking, the game not over, an agent to move.
    pub(super) fn agent_to_move_now(&self) -> Result<(Color, &Agent<P>), ApiError> {
        if self.thinking.is_some() {
            return Err(ApiError::conflict("an agent is already thinking"));
        }
        self.check_not_over()?;
        let color = self.game.position().turn();
        match self.agents[color.index()].as_ref() {
            Some(agent) => Ok((color, agent)),
            None => Err(ApiError::conflict(format!(
                "{} to move is a human, not an agent",
                color.name()
            ))),
        }
    }

    pub(super) fn start_agent_task(
        &mut self,
        stop: Arc<AtomicBool>,
    ) -> Result<AgentTask, ApiError> {
        let (color, _) = self.agent_to_move_now()?;
        let agent = self.agents[color.index()]
            .as_mut()
            .expect("agent_to_move_now found an agent");
        let player = agent.player.take();
        let (spec, seed) = (agent.spec.clone(), agent.seed);
        let (encoding, device) = (self.encoding.clone(), self.device);
        let game = self.game.clone();
        let version = self.version;
        self.thinking = Some(Arc::clone(&stop));
        Ok(Box::new(move || {
            let built = match player {
                Some(player) => Ok(player),
                None => load_player::<P>(&spec, &encoding, seed, device),
            };
            let (player, chosen) = match built {
                Ok(mut player) => {
                    let chosen = player
                        .choose_with(&game, &budget(&spec, &stop), &mut |_| {})
                        .map_err(TrainError::from);
                    (Some(player), chosen)
                }
                Err(e) => (None, Err(e)),
            };
            Box::new(AgentDone::<P> {
                color,
                player,
                chosen,
                version,
                stopped: stop.load(Ordering::SeqCst),
            }) as Box<dyn Any + Send>
        }))
    }

    pub(super) fn finish_agent_task(&mut self, done: Box<dyn Any + Send>) -> Result<(), ApiError> {
        let done = done
            .downcast::<AgentDone<P>>()
            .map_err(|_| ApiError::internal("an agent's answer of another variant"))?;
        self.thinking = None;
        if let Some(agent) = self.agents[done.color.index()].as_mut() {
            agent.player = done.player;
        }
        let chosen = done
            .chosen
            .map_err(|e| ApiError::internal(format!("the agent failed: {e}")))?;
        if done.version != self.version {
            return Err(ApiError::conflict(
                "the game changed while the agent thought (undo, a new move or a resignation); \
                 ask again",
            ));
        }
        if done.stopped {
            return Err(ApiError::conflict(
                "the agent's search was stopped before it finished; ask again",
            ));
        }
        if !self.game.position().is_legal(&chosen.action) {
            return Err(ApiError::internal("the agent chose an illegal action"));
        }
        let position = self.game.position();
        let top = chosen
            .top
            .iter()
            .take(TOP_MOVES)
            .map(|m| (position.notation(&m.action), m.visits, m.policy))
            .collect();
        let agent = self.players[done.color.index()].name();
        self.record(chosen.action, chosen.value);
        let after = self.game.position();
        self.reply = Some(Reply {
            mover: done.color,
            agent,
            step: self.steps.len() - 1,
            value: chosen.value,
            top,
            numbers_for: Color::ALL.map(|c| c == done.color || knows_everything(after, c)),
        });
        Ok(())
    }

    /// Sets the stop flag of the search running for this game, if any.
    pub(super) fn stop_search(&mut self) {
        if let Some(stop) = &self.thinking {
            stop.store(true, Ordering::SeqCst);
        }
    }
}
