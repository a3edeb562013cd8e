//! Training, measuring and testing for Heterodox, in three rooms that only
//! look downwards (claims -> arena -> nothing of the trainer; the trainer's
//! evaluation uses the arena's scores):
//!
//! - [`trainer`]: the AlphaZero loop ([`train`]: self-play -> replay
//!   window -> SGD -> evaluation -> checkpoint, new or resumed), its TOML
//!   [`TrainConfig`] (`trainer::config`), the loss, the optimizer, the run
//!   directory with its atomic checkpoints (`trainer::run`), the metrics
//!   file and the evaluation games;
//! - [`arena`]: agent strings (`random`, `uniform@400`, `net:DIR@200`),
//!   gauntlets and round robins of paired games, scores with confidence
//!   intervals and Elo (`arena::rating`), the rating list of many agents
//!   (`arena::rating_list`), pentanomial statistics and the generalised
//!   SPRT (`arena::sprt`);
//! - [`claims`]: strategy claims as measured hypotheses, with reports.
//!
//! Beside them, [`nnue`] trains the engine's learned evaluation from
//! teacher data (`heterodox nnue train`).

pub mod arena;
pub mod claims;
pub mod error;
pub mod journal;
pub mod nnue;
pub mod trainer;

pub use arena::rating::ScoreEstimate;
pub use error::TrainError;
pub use trainer::config::TrainConfig;
pub use trainer::run::{RunDir, TrainerState};
pub use trainer::{train, Event, TrainOptions, TrainSummary};
