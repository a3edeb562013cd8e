//! How a checkpoint's JSON files (`config.json`, `spec.json`) are written:
//! one way for both, pretty-printed and ending in a newline, so that they
//! read and diff well as text.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{ModelError, Result};

/// Writes `value` to `path` as pretty-printed JSON and a final newline. A
/// value JSON cannot hold is `format_error(path, error)`, the error kind of
/// the file being written; a failed write is [`ModelError::Io`].
pub(crate) fn write_pretty(
    value: &impl Serialize,
    path: &Path,
    format_error: fn(PathBuf, serde_json::Error) -> ModelError,
) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|source| format_error(path.to_owned(), source))?;
    text.push('\n');
    std::fs::write(path, text).map_err(|source| ModelError::Io {
        path: path.to_owned(),
        source,
    })
}
