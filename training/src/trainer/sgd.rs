//! The SGD steps: an iteration's, on its replay window (as many as the
//! reuse bound allows; the teacher's phase runs them too), and the single
//! step (one forward, backward and update) with the figures it logs.

use std::time::Instant;

use heterodox_data::loader::{Batch, Loader, LoaderConfig};
use heterodox_data::GameRecord;
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_models::tch::{self, Kind, Tensor};

use super::loss::{self, LossTerms, LossWeights, Targets};
use super::metrics::{self, StepLine, TrainingMetrics};
use super::{Event, Trainer, LOADER_STREAM};
use crate::error::TrainError;

impl<P: GameVariant> Trainer<P> {
    /// SGD steps on the replay window.
    pub(super) fn train_window(
        &mut self,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<Option<TrainingMetrics>, TrainError> {
        let steps = self.reuse_bounded_steps();
        if steps == 0 {
            return Ok(None);
        }
        let mut records: Vec<GameRecord> = self
            .window
            .iter()
            .flat_map(|(_, games)| games.iter().cloned())
            .collect();
        self.mix_teacher_games(&mut records);
        let loader_config = LoaderConfig::default()
            .with_history(self.config.history)
            .with_z_weight(self.config.training.z_weight)
            .with_material(heterodox_engine::material_of_any)
            .with_surprise_weight(self.config.training.surprise_weight)
            .with_seed(derive_seed(
                self.config.seed,
                self.iteration as usize,
                LOADER_STREAM,
            ));
        let mut loader = Loader::<P>::new(self.rules.clone(), records, &loader_config)?;
        self.sgd_steps(&mut loader, steps, 0.0, on_event)
    }

    /// This iteration's SGD steps: `steps_per_iteration`, or fewer under
    /// `training.max_sample_reuse` R, so that the rows drawn stay within R
    /// per training position of the newest self-play games.
    fn reuse_bounded_steps(&self) -> u32 {
        let t = &self.config.training;
        let newest = self.window.last().map_or(0, |(_, games)| {
            games
                .iter()
                .flat_map(|g| &g.steps)
                .filter(|s| !s.policy.is_empty())
                .count()
        });
        reuse_bounded(
            t.steps_per_iteration,
            t.max_sample_reuse,
            newest,
            t.batch_size,
        )
    }

    /// `steps` SGD steps (fewer when `minutes` > 0 runs out) on batches
    /// drawn from `loader`, each logged as a step line of the current
    /// iteration; the figures are means over the steps.
    pub(super) fn sgd_steps(
        &mut self,
        loader: &mut Loader<P>,
        steps: u32,
        minutes: f64,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<Option<TrainingMetrics>, TrainError> {
        let window_games = loader.num_games();
        let window_positions = loader.num_positions();
        let mut batch = loader.new_batch(self.config.training.batch_size);
        let mut sums = StepFigures::default();
        let clock = Instant::now();
        let mut done = 0;
        while done < steps {
            if minutes > 0.0 && clock.elapsed().as_secs_f64() >= 60.0 * minutes {
                break;
            }
            loader.fill_batch(&mut batch)?;
            let lr = self.optimizer.learning_rate(self.step);
            let figures = self.sgd_step(&batch, lr)?;
            self.step += 1;
            done += 1;
            sums.add(&figures);
            metrics::append(
                &self.run.metrics_path(),
                &StepLine {
                    kind: "step".to_owned(),
                    iteration: self.iteration,
                    step: self.step,
                    loss: figures.loss,
                    policy_loss: figures.policy_loss,
                    value_loss: figures.value_loss,
                    learning_rate: lr,
                },
            )?;
            on_event(Event::TrainingStep {
                iteration: self.iteration,
                done,
                total: steps,
                loss: figures.loss,
            });
        }
        if done == 0 {
            return Ok(None);
        }
        let seconds = clock.elapsed().as_secs_f64();
        let n = f64::from(done);
        Ok(Some(TrainingMetrics {
            steps: done,
            loss: sums.loss / n,
            policy_loss: sums.policy_loss / n,
            value_loss: sums.value_loss / n,
            moves_left_loss: sums.moves_left_loss / n,
            material_loss: sums.material_loss / n,
            value_accuracy: if sums.judged > 0.0 {
                sums.correct / sums.judged
            } else {
                0.0
            },
            policy_entropy: sums.entropy / n,
            learning_rate: self.optimizer.learning_rate(self.step.saturating_sub(1)),
            positions_per_second: n * batch.size as f64 / seconds.max(1e-9),
            window_games,
            window_positions,
        }))
    }

    /// One forward, backward and update on `batch`.
    fn sgd_step(&mut self, batch: &Batch, lr: f64) -> Result<StepFigures, TrainError> {
        let network = self.network.as_ref().expect("the network is home");
        let [c, h, w] = self.spec.observation_shape().map(|x| x as i64);
        let (b, a) = (batch.size as i64, batch.num_actions as i64);
        let device = self.device;
        let observations = Tensor::from_slice(&batch.observations)
            .view([b, c, h, w])
            .to_device(device);
        let legal = Tensor::from_slice(&batch.masks)
            .view([b, a])
            .to_device(device);
        let target_policy = Tensor::from_slice(&batch.policies)
            .view([b, a])
            .to_device(device);
        let target_value = Tensor::from_slice(&batch.values).to_device(device);
        let target_moves_left = Tensor::from_slice(&batch.moves_left).to_device(device);
        let target_material = Tensor::from_slice(&batch.material).to_device(device);
        let outputs = network.try_forward_all(&observations, true)?;
        let targets = Targets {
            legal: &legal,
            policy: &target_policy,
            value: &target_value,
            moves_left: &target_moves_left,
            material: &target_material,
        };
        let training = &self.config.training;
        let weights = LossWeights {
            value: training.value_loss_weight,
            moves_left: training.moves_left_loss_weight,
            material: training.material_loss_weight,
        };
        let LossTerms {
            total: loss,
            policy: policy_loss,
            value: value_loss,
            moves_left: moves_left_loss,
            material: material_loss,
            log_policy,
        } = loss::loss(&outputs, &targets, weights);
        let value = outputs.value;
        let loss_value = f64::try_from(&loss)?;
        if !loss_value.is_finite() {
            return Err(TrainError::Diverged {
                step: self.step,
                loss: loss_value,
            });
        }
        loss.backward();
        self.optimizer.step(network.var_store(), lr)?;
        tch::no_grad(|| -> Result<StepFigures, TrainError> {
            let probabilities = log_policy.exp();
            let entropy = -(&probabilities * &log_policy)
                .sum_dim_intlist(1, false, Kind::Float)
                .mean(Kind::Float);
            let judged = target_value.abs().ge(0.1);
            let agree = value
                .sign()
                .eq_tensor(&target_value.sign())
                .logical_and(&judged);
            Ok(StepFigures {
                loss: loss_value,
                policy_loss: f64::try_from(&policy_loss)?,
                value_loss: f64::try_from(&value_loss)?,
                moves_left_loss: moves_left_loss.map_or(Ok(0.0), |t| f64::try_from(&t))?,
                material_loss: material_loss.map_or(Ok(0.0), |t| f64::try_from(&t))?,
                entropy: f64::try_from(&entropy)?,
                correct: f64::try_from(&agree.sum(Kind::Float))?,
                judged: f64::try_from(&judged.sum(Kind::Float))?,
            })
        })
    }
}

/// Per-step figures, summed over an iteration.
#[derive(Clone, Debug, Default)]
struct StepFigures {
    loss: f64,
    policy_loss: f64,
    value_loss: f64,
    moves_left_loss: f64,
    material_loss: f64,
    entropy: f64,
    correct: f64,
    judged: f64,
}

impl StepFigures {
    fn add(&mut self, other: &StepFigures) {
        self.loss += other.loss;
        self.policy_loss += other.policy_loss;
        self.value_loss += other.value_loss;
        self.moves_left_loss += other.moves_left_loss;
        self.material_loss += other.material_loss;
        self.entropy += other.entropy;
        self.correct += other.correct;
        self.judged += other.judged;
    }
}

/// The SGD steps of an iteration whose self-play made `positions`
/// training positions: `steps`, capped under a reuse bound `reuse` > 0 at
/// `floor(reuse * positions / batch_size)` (rows drawn at most `reuse`
/// per new position).
pub fn reuse_bounded(steps: u32, reuse: f32, positions: usize, batch_size: usize) -> u32 {
    if reuse <= 0.0 {
        return steps;
    }
    let allowed = (f64::from(reuse) * positions as f64 / batch_size.max(1) as f64).floor();
    steps.min(allowed.min(f64::from(u32::MAX)) as u32)
}
