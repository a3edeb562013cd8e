//! `heterodox selection`: the equilibrium of a Traitor rule set's secret
//! selections (heterodox_engine::selections), written as the
//! strategy file the engine ships in engine/src/hidden/selections/, and a
//! one-line summary: each side's mix, the value, the exploitability and
//! the searches it took.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use heterodox_data::atomic::write_file;
use heterodox_engine::hidden::selection::{SelectionStrategy, Weighted};
use heterodox_engine::selections::{build, evaluate};
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
    #[arg(long, required_unless_present = "evaluate")]
    out: Option<PathBuf>,
    /// Instead of solving, evaluates this strategy file in the matrix
    /// searched at --depth: each side's best response to the other's mix,
    /// and the exploitability (how the strategy holds up in a matrix of
    /// another budget).
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    evaluate: Option<PathBuf>,
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
    if let Some(path) = &args.evaluate {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let strategy =
            SelectionStrategy::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let found = evaluate(&strategy, rules, args.depth, config).map_err(|e| e.to_string())?;
        super::print_stdout(&format!(
            "{} (solved at depth {}) in the depth-{} matrix: White's best answer {:.4}, \
             Black's best answer {:.4} (White's expected score), exploitability {:.4}, \
             {} searches, {:.1} s\n",
            path.display(),
            strategy.depth,
            args.depth,
            found.white_best,
            found.black_best,
            found.exploitability,
            found.entries,
            started.elapsed().as_secs_f64()
        ));
        return Ok(());
    }
    let out = args
        .out
        .as_ref()
        .expect("clap requires --out without --evaluate");
    let strategy = build(rules, args.depth, config, args.iterations).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(&strategy).expect("a strategy serializes") + "\n";
    write_file(out, text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
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
        out.display()
    ));
    Ok(())
}
