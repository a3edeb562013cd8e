//! The evaluator's side of a search, shared by `Search` and `self_play`:
//! the leaves sent to Python (a dict of numpy arrays, built from the
//! search's `LeafBatch`es) and the priors and values read back, checked
//! before the search sees them.
//!
//! **Requests.** One dict per gather round, its arrays moved into numpy
//! without a copy (`into_pyarray` of Vecs filled once from the leaf
//! batches):
//!
//! * `observations`: float32 `(L, C, 8, 8)`, each from the view of the
//!   player to act at the leaf (the shared stacked encoding);
//! * `mask`: bool `(L, A)`, the legal actions of each leaf;
//! * `legal`: int64 `(K,)`, every leaf's legal action indices back to back
//!   (generator order), `leaf`: int64 `(K,)` the leaf of each, and
//!   `offsets`: int64 `(L + 1,)`, leaf `i`'s are `legal[offsets[i]:offsets[i+1]]`;
//! * `game` (Search only): int64 `(L,)`, the game of each leaf.
//!
//! **Evaluations.** `priors` is float32, either dense `(L, A)` (a softmax
//! over all actions: only the legal entries are read) or flat `(K,)` in
//! the order of `legal`; `values` float32 `(L,)` or `(L, 1)`, each in
//! [-1, 1] for the player to act at the leaf. Priors need not sum to 1
//! (the search normalises over the legal actions). A wrong type, dtype or
//! shape, a NaN or infinity, a negative prior or a value outside [-1, 1]
//! is an `EvaluationError` naming the leaf, and the search is unchanged:
//! silently repairing them (as the Rust search does for a network's rare
//! bad output) would hide a bug in the caller's batching.

use std::marker::PhantomData;
use std::sync::Mutex;

use heterodox_env::GameVariant;
use heterodox_selfplay::{Evaluator, LeafBatch};
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArrayDyn, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::array_args::{shape_text, typed_array, NotTyped};

create_exception!(
    heterodox,
    EvaluationError,
    PyValueError,
    "Priors or values handed back to a search that do not fit the leaves it\nasked about: not a float32 numpy array, a wrong shape, a NaN or infinity,\na negative prior or a value outside [-1, 1]. The search is unchanged."
);

/// The leaves of one gather round, in flat Vecs ready to become numpy
/// arrays (see the module docs).
#[derive(Default)]
pub(crate) struct Requests {
    /// `[channels, 8, 8]` of one observation.
    pub shape: [usize; 3],
    pub num_actions: usize,
    pub observations: Vec<f32>,
    pub legal: Vec<i64>,
    pub leaf: Vec<i64>,
    pub offsets: Vec<i64>,
    /// Empty when the leaves' games are not known (self-play).
    pub game: Vec<i64>,
}

impl Requests {
    pub fn new(shape: [usize; 3], num_actions: usize) -> Requests {
        Requests {
            shape,
            num_actions,
            offsets: vec![0],
            ..Requests::default()
        }
    }

    pub fn leaves(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Appends every leaf of `batch`.
    pub fn extend<P: GameVariant>(&mut self, batch: &LeafBatch<P>) {
        self.observations.reserve_exact(batch.observations().len());
        self.legal.reserve_exact(batch.total_legal());
        self.leaf.reserve_exact(batch.total_legal());
        self.offsets.reserve_exact(batch.len());
        self.observations.extend_from_slice(batch.observations());
        for i in 0..batch.len() {
            let leaf = self.leaves() as i64;
            for &index in batch.legal(i) {
                self.legal.push(i64::from(index));
                self.leaf.push(leaf);
            }
            self.offsets.push(self.legal.len() as i64);
        }
    }

    /// The legal indices and leaf offsets, as the evaluation reader wants them.
    pub fn layout(&self) -> Layout {
        Layout {
            legal: self.legal.iter().map(|&i| i as usize).collect(),
            offsets: self.offsets.iter().map(|&o| o as usize).collect(),
            num_actions: self.num_actions,
        }
    }

    /// The dict handed to Python; the Vecs move into numpy.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let leaves = self.leaves();
        let [c, h, w] = self.shape;
        let a = self.num_actions;
        let mut mask = vec![false; leaves * a];
        for (&index, &leaf) in self.legal.iter().zip(&self.leaf) {
            mask[leaf as usize * a + index as usize] = true;
        }
        let shape_error = |e: numpy::ndarray::ShapeError| PyValueError::new_err(e.to_string());
        let dict = PyDict::new(py);
        let observations =
            Array4::from_shape_vec((leaves, c, h, w), self.observations).map_err(shape_error)?;
        dict.set_item("observations", observations.into_pyarray(py))?;
        let mask = Array2::from_shape_vec((leaves, a), mask).map_err(shape_error)?;
        dict.set_item("mask", mask.into_pyarray(py))?;
        dict.set_item("legal", Array1::from(self.legal).into_pyarray(py))?;
        dict.set_item("leaf", Array1::from(self.leaf).into_pyarray(py))?;
        dict.set_item("offsets", Array1::from(self.offsets).into_pyarray(py))?;
        if leaves == 0 || !self.game.is_empty() {
            dict.set_item("game", Array1::from(self.game).into_pyarray(py))?;
        }
        Ok(dict)
    }
}

/// Where each leaf's legal actions sit: what reading evaluations needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub legal: Vec<usize>,
    /// `leaves + 1` entries.
    pub offsets: Vec<usize>,
    pub num_actions: usize,
}

