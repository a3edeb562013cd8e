//! How errors of the rules core reach Python: each becomes a `ValueError`
//! whose message is the error's own `Display` (which already says what is
//! wrong: the unknown name and the valid ones, the FEN field at fault, the
//! illegal move and the position).

use std::fmt::Display;

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// A `ValueError` with `error`'s message.
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}
