//! `heterodox tune`: Texel tuning of a variant's evaluation on the games
//! of shards ([`heterodox_engine::tune`]); prints each pass and the numbers
//! moved, and writes the report as JSON.
//!
//! ```text
//! heterodox teach --variant hostage --engine ab@3 --positions 60000 --out data/hostage
//! heterodox tune --variant hostage --data data/hostage --out tune-hostage.json
//! ```

use std::path::{Path, PathBuf};

use clap::Args;
use heterodox_data::atomic::write_file;
use heterodox_data::shard::list_shards;
use heterodox_engine::tune::Pass;
use heterodox_engine::{tune, TuneConfig, TuneReport};
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// Shards, or directories of shards (`heterodox teach` writes them),
    /// comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    data: Vec<PathBuf>,
    /// Step sizes, largest first (centipawns, or per cent for shares).
    #[arg(long, value_delimiter = ',', default_values_t = TuneConfig::default().steps)]
    steps: Vec<i32>,
    /// The most passes at one step.
    #[arg(long, default_value_t = TuneConfig::default().max_passes)]
    max_passes: u32,
    /// Every this-many-th game is held out for validation (0: none).
    #[arg(long, default_value_t = TuneConfig::default().validation_every)]
    validation_every: usize,
    /// Weight of the prior toward the numbers set by hand (0: plain
    /// Texel tuning).
    #[arg(long, default_value_t = TuneConfig::default().prior)]
    prior: f64,
    /// Where to write the report (JSON).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &TuneArgs) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let options = args.rules.options()?;
    let config = TuneConfig {
        steps: args.steps.clone(),
        max_passes: args.max_passes,
        validation_every: args.validation_every,
        prior: args.prior,
    };
    config.validate().map_err(|e| e.to_string())?;
    let shards = shard_paths(&args.data)?;
    let report = variant.visit(Tune {
        options,
        config,
        shards: &shards,
        quiet: args.quiet,
    })?;
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&report).expect("a report serializes");
        write_file(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    super::print_stdout(&summary(&report));
    Ok(())
}

/// Every shard named, directories opened (sorted by name).
fn shard_paths(data: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut shards = Vec::new();
    for path in data {
        if path.is_dir() {
            let found = list_shards(path).map_err(|e| e.to_string())?;
            if found.is_empty() {
                return Err(format!("{}: no shards in this directory", path.display()));
            }
            shards.extend(found);
        } else if Path::new(path).is_file() {
            shards.push(path.clone());
        } else {
            return Err(format!("{}: no such shard or directory", path.display()));
        }
    }
    Ok(shards)
}

struct Tune<'a> {
    options: RuleOptions,
    config: TuneConfig,
    shards: &'a [PathBuf],
    quiet: bool,
}

impl VariantVisitor for Tune<'_> {
    type Output = Result<TuneReport, String>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(&self.options).map_err(|e| e.to_string())?;
        let quiet = self.quiet;
        let on_pass = |pass: &Pass| {
            if !quiet {
                super::print_stdout(&format!("{}\n", pass_line(pass)));
            }
        };
        tune::<P>(&rules, self.shards, &self.config, &on_pass).map_err(|e| e.to_string())
    }
}

fn errors_text(errors: &heterodox_engine::tune::Errors) -> String {
    match errors.validation {
        Some(v) => format!("error {:.6} (held out {v:.6})", errors.train),
        None => format!("error {:.6}", errors.train),
    }
}

fn pass_line(pass: &Pass) -> String {
    format!(
        "step {:>3} pass {:>2}: {:>2} moved, {}",
        pass.step,
        pass.pass,
        pass.changed,
        errors_text(&pass.errors)
    )
}

/// The report as text: sizes, errors, then every number that moved.
fn summary(report: &TuneReport) -> String {
    let mut text = format!(
        "{}: {} positions from {} games ({} held out), K = {:.6}, {} passes in {:.1} s\n\
         hand:  {}\ntuned: {}\n",
        report.variant,
        report.train_positions,
        report.games,
        report.validation_positions,
        report.k,
        report.passes.len(),
        report.seconds,
        errors_text(&report.start_errors),
        errors_text(&report.tuned_errors),
    );
    for ((name, hand), tuned) in report.names.iter().zip(&report.start).zip(&report.tuned) {
        let mark = if hand == tuned { "" } else { " *" };
        text.push_str(&format!("{name:<28} {hand:>6} -> {tuned:>6}{mark}\n"));
    }
    text
}
