//! One game of a batch: its record, its reusable buffers, and the step and
//! reset logic that writes into its chunk of the batch's output buffers.

use crate::encoding::{encode_stacked, ActionSet};
use crate::rng::derive_seed;
use crate::{Game, GameVariant, Outcome};

/// How a game of the batch ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// Ended by the rules (mate, draw, variant ending).
    Terminated(Outcome),
    /// Cut at the ply cap: no result.
    Truncated,
}

/// The start position of a game, from its derived seed (variants with
/// random set-ups use it; others ignore it).
pub type StartFn<P> = dyn Fn(u64) -> P + Send + Sync;

/// What every slot needs to know about the batch, read-only during a step.
pub(crate) struct Shared<'a, P: GameVariant> {
    pub start: &'a StartFn<P>,
    /// Per-env start positions that replace `start` (empty: none).
    pub starts: &'a [P],
    pub base_seed: u64,
    pub history: usize,
    pub max_plies: u32,
    pub auto_reset: bool,
    pub observations: bool,
}

impl<'a, P: GameVariant> Shared<'a, P> {
    pub fn of(
        config: &super::EnvConfig,
        start: &'a StartFn<P>,
        starts: &'a [P],
        max_plies: u32,
    ) -> Shared<'a, P> {
        Shared {
            start,
            starts,
            base_seed: config.seed,
            history: config.history,
            max_plies,
            auto_reset: config.auto_reset,
            observations: config.observations,
        }
    }
}

/// One env's chunk of the batch's output buffers.
pub(crate) struct Out<'a> {
    pub observation: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub reward: &'a mut f32,
    pub terminated: &'a mut bool,
    pub truncated: &'a mut bool,
    pub player: &'a mut u8,
}

pub(crate) struct Slot<P: GameVariant> {
    pub index: usize,
    pub game: Game<P>,
    /// Earlier positions of this game, most recent first (at most T - 1).
    /// Capacity is reserved once, so pushing never allocates.
    history: Vec<P>,
    /// Legal actions of the current position, their indices and the
    /// index -> action map; reused buffers.
    pub legal: ActionSet<P>,
    /// The legal-list position of the action chosen for the next step.
    pub pending: usize,
    /// Games started in this env since the base seed was set.
    pub resets: u64,
    /// The game ended and was not reset (auto-reset off): steps are no-ops.
    pub over: bool,
    pub last_end: Option<GameEnd>,
    /// The last finished game (auto-reset moves it here).
    pub finished: Option<Game<P>>,
    /// The action indices played in the running game, in order: with the
    /// start position they rebuild the game ([`super::VecEnv::env_record`]).
    pub played: Vec<u32>,
    /// The position the running game started from.
    pub start: P,
    /// The observation of the game that auto-reset just replaced, written
    /// in the step that ended it (Gymnasium's final observation); empty
    /// until a game ends.
    pub final_observation: Vec<f32>,
    /// Whether the last step ended a game and auto-reset replaced it.
    pub has_final: bool,
}

impl<P: GameVariant> Slot<P> {
    pub fn new(index: usize, position: P, history: usize) -> Slot<P> {
        let num_actions = position.num_actions();
        Slot {
            index,
            game: Game::new(position.clone()),
            start: position,
            history: Vec::with_capacity(history - 1),
            legal: ActionSet::new(num_actions),
            pending: 0,
            resets: 0,
            over: false,
            last_end: None,
            finished: None,
            played: Vec::new(),
            final_observation: Vec::new(),
            has_final: false,
        }
    }

    /// Starts a new game from the next derived seed and writes its first
    /// observation; reward and flags are cleared.
    pub fn reset(&mut self, shared: &Shared<'_, P>, out: Out<'_>) {
        self.start_game(shared);
        self.last_end = None;
        self.finished = None;
        self.has_final = false;
        *out.reward = 0.0;
        *out.terminated = false;
        *out.truncated = false;
        self.refresh(shared, out);
    }

    fn start_game(&mut self, shared: &Shared<'_, P>) {
        let position = match shared.starts.get(self.index) {
            Some(start) => start.clone(),
            None => (shared.start)(derive_seed(shared.base_seed, self.index, self.resets)),
        };
        self.resets += 1;
        self.start = position.clone();
        let previous = std::mem::replace(&mut self.game, Game::new(position));
        self.finished = Some(previous);
        self.history.clear();
        self.played.clear();
        self.over = false;
    }

    /// Chooses the action with index `action` for the next step; false when
    /// it is not legal. A finished game (auto-reset off) accepts anything.
    pub fn select(&mut self, action: i64) -> bool {
        if self.over {
            return true;
        }
        let Ok(index) = usize::try_from(action) else {
            return false;
        };
        match self.legal.position_of(index) {
            Some(position) => {
                self.pending = position;
                true
            }
            None => false,
        }
    }

