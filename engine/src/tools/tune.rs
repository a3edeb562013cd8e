//! Texel tuning: the evaluation's numbers moved, one at a time, to
//! predict the results of engine games better.
//!
//! Peter Österlund's method (the "Texel" engine, 2014), as engines such as
//! Ethereal and Weiss use it: every quiet position `q` of a set of games is
//! labelled with its game's result `r` for the side to act (1, ½ or 0), and
//! the evaluation's numbers `w` are chosen to minimise
//!
//! ```text
//! E(w) = mean over q of (r - p(K * eval(q, w)))^2,
//! p(x) = 1 / (1 + 10^(-x / 400)) = sigmoid(x ln 10 / 400)
//! ```
//!
//! with [`sigmoid`] the logistic every model of an expected result shares.
//!
//! `K` is fitted first, with the starting numbers (a golden-section search),
//! and held. Then each number is moved by `+step`, else `-step`, and a move
//! is kept when the objective falls; passes repeat until one changes
//! nothing, then the step shrinks (the default steps are 16, 4, 1
//! centipawns or per cent).
//!
//! The objective is `E(w)` plus a weak **prior** toward the numbers set by
//! hand: `prior * mean over i of ((w_i - h_i) / max(|h_i|, 8))^2`. A few
//! thousand games decide the numbers the games often exercise and leave
//! others (endgame halves in a variant whose endgames are rare, a term
//! that seldom applies) free to drift on noise; the prior holds those near
//! their reasoned values unless the data asks clearly. Each number is
//! measured relative to its own size, so a pawn's value and a mobility
//! weight of 4 are held alike.
//!
//! * **Positions**: the steps of games in shards (`heterodox teach`
//!   writes them; self-play shards serve too) that carry a policy target
//!   (the teacher's opening moves carry none and are left out), whose side
//!   to act is not in check and whose recorded move is quiet by the
//!   variant's quiescence: the static evaluation of such a position is
//!   what the search trusts. Games without a result (cut at the ply cap)
//!   are left out.
//! * **Validation**: the positions of every `validation_every`-th game are
//!   kept apart; their error is reported before and after, so an overfit
//!   shows (the moves are chosen on the others only).
//! * **Determinism**: the error is summed over fixed chunks in order, so
//!   the same shards and settings give the same numbers on any number of
//!   threads.
//!
//! Only a variant whose evaluation exposes its numbers
//! (`Knowledge::Weights`) can be tuned; the others are refused by name.

use std::any::Any;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use heterodox_data::replay::{replay, ReplayError};
use heterodox_data::shard::{read_shard_for, ShardError};
use heterodox_data::GameResult;
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Color, GameVariant};

use crate::eval::weights::ParameterVector;
use crate::eval::{self, visit_knowledge, Knowledge, KnowledgeVisitor};
use crate::search::score::sigmoid;

/// Positions summed sequentially by one task of the error's sum.
const CHUNK: usize = 4096;
/// The most positions a tuning run holds in memory.
pub const MAX_POSITIONS: usize = 4_000_000;

/// How a tuning run moves the numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneConfig {
    /// Step sizes, largest first; each runs passes until one changes
    /// nothing.
    pub steps: Vec<i32>,
    /// The most passes at one step.
    pub max_passes: u32,
    /// Every this-many-th game (by order in the shards) is held out for
    /// validation; 0 holds none out.
    pub validation_every: usize,
    /// Weight of the prior toward the hand-set numbers (0: none).
    pub prior: f64,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            steps: vec![16, 4, 1],
            max_passes: 20,
            validation_every: 5,
            prior: 0.002,
        }
    }
}

