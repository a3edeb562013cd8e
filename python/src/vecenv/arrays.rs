//! How the batch's buffers cross to numpy (see the [`super`] module docs
//! for the two ways, `copy=True` and `copy=False`).

use heterodox_env::vecenv::BatchEnv;
use numpy::ndarray::{ArrayView, Dimension, IntoDimension};
use numpy::{Element, PyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::value_error;

/// How one call hands the Rust buffers to numpy (see the module docs).
#[derive(Clone, Copy)]
pub(super) struct Hand<'a, 'py> {
    pub py: Python<'py>,
    /// `None`: copy into fresh arrays; `Some(env)`: read-only views whose
    /// base is the `VecEnv` object.
    pub base: Option<&'a Bound<'py, PyAny>>,
}

impl<'py> Hand<'_, 'py> {
    pub fn array<T: Element, D: IntoDimension>(
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

    /// Observations and info (masks as int8, current players).
    pub fn observation_and_info(
        self,
        env: &dyn BatchEnv,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let n = env.num_envs();
        let [c, h, w] = env.observation_shape();
        let obs = self.array(env.observations(), [n, c, h, w])?;
        let info = PyDict::new(self.py);
        info.set_item(
            "action_mask",
            self.array(as_int8(env.action_masks()), [n, env.num_actions()])?,
        )?;
        info.set_item("current_player", self.array(env.current_players(), [n])?)?;
        Ok((obs, info))
    }
}

/// The batch's bool masks as the int8 masks Python gets (0 / 1, the dtype
/// of Gymnasium's masked sampling, `make()`'s info and PettingZoo's
/// observations): the same bytes, so still one `memcpy` with `copy=True`
/// and still no copy at all with `copy=False`.
fn as_int8(masks: &[bool]) -> &[i8] {
    // SAFETY: `bool` has the size and alignment of `i8`, and its two
    // values, 0 and 1, are valid `i8`s; the slice only reads them. A
    // `copy=False` view cannot write them back either: it is read-only,
    // and numpy refuses to make it writeable (its base, the `VecEnv`
    // object, exposes no writeable buffer).
    unsafe { std::slice::from_raw_parts(masks.as_ptr().cast::<i8>(), masks.len()) }
}
