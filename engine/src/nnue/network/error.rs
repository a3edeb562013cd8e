//! Why a net cannot be read, written or used: one error for the header,
//! the file and the quantization, since a caller loading a net meets all
//! three.

use std::path::PathBuf;

/// Why a net cannot be read, written or used.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("not a heterodox-nnue net: {0}")]
    Format(String),
    #[error("the net is for {field} {found}, not {expected}")]
    Mismatch {
        field: &'static str,
        found: String,
        expected: String,
    },
    #[error("{0} has no learned evaluation (no feature set)")]
    NoFeatureSet(&'static str),
    #[error("the net's {name} has a weight {value} beyond the quantized range (|w| <= {limit})")]
    Range {
        name: &'static str,
        value: f32,
        limit: f32,
    },
}
