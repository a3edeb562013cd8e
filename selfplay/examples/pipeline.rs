//! What pipelined self-play (`SelfPlayConfig::pipeline`) buys, against a
//! stand-in for an accelerator: an evaluator whose every batch takes a
//! fixed time (it sleeps `latency`, then answers uniform priors and value
//! 0, so every mode plays the same games). The sleeping thread uses no
//! core, as a thread waiting on a GPU does not, so the tree work keeps
//! every core. One run measures, on the same games:
//!
//! - the tree-work bound: simulations/s with the stand-in at zero latency
//!   (pipeline 1), all tree and rules work, observations encoded as for a
//!   network;
//! - the latency bound of each mode: simulations/s if the tree work were
//!   free, (simulations per batch sent) / (measured time per batch); with
//!   K groups each batch holds about 1/K of the leaves, so the bound is
//!   the one for the batches that mode sent;
//! - today's loop (pipeline 1) and pipelines 2 and 3 with the stand-in,
//!   each as a share of min(tree bound, its latency bound).
//!
//! Run: `cargo run --release -p heterodox-selfplay --example pipeline --
//! [--variant hostage] [--latency-ms 3] [--games 256] [--concurrent 256]
//! [--simulations 64] [--max-plies 0] [--pipelines 2,3]`.
//!
//! A bench, not a test: the figures depend on the machine and its load.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::{
    Evaluator, LeafBatch, RootPolicy, SearchConfig, SelfPlay, SelfPlayConfig, SelfPlayStats,
};

/// Every batch takes `latency` (a sleep), then gets uniform priors and
/// value 0. Counts the batches it was sent (an empty round is never sent)
/// and the time they took.
struct FixedLatencyEvaluator {
    latency: Duration,
    batches: AtomicU64,
    nanos: AtomicU64,
}

impl FixedLatencyEvaluator {
    fn new(latency: Duration) -> FixedLatencyEvaluator {
        FixedLatencyEvaluator {
            latency,
            batches: AtomicU64::new(0),
            nanos: AtomicU64::new(0),
        }
    }
}

impl<P: GameVariant> Evaluator<P> for FixedLatencyEvaluator {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        let started = Instant::now();
        if !self.latency.is_zero() {
            std::thread::sleep(self.latency);
        }
        for (i, value) in values.iter_mut().enumerate().take(batch.len()) {
            let range = batch.legal_range(i);
            let p = 1.0 / range.len().max(1) as f32;
            priors[range].fill(p);
            *value = 0.0;
        }
        self.batches.fetch_add(1, Ordering::Relaxed);
        let nanos = started.elapsed().as_nanos() as u64;
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    // A network reads observations: the tree work encodes them.
}

