//! A game's board as a numpy RGB frame, for `Game.render_rgb()` and
//! `VecEnv.render_rgb(env)` (Gymnasium's `rgb_array` render mode).

use heterodox_env::render::raster::{rgb, RASTER_HEIGHT, RASTER_WIDTH};
use heterodox_env::AnyGame;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

/// `game`'s diagram rasterised (heterodox_env::render::raster) into a
/// uint8 array of shape (RASTER_HEIGHT, RASTER_WIDTH, 3): the frame's
/// buffer is moved into numpy, not copied.
pub(crate) fn rgb_frame<'py>(py: Python<'py>, game: &AnyGame) -> PyResult<Bound<'py, PyAny>> {
    let pixels = rgb(&game.diagram());
    Ok(PyArray1::from_vec(py, pixels)
        .reshape([RASTER_HEIGHT, RASTER_WIDTH, 3])?
        .into_any())
}
