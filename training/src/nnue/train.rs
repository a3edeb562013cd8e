//! The training loop: epochs of shuffled batches, the held-out loss after
//! each, a checkpoint after each, and the final net.
//!
//! Learning rate: `lr` for the first `ceil(0.7 * epochs)` epochs, `0.3 lr`
//! for the rest ([`learning_rate`]); a run continued with more epochs
//! follows the schedule of its new count from where it stands.
//!
//! Reproducibility: the initial weights are drawn in Rust from the seed
//! (`derive_seed(seed, 0, 0)`), epoch `e`'s order of the training
//! positions from `derive_seed(seed, e, 1)`; nothing else is random. With
//! the same settings, data and libtorch thread count a run writes the
//! same net (the same tensor bytes; the file's JSON header lists its
//! metadata in the engine writer's `HashMap` order, which varies), and a
//! run stopped after an epoch and continued writes the net it would have
//! written without stopping (the checkpoint keeps Adam's moments), as
//! long as the schedule is the same (the same `epochs`).
//!
//! A run that starts in a directory without a checkpoint first writes its
//! step-0 weights as a net file, `OUT/initial.safetensors`
//! ([`INITIAL_FILE`]). With a batch of at least the training positions
//! every epoch is one Adam step on all of them (the shuffle only reorders
//! a sum), so another trainer started from that file takes the same steps:
//! python/tests/test_nnue.py checks PyTorch's (python/heterodox/nnue.py)
//! against this loop that way, loss by loss and weight by weight.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use heterodox_engine::nnue::{
    feature_set, read_teach_data, FloatNetwork, Network, NetworkHeader, NnueData, NnueError,
};
use heterodox_env::rng::derive_seed;
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};
use heterodox_models::tch::{self, Kind, Tensor};

use super::adam::Adam;
use super::batch::{classical_loss, fingerprint, split, teacher_loss, Batch, HELD_OUT_EVERY};
use super::checkpoint::{
    check_resume, read_checkpoint, write_checkpoint, write_report, CheckpointState, DataSummary,
    EpochLine, TrainingReport, CHECKPOINT_FILE, STATE_FORMAT,
};
use super::config::NnueTrainConfig;
use super::model::NnueModel;
use super::NnueTrainError;

/// The trained net in the output directory.
pub const NET_FILE: &str = "nnue.safetensors";
/// The net before the first epoch (the step-0 weights drawn from the
/// seed), written once when a run starts in a directory without a
/// checkpoint.
pub const INITIAL_FILE: &str = "initial.safetensors";
/// The learning rate after the first 70% of the epochs, as a fraction.
pub const LATE_LR_FACTOR: f64 = 0.3;
/// Seed streams (`derive_seed(seed, epoch, stream)`).
const INIT_STREAM: u64 = 0;
const SHUFFLE_STREAM: u64 = 1;
/// Positions per forward pass when measuring a loss.
const EVAL_CHUNK: usize = 1 << 14;

/// What a run reports while it works.
#[derive(Debug)]
pub enum NnueEvent<'a> {
    /// Before the first epoch of this run.
    Started {
        train_positions: usize,
        held_out_positions: usize,
        /// The held-out loss of the teacher's value alone.
        teacher_loss: f64,
        /// The held-out loss of the tuned classical evaluation alone.
        classical_loss: f64,
        parameters: usize,
        /// Epochs a checkpoint had finished (0 for a new run).
        resumed_after: u32,
        epochs: u32,
        batches_per_epoch: usize,
    },
    /// A batch trained (`batch` from 1 to `batches`).
    Batch {
        epoch: u32,
        batch: usize,
        batches: usize,
        loss: f64,
    },
    /// An epoch finished, its checkpoint written.
    Epoch(&'a EpochLine),
}

/// What a finished run made.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueSummary {
    /// `OUT/nnue.safetensors`.
    pub net: PathBuf,
    pub train_positions: usize,
    pub held_out_positions: usize,
    /// Every epoch's losses, those of earlier runs in the directory too.
    pub epochs: Vec<EpochLine>,
    /// The held-out loss of the teacher's value alone.
    pub teacher_held_out_loss: f64,
    /// Epochs a checkpoint had finished when this run started.
    pub resumed_after: u32,
    /// This run's seconds.
    pub seconds: f64,
}

impl NnueSummary {
    /// The held-out loss after the last epoch.
    pub fn held_out_loss(&self) -> f64 {
        self.epochs.last().map_or(f64::NAN, |e| e.held_out_loss)
    }
}

/// The learning rate of `epoch` (from 1): `lr` for the first
/// `ceil(0.7 * epochs)`, then `0.3 lr`.
pub fn learning_rate(config: &NnueTrainConfig, epoch: u32) -> f64 {
    let full = (7 * config.epochs).div_ceil(10);
    if epoch <= full {
        config.lr
    } else {
        config.lr * LATE_LR_FACTOR
    }
}

