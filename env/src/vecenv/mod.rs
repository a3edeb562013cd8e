//! The batched environment: N games of one variant stepped in parallel
//! (rayon), writing into preallocated contiguous buffers, written once for
//! every variant that implements [`Encoding`]. Semantics (docs/encoding.md):
//!
//! * **Observation** of env `i`: `observations()[i * L..(i + 1) * L]` with
//!   `L = (T * C + 2) * 64`: T stacked encodings of the last T positions of
//!   the game (current first; slots before the game's start are zero), all
//!   from the point of view of the player to act now, then two repetition
//!   planes (`repetition_1`: this position occurred once before;
//!   `repetition_2`: twice before). Repetition is game history, not
//!   position, so it is added here and not by [`Encoding::encode`].
//! * **Reward** of a step: +1 / -1 / 0 for the player who acted on the step
//!   that ended the game (win / loss / draw), 0 on every other step and on
//!   truncation. The opponent's return is its negation (zero-sum).
//! * **Terminated** when the rules end the game (mate, repetition, ...);
//!   **truncated** when it reaches the ply cap (steps) without a result.
//! * **Auto-reset** (default): a game that ends is replaced by a new one in
//!   the same step. That step reports the finished game's reward and flags,
//!   but the observation, mask and current player are the new game's first.
//!   [`VecEnv::last_end`] and [`VecEnv::last_game`] keep the finished game.
//!   Without auto-reset a finished env stays finished (empty mask, its action
//!   ignored, reward 0) until [`VecEnv::reset`].
//! * **Determinism:** game `k` of env `i` starts from the seed
//!   [`derive_seed`]`(seed, i, k)`; stepping is independent per env, so
//!   thread count and scheduling never change results.
//! * **No per-step allocation:** legal-action lists, index lists and history
//!   rings are reused; only starting a new game allocates its record.

mod batch;
mod config;
mod error;
mod slot;

pub use crate::rng::{derive_seed, mix64, SplitMix64};
pub use batch::{make_batch_env, BatchEnv};
pub use config::EnvConfig;
pub use error::{EnvConfigError, MakeEnvError, StepError};
pub use slot::{GameEnd, StartFn};

use rayon::prelude::*;

use crate::encoding::EncodingSpec;
pub use crate::encoding::REPETITION_CHANNELS;
use crate::{Game, GameVariant, Variant};
use slot::{Out, Shared, Slot};

/// Envs per rayon task: enough work per task to amortise scheduling.
const MIN_ENVS_PER_TASK: usize = 8;

/// N games of one variant stepped together. See the module docs.
pub struct VecEnv<P: GameVariant> {
    config: EnvConfig,
    max_plies: u32,
    start: Box<StartFn<P>>,
    /// Per-env start positions that replace `start` (empty: none).
    starts: Vec<P>,
    spec: EncodingSpec,
    num_actions: usize,
    observation_len: usize,
    slots: Vec<Slot<P>>,
    observations: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    players: Vec<u8>,
}

impl<P: GameVariant> VecEnv<P> {
    /// A batch of games of `P` under `rules`, each starting from
    /// [`GameVariant::start`] with its derived seed; reset and ready to step.
    pub fn with_rules(config: EnvConfig, rules: P::Rules) -> Result<VecEnv<P>, MakeEnvError> {
        let probe = P::start(&rules, derive_seed(config.seed, 0, 0))
            .map_err(|e| MakeEnvError::Game(e.into()))?;
        Ok(VecEnv::new(config, move |seed| {
            P::start(&rules, seed).unwrap_or_else(|_| probe.clone())
        })?)
    }

