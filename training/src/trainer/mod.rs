//! The AlphaZero loop: self-play with the current network, the replay
//! window, SGD, evaluation, checkpoints; and `--resume`.
//!
//! One iteration:
//! 1. self-play: `selfplay.games` games with the network guiding the
//!    search (leaves of all games batched into one forward pass), written
//!    as `RUN/games/iter-N.hdxshard` (+ PGN);
//! 2. training: `training.steps_per_iteration` SGD steps on batches drawn
//!    uniformly from the positions of the last `window_iterations`
//!    iterations' games (the shared loader re-encodes them, so the network
//!    trains on exactly what it sees at play);
//! 3. every `evaluation.every` iterations: the evaluation
//!    ([`crate::trainer::evaluate`]);
//! 4. lines in `RUN/metrics.jsonl` (one per SGD step, one for the
//!    iteration), and every `checkpoint.every`
//!    iterations a checkpoint ([`crate::trainer::run`]).
//!
//! The loss is [`loss::loss`] (defined once, shared with
//! `heterodox.learn`). Its targets are the loader's: `pi` the search's
//! improved policy (Gumbel) or visit distribution (PUCT), `z` the game
//! result mixed with the root value by `z_weight`.
//!
//! With a `[teacher]` section, a new run starts from the alpha-beta
//! engine ([`teacher`]): its labelled games are made (or read), the
//! network learns them for `teacher.steps` SGD steps (checkpoint 0), and
//! every replay window of the loop then mixes in `teacher.share` of
//! teacher positions.
//!
//! Everything runs in one process and one thread of control; self-play's
//! tree work and the loader's decoding use rayon, the forward and backward
//! passes libtorch's intra-op threads.

pub mod config;
pub mod evaluate;
pub mod loss;
pub mod metrics;
pub mod optimizer;
pub mod run;
mod teacher;

use std::path::{Path, PathBuf};
use std::time::Instant;

use heterodox_data::loader::{Batch, Loader, LoaderConfig};
use heterodox_data::pgn;
use heterodox_data::replay::replay;
use heterodox_data::shard::{read_shard_for, write_shard, ShardHeader};
use heterodox_data::{GameRecord, GameResult};
use heterodox_engine::{adjudicate, Engine, EngineConfig};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::derive_seed;
use heterodox_env::{GameVariant, Variant, VariantVisitor};
use heterodox_models::tch::{self, Device, Kind, Tensor};
use heterodox_models::{NetConfig, NetEvaluator, Network};
use heterodox_selfplay::SelfPlay;

use heterodox_data::atomic::write_file;

use crate::error::TrainError;
use config::TrainConfig;
use evaluate::{evaluate, Evaluation, Yardstick};
use loss::{LossTerms, LossWeights, Targets};
use metrics::{
    EvaluationLine, IterationLine, SelfPlayMetrics, StepLine, TeacherLine, Timing, TrainingMetrics,
};
use optimizer::Sgd;
use run::{RunDir, TrainerState, TRAINER_FORMAT};

/// Seed streams: iteration `i`'s process `s` is seeded by
/// `derive_seed(seed, i, s)`.
const INIT_STREAM: u64 = 0;
const SELFPLAY_STREAM: u64 = 1;
const LOADER_STREAM: u64 = 2;

/// How to run: where, and whether to continue an existing run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub run: PathBuf,
    /// Continue the run in `run` from its newest checkpoint, with the
    /// settings saved there (the given config is not used).
    pub resume: bool,
    pub device: Device,
}

