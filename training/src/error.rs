//! [`TrainError`]: everything a training run can fail on, each naming the
//! file, field or checkpoint concerned.

use std::path::PathBuf;

use heterodox_models::ModelError;

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A config that does not parse, has an unknown or ill-typed field, or
    /// a value out of range.
    #[error("config{}: {message}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
    Config {
        path: Option<PathBuf>,
        message: String,
    },
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A run directory that cannot be used as asked (not writable, already
    /// holding a run without `--resume`, no run to resume...).
    #[error("run directory {path}: {message}")]
    RunDir { path: PathBuf, message: String },
    /// A checkpoint that is missing, corrupted, or made for another
    /// variant, rule set or encoding version.
    #[error("checkpoint {path}: {message}")]
    Checkpoint { path: PathBuf, message: String },
    #[error("network: {0}")]
    Model(#[from] ModelError),
    #[error("self-play: {0}")]
    SelfPlay(#[from] heterodox_selfplay::SelfPlayError),
    #[error("training data: {0}")]
    Loader(#[from] heterodox_data::loader::LoaderError),
    #[error("game shard: {0}")]
    Shard(String),
    #[error("teacher: {0}")]
    Teacher(String),
    #[error("the network evaluator failed: {0}")]
    Evaluator(String),
    #[error("libtorch: {0}")]
    Torch(#[from] heterodox_models::tch::TchError),
    /// A loss that is not a finite number: the step is not applied.
    #[error("training diverged at step {step}: loss is {loss}")]
    Diverged { step: u64, loss: f64 },
    #[error("{0}")]
    Rules(String),
    /// An agent that cannot be made or cannot move.
    #[error("{0}")]
    Agent(#[from] heterodox_selfplay::agent::AgentError),
    /// A claim run that failed after some of its games were written to
    /// its journal: they are kept for `--resume`.
    #[error("{source}; {games} finished games are kept in {}: rerun with --resume to continue", journal.display())]
    Interrupted {
        source: Box<TrainError>,
        journal: PathBuf,
        games: usize,
    },
}

impl TrainError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> TrainError {
        let path = path.into();
        move |source| TrainError::Io { path, source }
    }
}

/// The atomic writer's errors (run files, PGN, reports).
impl From<heterodox_data::atomic::AtomicError> for TrainError {
    fn from(error: heterodox_data::atomic::AtomicError) -> TrainError {
        use heterodox_data::atomic::AtomicError;
        match error {
            AtomicError::Io { path, source } => TrainError::Io { path, source },
            AtomicError::Refused { path, reason } => TrainError::RunDir {
                path,
                message: reason,
            },
        }
    }
}
