//! The one error type of this crate.
//!
//! Every fallible operation (reading a config, loading weights, running a
//! forward pass on caller-supplied input) returns [`ModelError`] instead of
//! panicking. Training and self-play run for hours; a bad checkpoint or a
//! mismatched encoder must be reported and handled by the caller (skip the
//! checkpoint, fall back to a fresh network), not abort the process.

use std::path::PathBuf;

/// Everything that can go wrong when building, saving, loading or running a
/// network.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A file or directory could not be read or written.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A configuration file is not valid JSON for a [`crate::NetConfig`]
    /// (syntax error, wrong type, negative number, unknown field, ...).
    #[error("cannot parse network config {path}: {source}")]
    ConfigParse {
        /// The file that failed to parse.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },

    /// A configuration parsed but describes a network that cannot be built
    /// (zero blocks, zero channels, a sizes product that overflows, ...).
    #[error("invalid network config: {0}")]
    InvalidConfig(String),

    /// A weights file exists but is not a readable safetensors file
    /// (truncated, corrupted, wrong format).
    #[error("cannot read weights {path}: {source}")]
    Weights {
        /// The weights file.
        path: PathBuf,
        /// The underlying error reported by tch / safetensors.
        #[source]
        source: tch::TchError,
    },

    /// A weights file lacks a tensor that the network needs.
    #[error("weights file {path} has no tensor named {name:?}")]
    MissingTensor {
        /// The weights file.
        path: PathBuf,
        /// The variable name, e.g. `tower.0.conv1.weight`.
        name: String,
    },

    /// A weights file has a tensor the network does not know: it was saved
    /// from a different architecture.
    #[error("weights file {path} has unexpected tensor {name:?}")]
    UnexpectedTensor {
        /// The weights file.
        path: PathBuf,
        /// The unknown tensor name.
        name: String,
    },

    /// A tensor in a weights file has the right name but the wrong shape,
    /// e.g. weights saved for 64 channels loaded into a 128-channel network.
    #[error("tensor {name:?}: expected shape {expected:?}, found {found:?}")]
    ShapeMismatch {
        /// The variable name.
        name: String,
        /// The shape the network has.
        expected: Vec<i64>,
        /// The shape found in the file.
        found: Vec<i64>,
    },

    /// The input given to a forward pass does not have shape
    /// `[N, input_channels, board_height, board_width]` with `N >= 1`.
    #[error("input shape: expected [N, {channels}, {height}, {width}], found {found:?}")]
    InputShape {
        /// Expected input channels.
        channels: i64,
        /// Expected board height.
        height: i64,
        /// Expected board width.
        width: i64,
        /// The shape that was passed.
        found: Vec<i64>,
    },

    /// A checkpoint was made for another encoding (variant, rule settings,
    /// encoding version or history length) than the one expected; the
    /// message names both, with their versions, and the first difference.
    #[error(transparent)]
    EncodingMismatch(#[from] heterodox_env::encoding::EncodingMismatch),

    /// A checkpoint has no `spec.json`, so nothing says which encoding its
    /// network reads: it cannot be checked against an expected one.
    #[error("checkpoint {path} records no encoding spec (no {file})", file = crate::SPEC_FILE)]
    MissingSpec {
        /// The checkpoint directory.
        path: PathBuf,
    },

    /// A `spec.json` is not valid JSON for an encoding spec.
    #[error("cannot parse encoding spec {path}: {source}")]
    SpecParse {
        /// The file that failed to parse.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },

    /// A network config whose input or policy shape is not the one an
    /// encoding spec needs (a `--config` file for another variant, a
    /// hand-edited checkpoint).
    #[error("network config does not fit the encoding {spec}: {field} is {config}, the encoding needs {needed}")]
    ConfigSpecMismatch {
        /// The spec's one-line summary.
        spec: String,
        /// The first config field that differs.
        field: &'static str,
        /// Its value in the config.
        config: usize,
        /// The value the spec needs.
        needed: usize,
    },

    /// Saving would replace a directory that is not a checkpoint (it holds
    /// other files, or is not a directory): refused, so that a mistyped
    /// path never deletes anything but a checkpoint.
    #[error("refusing to replace {path}: {reason}")]
    ReplaceRefused {
        /// The directory that was to be replaced.
        path: PathBuf,
        /// What is there that a checkpoint does not hold.
        reason: String,
    },

    /// Any other error reported by libtorch.
    #[error(transparent)]
    Torch(#[from] tch::TchError),
}

/// Shorthand for results of this crate.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;

/// The atomic writer's errors (models/src/checkpoint.rs saves through it).
impl From<heterodox_data::atomic::AtomicError> for ModelError {
    fn from(error: heterodox_data::atomic::AtomicError) -> ModelError {
        use heterodox_data::atomic::AtomicError;
        match error {
            AtomicError::Io { path, source } => ModelError::Io { path, source },
            AtomicError::Refused { path, reason } => ModelError::ReplaceRefused { path, reason },
        }
    }
}
