//! The learned evaluation's training data for Python: `nnue_data(dir)`
//! reads a teacher directory (`heterodox teach --value-only`) into the
//! arrays `heterodox nnue train` trains on, so a notebook can train the
//! same net in PyTorch and save it with `safetensors.torch.save_file` for
//! `Engine(variant, evaluation=PATH)` (docs/engine.md, "Learned
//! evaluation").

use std::path::PathBuf;

use heterodox_engine::nnue::{features, read_teach_data, FeatureList};
use heterodox_env::{AnyGame, GameVariant, VariantVisitor};
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{value_error, NetworkError};
use crate::game::Game;

/// Reads every labelled position of a teacher directory, with the GIL
/// released. Returns a dict: `features` (uint16) and `offsets` (uint64,
/// length 2n + 1: position i's side-to-act features are
/// `features[offsets[2i]:offsets[2i+1]]`, its opponent's
/// `features[offsets[2i+1]:offsets[2i+2]]`), `values` (float32, the
/// engine's tanh(cp / 400) for the side to act), `results` (float32, the
/// game's result for the side to act: 1, 0, -1), `games` (uint32, the game
/// of each position), `classical` (float32, the tuned classical
/// evaluation in centipawns for the side to act: the base of a net with
/// `base = classical`), and `variant`, `rules`, `feature_set`,
/// `feature_version`, `inputs`, `encoding_version` (the metadata a net
/// file for this data must carry) and `skipped` (labelled positions left
/// out: in check, or whose move played is noisy). A directory that
/// cannot be read raises NetworkError naming the file.
#[pyfunction]
#[pyo3(signature = (dir, max_positions=None))]
pub fn nnue_data(
    py: Python<'_>,
    dir: PathBuf,
    max_positions: Option<usize>,
) -> PyResult<Bound<'_, PyDict>> {
    let data = py
        .detach(|| read_teach_data(&dir, max_positions))
        .map_err(|e| NetworkError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("variant", data.variant.name())?;
    dict.set_item("rules", &data.rules)?;
    dict.set_item("feature_set", data.feature_set.name)?;
    dict.set_item("feature_version", data.feature_set.version)?;
    dict.set_item("inputs", data.feature_set.inputs)?;
    dict.set_item("encoding_version", data.encoding_version)?;
    dict.set_item("features", Array1::from(data.features).into_pyarray(py))?;
    dict.set_item("offsets", Array1::from(data.offsets).into_pyarray(py))?;
    dict.set_item("values", Array1::from(data.values).into_pyarray(py))?;
    dict.set_item("results", Array1::from(data.results).into_pyarray(py))?;
    dict.set_item("games", Array1::from(data.games).into_pyarray(py))?;
    dict.set_item("classical", Array1::from(data.classical).into_pyarray(py))?;
    dict.set_item("skipped", data.skipped)?;
    Ok(dict)
}

/// The active features of `game`'s position as the engine's net reads
/// them: (the side to act's, the opponent's), each a sorted list of
/// indices below the variant's feature set's `inputs` (under hidden
/// information, what the side to act may know). A variant without a
/// feature set raises ValueError.
#[pyfunction]
pub fn nnue_features(game: &Game) -> PyResult<(Vec<u16>, Vec<u16>)> {
    let any = game.any();
    any.variant().visit(Features(any))
}

struct Features<'a>(&'a AnyGame);

impl VariantVisitor for Features<'_> {
    type Output = PyResult<(Vec<u16>, Vec<u16>)>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        if heterodox_engine::nnue::feature_set::<P>().is_none() {
            return Err(value_error(format!(
                "{} has no learned evaluation",
                P::VARIANT.name()
            )));
        }
        let game = self
            .0
            .downcast_ref::<P>()
            .expect("the game is of its variant");
        let pos = game.position();
        let us = pos.turn();
        let mut list = FeatureList::default();
        features(pos, us, us, &mut list);
        let ours = list.as_slice().to_vec();
        features(pos, !us, us, &mut list);
        Ok((ours, list.as_slice().to_vec()))
    }
}
