//! What a run leaves in its directory after every epoch, and how a later
//! run in the same directory continues from it.
//!
//! * `checkpoint.safetensors`: the net's four tensors under the net file's
//!   names, Adam's moments (`adam.first.<name>`, `adam.second.<name>`),
//!   and the run's state as JSON in the metadata (`state`). This file is
//!   what a resumed run reads, so weights, moments and state can never
//!   come from different epochs.
//! * `checkpoint.json`: the same state for people and scripts (settings,
//!   data, the epoch reached, the losses of every epoch).
//! * `training.json`: the losses of every epoch, the positions and the
//!   seconds ([`TrainingReport`]).
//!
//! Every file is written whole or not at all (the atomic writer), the
//! checkpoint before its JSON copy.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use heterodox_engine::nnue::network::read_f32_tensor;
use serde::{Deserialize, Serialize};

use heterodox_data::atomic::write_file;
use heterodox_models::tch::Tensor;

use super::adam::Adam;
use super::config::NnueTrainConfig;
use super::model::{NnueModel, PARAMETER_NAMES};
use super::NnueTrainError;

pub const CHECKPOINT_FILE: &str = "checkpoint.safetensors";
pub const CHECKPOINT_JSON: &str = "checkpoint.json";
pub const TRAINING_FILE: &str = "training.json";
/// The `format` of a checkpoint's state.
pub const STATE_FORMAT: &str = "heterodox-nnue-checkpoint";
/// The largest checkpoint read (a bound before reading it whole): the
/// weights and two moments of the largest net.
const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

/// The positions a run learns from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataSummary {
    pub variant: String,
    pub rules: String,
    pub feature_set: String,
    pub feature_version: u32,
    pub inputs: usize,
    pub train_positions: usize,
    pub held_out_positions: usize,
    /// [`super::batch::fingerprint`] of the positions.
    pub fingerprint: String,
}

/// One finished epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochLine {
    /// From 1.
    pub epoch: u32,
    /// The mean loss of the epoch's batches, as they were trained.
    pub train_loss: f64,
    /// The loss on the held-out positions after the epoch.
    pub held_out_loss: f64,
    pub learning_rate: f64,
    pub seconds: f64,
}

/// A run's state after an epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointState {
    pub format: String,
    pub settings: NnueTrainConfig,
    pub data: DataSummary,
    /// Epochs finished.
    pub epoch: u32,
    /// Adam's updates so far.
    pub adam_step: u64,
    /// The held-out loss of the teacher's value alone.
    pub teacher_held_out_loss: f64,
    /// The held-out loss of the classical evaluation alone (0 in a
    /// checkpoint written before it was kept).
    #[serde(default)]
    pub classical_held_out_loss: f64,
    pub epochs: Vec<EpochLine>,
}

/// `training.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingReport {
    pub settings: NnueTrainConfig,
    pub data: DataSummary,
    pub teacher_held_out_loss: f64,
    /// The held-out loss of the classical evaluation alone.
    #[serde(default)]
    pub classical_held_out_loss: f64,
    pub epochs: Vec<EpochLine>,
    /// The epochs' seconds together (over every run in the directory).
    pub seconds: f64,
}

fn checkpoint_error(path: &Path, message: impl Into<String>) -> NnueTrainError {
    NnueTrainError::Checkpoint {
        path: path.to_owned(),
        message: message.into(),
    }
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn flat(tensor: &Tensor) -> Result<Vec<f32>, NnueTrainError> {
    Ok(Vec::<f32>::try_from(&tensor.detach().reshape([-1]))?)
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).expect("plain data serializes") + "\n"
}

