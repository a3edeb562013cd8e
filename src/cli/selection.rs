//! `heterodox selection`: the equilibrium of a Traitor rule set's secret
//! selections (heterodox_engine::selections), written as the
//! strategy file the engine ships in engine/src/hidden/selections/, and a
//! one-line summary: each side's mix, the value, the exploitability and
//! the searches it took.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use heterodox_data::atomic::write_file;
use heterodox_engine::hidden::selection::Weighted;
use heterodox_engine::selections::build;
use heterodox_engine::EngineConfig;
use heterodox_env::{GameVariant, Traitor, Variant};

use crate::args::RulesArgs;

#[derive(Args, Debug)]
pub struct SelectionArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Depth (steps) of the search behind each payoff entry, both secrets
    /// known (1 to 8).
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// The most double-oracle iterations.
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// Where to write the strategy (JSON).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &SelectionArgs) -> Result<(), String> {
    if args.rules.variant()? != Variant::Traitor {
        return Err(format!(
            "--variant {}: secret selections are the Traitor family's (--variant traitor)",
            args.rules.variant
        ));
    }
    if !(1..=8).contains(&args.depth) {
        return Err(format!("--depth {}: from 1 to 8", args.depth));
    }
    let rules = Traitor::parse_rules(&args.rules.options()?).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let config = EngineConfig {
        hash_mib: 16,
        ..EngineConfig::default()
    };
    let strategy = build(rules, args.depth, config, args.iterations).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(&strategy).expect("a strategy serializes") + "\n";
    write_file(&args.out, text.as_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mix = |mix: &[Weighted]| {
        mix.iter()
            .map(|w| format!("{} {:.1}%", w.selection, 100.0 * w.probability))
            .collect::<Vec<_>>()
            .join(", ")
    };
    super::print_stdout(&format!(
        "{}\nwhite: {}\nblack: {}\nvalue {:.4} (White's expected score), exploitability {:.2e}, \
         {}x{} candidates, {} searches at depth {} in {} iterations, {:.1} s\nstrategy: {}\n",
        strategy.rules,
        mix(&strategy.white),
        mix(&strategy.black),
        strategy.value,
        strategy.exploitability,
        strategy.candidates[0],
        strategy.candidates[1],
        strategy.entries,
        strategy.depth,
        strategy.iterations,
        started.elapsed().as_secs_f64(),
        args.out.display()
    ));
    Ok(())
}
