//! `heterodox nnue` (served by `heterodox-net`): the engine's learned
//! evaluation. `train` fits a net to a teacher directory
//! ([`heterodox_training::nnue`]):
//!
//! ```text
//! heterodox teach --variant hostage --engine ab@2 --positions 100000 --out runs/teach-h
//! heterodox nnue train --data runs/teach-h --out runs/nnue-h
//! ```
//!
//! Run again into the same `--out` with the same settings (a larger
//! `--epochs` allowed), it continues after the last finished epoch.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use heterodox_engine::nnue::{read_teach_data, Base};
use heterodox_training::nnue::{train_nnue, NnueEvent, NnueTrainConfig};

use crate::progress::Progress;

#[derive(Args, Debug)]
pub struct NnueArgs {
    #[command(subcommand)]
    command: NnueCommand,
}

#[derive(Subcommand, Debug)]
enum NnueCommand {
    /// Trains a net on a teacher directory (`heterodox teach`); writes
    /// OUT/nnue.safetensors, a checkpoint after every epoch and
    /// OUT/training.json.
    Train(TrainArgs),
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// The teacher directory (`heterodox teach --out`).
    #[arg(long, value_name = "TEACHDIR")]
    data: PathBuf,
    /// The output directory; one holding a checkpoint of the same
    /// settings is continued.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Width of each accumulator (1 to 512).
    #[arg(long, default_value_t = NnueTrainConfig::default().hidden)]
    hidden: usize,
    /// Passes over the training positions (a continued run may raise it).
    #[arg(long, default_value_t = NnueTrainConfig::default().epochs)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = NnueTrainConfig::default().batch)]
    batch: usize,
    /// Adam's learning rate (0.3 times it after 70% of the epochs).
    #[arg(long, default_value_t = NnueTrainConfig::default().lr)]
    lr: f64,
    /// Weight of the game result in the target, 0 to 1 (the rest is the
    /// engine's value).
    #[arg(long, default_value_t = NnueTrainConfig::default().result_weight)]
    result_weight: f64,
    /// Read at most this many positions (in shard order).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Seeds the initial weights and the shuffles.
    #[arg(long, default_value_t = NnueTrainConfig::default().seed)]
    seed: u64,
    /// What the net's output is added to: `none` (the net is the
    /// evaluation) or `classical` (the tuned hand-written evaluation; the
    /// net learns what it misses and starts equal to it).
    #[arg(long, default_value = "none")]
    base: Base,
    /// No progress bar; still one line per epoch.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &NnueArgs) -> Result<(), String> {
    match &args.command {
        NnueCommand::Train(args) => train(args),
    }
}

fn train(args: &TrainArgs) -> Result<(), String> {
    let started = Instant::now();
    let config = NnueTrainConfig {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        result_weight: args.result_weight,
        max_positions: args.max_positions,
        seed: args.seed,
        base: args.base,
    };
    config.validate().map_err(|e| e.to_string())?;
    let reading = Progress::spinner(args.quiet);
    reading.set_message(format!("reading {}", args.data.display()));
    let data = read_teach_data(&args.data, config.max_positions).map_err(|e| e.to_string())?;
    reading.finish();
    let mut display = Display {
        quiet: args.quiet,
        epochs: config.epochs,
        heading: format!("{} ({})", data.variant, data.feature_set.name),
        bar: None,
        done: 0,
    };
    let summary = train_nnue(&data, &config, &args.out, &mut |event| display.show(event))
        .map_err(|e| e.to_string())?;
    if let Some(bar) = &display.bar {
        bar.finish();
    }
    crate::common::print_stdout(&format!(
        "trained {} positions ({} training, {} held out) for {} epochs: held-out loss {:.6} \
         (the teacher's value {:.6}) in {:.1}s; net {}\n",
        summary.train_positions + summary.held_out_positions,
        summary.train_positions,
        summary.held_out_positions,
        summary.epochs.len(),
        summary.held_out_loss(),
        summary.teacher_held_out_loss,
        started.elapsed().as_secs_f64(),
        summary.net.display()
    ));
    Ok(())
}

/// The progress display: a bar over this run's batches, a line when the
/// run starts and one per epoch.
struct Display {
    quiet: bool,
    epochs: u32,
    /// The variant and feature set.
    heading: String,
    /// Made when the run knows how many batches it has left.
    bar: Option<Progress>,
    /// Batches trained in this run.
    done: u64,
}

impl Display {
    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn show(&mut self, event: NnueEvent<'_>) {
        match event {
            NnueEvent::Started {
                train_positions,
                held_out_positions,
                teacher_loss,
                classical_loss,
                parameters,
                resumed_after,
                epochs,
                batches_per_epoch,
            } => {
                let left = u64::from(epochs - resumed_after) * batches_per_epoch as u64;
                self.bar = Some(Progress::counter(self.quiet, left, "batches"));
                let start = if resumed_after > 0 {
                    format!("resuming after epoch {resumed_after} of {epochs}")
                } else {
                    format!("{epochs} epochs")
                };
                self.line(&format!(
                    "{}: {train_positions} training positions, {held_out_positions} held out; \
                     a net of {parameters} parameters, {start}; held-out loss of the teacher's \
                     value alone {teacher_loss:.6}, of the classical evaluation alone \
                     {classical_loss:.6}",
                    self.heading
                ));
            }
            NnueEvent::Batch {
                epoch,
                batch,
                batches,
                loss,
            } => {
                self.done += 1;
                if let Some(bar) = &self.bar {
                    bar.set_position(self.done);
                    bar.set_message(format!(
                        "epoch {epoch}/{}, batch {batch}/{batches}, loss {loss:.6}",
                        self.epochs
                    ));
                }
            }
            NnueEvent::Epoch(line) => self.line(&format!(
                "epoch {:>3}/{}: train loss {:.6}, held-out loss {:.6} (lr {}, {:.1}s)",
                line.epoch,
                self.epochs,
                line.train_loss,
                line.held_out_loss,
                line.learning_rate,
                line.seconds
            )),
        }
    }
}
