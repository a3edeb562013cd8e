//! Shards from Python: `read_shard` (one file, checked by the Rust reader,
//! as plain Python objects for inspection and tests) and `list_shards`.
//! Training reads them through `Loader`, which re-encodes positions in Rust.

use std::path::{Path, PathBuf};

use heterodox_data::shard::{self, ShardError, ShardErrorKind};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::value_error;

/// A shard error as Python's: `OSError` for the file system, else a
/// `ValueError` naming the file and what is wrong with it.
pub(crate) fn shard_error(error: ShardError) -> PyErr {
    match error.kind {
        ShardErrorKind::Io(_) => PyOSError::new_err(error.to_string()),
        _ => value_error(error),
    }
}

/// The shards at `path`: the file itself, or every shard in a directory
/// (sorted by name, writers' temporary files skipped).
pub(crate) fn shard_paths(path: &Path) -> PyResult<Vec<PathBuf>> {
    if path.is_dir() {
        shard::list_shards(path).map_err(shard_error)
    } else {
        Ok(vec![path.to_owned()])
    }
}

/// Reads a shard file (.hdxshard), checking it as the Rust trainer does
/// (magic, version, length, checksum, every count). Returns a dict: the
/// header ('variant', 'options', 'encoding_version', 'producer',
/// 'crate_version') and 'games', one dict per game ('seed', 'start' (a
/// position string or None), 'result' (PGN token), 'termination',
/// 'actions', 'root_values', 'policies' (per step a list of (action,
/// probability) pairs), 'surprises' (per step the search target's
/// divergence from the network's prior, nats; 0 where not searched or
/// not known)).
#[pyfunction]
pub fn read_shard(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let shard = py
        .detach(|| shard::read_shard(&path))
        .map_err(shard_error)?;
    let dict = PyDict::new(py);
    let header = &shard.header;
    dict.set_item("variant", &header.variant)?;
    dict.set_item("options", header.options.clone())?;
    dict.set_item("encoding_version", header.encoding_version)?;
    dict.set_item("producer", &header.producer)?;
    dict.set_item("crate_version", &header.crate_version)?;
    let games = PyList::empty(py);
    for game in &shard.games {
        let g = PyDict::new(py);
        g.set_item("seed", game.seed)?;
        g.set_item("start", game.start.as_deref())?;
        g.set_item("result", game.result.pgn())?;
        g.set_item("termination", &game.termination)?;
        g.set_item(
            "actions",
            game.steps.iter().map(|s| s.action).collect::<Vec<_>>(),
        )?;
        g.set_item(
            "root_values",
            game.steps.iter().map(|s| s.root_value).collect::<Vec<_>>(),
        )?;
        g.set_item(
            "surprises",
            game.steps.iter().map(|s| s.surprise).collect::<Vec<_>>(),
        )?;
        g.set_item(
            "policies",
            game.steps
                .iter()
                .map(|s| s.policy.clone())
                .collect::<Vec<_>>(),
        )?;
        games.append(g)?;
    }
    dict.set_item("games", games)?;
    Ok(dict)
}
