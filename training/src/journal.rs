//! A run's journal (a claim's, an arena's): every game written as it
//! finishes, for `--resume` and the parts of a split run
//! ([`heterodox_selfplay::journal`], shared with Python's `heterodox.play`).

pub use heterodox_selfplay::journal::{journal_dir, DuelLog, Journal, JournalError};

use crate::error::TrainError;

impl From<JournalError> for TrainError {
    fn from(error: JournalError) -> TrainError {
        match error {
            JournalError::RunDir { path, message } => TrainError::RunDir { path, message },
            JournalError::Io { path, source } => TrainError::Io { path, source },
        }
    }
}