struct Args {
    variant: String,
    latency_ms: f64,
    games: u32,
    concurrent: u32,
    simulations: u32,
    max_plies: u32,
    pipelines: Vec<u32>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        variant: "hostage".to_owned(),
        // About the tree work of half the default round on this bench's
        // 2-core machine: the tree bound and pipeline 2's latency bound
        // meet there (docs/training.md, "Pipelined self-play").
        latency_ms: 3.0,
        games: 256,
        concurrent: 256,
        simulations: 64,
        max_plies: 0,
        pipelines: vec![2, 3],
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let value = words.next().ok_or(format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u32>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--variant" => args.variant = value,
            "--latency-ms" => {
                args.latency_ms = value.parse().map_err(|e| format!("{flag} {value}: {e}"))?
            }
            "--games" => args.games = number(&value)?,
            "--concurrent" => args.concurrent = number(&value)?,
            "--simulations" => args.simulations = number(&value)?,
            "--max-plies" => args.max_plies = number(&value)?,
            "--pipelines" => {
                args.pipelines = value.split(',').map(number).collect::<Result<_, _>>()?
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// 1234567.8 as "1,234,568".
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One mode's run: its totals and its evaluator's batches and seconds.
struct Measured {
    stats: SelfPlayStats,
    batches: u64,
    batch_seconds: f64,
}

impl Measured {
    fn rate(&self) -> f64 {
        self.stats.simulations as f64 / self.stats.seconds
    }

    /// Simulations/s if the tree work were free: each batch's simulations
    /// in the time a batch took.
    fn latency_bound(&self) -> f64 {
        self.stats.simulations as f64 / self.batch_seconds.max(1e-9)
    }
}

struct Bench<'a>(&'a Args);

impl VariantVisitor for Bench<'_> {
    type Output = ();

    fn visit<P: GameVariant>(self) {
        let args = self.0;
        let rules = P::parse_rules(&RuleOptions::new()).expect("default rules");
        let config = |pipeline: u32| SelfPlayConfig {
            games: args.games,
            concurrent: args.concurrent,
            pipeline,
            max_plies: args.max_plies,
            seed: 1,
            search: SearchConfig {
                simulations: args.simulations,
                root_policy: RootPolicy::Gumbel,
                ..SearchConfig::default()
            },
            ..SelfPlayConfig::default()
        };
        let measure = |pipeline: u32, latency: Duration| {
            let run = SelfPlay::<P>::new(rules.clone(), config(pipeline)).expect("valid config");
            let evaluator = FixedLatencyEvaluator::new(latency);
            let stats = run.run(&evaluator, |_, _| {});
            Measured {
                stats,
                batches: evaluator.batches.load(Ordering::Relaxed),
                batch_seconds: evaluator.nanos.load(Ordering::Relaxed) as f64 * 1e-9,
            }
        };
        let latency = Duration::from_secs_f64(args.latency_ms / 1000.0);
        println!(
            "{}: {} games, {} at once, Gumbel {} simulations a move, {} rayon threads, stand-in latency {} ms a batch",
            P::VARIANT.name(),
            args.games,
            args.concurrent,
            args.simulations,
            rayon::current_num_threads(),
            args.latency_ms
        );
        let tree = measure(1, Duration::ZERO);
        let tree_bound = tree.rate();
        println!(
            "tree-work bound (zero-cost evaluator, pipeline 1): {} sim/s ({} simulations, {} positions, {} batches of {:.0} leaves, {:.1} s)",
            thousands(tree_bound),
            tree.stats.simulations,
            tree.stats.positions,
            tree.batches,
            tree.stats.evaluations as f64 / tree.batches.max(1) as f64,
            tree.stats.seconds
        );
        let mut today = None;
        for pipeline in std::iter::once(1).chain(args.pipelines.iter().copied()) {
            let m = measure(pipeline, latency);
            assert_eq!(
                (m.stats.simulations, m.stats.positions),
                (tree.stats.simulations, tree.stats.positions),
                "every mode plays the same games"
            );
            let latency_bound = m.latency_bound();
            let bound = tree_bound.min(latency_bound);
            let name = if pipeline == 1 {
                "pipeline 1 (today's loop)".to_owned()
            } else {
                format!("pipeline {pipeline}")
            };
            let speedup = match today {
                None => {
                    today = Some(m.rate());
                    String::new()
                }
                Some(base) => format!(", {:.2}x today's loop", m.rate() / base),
            };
            println!(
                "{name}: {} sim/s = {:.0}% of min(tree {}, latency {}){speedup}  [{} batches of {:.0} leaves, {:.2} ms each, {:.1} s]",
                thousands(m.rate()),
                100.0 * m.rate() / bound,
                thousands(tree_bound),
                thousands(latency_bound),
                m.batches,
                m.stats.evaluations as f64 / m.batches.max(1) as f64,
                1000.0 * m.batch_seconds / m.batches.max(1) as f64,
                m.stats.seconds
            );
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let Some(variant) = Variant::ALL.into_iter().find(|v| v.name() == args.variant) else {
        eprintln!("error: unknown variant {}", args.variant);
        std::process::exit(2);
    };
    variant.visit(Bench(&args));
}