/// Why a tuning run cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("{variant}'s evaluation has no tunable numbers (tunable: chess, poison, hostage)")]
    NotTunable { variant: String },
    #[error("tuning setting {field} = {value} is out of range ({expected})")]
    OutOfRange {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("no data: name at least one shard")]
    NoShards,
    #[error("the shards hold no quiet labelled position of a finished game")]
    NoPositions,
    #[error("the shards hold more than {MAX_POSITIONS} positions; name fewer")]
    TooManyPositions,
    #[error(transparent)]
    Shard(#[from] ShardError),
    #[error("{path}: {error}")]
    Replay { path: PathBuf, error: ReplayError },
    #[error("start position: {0}")]
    Start(#[from] heterodox_env::FenError),
}

impl TuneConfig {
    /// Refuses values out of range, naming the field.
    pub fn validate(&self) -> Result<(), TuneError> {
        let bad = |field, value: String, expected| TuneError::OutOfRange {
            field,
            value,
            expected,
        };
        if self.steps.is_empty() || self.steps.iter().any(|s| !(1..=1000).contains(s)) {
            return Err(bad(
                "steps",
                format!("{:?}", self.steps),
                "one or more steps from 1 to 1000",
            ));
        }
        if self.max_passes == 0 || self.max_passes > 1000 {
            return Err(bad("max_passes", self.max_passes.to_string(), "1 to 1000"));
        }
        if !(self.prior.is_finite() && (0.0..=1000.0).contains(&self.prior)) {
            return Err(bad("prior", self.prior.to_string(), "0 to 1000"));
        }
        if self.validation_every == 1 {
            return Err(bad(
                "validation_every",
                "1".to_owned(),
                "0 (none held out) or at least 2",
            ));
        }
        Ok(())
    }
}

/// Mean squared errors of the training and the held-out positions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Errors {
    pub train: f64,
    /// `None` when no game was held out.
    pub validation: Option<f64>,
}

/// What one pass did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pass {
    pub step: i32,
    /// Pass number at this step, from 1.
    pub pass: u32,
    /// Numbers moved in this pass.
    pub changed: usize,
    pub errors: Errors,
}

/// The result of a tuning run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneReport {
    pub variant: String,
    pub config: TuneConfig,
    pub games: usize,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// The fitted scale of the sigmoid (per centipawn, times 400).
    pub k: f64,
    /// One name per number.
    pub names: Vec<String>,
    /// The hand-set numbers the run started from.
    pub start: Vec<i32>,
    pub tuned: Vec<i32>,
    pub start_errors: Errors,
    pub tuned_errors: Errors,
    pub passes: Vec<Pass>,
    pub seconds: f64,
}

/// A quiet position and its game's result for the side to act.
struct Sample<P> {
    position: P,
    result: f64,
}

/// Tunes `P`'s evaluation on the games of `shards` (played under
/// `rules`), from its hand-set numbers. `on_pass` is called after each
/// pass.
pub fn tune<P: GameVariant>(
    rules: &P::Rules,
    shards: &[PathBuf],
    config: &TuneConfig,
    on_pass: &dyn Fn(&Pass),
) -> Result<TuneReport, TuneError> {
    config.validate()?;
    if shards.is_empty() {
        return Err(TuneError::NoShards);
    }
    let not_tunable = || TuneError::NotTunable {
        variant: P::VARIANT.to_string(),
    };
    if visit_knowledge::<P, _>(Names).is_none_or(|names| names.is_empty()) {
        return Err(not_tunable());
    }
    let started = Instant::now();
    let (train, validation, games) = load::<P>(rules, shards, config.validation_every)?;
    if train.is_empty() {
        return Err(TuneError::NoPositions);
    }
    let run = Run {
        config,
        train: &train,
        validation: &validation,
        on_pass,
    };
    let mut report = visit_knowledge::<P, _>(run).ok_or_else(not_tunable)??;
    report.games = games;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

type Split<P> = (Vec<Sample<P>>, Vec<Sample<P>>, usize);

/// The quiet labelled positions of every finished game, split into
/// training and validation by game.
fn load<P: GameVariant>(
    rules: &P::Rules,
    shards: &[PathBuf],
    validation_every: usize,
) -> Result<Split<P>, TuneError> {
    let spec = EncodingSpec::of(&P::start(rules, 0)?, 1);
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in shards {
        let shard = read_shard_for(path, &spec)?;
        for (g, record) in shard.games.iter().enumerate() {
            let white = match record.result {
                GameResult::WhiteWins => 1.0,
                GameResult::BlackWins => 0.0,
                GameResult::Draw => 0.5,
                GameResult::Truncated => continue,
            };
            let held_out = validation_every > 0 && games % validation_every == 0;
            games += 1;
            let out = if held_out {
                &mut validation
            } else {
                &mut train
            };
            let mut too_many = false;
            replay::<P>(record, rules, g, |step| {
                let labelled = !record.steps[step.step].policy.is_empty();
                let position = step.game.position();
                if !labelled
                    || eval::in_check(position)
                    || eval::noisy(position, &step.action).is_some()
                {
                    return;
                }
                if out.len() >= MAX_POSITIONS {
                    too_many = true;
                    return;
                }
                let result = if position.turn() == Color::White {
                    white
                } else {
                    1.0 - white
                };
                out.push(Sample {
                    position: position.clone(),
                    result,
                });
            })
            .map_err(|error| TuneError::Replay {
                path: path.clone(),
                error,
            })?;
            if too_many {
                return Err(TuneError::TooManyPositions);
            }
        }
    }
    Ok((train, validation, games))
}

/// The names of a variant's tunable numbers.
struct Names;

impl KnowledgeVisitor for Names {
    type Output = Vec<String>;

    fn visit<K: Knowledge>(self) -> Vec<String> {
        K::HAND.names()
    }
}

/// The tuning itself, once the variant's knowledge is known.
struct Run<'a, P> {
    config: &'a TuneConfig,
    train: &'a Vec<Sample<P>>,
    validation: &'a Vec<Sample<P>>,
    on_pass: &'a dyn Fn(&Pass),
}

