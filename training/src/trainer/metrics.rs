//! `RUN/metrics.jsonl`: one JSON object per line, appended as the run
//! goes, read by `heterodox.plot` (and by anyone with `pandas.read_json(...,
//! lines=True)`).
//!
//! Four kinds of line, told apart by `"kind"`: `"step"` (the losses and
//! learning rate of one SGD step), `"iteration"` (self-play, training and
//! timing figures of one iteration, training figures averaged over its
//! steps), `"teacher"` (the teacher data and the supervised phase, as
//! iteration 0) and `"evaluation"` (scores against the fixed opponents
//! after an iteration). Each line is
//! flushed to disk as it is written. A process killed mid-line leaves a
//! line that does not parse: readers skip it, and `--resume` rewrites the
//! file without it and without the lines of iterations after the
//! checkpoint it resumes from.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;

/// Self-play figures of one iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfPlayMetrics {
    pub games: u32,
    pub positions: u64,
    pub white_wins: u32,
    pub draws: u32,
    pub black_wins: u32,
    /// Games cut at the ply cap (and not adjudicated).
    pub truncated: u32,
    /// Games cut at the ply cap that the engine judged won.
    #[serde(default)]
    pub adjudicated_wins: u32,
    /// Games cut at the ply cap that the engine judged drawn.
    #[serde(default)]
    pub adjudicated_draws: u32,
    /// Games a side resigned.
    #[serde(default)]
    pub resigned: u32,
    /// No-resign games in which a side reached the resignation rule, and
    /// of those the games it did not lose (false resignations).
    #[serde(default)]
    pub resign_checks: u32,
    #[serde(default)]
    pub false_resignations: u32,
    pub average_length: f64,
    pub positions_per_second: f64,
    pub simulations_per_second: f64,
}

/// Training figures of one iteration (means over its steps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingMetrics {
    pub steps: u32,
    /// Policy + weighted value loss (the L2 term is in the optimizer).
    pub loss: f64,
    /// Cross-entropy of the network's masked policy against the search's.
    pub policy_loss: f64,
    /// Mean squared error of the value.
    pub value_loss: f64,
    /// Mean squared errors of the auxiliary heads (0 without them).
    #[serde(default)]
    pub moves_left_loss: f64,
    #[serde(default)]
    pub material_loss: f64,
    /// Share of positions with |target| >= 0.1 whose predicted value has
    /// the target's sign.
    pub value_accuracy: f64,
    /// Entropy of the network's policy over the legal actions (nats).
    pub policy_entropy: f64,
    pub learning_rate: f64,
    /// Training positions (rows) per second of SGD.
    pub positions_per_second: f64,
    /// Games and positions in the replay window.
    pub window_games: usize,
    pub window_positions: usize,
}

/// Where an iteration's time went, in seconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub selfplay: f64,
    pub training: f64,
    pub evaluation: f64,
}

/// One line of kind `"step"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepLine {
    pub kind: String,
    pub iteration: u32,
    /// The step's number in the run, from 1.
    pub step: u64,
    pub loss: f64,
    pub policy_loss: f64,
    pub value_loss: f64,
    pub learning_rate: f64,
}

/// One line of kind `"iteration"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationLine {
    pub kind: String,
    pub iteration: u32,
    /// SGD steps so far.
    pub step: u64,
    /// Seconds of the run so far (all processes).
    pub elapsed_seconds: f64,
    pub selfplay: SelfPlayMetrics,
    pub training: Option<TrainingMetrics>,
    pub seconds: Timing,
}

/// One line of kind `"teacher"` (iteration 0): the teacher data and the
/// supervised phase on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeacherLine {
    pub kind: String,
    pub iteration: u32,
    pub step: u64,
    pub elapsed_seconds: f64,
    /// Labelled positions and games of the teacher data.
    pub positions: u64,
    pub games: u64,
    /// Of which made by this run, and how fast (labelled positions/s).
    pub new_positions: u64,
    pub labelled_per_second: f64,
    /// The supervised phase (`None` when it took no step).
    pub training: Option<TrainingMetrics>,
    /// Seconds making the data, and training on it.
    pub teach_seconds: f64,
    pub training_seconds: f64,
}

/// One line of kind `"evaluation"`: the agent (the network with the
/// search at `simulations` per move) against each opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvaluationLine {
    pub kind: String,
    pub iteration: u32,
    pub step: u64,
    pub elapsed_seconds: f64,
    pub simulations: u32,
    /// Against each yardstick of `evaluation.opponents`; absent when it
    /// was not played (greedy and the engine are absent from runs made
    /// before they were opponents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_random: Option<ScoreEstimate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_uniform: Option<ScoreEstimate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_greedy: Option<ScoreEstimate>,
    /// Against the engine `engine` names (`ab@1/classical`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_engine: Option<ScoreEstimate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Average length of the evaluation games.
    pub average_length: f64,
    pub seconds: f64,
}

/// Appends `line` as one JSON line and flushes it to disk.
pub fn append(path: &Path, line: &impl Serialize) -> Result<(), TrainError> {
    let mut text = serde_json::to_string(line).expect("metrics serialize");
    text.push('\n');
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(TrainError::io(path))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(TrainError::io(path))
}

/// Keeps the lines of iterations up to `iteration` (and drops any line
/// that does not parse), rewriting the file atomically. Used on resume.
pub fn truncate_after(path: &Path, iteration: u32) -> Result<(), TrainError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(TrainError::io(path)(e)),
    };
    let mut kept = String::new();
    for line in text.lines() {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(i) = value.get("iteration").and_then(serde_json::Value::as_u64) else {
            continue;
        };
        if i <= u64::from(iteration) {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    Ok(heterodox_data::atomic::write_file(path, kept.as_bytes())?)
}

/// The evaluation lines of a metrics file, in order (unparsable lines
/// skipped).
pub fn read_evaluations(path: &Path) -> Result<Vec<EvaluationLine>, TrainError> {
    let text = fs::read_to_string(path).map_err(TrainError::io(path))?;
    Ok(text
        .lines()
        .filter_map(|line| serde_json::from_str::<EvaluationLine>(line).ok())
        .filter(|line| line.kind == "evaluation")
        .collect())
}
