//! The measuring side shared by the perft benchmarks: interleaved runs of
//! several engines, median nodes/s each, and ratios against a target.
//! Criterion gives the statistics; this gives the one-line comparison the
//! issues ask for, measured in the same run.

#![allow(dead_code)] // each benchmark uses a subset

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use heterodox_env::{perft, Chess, Position};

/// One thing to time: a perft run and the node count it must return.
pub struct Contender {
    /// The Criterion benchmark's name.
    pub id: &'static str,
    /// The name in the printed comparison.
    pub label: &'static str,
    pub run: fn() -> u64,
    pub nodes: u64,
}

impl Contender {
    pub const fn new(id: &'static str, label: &'static str, run: fn() -> u64, nodes: u64) -> Self {
        Contender {
            id,
            label,
            run,
            nodes,
        }
    }
}

/// Perft of `P`'s start position to `DEPTH`, a [`Contender`]'s run.
pub fn start_perft<P: Position + Default, const DEPTH: u32>() -> u64 {
    perft::perft(black_box(&P::default()), DEPTH)
}

/// FIDE chess from its start position to depth 5: 4,865,609 leaves.
pub const CHESS_DEPTH5_NODES: u64 = 4_865_609;

/// Chess's start to depth 5, the yardstick a variant's perft is measured
/// beside; `id` and `label` as each benchmark has named it (Criterion
/// keeps its saved baselines by id).
pub fn chess_depth5(id: &'static str, label: &'static str) -> Contender {
    Contender::new(id, label, start_perft::<Chess, 5>, CHESS_DEPTH5_NODES)
}

/// A variant's perft from its start to depth 5 (`variant`) beside chess's
/// ([`chess_depth5`] with Criterion id `chess_id`): Criterion's group
/// `group` (`seconds` per contender), then seven interleaved rounds and
/// the ratio variant/chess against `target`.
pub fn compare_with_chess(
    group: &str,
    seconds: u64,
    variant: Contender,
    chess_id: &'static str,
    target: f64,
) {
    let label = format!("{}/chess", variant.label);
    let contenders = [variant, chess_depth5(chess_id, "chess")];
    criterion_group(group, seconds, &contenders);
    let rates = median_nodes_per_second("perft(5) start positions", &contenders, 7);
    print_ratio(&label, rates[0] / rates[1], Some(target));
}

/// Criterion measures every contender in one group (ten samples in
/// `seconds`), each with its node count as throughput, and prints its
/// summary.
pub fn criterion_group(name: &str, seconds: u64, contenders: &[Contender]) {
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group(name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(seconds));
    for contender in contenders {
        group.throughput(Throughput::Elements(contender.nodes));
        group.bench_function(contender.id, |b| b.iter(contender.run));
    }
    group.finish();
    criterion.final_summary();
}

/// Runs every contender `rounds` times, one after the other in each round
/// so that machine noise hits all alike; checks each count; prints and
/// returns the median nodes/s of each.
pub fn median_nodes_per_second(title: &str, contenders: &[Contender], rounds: usize) -> Vec<f64> {
    let mut seconds: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); contenders.len()];
    for _ in 0..rounds {
        for (contender, times) in contenders.iter().zip(&mut seconds) {
            let start = Instant::now();
            assert_eq!((contender.run)(), contender.nodes, "{}", contender.label);
            times.push(start.elapsed().as_secs_f64());
        }
    }
    println!("{title}, one thread, bulk counting, median of {rounds}:");
    let width = contenders.iter().map(|c| c.label.len()).max().unwrap_or(0);
    contenders
        .iter()
        .zip(&mut seconds)
        .map(|(contender, times)| {
            times.sort_by(f64::total_cmp);
            let rate = contender.nodes as f64 / times[times.len() / 2];
            println!("  {:<width$} {rate:>12.0} nodes/s", contender.label);
            rate
        })
        .collect()
}

/// Prints `label = ratio (target >= t)`.
pub fn print_ratio(label: &str, ratio: f64, target: Option<f64>) {
    match target {
        Some(target) => println!("  ratio {label} = {ratio:.2} (target >= {target:.2})"),
        None => println!("  ratio {label} = {ratio:.2}"),
    }
}
