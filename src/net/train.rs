//! `heterodox train` (served by `heterodox-net`): the AlphaZero loop on
//! one variant, with a progress display; `--resume` continues a run.
//!
//! ```text
//! heterodox train --variant hostage --config configs/hostage.toml --run runs/h1
//! heterodox train --run runs/h1 --resume
//! ```
//!
//! The settings are the config file's (or the defaults), then the
//! command line's `--variant`, `--option`, `--seed`, `--iterations` and
//! `--minutes` on top. They are saved in the run directory; `--resume`
//! reads them from there and refuses to be given others.

use std::path::PathBuf;

use clap::Args;
use heterodox_env::RuleOptions;
use heterodox_training::trainer::config::TrainConfig;
use heterodox_training::trainer::metrics::{EvaluationLine, SelfPlayMetrics};
use heterodox_training::trainer::{train, Event, TrainOptions};
use heterodox_training::ScoreEstimate;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Variant name (see `heterodox variants`); overrides the config's.
    #[arg(long)]
    variant: Option<String>,
    /// A rule setting of the variant, KEY=VALUE; repeatable; added to the
    /// config's.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// TOML settings (see configs/); the defaults where absent.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The run directory (default runs/<variant>).
    #[arg(long)]
    run: Option<PathBuf>,
    /// Continue the run in --run from its newest checkpoint, with its own
    /// saved settings.
    #[arg(long)]
    resume: bool,
    /// Overrides run.iterations.
    #[arg(long)]
    iterations: Option<u32>,
    /// Overrides run.minutes.
    #[arg(long)]
    minutes: Option<f64>,
    /// Overrides seed.
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    device: crate::device::DeviceArgs,
    /// No progress display (logs and tests); one line per iteration.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    let device = args.device.device()?;
    let overrides = args.variant.is_some()
        || !args.options.is_empty()
        || args.config.is_some()
        || args.iterations.is_some()
        || args.minutes.is_some()
        || args.seed.is_some();
    let (config, run) = if args.resume {
        let run = args
            .run
            .clone()
            .ok_or("--resume needs --run DIR: the run to continue")?;
        if overrides {
            return Err(
                "--resume continues a run with its saved settings (RUN/config.toml): \
                 do not give --config, --variant, --option, --seed, --iterations or --minutes"
                    .to_owned(),
            );
        }
        (TrainConfig::default(), run)
    } else {
        let mut config = match &args.config {
            Some(path) => TrainConfig::from_file(path).map_err(|e| e.to_string())?,
            None => TrainConfig::default(),
        };
        if let Some(variant) = &args.variant {
            config.variant = variant.clone();
        }
        let options = RuleOptions::parse(&args.options.join(",")).map_err(|e| format!("{e}"))?;
        for (key, value) in options.iter() {
            config.options.insert(key.to_owned(), value.to_owned());
        }
        if let Some(iterations) = args.iterations {
            config.run.iterations = iterations;
        }
        if let Some(minutes) = args.minutes {
            config.run.minutes = minutes;
        }
        if let Some(seed) = args.seed {
            config.seed = seed;
        }
        config.validate().map_err(|e| e.to_string())?;
        let run = args
            .run
            .clone()
            .unwrap_or_else(|| PathBuf::from("runs").join(&config.variant));
        (config, run)
    };
    let options = TrainOptions {
        run: run.clone(),
        resume: args.resume,
        device,
    };
    let display = Display::new(args.quiet);
    let mut on_event = |event: Event<'_>| display.show(event);
    let summary = train(config, &options, &mut on_event).map_err(|e| e.to_string())?;
    display.bar.finish();
    let mut text = format!(
        "trained {} iterations ({} SGD steps) in {}\n",
        summary.iterations,
        summary.step,
        summary.run.display()
    );
    if let Some(evaluation) = &summary.final_evaluation {
        text.push_str(&format!(
            "score of the agent ({} simulations per move), 95% confidence intervals:\n",
            evaluation.simulations
        ));
        for (label, score) in scores(evaluation) {
            text.push_str(&format!(
                "  {:<28}{}\n",
                format!("against {label}:"),
                score.describe()
            ));
        }
    }
    text.push_str(&format!(
        "checkpoint:   {} (also {}/last)\n\
         games (PGN):  {}/games/ (self-play), {}/eval/ (evaluation)\n\
         metrics:      {}/metrics.jsonl (plot: python -m heterodox.plot {})\n",
        summary.checkpoint.display(),
        summary.run.display(),
        summary.run.display(),
        summary.run.display(),
        summary.run.display(),
        summary.run.display(),
    ));
    crate::common::print_stdout(&text);
    Ok(())
}