/// What the trainer reports while it works (for a progress display).
#[derive(Debug)]
pub enum Event<'a> {
    /// The run starts at `iteration` (0 for a new run).
    Started {
        iteration: u32,
        resumed: bool,
        parameters: usize,
    },
    /// Teacher data being made: labelled positions so far.
    TeacherPositions {
        done: u64,
        total: u64,
    },
    /// The supervised phase on teacher data is over.
    Supervised(&'a TeacherLine),
    SelfPlayGame {
        iteration: u32,
        done: u32,
        total: u32,
    },
    TrainingStep {
        iteration: u32,
        done: u32,
        total: u32,
        loss: f64,
    },
    EvaluationGame {
        iteration: u32,
        done: u32,
        total: u32,
    },
    Evaluated(&'a EvaluationLine),
    IterationDone(&'a IterationLine),
    CheckpointSaved(&'a Path),
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    pub iterations: u32,
    pub step: u64,
    pub checkpoint: PathBuf,
    pub final_evaluation: Option<EvaluationLine>,
    pub run: PathBuf,
}

/// Trains (or resumes) a run of `config` in `options.run`.
pub fn train(
    config: TrainConfig,
    options: &TrainOptions,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<TrainSummary, TrainError> {
    let run = RunDir::new(&options.run);
    let config = if options.resume {
        if !run.holds_run() {
            return Err(TrainError::RunDir {
                path: options.run.clone(),
                message: format!(
                    "holds no run to resume (no {})",
                    crate::trainer::run::CONFIG_FILE
                ),
            });
        }
        TrainConfig::from_file(&run.config_path())?
    } else {
        config.validate()?;
        config
    };
    let variant: Variant = config.variant.parse().map_err(|e| TrainError::Config {
        path: None,
        message: format!("{e}"),
    })?;
    variant.visit(Visit {
        config,
        options,
        run,
        on_event,
    })
}

struct Visit<'a> {
    config: TrainConfig,
    options: &'a TrainOptions,
    run: RunDir,
    on_event: &'a mut dyn FnMut(Event<'_>),
}

impl VariantVisitor for Visit<'_> {
    type Output = Result<TrainSummary, TrainError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules =
            P::parse_rules(&self.config.rule_options()).map_err(|e| TrainError::Config {
                path: None,
                message: format!("options: {e}"),
            })?;
        let mut trainer = Trainer::<P>::open(self.config, rules, self.options, self.run)?;
        trainer.run(self.on_event)
    }
}

/// A run in progress.
struct Trainer<P: GameVariant> {
    config: TrainConfig,
    rules: P::Rules,
    spec: EncodingSpec,
    run: RunDir,
    device: Device,
    /// `None` only while it is lent to the self-play evaluator.
    network: Option<Network>,
    optimizer: Sgd,
    iteration: u32,
    step: u64,
    /// Seconds of earlier processes of the run.
    earlier_seconds: f64,
    /// Games of the replay window, by iteration, oldest first.
    window: Vec<(u32, Vec<GameRecord>)>,
    /// The teacher's games (empty without a teacher).
    teacher: Vec<GameRecord>,
    resumed: bool,
    last_checkpoint: Option<PathBuf>,
}

impl<P: GameVariant> Trainer<P> {
    /// Sets up a new run, or reads back the newest checkpoint of the run
    /// to resume.
    fn open(
        config: TrainConfig,
        rules: P::Rules,
        options: &TrainOptions,
        run: RunDir,
    ) -> Result<Trainer<P>, TrainError> {
        let probe = SelfPlay::<P>::new(rules.clone(), config.selfplay_config(0))?;
        let spec = probe.spec().clone();
        let net_config = NetConfig {
            blocks: config.network.blocks,
            channels: config.network.channels,
            value_hidden: config.network.value_hidden,
            auxiliary_heads: config.network.auxiliary_heads,
            ..NetConfig::for_spec(&spec)
        };
        let mut trainer = Trainer {
            optimizer: Sgd::new(config.optimizer.clone()),
            config,
            rules,
            spec,
            run,
            device: options.device,
            network: None,
            iteration: 0,
            step: 0,
            earlier_seconds: 0.0,
            window: Vec::new(),
            teacher: Vec::new(),
            resumed: options.resume,
            last_checkpoint: None,
        };
        if options.resume {
            trainer.run.prepare()?;
            trainer.run.remove_leftovers()?;
            trainer.resume(&net_config)?;
        } else {
            if trainer.run.holds_run() {
                return Err(TrainError::RunDir {
                    path: trainer.run.root().to_owned(),
                    message: format!(
                        "already holds a run ({}); continue it with --resume or choose another --run",
                        crate::trainer::run::CONFIG_FILE
                    ),
                });
            }
            trainer.run.prepare()?;
            tch::manual_seed(derive_seed(trainer.config.seed, 0, INIT_STREAM) as i64);
            trainer.network = Some(Network::for_spec(
                &trainer.spec,
                &net_config,
                trainer.device,
            )?);
            write_file(
                &trainer.run.config_path(),
                trainer.config.to_toml().as_bytes(),
            )?;
        }
        Ok(trainer)
    }

