//! The `VecEnv` class: N games of one variant stepped together in Rust
//! (`heterodox_env::vecenv`), in the shape of Gymnasium's vector API.
//!
//! **How arrays cross to numpy.** The Rust environment writes every step
//! into its own preallocated contiguous buffers (rayon writes them in
//! parallel with the GIL released). Never an element-by-element
//! conversion; two ways to hand them over, as Gymnasium's `copy` flag:
//!
//! * `copy=True` (default): one `memcpy` per buffer into a fresh numpy
//!   array (`PyArray::from_slice`; the reshape to `(N, C, 8, 8)` is a
//!   view). Safe to keep: the next step overwrites the Rust buffers, and a
//!   view kept by the user (in a replay buffer, say) would silently change.
//! * `copy=False`: no copy at all. The arrays are read-only numpy views of
//!   the Rust buffers (`PyArray::borrow_from_array`, the `VecEnv` object as
//!   their base, so the memory outlives every view). They show the latest
//!   step: each call overwrites them. This relies on the buffers never
//!   being reallocated after construction (the batched env allocates them
//!   once, in `VecEnv::new`). For chess at 1024 envs this saves copying
//!   about 10 MB per step (bench/python_vecenv.py measures both).

mod actions;
mod arrays;
mod build;
mod frame;

use std::sync::{Mutex, PoisonError};

use heterodox_env::rng::SplitMix64;
use heterodox_env::vecenv::{make_batch_env, BatchEnv, EnvConfig, GameEnd};
use heterodox_env::{AnyGame, RuleOptions, Variant};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use arrays::Hand;
use build::{read_reset_seed, BuildBatch};
pub(crate) use frame::rgb_frame;

use crate::args::{
    call_rule_options, check_batch_memory, fens_per, history_arg, int_in, max_plies_arg, seed_arg,
    MAX_ENVS, MAX_HISTORY,
};
use crate::errors::{value_error, IntoPyErr, PositionError};
use crate::outcome::Outcome;

/// N games of one variant stepped together in Rust, in parallel: the
/// native batch under heterodox.VecEnv (a gymnasium.vector.VectorEnv).
///
/// VecEnv(variant, num_envs, seed=None, history=None, max_plies=None,
/// auto_reset=True, copy=True, fens=None, rules=None, **rules). seed is
/// the env's (None: 0), history the stacked positions (None: 1; at most
/// 256), num_envs at most 1048576, and the buffers at most 8 GiB: larger
/// sizes, negative or huge numbers are a ValueError naming the argument,
/// raised before anything is allocated. Rule options come as keywords or,
/// for one named like an argument (Traitor's seed), in rules; a rule
/// seed fixes the set-up of every game (as Game(variant, seed=...)).
/// fens: one position string per env (or one for all) where every game
/// starts. Observations are float32 of shape
/// (num_envs, C, 8, 8), each from the point of view of the player to act
/// in that env (channel_names names the C planes; `history` stacks the
/// last T positions). Actions are flat indices into a fixed action space
/// of num_actions, one per env in any integer array, list or tuple;
/// info['action_mask'] (int8 0 / 1, (num_envs, num_actions), as
/// Gymnasium's masked sampling wants) marks the legal ones and
/// info['current_player'] (uint8, 0 = white,
/// 1 = black) says who acts. Rewards (float32) are +1 / -1 / 0 for the
/// player who acted on the step that ended a game. With auto_reset a
/// finished game restarts in the same step: that step's reward and flags
/// are the finished game's, its observation and mask the new game's.
/// Stepping releases the GIL. Every call returns fresh arrays; with
/// copy=False, read-only views of the env's own buffers instead (no copy;
/// overwritten by the next reset or step, as Gymnasium's copy=False).
#[pyclass(module = "heterodox._core")]
pub struct VecEnv {
    /// `BatchEnv` is `Send` but not `Sync`; the mutex makes the class
    /// shareable between threads. PyO3's own borrow flag already keeps
    /// `&mut self` exclusive, so the lock is never contended.
    env: Mutex<Box<dyn BatchEnv>>,
    options: RuleOptions,
    auto_reset: bool,
    /// The base seed in force (the constructor's, or the last reset's).
    seed: u64,
    /// No reset since construction: the first reset() without a seed
    /// starts the games the constructor set up, as reset(seed=seed) does,
    /// rather than the next ones.
    fresh: bool,
    /// The start positions given (fens), one per env; empty: the seeded
    /// starts.
    fens: Vec<String>,
    history: usize,
    max_plies: Option<u32>,
    /// Fresh arrays every call (true) or read-only views of the env's
    /// buffers (false).
    copy: bool,
    /// The actions of the next step, copied out of the caller's array so
    /// that no Python object is read while the GIL is released.
    actions: Vec<i64>,
}