/// The progress display: a spinner line with the current phase, and one
/// printed line per iteration and per evaluation.
struct Display {
    bar: crate::progress::Progress,
    quiet: bool,
}

impl Display {
    fn new(quiet: bool) -> Display {
        Display {
            bar: crate::progress::Progress::spinner(quiet),
            quiet,
        }
    }

    fn line(&self, text: String) {
        self.bar.println(&text);
    }

    fn show(&self, event: Event<'_>) {
        match event {
            Event::Started {
                iteration,
                resumed,
                parameters,
            } => self.line(if resumed {
                format!("resuming after iteration {iteration} ({parameters} parameters)")
            } else {
                format!("new run, network of {parameters} parameters")
            }),
            Event::TeacherPositions { done, total } => self.bar.set_message(format!(
                "teacher: the engine labels positions {done}/{total}"
            )),
            Event::Supervised(line) => {
                let training = line.training.as_ref().map_or(String::new(), |t| {
                    format!(
                        ", {} supervised steps, loss {:.3} (policy {:.3}, value {:.3})",
                        t.steps, t.loss, t.policy_loss, t.value_loss
                    )
                });
                self.line(format!(
                    "teacher: {} positions in {} games ({} new, {:.0} labelled/s){} [{:.0}s teacher, {:.0}s training]",
                    line.positions,
                    line.games,
                    line.new_positions,
                    line.labelled_per_second,
                    training,
                    line.teach_seconds,
                    line.training_seconds
                ))
            }
            Event::SelfPlayGame {
                iteration,
                done,
                total,
            } => self.bar.set_message(format!(
                "iteration {iteration}: self-play {done}/{total} games"
            )),
            Event::TrainingStep {
                iteration,
                done,
                total,
                loss,
            } => self.bar.set_message(format!(
                "iteration {iteration}: training step {done}/{total}, loss {loss:.3}"
            )),
            Event::EvaluationGame {
                iteration,
                done,
                total,
            } => self.bar.set_message(format!(
                "iteration {iteration}: evaluation {done}/{total} games"
            )),
            Event::Evaluated(line) => self.line(format!(
                "iteration {:>3} evaluation: {}",
                line.iteration,
                scores(line)
                    .iter()
                    .map(|(label, score)| format!("vs {label} {}", short(score)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Event::IterationDone(line) => {
                let training = line.training.as_ref().map_or(String::new(), |t| {
                    format!(
                        ", loss {:.3} (policy {:.3}, value {:.3}), {:.0} trained pos/s",
                        t.loss, t.policy_loss, t.value_loss, t.positions_per_second
                    )
                });
                let endings = endings(&line.selfplay);
                self.line(format!(
                    "iteration {:>3}: {} games, {:.0} pos/s, length {:.0}, W/D/L {}/{}/{}{endings}{} [{:.0}s self-play, {:.0}s training, {:.0}s evaluation]",
                    line.iteration,
                    line.selfplay.games,
                    line.selfplay.positions_per_second,
                    line.selfplay.average_length,
                    line.selfplay.white_wins,
                    line.selfplay.draws + line.selfplay.truncated,
                    line.selfplay.black_wins,
                    training,
                    line.seconds.selfplay,
                    line.seconds.training,
                    line.seconds.evaluation
                ));
            }
            Event::CheckpointSaved(path) => {
                if self.quiet {
                    eprintln!("checkpoint {}", path.display());
                }
            }
        }
    }
}

fn short(score: &ScoreEstimate) -> String {
    format!(
        "{:.0}% [{:.0}, {:.0}]",
        100.0 * score.score,
        100.0 * score.score_low,
        100.0 * score.score_high
    )
}

/// How the iteration's games ended beyond the rules: ` (3 adjudicated, 2
/// resigned)`, or nothing.
fn endings(selfplay: &SelfPlayMetrics) -> String {
    let adjudicated = selfplay.adjudicated_wins + selfplay.adjudicated_draws;
    let parts: Vec<String> = [
        (adjudicated, "adjudicated"),
        (selfplay.resigned, "resigned"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// An evaluation's scores, each with its opponent's name, in the order
/// they were played.
fn scores(line: &EvaluationLine) -> Vec<(String, ScoreEstimate)> {
    let engine = line
        .engine
        .clone()
        .unwrap_or_else(|| "the engine".to_owned());
    [
        ("random play".to_owned(), line.vs_random.clone()),
        ("the uniform search".to_owned(), line.vs_uniform.clone()),
        ("greedy".to_owned(), line.vs_greedy.clone()),
        (engine, line.vs_engine.clone()),
    ]
    .into_iter()
    .filter_map(|(label, score)| Some((label, score?)))
    .collect()
}