/// Writes the checkpoint of `state` with its weights and moments, then its
/// JSON copy, into `dir`.
pub fn write_checkpoint(
    dir: &Path,
    state: &CheckpointState,
    model: &NnueModel,
    adam: &Adam,
) -> Result<(), NnueTrainError> {
    let shapes = shapes(state);
    let mut tensors: Vec<(String, Vec<u8>, Vec<usize>)> = Vec::new();
    for (k, values) in model.values()?.iter().enumerate() {
        tensors.push((
            PARAMETER_NAMES[k].to_owned(),
            bytes_of(values),
            shapes[k].clone(),
        ));
    }
    for (kind, moments) in [("first", &adam.first), ("second", &adam.second)] {
        for (k, moment) in moments.iter().enumerate() {
            tensors.push((
                format!("adam.{kind}.{}", PARAMETER_NAMES[k]),
                bytes_of(&flat(moment)?),
                shapes[k].clone(),
            ));
        }
    }
    let path = dir.join(CHECKPOINT_FILE);
    let views = tensors
        .iter()
        .map(|(name, bytes, shape)| {
            TensorView::new(Dtype::F32, shape.clone(), bytes)
                .map(|view| (name.as_str(), view))
                .map_err(|e| checkpoint_error(&path, format!("{name}: {e:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let metadata = HashMap::from([("state".to_owned(), json(state))]);
    let bytes = safetensors::tensor::serialize(views, &Some(metadata))
        .map_err(|e| checkpoint_error(&path, format!("{e:?}")))?;
    write_file(&path, &bytes)?;
    write_file(&dir.join(CHECKPOINT_JSON), json(state).as_bytes())?;
    Ok(())
}

/// Each parameter's shape, in the order of [`PARAMETER_NAMES`].
fn shapes(state: &CheckpointState) -> [Vec<usize>; 4] {
    let (inputs, hidden) = (state.data.inputs, state.settings.hidden);
    [
        vec![inputs, hidden],
        vec![hidden],
        vec![2 * hidden],
        vec![1],
    ]
}

/// The checkpoint in `dir`, if there is one: its state, net and
/// optimiser.
pub fn read_checkpoint(
    dir: &Path,
) -> Result<Option<(CheckpointState, NnueModel, Adam)>, NnueTrainError> {
    let path = dir.join(CHECKPOINT_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let io = |source| NnueTrainError::Io {
        path: path.clone(),
        source,
    };
    let size = std::fs::metadata(&path).map_err(io)?.len();
    if size > MAX_CHECKPOINT_BYTES {
        return Err(checkpoint_error(
            &path,
            format!("{size} bytes, more than a checkpoint may have ({MAX_CHECKPOINT_BYTES})"),
        ));
    }
    let bytes = std::fs::read(&path).map_err(io)?;
    let bad = |message: String| checkpoint_error(&path, message);
    let (_, metadata) =
        SafeTensors::read_metadata(&bytes).map_err(|e| bad(format!("not safetensors: {e:?}")))?;
    let text = metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get("state"))
        .ok_or_else(|| bad("no 'state' in the metadata".to_owned()))?;
    let state: CheckpointState =
        serde_json::from_str(text).map_err(|e| bad(format!("its state: {e}")))?;
    if state.format != STATE_FORMAT {
        return Err(bad(format!(
            "format '{}', not '{STATE_FORMAT}'",
            state.format
        )));
    }
    state
        .settings
        .validate()
        .map_err(|e| bad(format!("its settings: {e}")))?;
    if state.epochs.len() != state.epoch as usize {
        return Err(bad(format!(
            "{} epochs of losses for epoch {}",
            state.epochs.len(),
            state.epoch
        )));
    }
    let file = SafeTensors::deserialize(&bytes).map_err(|e| bad(format!("{e:?}")))?;
    let shapes = shapes(&state);
    let tensor = |name: &str, shape: &[usize]| read_f32_tensor(&file, name, shape).map_err(bad);
    let weights = (0..4)
        .map(|k| tensor(PARAMETER_NAMES[k], &shapes[k]))
        .collect::<Result<Vec<_>, _>>()?;
    let model = NnueModel::from_values(
        state.data.inputs,
        state.settings.hidden,
        [&weights[0], &weights[1], &weights[2], &weights[3]],
    )
    .on_base(state.settings.base);
    let moments = |kind: &str| -> Result<Vec<Tensor>, NnueTrainError> {
        (0..4)
            .map(|k| {
                let values = tensor(&format!("adam.{kind}.{}", PARAMETER_NAMES[k]), &shapes[k])?;
                let shape: Vec<i64> = shapes[k].iter().map(|&n| n as i64).collect();
                Ok(Tensor::from_slice(&values).reshape(shape))
            })
            .collect()
    };
    let adam = Adam {
        step: state.adam_step,
        first: moments("first")?,
        second: moments("second")?,
    };
    Ok(Some((state, model, adam)))
}

/// Refuses to continue `checkpoint` with `settings` on `data`, naming the
/// first difference (the epochs may grow, not shrink).
pub fn check_resume(
    path: &Path,
    checkpoint: &CheckpointState,
    settings: &NnueTrainConfig,
    data: &DataSummary,
) -> Result<(), NnueTrainError> {
    let differs = |field: &str, found: String, expected: String| NnueTrainError::Settings {
        path: path.to_owned(),
        field: field.to_owned(),
        found,
        expected,
    };
    if let Some((field, found, expected)) = checkpoint.settings.difference(settings) {
        return Err(differs(field, found, expected));
    }
    if checkpoint.epoch > settings.epochs {
        return Err(differs(
            "epochs",
            format!("{} (finished)", checkpoint.epoch),
            format!("{} (at least the epochs finished)", settings.epochs),
        ));
    }
    let fields = |d: &DataSummary| {
        [
            ("variant", d.variant.clone()),
            ("rules", format!("'{}'", d.rules)),
            (
                "feature set",
                format!("{} v{}", d.feature_set, d.feature_version),
            ),
            ("inputs", d.inputs.to_string()),
            ("training positions", d.train_positions.to_string()),
            ("held-out positions", d.held_out_positions.to_string()),
            ("positions' fingerprint", d.fingerprint.clone()),
        ]
    };
    if let Some(((field, found), (_, expected))) = fields(&checkpoint.data)
        .into_iter()
        .zip(fields(data))
        .find(|((_, a), (_, b))| a != b)
    {
        return Err(differs(&format!("data {field}"), found, expected));
    }
    Ok(())
}

/// Writes `training.json` into `dir`.
pub fn write_report(dir: &Path, report: &TrainingReport) -> Result<PathBuf, NnueTrainError> {
    let path = dir.join(TRAINING_FILE);
    write_file(&path, json(report).as_bytes())?;
    Ok(path)
}
