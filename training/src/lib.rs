//! AlphaZero training for Heterodox.
//!
//! - [`config`]: [`TrainConfig`], the run's settings in TOML (commented
//!   defaults per variant in `configs/`);
//! - [`trainer`]: [`train`], the loop (self-play -> replay window -> SGD
//!   -> evaluation -> checkpoint), new or resumed;
//! - [`optimizer`]: SGD with momentum whose state is saved with the
//!   checkpoint, and the learning-rate schedule;
//! - [`run`]: the run directory and its atomic checkpoints;
//! - [`evaluate`]: games against random play and the uniform search;
//! - [`rating`]: scores with confidence intervals and Elo; [`rating_list`]:
//!   one Elo per agent from all the pairings of an arena;
//! - [`metrics`]: `metrics.jsonl`, what the plots are drawn from;
//! - [`agent`]: agent strings (`random`, `uniform@400`, `net:DIR@200`);
//! - [`arena`]: gauntlets and round robins of paired games, with
//!   [`sprt`]: pentanomial statistics and the generalised SPRT;
//! - [`claims`]: strategy claims as measured hypotheses, with reports.

pub mod agent;
pub mod arena;
pub mod claims;
pub mod config;
pub mod error;
pub mod evaluate;
pub mod metrics;
pub mod optimizer;
pub mod rating;
pub mod rating_list;
pub mod run;
pub mod sprt;
pub mod trainer;

pub use config::TrainConfig;
pub use error::TrainError;
pub use rating::ScoreEstimate;
pub use run::{RunDir, TrainerState};
pub use trainer::{train, Event, TrainOptions, TrainSummary};
