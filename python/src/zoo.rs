//! The catalogue of shipped agents from Python (`heterodox_selfplay::agent::Zoo`):
//! built into this module, so a wheel installed with no checkout plays
//! the shipped agents (`heterodox.agent("zoo:hostage@64")`, the engine's
//! default evaluation); `$HETERODOX_ZOO` names another catalogue's
//! directory, as for the command line.

use std::path::PathBuf;

use heterodox_selfplay::agent::{Zoo, ZooError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::agent::AgentError;

fn zoo_error(e: ZooError) -> PyErr {
    AgentError::new_err(e.to_string())
}

/// The shipped agents, in the catalogue's order: one dict each with
/// 'name', 'variant', 'rules' (key=value joined by ',', '' for the default
/// rules), 'card', 'network' (its checkpoint directory in the catalogue,
/// or None) and 'nnue' (its engine net's file, or None), paths as the
/// catalogue names them (under agents/). AgentError when $HETERODOX_ZOO
/// names a directory without a readable catalogue.
#[pyfunction]
pub fn zoo_agents<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let zoo = Zoo::current().map_err(zoo_error)?;
    zoo.agents()
        .iter()
        .map(|agent| {
            let out = PyDict::new(py);
            out.set_item("name", &agent.name)?;
            out.set_item("variant", &agent.variant)?;
            out.set_item("rules", &agent.rules)?;
            out.set_item("card", &agent.card)?;
            out.set_item("network", &agent.network)?;
            out.set_item("nnue", &agent.nnue)?;
            Ok(out)
        })
        .collect()
}

/// The bytes of a file the catalogue lists ('hostage/README.md',
/// 'hostage/model.safetensors'), checked against its checksum. AgentError
/// for a file it does not list, or one that differs from its checksum.
#[pyfunction]
pub fn zoo_file<'py>(py: Python<'py>, file: &str) -> PyResult<Bound<'py, PyBytes>> {
    let zoo = Zoo::current().map_err(zoo_error)?;
    let bytes = py.detach(|| zoo.read(file)).map_err(zoo_error)?;
    Ok(PyBytes::new(py, &bytes))
}

/// A directory holding the AlphaZero checkpoint of the shipped agent
/// `name` (config.json, model.safetensors, spec.json): a $HETERODOX_ZOO
/// catalogue's own, else the built-in files written once to a cache
/// directory ($XDG_CACHE_HOME/heterodox/zoo/). AgentError
/// for a name the catalogue does not list (the message names the
/// catalogue) or an agent without a network.
#[pyfunction]
pub fn zoo_network_dir(py: Python<'_>, name: &str) -> PyResult<PathBuf> {
    let zoo = Zoo::current().map_err(zoo_error)?;
    py.detach(|| zoo.network_dir(name)).map_err(zoo_error)
}