    /// Loads the newest checkpoint (if any), its replay window, and cuts
    /// the metrics and games written after it.
    fn resume(&mut self, net_config: &NetConfig) -> Result<(), TrainError> {
        let checkpoints = self.run.checkpoints()?;
        let Some(&newest) = checkpoints.last() else {
            // Killed before its first checkpoint: start again.
            tch::manual_seed(derive_seed(self.config.seed, 0, INIT_STREAM) as i64);
            self.network = Some(Network::for_spec(&self.spec, net_config, self.device)?);
            metrics::truncate_after(&self.run.metrics_path(), 0)?;
            return Ok(());
        };
        let dir = self.run.checkpoint_path(newest);
        let state = self.run.read_state(newest)?;
        let bad = |message: String| TrainError::Checkpoint {
            path: dir.clone(),
            message,
        };
        if state.variant != self.spec.variant || state.encoding_version != self.spec.version {
            return Err(bad(format!(
                "made for {} encoding version {}, this run is {} encoding version {}",
                state.variant, state.encoding_version, self.spec.variant, self.spec.version
            )));
        }
        let network =
            Network::load_for(&dir, &self.spec, self.device).map_err(|e| bad(e.to_string()))?;
        self.optimizer.load(
            &dir.join(crate::trainer::run::OPTIMIZER_FILE),
            network.var_store(),
        )?;
        self.network = Some(network);
        self.iteration = state.iteration;
        self.step = state.step;
        self.earlier_seconds = state.elapsed_seconds;
        self.last_checkpoint = Some(dir);
        metrics::truncate_after(&self.run.metrics_path(), state.iteration)?;
        let first = state
            .iteration
            .saturating_sub(self.config.training.window_iterations)
            + 1;
        for iteration in first..=state.iteration {
            let path = self.run.shard_path(iteration);
            let shard =
                read_shard_for(&path, &self.spec).map_err(|e| TrainError::Shard(e.to_string()))?;
            self.window.push((iteration, shard.games));
        }
        Ok(())
    }

    fn elapsed(&self, started: Instant) -> f64 {
        self.earlier_seconds + started.elapsed().as_secs_f64()
    }

