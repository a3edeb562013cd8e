//! Training the engine's learned evaluation (NNUE) from teacher data:
//! `heterodox nnue train`.
//!
//! The net is network.rs's (`heterodox_engine::nnue::network`): one
//! feature transformer applied to the side to act's and the opponent's
//! active features, a clipped ReLU, one linear output `y`, `400 y`
//! centipawns. It learns the expected result `p = sigmoid(2 y)` (which is
//! `(1 + tanh(cp / 400)) / 2`, the scale of the teacher's value) against
//!
//! ```text
//! t = (1 - result_weight) (value + 1) / 2 + result_weight (result + 1) / 2
//! ```
//!
//! by mean squared error, with Adam ([`adam`]) in shuffled batches. The
//! positions come from `heterodox_engine::nnue::read_teach_data`; every
//! game whose index is a multiple of 20 is held out ([`batch`]). Files:
//!
//! * [`model`]: the net in tch (`embedding_bag` sums) and its limits;
//! * [`batch`]: the split, the targets, the batches;
//! * [`adam`]: the optimiser, whose state a checkpoint keeps;
//! * [`checkpoint`]: the run directory's files and resuming;
//! * [`train`]: the loop, its learning-rate schedule and its events, and
//!   the net files: the step-0 weights (`initial.safetensors`) and the
//!   trained net (`nnue.safetensors`).
//!
//! python/heterodox/nnue.py is the same recipe in PyTorch (the same
//! initialisation scheme, limits, target, loss, Adam, schedule and
//! held-out games); python/tests/test_nnue.py trains both from the same
//! step-0 weights and compares them.

pub mod adam;
pub mod batch;
pub mod checkpoint;
pub mod config;
pub mod model;
pub mod train;

use std::path::PathBuf;

use heterodox_engine::nnue::NnueError;

pub use batch::{is_held_out, Batch, HELD_OUT_EVERY};
pub use checkpoint::{
    CheckpointState, DataSummary, EpochLine, TrainingReport, CHECKPOINT_FILE, CHECKPOINT_JSON,
    TRAINING_FILE,
};
pub use config::{NnueConfigError, NnueTrainConfig};
pub use model::NnueModel;
pub use train::{
    learning_rate, train_nnue, train_nnue_dir, NnueEvent, NnueSummary, INITIAL_FILE, NET_FILE,
};

/// Why a net could not be trained.
#[derive(Debug, thiserror::Error)]
pub enum NnueTrainError {
    #[error(transparent)]
    Config(#[from] NnueConfigError),
    /// Teacher data that cannot be read, or a net that cannot be written.
    #[error(transparent)]
    Nnue(#[from] NnueError),
    /// Data too small to split, or not what its variant's feature set is.
    #[error("training data: {0}")]
    Data(String),
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A checkpoint that cannot be read.
    #[error("checkpoint {path}: {message}")]
    Checkpoint { path: PathBuf, message: String },
    /// A checkpoint made with other settings or other data than the run
    /// that would continue it.
    #[error(
        "checkpoint {path} was made with {field} {found}, not {expected}: \
         give the same settings to continue it, or another output directory"
    )]
    Settings {
        path: PathBuf,
        field: String,
        found: String,
        expected: String,
    },
    /// A loss that is not a finite number.
    #[error("training diverged in epoch {epoch}, batch {batch}: loss {loss}")]
    Diverged { epoch: u32, batch: usize, loss: f64 },
    #[error("libtorch: {0}")]
    Torch(#[from] heterodox_models::tch::TchError),
}

impl From<heterodox_data::atomic::AtomicError> for NnueTrainError {
    fn from(error: heterodox_data::atomic::AtomicError) -> NnueTrainError {
        use heterodox_data::atomic::AtomicError;
        match error {
            AtomicError::Io { path, source } => NnueTrainError::Io { path, source },
            AtomicError::Refused { path, reason } => NnueTrainError::Io {
                source: std::io::Error::other(reason),
                path,
            },
        }
    }
}