/// Reads the teacher directory `teach_dir` (at most
/// `config.max_positions` positions) and trains on it ([`train_nnue`]).
pub fn train_nnue_dir(
    teach_dir: &Path,
    config: &NnueTrainConfig,
    out: &Path,
    on_event: &mut dyn FnMut(NnueEvent<'_>),
) -> Result<NnueSummary, NnueTrainError> {
    config.validate()?;
    let data = read_teach_data(teach_dir, config.max_positions)?;
    train_nnue(&data, config, out, on_event)
}

/// Trains a net on `data` (its first `config.max_positions` positions)
/// into the directory `out`, continuing the checkpoint there if it has
/// one with the same settings (the epochs may grow).
pub fn train_nnue(
    data: &NnueData,
    config: &NnueTrainConfig,
    out: &Path,
    on_event: &mut dyn FnMut(NnueEvent<'_>),
) -> Result<NnueSummary, NnueTrainError> {
    config.validate()?;
    let started = Instant::now();
    let header = NetworkHeader {
        base: config.base,
        ..data.variant.visit(HeaderFor {
            data,
            hidden: config.hidden,
        })?
    };
    let limit = config.max_positions.unwrap_or(usize::MAX);
    let (mut train, mut held_out) = split(data);
    train.retain(|&i| i < limit);
    held_out.retain(|&i| i < limit);
    if train.is_empty() {
        return Err(NnueTrainError::Data(format!(
            "{} positions, all of held-out games (every game whose index is a multiple of \
             {HELD_OUT_EVERY}, from game 0): at least two games are needed",
            held_out.len()
        )));
    }
    let summary = DataSummary {
        variant: header.variant.clone(),
        rules: header.rules.clone(),
        feature_set: header.feature_set.clone(),
        feature_version: header.feature_version,
        inputs: header.inputs,
        train_positions: train.len(),
        held_out_positions: held_out.len(),
        fingerprint: fingerprint(data, limit),
    };
    std::fs::create_dir_all(out).map_err(|source| NnueTrainError::Io {
        path: out.to_owned(),
        source,
    })?;
    let (mut state, model, mut adam) = match read_checkpoint(out)? {
        Some((state, model, adam)) => {
            check_resume(&out.join(CHECKPOINT_FILE), &state, config, &summary)?;
            (state, model, adam)
        }
        None => {
            // Nothing of libtorch's generator is drawn today; seeded all
            // the same, so that nothing drawn later is unseeded.
            tch::manual_seed(config.seed as i64);
            let model = NnueModel::new(
                header.inputs,
                config.hidden,
                config.base,
                derive_seed(config.seed, 0, INIT_STREAM),
            );
            let adam = Adam::new(&model.parameters());
            let state = CheckpointState {
                format: STATE_FORMAT.to_owned(),
                settings: config.clone(),
                data: summary.clone(),
                epoch: 0,
                adam_step: 0,
                teacher_held_out_loss: teacher_loss(data, &held_out, config.result_weight),
                classical_held_out_loss: classical_loss(data, &held_out, config.result_weight),
                epochs: Vec::new(),
            };
            // The step-0 weights, as a net file: what the first epoch
            // starts from, for a check or another trainer to start there
            // too (python/heterodox/nnue.py reads it with `load`).
            let initial = model.to_network(NetworkHeader {
                producer: format!(
                    "heterodox nnue train: the initial weights of hidden {}, base {}, seed {}",
                    config.hidden,
                    config.base.name(),
                    config.seed
                ),
                ..header.clone()
            })?;
            data.variant.visit(SaveNet {
                net: &initial,
                path: &out.join(INITIAL_FILE),
            })?;
            (state, model, adam)
        }
    };
    state.settings = config.clone();
    let resumed_after = state.epoch;
    let batches = train.len().div_ceil(config.batch);
    on_event(NnueEvent::Started {
        train_positions: train.len(),
        held_out_positions: held_out.len(),
        teacher_loss: state.teacher_held_out_loss,
        classical_loss: state.classical_held_out_loss,
        parameters: model.parameter_count(),
        resumed_after,
        epochs: config.epochs,
        batches_per_epoch: batches,
    });
    let report = |state: &CheckpointState| TrainingReport {
        settings: state.settings.clone(),
        data: state.data.clone(),
        teacher_held_out_loss: state.teacher_held_out_loss,
        classical_held_out_loss: state.classical_held_out_loss,
        epochs: state.epochs.clone(),
        seconds: state.epochs.iter().map(|e| e.seconds).sum(),
    };
    for epoch in resumed_after + 1..=config.epochs {
        let epoch_started = Instant::now();
        let lr = learning_rate(config, epoch);
        let mut order = train.clone();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(derive_seed(
            config.seed,
            epoch as usize,
            SHUFFLE_STREAM,
        )));
        let mut squared_errors = 0.0;
        for (k, positions) in order.chunks(config.batch).enumerate() {
            let batch = Batch::of(data, positions, config.result_weight);
            let loss = loss(&model, &batch);
            let value = loss.double_value(&[]);
            if !value.is_finite() {
                return Err(NnueTrainError::Diverged {
                    epoch,
                    batch: k + 1,
                    loss: value,
                });
            }
            loss.backward();
            adam.update(&model.parameters(), lr);
            model.clamp_to_limits();
            squared_errors += value * positions.len() as f64;
            on_event(NnueEvent::Batch {
                epoch,
                batch: k + 1,
                batches,
                loss: value,
            });
        }
        let line = EpochLine {
            epoch,
            train_loss: squared_errors / train.len() as f64,
            held_out_loss: mean_loss(&model, data, &held_out, config.result_weight),
            learning_rate: lr,
            seconds: epoch_started.elapsed().as_secs_f64(),
        };
        state.epoch = epoch;
        state.adam_step = adam.step;
        state.epochs.push(line);
        write_checkpoint(out, &state, &model, &adam)?;
        write_report(out, &report(&state))?;
        on_event(NnueEvent::Epoch(
            state.epochs.last().expect("an epoch was pushed"),
        ));
    }
    let held_out_loss = state.epochs.last().map_or(f64::NAN, |e| e.held_out_loss);
    let c = config;
    let producer = format!(
        "heterodox nnue train: hidden {}, base {}, epochs {}, batch {}, lr {}, result_weight {}, \
         max_positions {}, seed {}; {} positions ({} training, {} held out by game); \
         held-out loss {held_out_loss:.6} (the teacher's value {:.6})",
        c.hidden,
        c.base.name(),
        c.epochs,
        c.batch,
        c.lr,
        c.result_weight,
        c.max_positions.map_or("all".to_owned(), |n| n.to_string()),
        c.seed,
        train.len() + held_out.len(),
        train.len(),
        held_out.len(),
        state.teacher_held_out_loss,
    );
    let net = model.to_network(NetworkHeader { producer, ..header })?;
    let path = out.join(NET_FILE);
    data.variant.visit(SaveNet {
        net: &net,
        path: &path,
    })?;
    write_report(out, &report(&state))?;
    Ok(NnueSummary {
        net: path,
        train_positions: train.len(),
        held_out_positions: held_out.len(),
        epochs: state.epochs,
        teacher_held_out_loss: state.teacher_held_out_loss,
        resumed_after,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The mean squared error of `sigmoid(2 y)` against the batch's targets.
fn loss(model: &NnueModel, batch: &Batch) -> Tensor {
    let predicted = (model.forward(batch) * 2.0).sigmoid();
    (predicted - &batch.targets).square().mean(Kind::Float)
}

/// The loss over `positions` (0 for none), in chunks, without gradients.
pub fn mean_loss(
    model: &NnueModel,
    data: &NnueData,
    positions: &[usize],
    result_weight: f64,
) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sum: f64 = tch::no_grad(|| {
        positions
            .chunks(EVAL_CHUNK)
            .map(|chunk| {
                let batch = Batch::of(data, chunk, result_weight);
                loss(model, &batch).double_value(&[]) * chunk.len() as f64
            })
            .sum()
    });
    sum / positions.len() as f64
}

fn parse_rules<P: GameVariant>(rules: &str) -> Result<P::Rules, NnueTrainError> {
    let bad = |e: heterodox_env::OptionError| {
        NnueTrainError::Data(format!("the rules '{rules}' of the data: {e}"))
    };
    P::parse_rules(&RuleOptions::parse(rules).map_err(bad)?).map_err(bad)
}

/// The header of the data's net (with an empty producer), checking that
/// the data is what its variant's feature set makes.
struct HeaderFor<'a> {
    data: &'a NnueData,
    hidden: usize,
}

impl VariantVisitor for HeaderFor<'_> {
    type Output = Result<NetworkHeader, NnueTrainError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = parse_rules::<P>(&self.data.rules)?;
        let features = feature_set::<P>().ok_or(NnueError::NoFeatureSet(P::VARIANT.name()))?;
        if features != self.data.feature_set || self.data.encoding_version != P::ENCODING_VERSION {
            return Err(NnueTrainError::Data(format!(
                "made with feature set {} v{} and encoding version {}, this build has {} v{} \
                 and {}: read the teacher directory again",
                self.data.feature_set.name,
                self.data.feature_set.version,
                self.data.encoding_version,
                features.name,
                features.version,
                P::ENCODING_VERSION
            )));
        }
        Ok(NetworkHeader::for_variant::<P>(
            &rules,
            features,
            self.hidden,
            "",
        ))
    }
}

/// Writes the net file and reads it back as the engine will, for the
/// variant and rules it names.
struct SaveNet<'a> {
    net: &'a FloatNetwork,
    path: &'a Path,
}

impl VariantVisitor for SaveNet<'_> {
    type Output = Result<(), NnueTrainError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = parse_rules::<P>(&self.net.header.rules)?;
        self.net.save(self.path)?;
        Network::load_for::<P>(self.path, &rules)?;
        Ok(())
    }
}