impl<P: GameVariant> KnowledgeVisitor for Run<'_, P> {
    type Output = Result<TuneReport, TuneError>;

    fn visit<K: Knowledge>(self) -> Self::Output {
        // `K` is `P`'s knowledge: the samples are of its position type.
        let (train, validation) = (as_k::<P, K>(self.train), as_k::<P, K>(self.validation));
        let start = K::HAND;
        let names = start.names();
        let k = fit_k::<K>(train, &start);
        let errors = |weights: &K::Weights| Errors {
            train: error::<K>(train, weights, k),
            validation: (!validation.is_empty()).then(|| error::<K>(validation, weights, k)),
        };
        let start_errors = errors(&start);
        let mut vector = start.to_vector();
        let prior = Prior::new(&vector, self.config.prior);
        let objective = |v: &[i32]| error::<K>(train, &start.with_vector(v), k) + prior.penalty(v);
        let mut best = objective(&vector);
        let mut passes = Vec::new();
        for &step in &self.config.steps {
            for pass in 1..=self.config.max_passes {
                let mut changed = 0;
                for i in 0..vector.len() {
                    for delta in [step, -step] {
                        vector[i] += delta;
                        let e = objective(&vector);
                        if e < best {
                            best = e;
                            changed += 1;
                            break;
                        }
                        vector[i] -= delta;
                    }
                }
                let record = Pass {
                    step,
                    pass,
                    changed,
                    errors: errors(&start.with_vector(&vector)),
                };
                (self.on_pass)(&record);
                passes.push(record);
                if changed == 0 {
                    break;
                }
            }
        }
        let tuned = start.with_vector(&vector);
        Ok(TuneReport {
            variant: P::VARIANT.to_string(),
            config: self.config.clone(),
            games: 0,
            train_positions: train.len(),
            validation_positions: validation.len(),
            k,
            names,
            start: start.to_vector(),
            tuned: tuned.to_vector(),
            start_errors,
            tuned_errors: errors(&tuned),
            passes,
            seconds: 0.0,
        })
    }
}

/// The prior toward the starting numbers (module docs).
struct Prior {
    start: Vec<i32>,
    /// Each number's scale: its own size, at least [`PRIOR_SCALE_FLOOR`].
    scales: Vec<f64>,
    weight: f64,
}

/// The smallest scale of a number in the prior: a weight of 1 or 2 may
/// move by a few without a large penalty.
const PRIOR_SCALE_FLOOR: i32 = 8;

impl Prior {
    fn new(start: &[i32], weight: f64) -> Prior {
        Prior {
            start: start.to_vec(),
            scales: start
                .iter()
                .map(|h| f64::from(h.abs().max(PRIOR_SCALE_FLOOR)))
                .collect(),
            weight,
        }
    }

