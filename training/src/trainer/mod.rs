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
//!
//! This file holds the run's state ([`Trainer`]) and its loop; each step
//! of the loop is a file of its own, an `impl Trainer` block: opening or
//! resuming a run (open.rs), self-play and adjudication (self_play.rs),
//! the SGD steps (sgd.rs), the evaluation step (evaluate.rs, beside the
//! games it plays), checkpoints (checkpoint.rs) and the teacher
//! (teacher.rs).

pub mod config;
pub mod evaluate;
pub mod loss;
pub mod metrics;
pub mod optimizer;
pub mod run;
// The trainer's work, one `impl Trainer` per concept (each a child of this
// module, which holds the state and the loop that calls them).
mod checkpoint;
mod open;
mod self_play;
mod sgd;
mod teacher;

use std::path::{Path, PathBuf};
use std::time::Instant;

use heterodox_data::GameRecord;
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{GameVariant, Variant, VariantVisitor};
use heterodox_models::tch::Device;
use heterodox_models::{NetEvaluator, Network};

use crate::error::TrainError;
use config::TrainConfig;
use metrics::{EvaluationLine, IterationLine, TeacherLine, Timing};
use optimizer::Sgd;
use run::RunDir;
pub use sgd::reuse_bounded;

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
}
