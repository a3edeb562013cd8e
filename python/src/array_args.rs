//! numpy arrays passed in as arguments (a search's evaluations, a batch's
//! actions): checked to be numpy arrays of the element type the argument
//! needs before anything reads them. What is wrong comes back as
//! [`NotTyped`], so that each caller raises its own exception class with a
//! message naming its argument and the fix; shapes in those messages are
//! written as Python writes them ([`shape_text`]).

use numpy::{dtype, Element, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// Why a value is not the numpy array an argument needs.
pub(crate) enum NotTyped {
    /// Not a numpy array at all: the value's type name.
    NotAnArray(String),
    /// A numpy array of another dtype: that dtype.
    Dtype(String),
}

/// `value` as a numpy array (any shape) whose dtype is `T`'s, or why not.
pub(crate) fn typed_array<'a, 'py, T: Element>(
    value: &'a Bound<'py, PyAny>,
) -> Result<&'a Bound<'py, PyUntypedArray>, NotTyped> {
    let array = value.cast::<PyUntypedArray>().map_err(|_| {
        NotTyped::NotAnArray(
            value
                .get_type()
                .name()
                .map_or("?".to_owned(), |n| n.to_string()),
        )
    })?;
    let found = array.dtype();
    if !found.is_equiv_to(&dtype::<T>(value.py())) {
        return Err(NotTyped::Dtype(found.to_string()));
    }
    Ok(array)
}

/// A shape as Python prints the tuple: `(3,)`, `(2, 4)`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
