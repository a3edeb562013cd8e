//! Search throughput with the uniform evaluator (rules and tree work only):
//! self-play of 128 games at once, 32 simulations per move (the setting of
//! the mctx + pgx comparison in bench/search_vs_mctx.py), on the rayon pool
//! (all cores; `RAYON_NUM_THREADS=1` for one). Prints simulations per
//! second (32 a move: evaluated leaves and descents that ended in a
//! finished game), positions per second, and leaves evaluated per second
//! (each search's root included, finished games not) per variant.
//!
//! Run: `cargo bench -p heterodox-selfplay --bench search [-- VARIANT...]`.

use std::time::Instant;

use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::{RootPolicy, SearchConfig, SelfPlay, SelfPlayConfig, UniformEvaluator};

struct Bench {
    root_policy: RootPolicy,
}

impl VariantVisitor for Bench {
    type Output = ();

    fn visit<P: GameVariant>(self) {
        let config = SelfPlayConfig {
            games: 256,
            concurrent: 128,
            max_plies: 0,
            temperature_plies: 30,
            seed: 1,
            history: 1,
            search: SearchConfig {
                simulations: 32,
                root_policy: self.root_policy,
                ..SearchConfig::default()
            },
            ..SelfPlayConfig::default()
        };
        let rules = P::parse_rules(&RuleOptions::new()).expect("default rules");
        let run = SelfPlay::<P>::new(rules, config).expect("valid config");
        let start = Instant::now();
        let stats = run.run(&UniformEvaluator, |_, _| {});
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{:<13} {:<6} {:>10.0} simulations/s  {:>8.0} positions/s  ({:.0} leaf evaluations/s, {} games, {} positions, {:.1} s)",
            P::VARIANT.name(),
            format!("{:?}", self.root_policy).to_lowercase(),
            stats.simulations as f64 / seconds,
            stats.positions as f64 / seconds,
            stats.evaluations as f64 / seconds,
            stats.games,
            stats.positions,
            seconds
        );
    }
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!(
        "uniform evaluator, 128 games at once, 32 simulations per move, {} threads",
        rayon::current_num_threads()
    );
    for variant in Variant::ALL {
        if !filter.is_empty() && !filter.iter().any(|f| variant.name().contains(f.as_str())) {
            continue;
        }
        for root_policy in [RootPolicy::Puct, RootPolicy::Gumbel] {
            variant.visit(Bench { root_policy });
        }
    }
}