impl VecEnv {
    fn env(&self) -> std::sync::MutexGuard<'_, Box<dyn BatchEnv>> {
        self.env.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn check_index(&self, env: usize) -> PyResult<usize> {
        let n = self.env().num_envs();
        if env < n {
            Ok(env)
        } else {
            Err(PyIndexError::new_err(format!(
                "env {env} is out of range: there are {n} envs"
            )))
        }
    }

    /// The running game of env `env` as an `AnyGame` (for the diagrams).
    fn any_game(&self, env: usize) -> PyResult<AnyGame> {
        let env = self.check_index(env)?;
        let batch = self.env();
        let fen = batch.fen(env).unwrap_or_default();
        AnyGame::with_options(batch.variant(), Some(&fen), &self.options).map_err(value_error)
    }

    /// A bool mask with one entry per env, as a Vec.
    fn read_mask(&self, mask: &PyReadonlyArray1<'_, bool>, name: &str) -> PyResult<Vec<bool>> {
        let n = self.actions.len();
        if mask.len() != n {
            return Err(value_error(format!(
                "{name} must have shape ({n},) (one per env), not ({},)",
                mask.len()
            )));
        }
        Ok(mask.as_array().iter().copied().collect())
    }

    /// Makes every later game of env i start from `fens[i]` (one string
    /// for every env, or one per env; empty: the seeded starts again).
    fn set_fens(&mut self, fens: Vec<String>) -> PyResult<()> {
        let fens = if fens.is_empty() {
            fens
        } else {
            fens_per(fens, self.actions.len(), "env")?
        };
        let texts: Vec<&str> = fens.iter().map(String::as_str).collect();
        let mut batch = self.env();
        batch.set_start_fens(&texts).map_err(|error| {
            PositionError::new_err(format!("invalid start position in fens: {error}"))
        })?;
        drop(batch);
        self.fens = fens;
        Ok(())
    }

    /// Copies `actions` (one integer per env: a numpy array of any integer
    /// dtype, a list or a tuple) into `self.actions`; TypeError,
    /// ValueError or IllegalMoveError naming what is wrong, nothing else
    /// touched.
    fn read_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let num_actions = self.env().num_actions();
        actions::read_actions(actions, &mut self.actions, num_actions)
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (variant, num_envs, seed = None, history = None, max_plies = None, auto_reset = true, copy = true, fens = None, rules = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        history: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        auto_reset: bool,
        copy: bool,
        fens: Option<Vec<String>>,
        rules: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecEnv> {
        let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
        let num_envs = int_in(num_envs, "num_envs", 1, MAX_ENVS)?;
        let seed = seed_arg(seed)?;
        let history = history_arg(history, MAX_HISTORY)?;
        let max_plies = max_plies_arg(max_plies)?;
        let options = call_rule_options(rules, options)?;
        // The sizes come from a one-env probe, so that a batch too large
        // for memory is refused before its buffers are allocated.
        let probe =
            make_batch_env(variant, &options, EnvConfig::new(1)).map_err(IntoPyErr::into_py_err)?;
        let [channels, _, _] = probe.observation_shape();
        let per_position = channels - heterodox_env::vecenv::REPETITION_CHANNELS.len();
        let observation_len = (history * per_position + 2) * 64;
        check_batch_memory(num_envs, observation_len, probe.num_actions())?;
        drop(probe);
        let num_envs = num_envs as usize;
        let config = EnvConfig {
            max_plies,
            ..EnvConfig::new(num_envs)
                .with_seed(seed)
                .with_history(history)
                .with_auto_reset(auto_reset)
        };
        let fixed_setup = options.iter().any(|(key, _)| key == "seed");
        let env = variant.visit(BuildBatch {
            options: &options,
            config,
            fixed_setup,
        })?;
        let mut this = VecEnv {
            env: Mutex::new(env),
            options,
            auto_reset,
            copy,
            actions: vec![0; num_envs],
            seed,
            fresh: true,
            fens: Vec::new(),
            history,
            max_plies,
        };
        if let Some(fens) = fens {
            this.set_fens(fens)?;
            this.env().reset(Some(seed));
        }
        Ok(this)
    }

    /// The variant's name, e.g. 'chess'.
    #[getter]
    fn variant(&self) -> &'static str {
        self.env().variant().name()
    }