    /// A batch whose games start from `start(seed)` (curricula, composed
    /// positions); reset and ready to step.
    pub fn new(
        config: EnvConfig,
        start: impl Fn(u64) -> P + Send + Sync + 'static,
    ) -> Result<VecEnv<P>, EnvConfigError> {
        if config.num_envs == 0 {
            return Err(EnvConfigError::NoEnvs);
        }
        if config.history == 0 {
            return Err(EnvConfigError::NoHistory);
        }
        if config.max_plies == Some(0) {
            return Err(EnvConfigError::ZeroPlyCap);
        }
        let probe = start(derive_seed(config.seed, 0, 0));
        let max_plies = config.max_plies.unwrap_or(P::DEFAULT_MAX_PLIES);
        let spec = EncodingSpec::of(&probe, config.history);
        let num_actions = spec.num_actions;
        let observation_len = spec.observation_len();
        let n = config.num_envs;
        let slots = (0..n)
            .map(|i| Slot::new(i, probe.clone(), config.history))
            .collect();
        let mut env = VecEnv {
            max_plies,
            start: Box::new(start),
            starts: Vec::new(),
            spec,
            num_actions,
            observation_len,
            slots,
            observations: vec![0.0; n * observation_len],
            masks: vec![false; n * num_actions],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            players: vec![0; n],
            config,
        };
        env.reset(None);
        Ok(env)
    }

    /// Runs `f` on every env with its chunk of the output buffers, in
    /// parallel.
    fn for_each_env(&mut self, f: impl Fn(&mut Slot<P>, &Shared<'_, P>, Out<'_>) + Sync + Send) {
        let shared = Shared::of(&self.config, &*self.start, &self.starts, self.max_plies);
        (
            self.slots.par_iter_mut(),
            self.observations.par_chunks_mut(self.observation_len),
            self.masks.par_chunks_mut(self.num_actions),
            self.rewards.par_iter_mut(),
            self.terminated.par_iter_mut(),
            self.truncated.par_iter_mut(),
            self.players.par_iter_mut(),
        )
            .into_par_iter()
            .with_min_len(MIN_ENVS_PER_TASK)
            .for_each(
                |(slot, observation, mask, reward, terminated, truncated, player)| {
                    let out = Out {
                        observation,
                        mask,
                        reward,
                        terminated,
                        truncated,
                        player,
                    };
                    f(slot, &shared, out)
                },
            );
    }

