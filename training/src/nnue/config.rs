//! The settings of an NNUE training run, bounded before anything is
//! allocated.

use serde::{Deserialize, Serialize};

use heterodox_engine::nnue::network::MAX_HIDDEN;
use heterodox_engine::nnue::Base;

/// The most epochs a run may ask for.
pub const MAX_EPOCHS: u32 = 10_000;
/// The largest batch.
pub const MAX_BATCH: usize = 1 << 20;

/// Everything that decides the trained net (with the data), saved in the
/// checkpoint so that a resumed run goes on with the same settings. Only
/// `epochs` may grow between the runs of one directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NnueTrainConfig {
    /// Width of each accumulator (1 to 512, network.rs's `MAX_HIDDEN`).
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Adam's learning rate for the first `ceil(0.7 * epochs)` epochs; the
    /// rest run at `lr * 0.3` ([`super::train::learning_rate`]).
    pub lr: f64,
    /// Weight of the game result in the target (the rest is the teacher's
    /// value): 0 learns the engine's score alone, 1 the results alone.
    pub result_weight: f64,
    /// Read at most this many positions of the teacher directory (in
    /// shard order; `None`: all).
    pub max_positions: Option<usize>,
    /// Seeds the initial weights and every epoch's shuffle.
    pub seed: u64,
    /// What the net's output is added to: nothing (the net is the
    /// evaluation) or the tuned classical evaluation, so that the net
    /// learns only what the hand-written terms miss and starts from their
    /// strength rather than from nothing (the file's `base`).
    pub base: Base,
}

impl Default for NnueTrainConfig {
    fn default() -> NnueTrainConfig {
        NnueTrainConfig {
            hidden: 128,
            epochs: 10,
            batch: 4096,
            lr: 1e-3,
            result_weight: 0.25,
            max_positions: None,
            seed: 0,
            base: Base::None,
        }
    }
}

/// A setting out of its range, named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NnueConfigError {
    #[error("nnue setting {field} = {value} is out of range ({expected})")]
    OutOfRange {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
}

impl NnueTrainConfig {
    /// Refuses a setting out of its range, naming the first one.
    pub fn validate(&self) -> Result<(), NnueConfigError> {
        fn bad(
            field: &'static str,
            value: impl ToString,
            expected: &'static str,
        ) -> NnueConfigError {
            NnueConfigError::OutOfRange {
                field,
                value: value.to_string(),
                expected,
            }
        }
        if !(1..=MAX_HIDDEN).contains(&self.hidden) {
            return Err(bad("hidden", self.hidden, "1 to 512"));
        }
        if !(1..=MAX_EPOCHS).contains(&self.epochs) {
            return Err(bad("epochs", self.epochs, "1 to 10000"));
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return Err(bad("batch", self.batch, "1 to 2^20"));
        }
        if !(self.lr.is_finite() && self.lr > 0.0 && self.lr <= 1.0) {
            return Err(bad("lr", self.lr, "a number above 0, at most 1"));
        }
        if !(0.0..=1.0).contains(&self.result_weight) {
            return Err(bad("result_weight", self.result_weight, "0 to 1"));
        }
        if self.max_positions == Some(0) {
            return Err(bad("max_positions", 0, "at least 1, or none for all"));
        }
        Ok(())
    }

    /// The first setting, other than `epochs`, in which `self` differs
    /// from `other`: its name and both values (`self`'s first).
    pub fn difference(&self, other: &NnueTrainConfig) -> Option<(&'static str, String, String)> {
        let fields = |c: &NnueTrainConfig| {
            [
                ("hidden", c.hidden.to_string()),
                ("batch", c.batch.to_string()),
                ("lr", c.lr.to_string()),
                ("result_weight", c.result_weight.to_string()),
                (
                    "max_positions",
                    c.max_positions.map_or("all".to_owned(), |n| n.to_string()),
                ),
                ("seed", c.seed.to_string()),
                ("base", c.base.name().to_owned()),
            ]
        };
        fields(self)
            .into_iter()
            .zip(fields(other))
            .find(|((_, a), (_, b))| a != b)
            .map(|((name, a), (_, b))| (name, a, b))
    }
}