    /// The number of games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env().num_envs()
    }

    /// The size of the fixed action space (the width of the masks).
    #[getter]
    fn num_actions(&self) -> usize {
        self.env().num_actions()
    }

    /// The shape of one env's observation: (C, 8, 8).
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.env().observation_shape())
    }

    /// One name per observation plane, in order.
    #[getter]
    fn channel_names(&self) -> Vec<String> {
        self.env().channel_names()
    }

    /// The ply cap in force: a game this many steps long is truncated.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.env().max_plies()
    }

    /// Whether a finished game restarts in the step that ends it.
    #[getter]
    fn auto_reset(&self) -> bool {
        self.auto_reset
    }

    /// True: every call returns fresh arrays. False: read-only views of
    /// the env's own buffers, overwritten by the next reset or step.
    #[getter]
    fn copy(&self) -> bool {
        self.copy
    }

    /// Starts a new game in every env and returns (observations, info).
    /// With a seed (an int, or a list of one int per env, None entries
    /// allowed), the games are those of a new VecEnv with that seed (a
    /// list is mixed into one); without, the first reset after
    /// construction starts the games of the constructor's seed, and each
    /// later one the next games of each env's seed sequence.
    /// options={'fens': [...]} makes every later game of env i start from
    /// fens[i] (one string for all envs, or one per env; None: the
    /// variant's starts again); options={'reset_mask': mask} (bool, one
    /// per env) starts the next game of the chosen envs only, the others
    /// untouched (Gymnasium's reset mask).
    #[pyo3(signature = (seed = None, options = None))]
    fn reset<'py>(
        slf: &Bound<'py, Self>,
        seed: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let py = slf.py();
        let mut this = slf.try_borrow_mut()?;
        let seed = read_reset_seed(seed, this.actions.len())?;
        let mut reset_mask = None;
        if let Some(options) = options {
            for (key, value) in options.iter() {
                let key: String = key.extract()?;
                match key.as_str() {
                    "reset_mask" => {
                        let mask: PyReadonlyArray1<'_, bool> = value.extract()?;
                        reset_mask = Some(this.read_mask(&mask, "reset_mask")?);
                    }
                    "fens" if value.is_none() => this.set_fens(Vec::new())?,
                    "fens" => {
                        let fens: Vec<String> = if let Ok(one) = value.extract::<String>() {
                            vec![one]
                        } else {
                            value.extract()?
                        };
                        this.set_fens(fens)?;
                    }
                    _ => {
                        return Err(value_error(format!(
                            "unknown reset option '{key}' (valid options: fens, reset_mask)"
                        )))
                    }
                }
            }
        }
        let hand = Hand {
            py,
            base: (!this.copy).then_some(slf.as_any()),
        };
        if let Some(mask) = reset_mask {
            if seed.is_some() {
                return Err(value_error(
                    "reset_mask restarts envs in their seed sequence: no seed with it",
                ));
            }
            let env = this.env.get_mut().unwrap_or_else(PoisonError::into_inner);
            py.detach(|| env.reset_envs(&mask));
            return hand.observation_and_info(&**env);
        }
        let seed = seed.or(this.fresh.then_some(this.seed));
        if let Some(seed) = seed {
            this.seed = seed;
        }
        this.fresh = false;
        let env = this.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        py.detach(|| env.reset(seed));
        hand.observation_and_info(&**env)
    }

    /// Plays one action per env: `actions` holds num_envs flat action
    /// indices, as a numpy array of any integer dtype (int8 .. int64,
    /// uint8 .. uint64) of shape (num_envs,), or a list or tuple of ints.
    /// Returns (observations, rewards, terminated, truncated, info).
    /// TypeError for anything else (a float or bool array, a list holding a
    /// float), ValueError for another shape or length, IllegalMoveError (a
    /// ValueError) for an illegal action (naming the env, the action and
    /// the position); nothing changes on error. `restart` (bool, (num_envs,)): envs that start
    /// their next game in this step instead of playing (their actions are
    /// ignored; reward 0, flags false): Gymnasium's next-step auto-reset,
    /// for envs whose game ended in the step before (auto_reset=False).
    #[pyo3(signature = (actions, restart = None))]
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        slf: &Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
        restart: Option<PyReadonlyArray1<'py, bool>>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let py = slf.py();
        let mut this = slf.try_borrow_mut()?;
        this.read_actions(actions)?;
        let hand = Hand {
            py,
            base: (!this.copy).then_some(slf.as_any()),
        };
        let restart = match &restart {
            Some(mask) => Some(this.read_mask(mask, "restart")?),
            None => None,
        };
        let VecEnv {
            env,
            actions,
            fresh,
            ..
        } = &mut *this;
        let env = env.get_mut().unwrap_or_else(PoisonError::into_inner);
        py.detach(|| {
            env.step(actions)?;
            if let Some(restart) = &restart {
                env.reset_envs(restart);
            }
            Ok::<(), heterodox_env::StepError>(())
        })
        .map_err(IntoPyErr::into_py_err)?;
        // Only a step that happened ends the constructor's games.
        *fresh = false;
        let n = env.num_envs();
        let (obs, info) = hand.observation_and_info(&**env)?;
        Ok((
            obs,
            hand.array(env.rewards(), [n])?,
            hand.array(env.terminated(), [n])?,
            hand.array(env.truncated(), [n])?,
            info,
        ))
    }

    /// One uniformly random legal action per env (int64, (num_envs,)),
    /// drawn in Rust from the envs' own lists of legal actions, with no
    /// scan of the masks: the random player of a vectorised loop at the
    /// speed of step(). The same seed in the same positions gives the same
    /// actions; -1 for an env whose game is over (auto_reset=False).
    fn random_actions<'py>(&self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<i64>> {
        let env = self.env();
        let mut out = vec![0i64; env.num_envs()];
        // One index drawn per env: microseconds, so the GIL is kept.
        env.random_legal_actions(&mut SplitMix64::new(seed), &mut out);
        PyArray1::from_vec(py, out)
    }

    /// The legal moves of env `env` in long notation ('e2e4'), in the
    /// same order as legal_actions(env).
    fn legal_moves(&self, env: usize) -> PyResult<Vec<String>> {
        let env = self.check_index(env)?;
        Ok(self.env().legal_moves(env).unwrap_or_default())
    }

    /// The action indices of env `env`'s legal moves (where its mask is
    /// true), in the same order as legal_moves(env).
    fn legal_actions(&self, env: usize) -> PyResult<Vec<u32>> {
        let env = self.check_index(env)?;
        Ok(self.env().legal_indices(env).unwrap_or_default().to_vec())
    }

    /// The position of env `env` as a position string (FEN).
    fn fen(&self, env: usize) -> PyResult<String> {
        let env = self.check_index(env)?;
        Ok(self.env().fen(env).unwrap_or_default())
    }

    /// Steps played in env `env`'s running game.
    fn plies(&self, env: usize) -> PyResult<u32> {
        let env = self.check_index(env)?;
        Ok(self.env().plies(env).unwrap_or_default())
    }

    /// Env `env`'s board as text, as Game.render() draws it.
    #[pyo3(signature = (env = 0))]
    fn render(&self, env: usize) -> PyResult<String> {
        Ok(self.any_game(env)?.render_text())
    }

    /// Env `env`'s board as an SVG document, as Game._repr_svg_() draws it.
    #[pyo3(signature = (env = 0))]
    fn render_svg(&self, env: usize) -> PyResult<String> {
        Ok(self.any_game(env)?.render_svg())
    }

    /// Env `env`'s board as an RGB frame, as Game.render_rgb() draws it:
    /// uint8 of shape (384, 576, 3).
    #[pyo3(signature = (env = 0))]
    fn render_rgb<'py>(&self, py: Python<'py>, env: usize) -> PyResult<Bound<'py, PyAny>> {
        rgb_frame(py, &self.any_game(env)?)
    }

    /// The observation of the game that env `env`'s last step ended, when
    /// auto-reset replaced it in that step (Gymnasium's final observation,
    /// shape observation_shape); None otherwise.
    fn final_observation<'py>(
        &self,
        py: Python<'py>,
        env: usize,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let env = self.check_index(env)?;
        let batch = self.env();
        let Some(data) = batch.final_observation(env) else {
            return Ok(None);
        };
        let [c, h, w] = batch.observation_shape();
        let array = if data.is_empty() {
            PyArray1::from_vec(py, vec![0f32; c * h * w])
        } else {
            PyArray1::from_slice(py, data)
        };
        Ok(Some(array.reshape([c, h, w])?.into_any()))
    }

    /// How env `env`'s most recent game ended (since the last reset): its
    /// Outcome when the rules ended it, None while none has ended or when
    /// it was truncated at the ply cap.
    fn last_outcome(&self, env: usize) -> PyResult<Option<Outcome>> {
        let env = self.check_index(env)?;
        Ok(match self.env().last_end(env) {
            Some(GameEnd::Terminated(outcome)) => Some(Outcome::from(outcome)),
            _ => None,
        })
    }

    /// The final position of env `env`'s most recent finished game (FEN),
    /// or None while none has finished since the last reset.
    fn last_fen(&self, env: usize) -> PyResult<Option<String>> {
        let env = self.check_index(env)?;
        let batch = self.env();
        Ok(batch.last_end(env).and_then(|_| batch.last_fen(env)))
    }

    /// Pickle support: the constructor's arguments ...
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let batch = self.env();
        let args = (batch.variant().name(), batch.num_envs()).into_pyobject(py)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("seed", self.seed)?;
        kwargs.set_item("history", self.history)?;
        kwargs.set_item("max_plies", self.max_plies)?;
        kwargs.set_item("auto_reset", self.auto_reset)?;
        kwargs.set_item("copy", self.copy)?;
        let rules = PyDict::new(py);
        for (key, value) in self.options.iter() {
            rules.set_item(key, value)?;
        }
        kwargs.set_item("rules", rules)?;
        Ok((args, kwargs))
    }

    /// ... then the start positions and each env's running game: its
    /// start, which game of its seed sequence it is, and the action
    /// indices played (replayed by __setstate__).
    #[allow(clippy::type_complexity)]
    fn __getstate__(&self) -> (bool, Vec<String>, Vec<(String, u64, Vec<u32>)>) {
        let batch = self.env();
        let records = (0..batch.num_envs())
            .filter_map(|env| batch.env_record(env))
            .collect();
        (self.fresh, self.fens.clone(), records)
    }

    #[allow(clippy::type_complexity)]
    fn __setstate__(
        &mut self,
        state: (bool, Vec<String>, Vec<(String, u64, Vec<u32>)>),
    ) -> PyResult<()> {
        let (fresh, fens, records) = state;
        if records.len() != self.actions.len() {
            return Err(value_error(format!(
                "the state holds {} envs, not {}",
                records.len(),
                self.actions.len()
            )));
        }
        self.set_fens(fens)?;
        let mut batch = self.env();
        for (env, (start, resets, played)) in records.iter().enumerate() {
            let restored = batch
                .restore_env(env, start, *resets, played)
                .map_err(IntoPyErr::into_py_err)?;
            if !restored {
                return Err(value_error(format!(
                    "env {env}'s recorded actions do not replay from its start"
                )));
            }
        }
        drop(batch);
        self.fresh = fresh;
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.env().num_envs()
    }

    fn __repr__(&self) -> String {
        let env = self.env();
        format!(
            "VecEnv(variant='{}', num_envs={}, num_actions={}, observation_shape={:?})",
            env.variant().name(),
            env.num_envs(),
            env.num_actions(),
            env.observation_shape()
        )
    }
}