    fn penalty(&self, vector: &[i32]) -> f64 {
        if self.weight == 0.0 {
            return 0.0;
        }
        let sum: f64 = vector
            .iter()
            .zip(&self.start)
            .zip(&self.scales)
            .map(|((w, h), s)| (f64::from(w - h) / s).powi(2))
            .sum();
        self.weight * sum / vector.len() as f64
    }
}

/// `P`'s samples as samples of `K`'s position type, which is `P` (a
/// `Vec`, not a slice: only a sized type can be downcast).
#[allow(clippy::ptr_arg)]
fn as_k<P: GameVariant, K: Knowledge>(samples: &Vec<Sample<P>>) -> &Vec<Sample<K::Pos>> {
    (samples as &dyn Any)
        .downcast_ref()
        .expect("the knowledge visited is the variant's")
}

/// The expected result of an evaluation of `cp` centipawns at scale `k`:
/// the logistic in base ten, `1 / (1 + 10^(-k cp / 400))`, which is
/// [`sigmoid`] of `k cp ln 10 / 400`.
fn predicted(k: f64, cp: f64) -> f64 {
    sigmoid(k * cp * std::f64::consts::LN_10 / 400.0)
}

/// Mean squared error of the predictions of `weights` at scale `k`,
/// summed in fixed chunks (the same sum on any number of threads).
fn error<K: Knowledge>(samples: &[Sample<K::Pos>], weights: &K::Weights, k: f64) -> f64 {
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let predicted = predicted(k, f64::from(K::evaluate(&s.position, weights)));
                    (s.result - predicted).powi(2)
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The `k` of least error for `weights`: a golden-section search over
/// 0.05 to 5 (the error is unimodal in `k`).
fn fit_k<K: Knowledge>(samples: &[Sample<K::Pos>], weights: &K::Weights) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.05, 5.0);
    for _ in 0..48 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error::<K>(samples, weights, a) < error::<K>(samples, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    // Rounded so that the report (and a rerun from it) is exact.
    ((low + high) / 2.0 * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_is_the_logistic_in_base_ten() {
        assert_eq!(predicted(1.0, 0.0), 0.5);
        assert!((predicted(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((predicted(2.0, -200.0) - 1.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn bad_settings_name_the_field() {
        let config = |steps: Vec<i32>, max_passes, validation_every| TuneConfig {
            steps,
            max_passes,
            validation_every,
            prior: 0.0,
        };
        let message = |c: TuneConfig| c.validate().unwrap_err().to_string();
        assert_eq!(
            message(config(vec![], 5, 5)),
            "tuning setting steps = [] is out of range (one or more steps from 1 to 1000)"
        );
        assert_eq!(
            message(config(vec![4, 0], 5, 5)),
            "tuning setting steps = [4, 0] is out of range (one or more steps from 1 to 1000)"
        );
        assert_eq!(
            message(config(vec![4], 0, 5)),
            "tuning setting max_passes = 0 is out of range (1 to 1000)"
        );
        assert_eq!(
            message(config(vec![4], 5, 1)),
            "tuning setting validation_every = 1 is out of range (0 (none held out) or at least 2)"
        );
        assert_eq!(
            message(TuneConfig {
                prior: -1.0,
                ..TuneConfig::default()
            }),
            "tuning setting prior = -1 is out of range (0 to 1000)"
        );
        assert!(TuneConfig::default().validate().is_ok());
    }

    #[test]
    fn the_prior_charges_each_number_by_its_own_size() {
        let prior = Prior::new(&[100, 4, -20], 0.5);
        assert_eq!(prior.penalty(&[100, 4, -20]), 0.0);
        // 10% of a pawn, a mobility weight moved by the floor's 8, and a
        // term moved by its own size: 0.5 * (0.01 + 1 + 1) / 3.
        let expected = 0.5 * (0.01 + 1.0 + 1.0) / 3.0;
        assert!((prior.penalty(&[110, 12, 0]) - expected).abs() < 1e-12);
        assert_eq!(Prior::new(&[100], 0.0).penalty(&[900]), 0.0);
    }
}
