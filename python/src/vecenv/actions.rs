//! A step's actions, one integer per env, read from whatever a Python
//! caller naturally has: a numpy array of any integer dtype (int8 ..
//! uint64: a policy's argmax, a torch tensor's `.numpy()`, a sampled
//! `MultiDiscrete`), a list or a tuple of ints. Everything is checked and
//! copied out before the env is touched, so bad input (a float or bool
//! array, a wrong shape, a value no action index can have) raises and the
//! games are unchanged.

use std::fmt::Display;

use numpy::{
    dtype, Element, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyTuple};

use crate::array_args::shape_text;
use crate::errors::IllegalMoveError;

/// What the caller is told an action array may be.
const ACCEPTED: &str =
    "a numpy array of integers (int8 .. int64, uint8 .. uint64), a list or a tuple of ints";

/// Copies `actions` into `out` (one slot per env); `num_actions` only
/// words the error for a value beyond any index. TypeError for a value of
/// another type or dtype, ValueError for another shape or length,
/// IllegalMoveError for an integer that does not fit an action index.
pub(super) fn read_actions(
    actions: &Bound<'_, PyAny>,
    out: &mut [i64],
    num_actions: usize,
) -> PyResult<()> {
    if let Ok(array) = actions.cast::<PyUntypedArray>() {
        return read_array(array, out, num_actions);
    }
    if let Ok(list) = actions.cast::<PyList>() {
        return read_items(list.len(), list.iter(), out, num_actions);
    }
    if let Ok(tuple) = actions.cast::<PyTuple>() {
        return read_items(tuple.len(), tuple.iter(), out, num_actions);
    }
    Err(PyTypeError::new_err(format!(
        "actions must be {ACCEPTED} with one entry per env ({}), not {}",
        out.len(),
        type_name(actions)
    )))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or("?".to_owned(), |name| name.to_string())
}

/// The error for an integer no action index can be (beyond `i64`; the
/// env itself names the ones that fit but are not legal).
fn beyond(value: impl Display, env: usize, num_actions: usize) -> PyErr {
    IllegalMoveError::new_err(format!(
        "illegal action {value} in env {env}: action indices run 0..{num_actions}"
    ))
}

/// A 1-D numpy array of num_envs integers, of any integer dtype in native
/// byte order, contiguous or not.
fn read_array(
    array: &Bound<'_, PyUntypedArray>,
    out: &mut [i64],
    num_actions: usize,
) -> PyResult<()> {
    let n = out.len();
    let found = array.dtype();
    if !matches!(found.kind(), b'i' | b'u') {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, not dtype {found} (use actions.astype(np.int64))"
        )));
    }
    if array.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "actions must have shape ({n},) (one per env), not {}",
            shape_text(array.shape())
        )));
    }
    macro_rules! copy_if {
        ($($t:ty),*) => {$(
            if found.is_equiv_to(&dtype::<$t>(array.py())) {
                return copy::<$t>(array, out, num_actions);
            }
        )*};
    }
    copy_if!(i64, i32, i16, i8, u64, u32, u16, u8);
    Err(PyTypeError::new_err(format!(
        "actions of dtype {found} are not in the machine's byte order (use actions.astype(np.int64))"
    )))
}

/// Copies an integer array of element type `T` into `out`, checking that
/// every value fits an `i64`.
fn copy<T>(array: &Bound<'_, PyUntypedArray>, out: &mut [i64], num_actions: usize) -> PyResult<()>
where
    T: Element + Copy + Display + TryInto<i64>,
{
    let array = array.cast::<PyArray1<T>>()?;
    let view = array
        .try_readonly()
        .map_err(|error| PyValueError::new_err(format!("actions cannot be read: {error}")))?;
    for (env, (slot, &value)) in out.iter_mut().zip(view.as_array().iter()).enumerate() {
        *slot = value
            .try_into()
            .map_err(|_| beyond(value, env, num_actions))?;
    }
    Ok(())
}

/// A list's or tuple's items: Python ints (or numpy integer scalars),
/// never bools or floats.
fn read_items<'py>(
    len: usize,
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    out: &mut [i64],
    num_actions: usize,
) -> PyResult<()> {
    let n = out.len();
    if len != n {
        return Err(PyValueError::new_err(format!(
            "actions must have {n} entries (one per env), not {len}"
        )));
    }
    for (env, (slot, item)) in out.iter_mut().zip(items).enumerate() {
        let not_int = || {
            PyTypeError::new_err(format!(
                "actions[{env}] must be an int, not {}",
                type_name(&item)
            ))
        };
        if item.is_instance_of::<PyBool>() {
            return Err(not_int());
        }
        *slot = match item.extract::<i64>() {
            Ok(value) => value,
            Err(error) if error.is_instance_of::<PyOverflowError>(item.py()) => {
                return Err(beyond(&item, env, num_actions));
            }
            Err(_) => return Err(not_int()),
        };
    }
    Ok(())
}