    /// Plays the selected action and writes this step's outputs.
    pub fn step(&mut self, shared: &Shared<'_, P>, out: Out<'_>) {
        self.has_final = false;
        if self.over {
            *out.reward = 0.0;
            return;
        }
        let action = self.legal.actions()[self.pending];
        self.played.push(self.legal.indices()[self.pending]);
        let actor = self.game.position().turn();
        if shared.history > 1 {
            if self.history.len() == shared.history - 1 {
                self.history.pop();
            }
            self.history.insert(0, self.game.position().clone());
        }
        self.game.play_unchecked(&action);
        let outcome = self.game.outcome();
        *out.reward = match outcome {
            Some(Outcome::Decisive { winner, .. }) if winner == actor => 1.0,
            Some(Outcome::Decisive { .. }) => -1.0,
            _ => 0.0,
        };
        let truncated = outcome.is_none() && self.game.plies() >= shared.max_plies;
        *out.terminated = outcome.is_some();
        *out.truncated = truncated;
        if let Some(outcome) = outcome {
            self.last_end = Some(GameEnd::Terminated(outcome));
        } else if truncated {
            self.last_end = Some(GameEnd::Truncated);
        }
        if outcome.is_some() || truncated {
            if shared.auto_reset {
                self.write_final_observation(shared);
                self.start_game(shared);
            } else {
                self.over = true;
            }
        }
        self.refresh(shared, out);
    }

    /// Keeps the observation of the finished game's last position, from
    /// the side of the player who would act there, before auto-reset
    /// replaces it. Allocates once per env, at its first finished game.
    fn write_final_observation(&mut self, shared: &Shared<'_, P>) {
        self.has_final = true;
        if !shared.observations {
            return;
        }
        let position = self.game.position();
        let len = crate::encoding::stacked_len(position, shared.history);
        self.final_observation.resize(len, 0.0);
        encode_stacked(
            position,
            &self.history,
            self.game.repetitions(),
            shared.history,
            position.turn(),
            &mut self.final_observation,
        );
    }

    /// Rebuilds the running game from `start` and the action indices
    /// `played` (a record of [`Slot::played`]), as if the slot had started
    /// game number `resets` there and played them; `None` (and the slot
    /// unchanged) when an index is not legal where it is played.
    pub fn restore(
        &mut self,
        shared: &Shared<'_, P>,
        start: P,
        resets: u64,
        played: &[u32],
        out: Out<'_>,
    ) -> Option<()> {
        let mut game = Game::new(start.clone());
        let mut history: Vec<P> = Vec::with_capacity(shared.history - 1);
        let mut legal = ActionSet::new(self.legal_len());
        let mut over = false;
        for (k, &index) in played.iter().enumerate() {
            if over {
                return None;
            }
            legal.generate(game.position());
            let action = legal.action_of(index as usize)?;
            if shared.history > 1 {
                if history.len() == shared.history - 1 {
                    history.pop();
                }
                history.insert(0, game.position().clone());
            }
            game.play_unchecked(&action);
            let ended = game.outcome().is_some() || game.plies() >= shared.max_plies;
            over = ended;
            if ended && (shared.auto_reset || k + 1 < played.len()) {
                return None;
            }
        }
        self.game = game;
        self.start = start;
        self.history = history;
        self.played.clear();
        self.played.extend_from_slice(played);
        self.resets = resets;
        self.over = over;
        self.last_end = over.then(|| match self.game.outcome() {
            Some(outcome) => GameEnd::Terminated(outcome),
            None => GameEnd::Truncated,
        });
        self.finished = None;
        self.has_final = false;
        *out.reward = 0.0;
        *out.terminated = false;
        *out.truncated = false;
        self.refresh(shared, out);
        Some(())
    }

    /// The size of the action space (the index map's length).
    fn legal_len(&self) -> usize {
        self.game.position().num_actions()
    }

    /// Regenerates the legal actions, the mask, the player to act and the
    /// observation of the current position.
    fn refresh(&mut self, shared: &Shared<'_, P>, out: Out<'_>) {
        // Clear only the bits set last time: cheaper than a full fill.
        for &index in self.legal.indices() {
            out.mask[index as usize] = false;
        }
        let position = self.game.position();
        if self.over {
            self.legal.clear();
        } else {
            // The game's outcome was judged by the caller (with repetition);
            // only the list is needed here.
            self.legal.generate(position);
            for &index in self.legal.indices() {
                out.mask[index as usize] = true;
            }
        }
        let observer = position.turn();
        *out.player = observer.index() as u8;
        if shared.observations {
            encode_stacked(
                position,
                &self.history,
                self.game.repetitions(),
                shared.history,
                observer,
                out.observation,
            );
        }
    }
}
