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

use std::sync::{Mutex, PoisonError};

use heterodox_env::vecenv::{make_batch_env, BatchEnv, EnvConfig};
use heterodox_env::{AnyGame, RuleOptions, Variant};
use numpy::ndarray::{ArrayView, Dimension, IntoDimension};
use numpy::{
    dtype, Element, PyArray, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{value_error, IntoPyErr};
use crate::game::rule_options;

/// N games of one variant stepped together in Rust, in parallel, in the
/// shape of Gymnasium's vector API.
///
/// VecEnv(variant, num_envs, seed=0, history=1, max_plies=None,
/// auto_reset=True, copy=True, **rules). Observations are float32 of shape
/// (num_envs, C, 8, 8), each from the point of view of the player to act
/// in that env (channel_names names the C planes; `history` stacks the
/// last T positions). Actions are flat indices into a fixed action space
/// of num_actions; info['action_mask'] (bool, (num_envs, num_actions))
/// marks the legal ones and info['current_player'] (uint8, 0 = white,
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
    /// Fresh arrays every call (true) or read-only views of the env's
    /// buffers (false).
    copy: bool,
    /// The actions of the next step, copied out of the caller's array so
    /// that no Python object is read while the GIL is released.
    actions: Vec<i64>,
}

/// How one call hands the Rust buffers to numpy (see the module docs).
#[derive(Clone, Copy)]
struct Hand<'a, 'py> {
    py: Python<'py>,
    /// `None`: copy into fresh arrays; `Some(env)`: read-only views whose
    /// base is the `VecEnv` object.
    base: Option<&'a Bound<'py, PyAny>>,
}

impl<'py> Hand<'_, 'py> {
    fn array<T: Element, D: IntoDimension>(
        self,
        data: &[T],
        shape: D,
    ) -> PyResult<Bound<'py, PyAny>> {
        let shape = shape.into_dimension();
        debug_assert_eq!(shape.size(), data.len());
        match self.base {
            None => Ok(PyArray1::from_slice(self.py, data)
                .reshape(shape)?
                .into_any()),
            Some(base) => {
                let view = ArrayView::from_shape(shape, data).map_err(value_error)?;
                // SAFETY: `data` is a buffer of the batched env inside the
                // `VecEnv` object `base`; the view holds a reference to
                // `base`, so the buffer lives as long as the view, and the
                // env never reallocates its buffers after construction.
                let array = unsafe { PyArray::borrow_from_array(&view, base.clone()) };
                // Read-only: the buffer belongs to the env.
                array.getattr("flags")?.setattr("writeable", false)?;
                Ok(array.into_any())
            }
        }
    }

    /// Observations and info (masks, current players).
    fn observation_and_info(
        self,
        env: &dyn BatchEnv,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let n = env.num_envs();
        let [c, h, w] = env.observation_shape();
        let obs = self.array(env.observations(), [n, c, h, w])?;
        let info = PyDict::new(self.py);
        info.set_item(
            "action_mask",
            self.array(env.action_masks(), [n, env.num_actions()])?,
        )?;
        info.set_item("current_player", self.array(env.current_players(), [n])?)?;
        Ok((obs, info))
    }
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

    /// Copies `actions` (a 1-D int64 numpy array of num_envs entries) into
    /// `self.actions`; TypeError or ValueError naming what is wrong.
    fn read_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = actions.py();
        let n = self.actions.len();
        let array = actions.cast::<PyUntypedArray>().map_err(|_| {
            PyTypeError::new_err(format!(
                "actions must be a numpy array of int64 with shape ({n},), not {}",
                actions
                    .get_type()
                    .name()
                    .map_or("?".to_owned(), |n| n.to_string())
            ))
        })?;
        let found = array.dtype();
        if !found.is_equiv_to(&dtype::<i64>(py)) {
            return Err(PyTypeError::new_err(format!(
                "actions must have dtype int64, not {found} (use actions.astype(np.int64))"
            )));
        }
        if array.shape() != [n] {
            let shape: Vec<String> = array.shape().iter().map(ToString::to_string).collect();
            let shape = match shape.len() {
                1 => format!("({},)", shape[0]),
                _ => format!("({})", shape.join(", ")),
            };
            return Err(PyValueError::new_err(format!(
                "actions must have shape ({n},) (one per env), not {shape}"
            )));
        }
        let array = array.cast::<PyArray1<i64>>()?;
        let view = array.try_readonly().map_err(value_error)?;
        match view.as_slice() {
            Ok(slice) => self.actions.copy_from_slice(slice),
            Err(_) => {
                for (out, action) in self.actions.iter_mut().zip(view.as_array().iter()) {
                    *out = *action;
                }
            }
        }
        Ok(())
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (variant, num_envs, seed = 0, history = 1, max_plies = None, auto_reset = true, copy = true, **rules))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        num_envs: usize,
        seed: u64,
        history: usize,
        max_plies: Option<u32>,
        auto_reset: bool,
        copy: bool,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecEnv> {
        let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
        let options = rule_options(rules)?;
        let config = EnvConfig {
            max_plies,
            ..EnvConfig::new(num_envs)
                .with_seed(seed)
                .with_history(history)
                .with_auto_reset(auto_reset)
        };
        let env = make_batch_env(variant, &options, config).map_err(IntoPyErr::into_py_err)?;
        Ok(VecEnv {
            env: Mutex::new(env),
            options,
            auto_reset,
            copy,
            actions: vec![0; num_envs],
        })
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
    /// With a seed, the games are those of a new VecEnv with that seed;
    /// without, each env starts the next game of its seed sequence.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        slf: &Bound<'py, Self>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let py = slf.py();
        let mut this = slf.try_borrow_mut()?;
        let hand = Hand {
            py,
            base: (!this.copy).then_some(slf.as_any()),
        };
        let env = this.env.get_mut().unwrap_or_else(PoisonError::into_inner);
        py.detach(|| env.reset(seed));
        hand.observation_and_info(&**env)
    }

    /// Plays one action per env: `actions` is an int64 numpy array of shape
    /// (num_envs,) holding flat action indices. Returns (observations,
    /// rewards, terminated, truncated, info). TypeError for another dtype,
    /// ValueError for another shape, IllegalMoveError (a ValueError) for an
    /// illegal action (naming the env, the action and the position); nothing
    /// changes on error.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        slf: &Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
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
        let VecEnv { env, actions, .. } = &mut *this;
        let env = env.get_mut().unwrap_or_else(PoisonError::into_inner);
        py.detach(|| env.step(actions))
            .map_err(IntoPyErr::into_py_err)?;
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