    fn run(&mut self, on_event: &mut dyn FnMut(Event<'_>)) -> Result<TrainSummary, TrainError> {
        let started = Instant::now();
        on_event(Event::Started {
            iteration: self.iteration,
            resumed: self.resumed,
            parameters: self.network().parameter_count(),
        });
        // A run that ends before its first iteration has been evaluated
        // after the teacher, and is not evaluated twice.
        let mut final_evaluation = self.teacher_phase(started, on_event)?;
        let mut evaluated_at = final_evaluation.as_ref().map(|line| line.iteration);
        let limits = self.config.run.clone();
        loop {
            let minutes = started.elapsed().as_secs_f64() / 60.0;
            let out_of_iterations = limits.iterations > 0 && self.iteration >= limits.iterations;
            let out_of_time = limits.minutes > 0.0 && minutes >= limits.minutes;
            if out_of_iterations || out_of_time {
                break;
            }
            self.iteration += 1;
            let iteration = self.iteration;
            let mut seconds = Timing::default();

            let clock = Instant::now();
            let selfplay = self.self_play(on_event)?;
            seconds.selfplay = clock.elapsed().as_secs_f64();

            let clock = Instant::now();
            let training = self.train_window(on_event)?;
            seconds.training = clock.elapsed().as_secs_f64();

            let every = self.config.evaluation.every;
            if every > 0 && iteration % every == 0 && self.config.evaluation.games > 0 {
                let clock = Instant::now();
                let line = self.evaluate(started, on_event)?;
                seconds.evaluation = clock.elapsed().as_secs_f64();
                evaluated_at = Some(iteration);
                final_evaluation = Some(line);
            }

            let line = IterationLine {
                kind: "iteration".to_owned(),
                iteration,
                step: self.step,
                elapsed_seconds: self.elapsed(started),
                selfplay,
                training,
                seconds,
            };
            metrics::append(&self.run.metrics_path(), &line)?;
            on_event(Event::IterationDone(&line));

            let minutes = started.elapsed().as_secs_f64() / 60.0;
            let last = (limits.iterations > 0 && iteration >= limits.iterations)
                || (limits.minutes > 0.0 && minutes >= limits.minutes);
            if iteration % self.config.checkpoint.every == 0 || last {
                self.checkpoint(started, on_event)?;
            }
        }
        if self.config.evaluation.at_end
            && self.config.evaluation.games > 0
            && evaluated_at != Some(self.iteration)
        {
            final_evaluation = Some(self.evaluate(started, on_event)?);
        }
        if self.last_checkpoint.is_none() || self.iteration == 0 {
            self.checkpoint(started, on_event)?;
        }
        Ok(TrainSummary {
            iterations: self.iteration,
            step: self.step,
            checkpoint: self
                .last_checkpoint
                .clone()
                .expect("a checkpoint was written"),
            final_evaluation,
            run: self.run.root().to_owned(),
        })
    }

    fn network(&self) -> &Network {
        self.network.as_ref().expect("the network is home")
    }

    /// Lends the network to an evaluator for `f`, and takes it back.
    fn with_evaluator<T>(
        &mut self,
        f: impl FnOnce(&NetEvaluator) -> Result<T, TrainError>,
    ) -> Result<T, TrainError> {
        let network = self.network.take().expect("the network is home");
        let evaluator = NetEvaluator::new(network, &self.spec)?;
        let result = f(&evaluator);
        let failure = evaluator.last_error();
        self.network = Some(evaluator.into_network());
        let value = result?;
        // A failed forward pass is answered with uniform priors: games
        // searched that way are not the network's.
        if let Some(error) = failure {
            return Err(TrainError::Evaluator(error.to_string()));
        }
        Ok(value)
    }

    fn self_play(
        &mut self,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<SelfPlayMetrics, TrainError> {
        let iteration = self.iteration;
        let seed = derive_seed(self.config.seed, iteration as usize, SELFPLAY_STREAM);
        let selfplay = SelfPlay::<P>::new(self.rules.clone(), self.config.selfplay_config(seed))?;
        let total = self.config.selfplay.games;
        let mut records = Vec::with_capacity(total as usize);
        let stats = self.with_evaluator(|evaluator| {
            Ok(selfplay.run(evaluator, |record, stats| {
                records.push(record);
                on_event(Event::SelfPlayGame {
                    iteration,
                    done: stats.games,
                    total,
                });
            }))
        })?;
        // Completion order depends on game lengths only, but sort anyway:
        // the shard is then independent of scheduling.
        records.sort_by_key(|r| r.seed);
        let (adjudicated_wins, adjudicated_draws) = self.adjudicate(&mut records)?;
        let producer = format!(
            "heterodox train iteration {iteration} ({} simulations, {:?})",
            self.config.search.simulations, self.config.search.root_policy
        );
        let header = ShardHeader::new::<P>(&self.rules, producer);
        let shard = self.run.shard_path(iteration);
        write_shard(&shard, &header, &records).map_err(|e| TrainError::Shard(e.to_string()))?;
        let mut text = String::new();
        for (k, record) in records.iter().enumerate() {
            let game = pgn::record_to_pgn::<P>(record, &self.rules, "heterodox train", k)
                .map_err(|e| TrainError::Shard(e.to_string()))?;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&game);
        }
        write_file(&self.run.pgn_path(iteration), text.as_bytes())?;
        // The results as recorded, adjudications included.
        let count = |result| records.iter().filter(|r| r.result == result).count() as u32;
        let (white_wins, draws, black_wins, truncated) = (
            count(GameResult::WhiteWins),
            count(GameResult::Draw),
            count(GameResult::BlackWins),
            count(GameResult::Truncated),
        );
        self.window.push((iteration, records));
        let keep = self.config.training.window_iterations as usize;
        if self.window.len() > keep {
            let excess = self.window.len() - keep;
            self.window.drain(..excess);
        }
        Ok(SelfPlayMetrics {
            games: stats.games,
            positions: stats.positions,
            white_wins,
            draws,
            black_wins,
            truncated,
            adjudicated_wins,
            adjudicated_draws,
            resigned: stats.resigned,
            resign_checks: stats.resign_checks,
            false_resignations: stats.false_resignations,
            average_length: stats.average_length(),
            positions_per_second: stats.positions_per_second(),
            simulations_per_second: stats.simulations as f64 / stats.seconds.max(1e-9),
        })
    }

    /// Judges every game cut at the ply cap by the engine
    /// (`selfplay.adjudicate_cp`; nothing when it is 0), in place; returns
    /// how many it scored won and drawn. The engine forgets everything
    /// before each game's last position is searched, so the result depends
    /// on the game only.
    fn adjudicate(&self, records: &mut [GameRecord]) -> Result<(u32, u32), TrainError> {
        let section = &self.config.selfplay;
        if section.adjudicate_cp == 0 {
            return Ok((0, 0));
        }
        let mut tally = (0, 0);
        let mut engine = Engine::<P>::new(EngineConfig {
            hash_mib: 4,
            ..EngineConfig::default()
        })
        .map_err(|e| TrainError::Evaluator(e.to_string()))?;
        for (k, record) in records.iter_mut().enumerate() {
            if record.result != GameResult::Truncated {
                continue;
            }
            let game = replay::<P>(record, &self.rules, k, |_| {})
                .map_err(|e| TrainError::Shard(e.to_string()))?;
            engine.new_game();
            let judged = adjudicate(
                &mut engine,
                &game,
                section.adjudicate_depth,
                section.adjudicate_cp,
            )
            .map_err(|e| TrainError::Evaluator(e.to_string()))?;
            match judged.result {
                GameResult::Draw => tally.1 += 1,
                _ => tally.0 += 1,
            }
            record.result = judged.result;
            record.termination = judged.termination;
        }
        Ok(tally)
    }

    /// SGD steps on the replay window.
    fn train_window(
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
    fn sgd_steps(
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

    fn evaluate(
        &mut self,
        started: Instant,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<EvaluationLine, TrainError> {
        let iteration = self.iteration;
        let total = self.config.evaluation.opponents.len() as u32
            * self.config.evaluation.games.div_ceil(2)
            * 2;
        let mut done = 0;
        let rules = self.rules.clone();
        let config = self.config.clone();
        let evaluation: Evaluation = self.with_evaluator(|evaluator| {
            evaluate::<P>(&rules, &config, evaluator, || {
                done += 1;
                on_event(Event::EvaluationGame {
                    iteration,
                    done,
                    total,
                });
            })
        })?;
        self.write_evaluation_pgn(&evaluation)?;
        let engine = evaluation
            .scores
            .iter()
            .map(|s| s.opponent)
            .find(|o| matches!(o, Yardstick::Engine(_)));
        let line = EvaluationLine {
            kind: "evaluation".to_owned(),
            iteration,
            step: self.step,
            elapsed_seconds: self.elapsed(started),
            simulations: evaluation.simulations,
            average_length: evaluation.average_length(),
            vs_random: evaluation.against(Yardstick::Random),
            vs_uniform: evaluation.against(Yardstick::Uniform),
            vs_greedy: evaluation.against(Yardstick::Greedy),
            vs_engine: engine.and_then(|e| evaluation.against(e)),
            engine: engine.map(|e| e.to_string()),
            seconds: evaluation.seconds,
        };
        metrics::append(&self.run.metrics_path(), &line)?;
        on_event(Event::Evaluated(&line));
        Ok(line)
    }

    /// The evaluation games as PGN, the agent named in the tags.
    fn write_evaluation_pgn(&self, evaluation: &Evaluation) -> Result<(), TrainError> {
        let agent = format!("heterodox iteration {}", self.iteration);
        let mut text = String::new();
        for score in &evaluation.scores {
            let opponent = match score.opponent {
                Yardstick::Uniform => format!("uniform search {}", evaluation.simulations),
                other => other.to_string(),
            };
            let (games, opponent) = (&score.games, opponent.as_str());
            for game in games {
                let pgn = pgn::record_to_pgn::<P>(
                    &game.record,
                    &self.rules,
                    "heterodox train evaluation",
                    game.index as usize,
                )
                .map_err(|e| TrainError::Shard(e.to_string()))?;
                let (white, black) = if game.a_white {
                    (agent.as_str(), opponent)
                } else {
                    (opponent, agent.as_str())
                };
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&pgn::with_players(&pgn, white, black));
            }
        }
        Ok(write_file(
            &self.run.eval_pgn_path(self.iteration),
            text.as_bytes(),
        )?)
    }

    fn checkpoint(
        &mut self,
        started: Instant,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<(), TrainError> {
        let state = TrainerState {
            format: TRAINER_FORMAT,
            project_version: env!("CARGO_PKG_VERSION").to_owned(),
            variant: self.spec.variant.clone(),
            encoding_version: self.spec.version,
            iteration: self.iteration,
            step: self.step,
            elapsed_seconds: self.elapsed(started),
            seed: self.config.seed,
            config: self.config.clone(),
        };
        let path = self.run.save_checkpoint(
            self.network(),
            &self.optimizer,
            &state,
            self.config.checkpoint.keep,
        )?;
        on_event(Event::CheckpointSaved(&path));
        self.last_checkpoint = Some(path);
        Ok(())
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
