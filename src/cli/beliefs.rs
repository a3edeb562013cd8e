//! `heterodox beliefs`: fits the move model behind the engine's beliefs
//! about a Traitor opponent's secret (heterodox_engine::tools::belief_fit)
//! on self-play games, and prints each model of the grid with the bits it
//! gains about the true secret, best first.

use std::time::Instant;

use clap::Args;
use heterodox_engine::belief_fit::{fit, FitSettings};
use heterodox_engine::EngineConfig;
use heterodox_env::{GameVariant, Traitor, Variant};

use crate::args::RulesArgs;

#[derive(Args, Debug)]
pub struct BeliefsArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Self-play games.
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Nodes each side searches a move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Plies played at random first (the secret selections among them).
    #[arg(long, default_value_t = 2)]
    opening_plies: u32,
    /// Plies after which a game stops.
    #[arg(long, default_value_t = 60)]
    max_plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Temperatures to try, centipawns, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "25,50,100,200,400")]
    temperatures: Vec<f64>,
    /// Noise weights to try, each in [0, 1), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.01,0.05,0.2")]
    noises: Vec<f64>,
}

pub fn run(args: &BeliefsArgs) -> Result<(), String> {
    if args.rules.variant()? != Variant::Traitor {
        return Err(format!(
            "--variant {}: beliefs are about a hidden secret, the Traitor family's (--variant traitor)",
            args.rules.variant
        ));
    }
    if let Some(t) = args
        .temperatures
        .iter()
        .find(|t| !(t.is_finite() && **t > 0.0))
    {
        return Err(format!(
            "--temperatures: {t} is not a positive number of centipawns"
        ));
    }
    if let Some(n) = args.noises.iter().find(|n| !(0.0..1.0).contains(*n)) {
        return Err(format!("--noises: {n} is not in [0, 1)"));
    }
    if args.games == 0 || args.nodes == 0 {
        return Err("--games and --nodes: at least 1".to_owned());
    }
    let rules = Traitor::parse_rules(&args.rules.options()?).map_err(|e| e.to_string())?;
    let start = Traitor::new(rules).map_err(|e| e.to_string())?;
    let settings = FitSettings {
        games: args.games,
        nodes: args.nodes,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        seed: args.seed,
        temperatures_cp: args.temperatures.clone(),
        noises: args.noises.clone(),
    };
    let started = Instant::now();
    let config = EngineConfig {
        hash_mib: 16,
        ..EngineConfig::default()
    };
    let report = fit(&start, &settings, config).map_err(|e| e.to_string())?;
    let mut out = format!(
        "{} games ({:.1} plies on average), {} views a model, {:.1} s\n\
         temperature_cp  noise  bits  above_uniform\n",
        report.games,
        report.plies,
        report.views,
        started.elapsed().as_secs_f64()
    );
    for row in &report.rows {
        out += &format!(
            "{:>14}  {:>5}  {:+.3}  {:.3}\n",
            row.model.temperature_cp, row.model.noise, row.bits, row.above_uniform
        );
    }
    super::print_stdout(&out);
    Ok(())
}