impl Layout {
    pub fn leaves(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

/// A numpy array of dtype float32, or an `EvaluationError` naming `name`.
fn float32_array<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let array = typed_array::<f32>(value).map_err(|why| {
        EvaluationError::new_err(match why {
            NotTyped::NotAnArray(type_name) => format!(
                "{name} must be a numpy array of float32, not {type_name} (torch: tensor.float().cpu().numpy())"
            ),
            NotTyped::Dtype(found) => {
                format!("{name} must have dtype float32, not {found} (use .astype(np.float32))")
            }
        })
    })?;
    Ok(array.cast::<PyArrayDyn<f32>>()?.clone())
}

/// Checks `priors` and `values` against `layout` and copies them into
/// `out_priors` (flat, one per legal action) and `out_values` (one per
/// leaf). On error the outputs may be partly written; callers apply
/// nothing then.
pub(crate) fn read_evaluations(
    priors: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    layout: &Layout,
    out_priors: &mut Vec<f32>,
    out_values: &mut Vec<f32>,
) -> PyResult<()> {
    let leaves = layout.leaves();
    let total = layout.legal.len();
    let a = layout.num_actions;
    let priors = float32_array(priors, "priors")?;
    let values = float32_array(values, "values")?;
    let priors = priors.try_readonly().map_err(EvaluationError::new_err)?;
    let values = values.try_readonly().map_err(EvaluationError::new_err)?;
    let priors = priors.as_array();
    let values = values.as_array();
    out_priors.clear();
    out_values.clear();
    match priors.shape() {
        [k] if *k == total => out_priors.extend(priors.iter().copied()),
        [l, n] if *l == leaves && *n == a => {
            for leaf in 0..leaves {
                for &index in &layout.legal[layout.offsets[leaf]..layout.offsets[leaf + 1]] {
                    out_priors.push(priors[[leaf, index]]);
                }
            }
        }
        shape => {
            return Err(EvaluationError::new_err(format!(
                "priors must have shape ({leaves}, {a}) (dense, one row per leaf) or \
                 ({total},) (one per legal action), not {}",
                shape_text(shape)
            )))
        }
    }
    match values.shape() {
        [l] | [l, 1] if *l == leaves => out_values.extend(values.iter().copied()),
        shape => {
            return Err(EvaluationError::new_err(format!(
                "values must have shape ({leaves},) or ({leaves}, 1) (one per leaf), not {}",
                shape_text(shape)
            )))
        }
    }
    for (leaf, &v) in out_values.iter().enumerate() {
        let range = layout.offsets[leaf]..layout.offsets[leaf + 1];
        for (&p, &index) in out_priors[range.clone()].iter().zip(&layout.legal[range]) {
            if !p.is_finite() || p < 0.0 {
                return Err(EvaluationError::new_err(format!(
                    "prior of leaf {leaf}, action {index} is {p}: priors must be finite and >= 0"
                )));
            }
        }
        if !(-1.0..=1.0).contains(&v) {
            return Err(EvaluationError::new_err(format!(
                "value of leaf {leaf} is {v}: values must be in [-1, 1]"
            )));
        }
    }
    Ok(())
}

/// Calls `evaluator(requests)` and reads its `(priors, values)` back.
pub(crate) fn call_evaluator(
    evaluator: &Bound<'_, PyAny>,
    requests: Requests,
    out_priors: &mut Vec<f32>,
    out_values: &mut Vec<f32>,
) -> PyResult<()> {
    let py = evaluator.py();
    let layout = requests.layout();
    let answer = evaluator.call1((requests.into_dict(py)?,))?;
    let (priors, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
        answer.extract().map_err(|_| {
            EvaluationError::new_err("the evaluator must return a pair (priors, values)")
        })?;
    read_evaluations(&priors, &values, &layout, out_priors, out_values)
}

/// A Python callable as the evaluator of the Rust self-play workers: each
/// batch of leaves goes to Python as a requests dict (the GIL is taken
/// only for the call). The trait cannot fail, so the first error (an
/// exception in the callable, a bad answer) is kept, every later batch
/// gets uniform priors without calling Python again, and the caller
/// raises the error once the run returns.
pub(crate) struct PyEvaluator<P> {
    callable: Py<PyAny>,
    shape: [usize; 3],
    error: Mutex<Option<PyErr>>,
    _variant: PhantomData<fn() -> P>,
}

impl<P: GameVariant> PyEvaluator<P> {
    pub fn new(callable: Py<PyAny>, shape: [usize; 3]) -> PyEvaluator<P> {
        PyEvaluator {
            callable,
            shape,
            error: Mutex::new(None),
            _variant: PhantomData,
        }
    }

    /// The first error of the run, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    /// Whether a call of the callable has failed (the run should stop).
    pub fn failed(&self) -> bool {
        self.error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }
}

impl<P: GameVariant> Evaluator<P> for PyEvaluator<P> {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        let mut result = None;
        if !self.failed() {
            let mut requests = Requests::new(self.shape, batch.num_actions());
            requests.extend(batch);
            let (mut p, mut v) = (Vec::new(), Vec::new());
            result = Some(Python::attach(|py| {
                call_evaluator(self.callable.bind(py), requests, &mut p, &mut v).map(|()| (p, v))
            }));
        }
        match result {
            Some(Ok((p, v))) => {
                priors.copy_from_slice(&p);
                values.copy_from_slice(&v);
            }
            other => {
                if let Some(Err(error)) = other {
                    *self
                        .error
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(error);
                }
                for (i, value) in values.iter_mut().enumerate().take(batch.len()) {
                    let range = batch.legal_range(i);
                    let p = 1.0 / range.len().max(1) as f32;
                    priors[range].fill(p);
                    *value = 0.0;
                }
            }
        }
    }
}