    /// Starts a new game in every env. With `Some(seed)` the base seed is
    /// replaced and the games are those of a fresh env with that seed;
    /// with `None` the next games of each env's seed sequence start.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.config.seed = seed;
            for slot in &mut self.slots {
                slot.resets = 0;
            }
        }
        self.for_each_env(|slot, shared, out| slot.reset(shared, out));
    }

    /// Plays one action per env (flat indices, as in the masks). Every
    /// action is checked first; on error nothing changes.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), StepError> {
        if actions.len() != self.slots.len() {
            return Err(StepError::ActionCount {
                expected: self.slots.len(),
                found: actions.len(),
            });
        }
        for (slot, &action) in self.slots.iter_mut().zip(actions) {
            if !slot.select(action) {
                return Err(StepError::IllegalAction {
                    env: slot.index,
                    action,
                    num_actions: self.num_actions,
                    fen: slot.game.position().fen(),
                });
            }
        }
        self.for_each_env(|slot, shared, out| slot.step(shared, out));
        Ok(())
    }

    /// Sets the position every later game of each env starts from: env `i`
    /// from `starts[i]` (one per env), or from the start function again
    /// when `starts` is empty (curricula, puzzles). Takes effect at the
    /// next reset or auto-reset; `false` (nothing changed) for another
    /// length.
    pub fn set_starts(&mut self, starts: Vec<P>) -> bool {
        if !starts.is_empty() && starts.len() != self.slots.len() {
            return false;
        }
        self.starts = starts;
        true
    }

    /// The observation of the game that env `env`'s last step ended, when
    /// auto-reset replaced it in that step (Gymnasium's final observation;
    /// all zero when observations are off); `None` otherwise.
    pub fn final_observation(&self, env: usize) -> Option<&[f32]> {
        let slot = self.slots.get(env)?;
        slot.has_final.then(|| {
            if slot.final_observation.is_empty() {
                &self.observations[..0]
            } else {
                &slot.final_observation[..]
            }
        })
    }

    /// What rebuilds env `env`'s running game: its start position, which
    /// game of the env's seed sequence it is, and the action indices
    /// played in it ([`VecEnv::restore_env`]).
    pub fn env_record(&self, env: usize) -> Option<(P, u64, &[u32])> {
        let slot = self.slots.get(env)?;
        Some((slot.start.clone(), slot.resets, &slot.played))
    }

    /// Starts the next game of each env whose entry in `envs` is true (the
    /// others are untouched), as [`VecEnv::reset`] does for all: for
    /// Gymnasium's next-step auto-reset and its reset masks. `envs` must
    /// have one entry per env (extra entries are ignored).
    pub fn reset_envs(&mut self, envs: &[bool]) {
        self.for_each_env(|slot, shared, out| {
            if envs.get(slot.index) == Some(&true) {
                slot.reset(shared, out);
            }
        });
    }

    /// Replaces env `env`'s running game by the one `start` and `played`
    /// rebuild, as game number `resets` of its seed sequence (what
    /// [`VecEnv::env_record`] gave); the outputs of that env are those of
    /// a fresh reset there. `false`, and nothing changed, for an env out
    /// of range or an index that is not legal where it is played.
    pub fn restore_env(&mut self, env: usize, start: P, resets: u64, played: &[u32]) -> bool {
        if env >= self.slots.len() {
            return false;
        }
        let shared = Shared::of(&self.config, &*self.start, &self.starts, self.max_plies);
        let (l, a) = (self.observation_len, self.num_actions);
        let out = Out {
            observation: &mut self.observations[env * l..(env + 1) * l],
            mask: &mut self.masks[env * a..(env + 1) * a],
            reward: &mut self.rewards[env],
            terminated: &mut self.terminated[env],
            truncated: &mut self.truncated[env],
            player: &mut self.players[env],
        };
        self.slots[env]
            .restore(&shared, start, resets, played, out)
            .is_some()
    }

    /// Writes a uniformly random legal action per env into `out` (-1 for a
    /// finished env without auto-reset): the random policy of benchmarks
    /// and tests. `out.len()` must be `num_envs()`.
    pub fn random_legal_actions(&self, rng: &mut SplitMix64, out: &mut [i64]) {
        for (slot, action) in self.slots.iter().zip(out) {
            let indices = slot.legal.indices();
            *action = if indices.is_empty() {
                -1
            } else {
                indices[rng.below(indices.len())] as i64
            };
        }
    }

    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    pub fn variant(&self) -> Variant {
        P::VARIANT
    }

    /// The encoding contract of this batch's observations and actions.
    pub fn spec(&self) -> &EncodingSpec {
        &self.spec
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The ply cap in force (steps).
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// `[T * C + 2, 8, 8]`.
    pub fn observation_shape(&self) -> [usize; 3] {
        self.spec.observation_shape()
    }

    /// One name per observation plane: the variant's names for the current
    /// position, `t-k:<name>` for the position k steps ago, then
    /// [`REPETITION_CHANNELS`].
    pub fn channel_names(&self) -> &[String] {
        &self.spec.channel_names
    }

    /// `num_envs * (T * C + 2) * 64` floats, env-major.
    pub fn observations(&self) -> &[f32] {
        &self.observations
    }

    /// `num_envs * num_actions`, env-major; true for legal actions.
    pub fn action_masks(&self) -> &[bool] {
        &self.masks
    }

    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// 0 = White, 1 = Black: who acts next in each env.
    pub fn current_players(&self) -> &[u8] {
        &self.players
    }

    /// The running game of env `env` (`None` for an env out of range).
    pub fn game(&self, env: usize) -> Option<&Game<P>> {
        self.slots.get(env).map(|slot| &slot.game)
    }

    /// Legal actions of env `env`, in generator order, with their indices.
    pub fn legal_actions(&self, env: usize) -> Option<(&[P::Action], &[u32])> {
        self.slots
            .get(env)
            .map(|slot| (slot.legal.actions(), slot.legal.indices()))
    }

    /// How the most recent game of env `env` ended, if one has since the
    /// last explicit reset.
    pub fn last_end(&self, env: usize) -> Option<GameEnd> {
        self.slots.get(env)?.last_end
    }

    /// The most recently finished game of env `env`: the running one when
    /// it is over (auto-reset off), else the one auto-reset replaced.
    pub fn last_game(&self, env: usize) -> Option<&Game<P>> {
        let slot = self.slots.get(env)?;
        if slot.over {
            Some(&slot.game)
        } else {
            slot.last_end.and(slot.finished.as_ref())
        }
    }
}
