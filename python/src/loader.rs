//! The `Loader` class: the Rust training loader
//! (`heterodox_data::loader::AnyLoader`) over shards, handing batches
//! to numpy. Positions are rebuilt by replaying the recorded games through
//! the rules and encoded in Rust (in parallel, GIL released), exactly as
//! the Rust trainer sees them; each batch's buffers are allocated once and
//! moved into numpy without a copy.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use heterodox_data::loader::{AnyLoader, Batch, LoaderConfig, LoaderError};
use heterodox_data::shard;
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{check_batch_memory, history_arg, int_in, seed_arg, MAX_HISTORY};
use crate::errors::value_error;
use crate::shards::{shard_error, shard_paths};

/// Rows in one batch at most.
const MAX_BATCH: u64 = 1 << 20;

/// Training batches sampled from self-play shards (the Rust loader).
///
/// Loader(paths, history=1, z_weight=1.0, seed=0, surprise_weight=0.0).
/// paths: a shard file, a directory of shards, or a list of either; every
/// shard must hold the same variant under the same rules. Each game is
/// replayed once on loading (a corrupted or mismatched record is a
/// ValueError naming the game and step). sample(batch_size) draws positions
/// (seeded) uniformly, or with surprise_weight w > 0 in proportion to
/// (1 - w) + w s / mean(s) over the positions with a recorded surprise
/// s > 0 (the others weigh 1); batch(positions) takes the given ones; both
/// return 'observations' float32 (B, C, 8, 8), 'masks' bool (B, A),
/// 'policies' float32 (B, A), 'values' float32 (B,) (z_weight * result +
/// (1 - z_weight) * root value, for the player to act), and the auxiliary
/// targets 'moves_left' float32 (B,) (steps left in the record / 100) and
/// 'material' float32 (B,) (tanh of the player's material lead at the
/// record's end by the engine's values / 1000 cp), with the GIL released
/// while Rust works.
#[pyclass(module = "heterodox._core")]
pub struct Loader {
    /// `AnyLoader` is `Send`; the mutex makes the class `Sync`.
    inner: Mutex<AnyLoader>,
}

fn loader_error(error: LoaderError) -> PyErr {
    value_error(error)
}

impl Loader {
    fn inner(&self) -> std::sync::MutexGuard<'_, AnyLoader> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn new_batch(&self, size: u64) -> PyResult<Batch> {
        let inner = self.inner();
        let spec = inner.spec();
        check_batch_memory(size, spec.observation_len(), 2 * spec.num_actions * 4)?;
        Ok(inner.new_batch(size as usize))
    }

    fn hand_over<'py>(&self, py: Python<'py>, batch: Batch) -> PyResult<Bound<'py, PyDict>> {
        let (b, a, c) = (batch.size, batch.num_actions, batch.observation_len / 64);
        let dict = PyDict::new(py);
        let observations =
            Array4::from_shape_vec((b, c, 8, 8), batch.observations).map_err(value_error)?;
        dict.set_item("observations", observations.into_pyarray(py))?;
        let masks = Array2::from_shape_vec((b, a), batch.masks).map_err(value_error)?;
        dict.set_item("masks", masks.into_pyarray(py))?;
        let policies = Array2::from_shape_vec((b, a), batch.policies).map_err(value_error)?;
        dict.set_item("policies", policies.into_pyarray(py))?;
        dict.set_item("values", Array1::from(batch.values).into_pyarray(py))?;
        dict.set_item(
            "moves_left",
            Array1::from(batch.moves_left).into_pyarray(py),
        )?;
        dict.set_item("material", Array1::from(batch.material).into_pyarray(py))?;
        Ok(dict)
    }
}

#[pymethods]
impl Loader {
    #[new]
    #[pyo3(signature = (paths, history = None, z_weight = 1.0, seed = None, surprise_weight = 0.0))]
    fn new(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        history: Option<&Bound<'_, PyAny>>,
        z_weight: f32,
        seed: Option<&Bound<'_, PyAny>>,
        surprise_weight: f32,
    ) -> PyResult<Loader> {
        let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
            Ok(path) => vec![path],
            Err(_) => paths.extract()?,
        };
        let mut files = Vec::new();
        for path in &paths {
            files.extend(shard_paths(path)?);
        }
        let config = LoaderConfig::default()
            .with_history(history_arg(history, MAX_HISTORY)?)
            .with_z_weight(z_weight)
            .with_material(heterodox_engine::material_of_any)
            .with_surprise_weight(surprise_weight)
            .with_seed(seed_arg(seed)?);
        let inner = py.detach(|| -> PyResult<AnyLoader> {
            let shards = files
                .iter()
                .map(|f| shard::read_shard(f).map_err(shard_error))
                .collect::<PyResult<Vec<_>>>()?;
            AnyLoader::from_shards(shards, &config).map_err(loader_error)
        })?;
        Ok(Loader {
            inner: Mutex::new(inner),
        })
    }

    /// The variant's registered name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner().variant().name()
    }

    /// The games loaded.
    #[getter]
    fn num_games(&self) -> usize {
        self.inner().num_games()
    }

    /// The training positions (steps with a search policy).
    #[getter]
    fn num_positions(&self) -> usize {
        self.inner().num_positions()
    }

    /// The size of the action space (A).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner().spec().num_actions
    }

    /// The shape of one observation, (C, 8, 8).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [channels, height, width] = self.inner().spec().observation_shape();
        (channels, height, width)
    }

    /// The encoding's one-line summary (variant, rules, version, history,
    /// shapes), as the Rust trainer prints it.
    #[getter]
    fn spec_summary(&self) -> String {
        self.inner().spec().summary()
    }

    /// batch_size positions drawn uniformly from all training positions
    /// (the loader's seeded generator moves on).
    fn sample<'py>(
        &self,
        py: Python<'py>,
        batch_size: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let size = int_in(batch_size, "batch_size", 1, MAX_BATCH)?;
        let mut batch = self.new_batch(size)?;
        let mut guard = self.inner();
        let inner: &mut AnyLoader = &mut guard;
        py.detach(|| inner.fill_batch(&mut batch))
            .map_err(loader_error)?;
        drop(guard);
        self.hand_over(py, batch)
    }

    /// The rows of the given training positions (int64 indices from 0 to
    /// num_positions - 1), in order: for epochs over the data.
    fn batch<'py>(
        &self,
        py: Python<'py>,
        positions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let count = self.num_positions();
        let positions: Vec<usize> = positions
            .as_array()
            .iter()
            .map(|&p| {
                usize::try_from(p)
                    .ok()
                    .filter(|&p| p < count)
                    .ok_or_else(|| {
                        value_error(format!(
                            "position {p} is out of range (0 to {})",
                            count.saturating_sub(1)
                        ))
                    })
            })
            .collect::<PyResult<_>>()?;
        if positions.is_empty() || positions.len() as u64 > MAX_BATCH {
            return Err(value_error(format!(
                "positions must hold 1 to {MAX_BATCH} indices, not {}",
                positions.len()
            )));
        }
        let mut batch = self.new_batch(positions.len() as u64)?;
        let mut guard = self.inner();
        let inner: &mut AnyLoader = &mut guard;
        py.detach(|| inner.fill_batch_at(&mut batch, &positions))
            .map_err(loader_error)?;
        drop(guard);
        self.hand_over(py, batch)
    }

    fn __len__(&self) -> usize {
        self.num_positions()
    }

    fn __repr__(&self) -> String {
        let inner = self.inner();
        format!(
            "Loader({}, games={}, positions={})",
            inner.spec().summary(),
            inner.num_games(),
            inner.num_positions()
        )
    }
}
