//! The measuring side shared by the perft benchmarks: interleaved runs of
//! several engines, median nodes/s each, and ratios against a target.
//! Criterion gives the statistics; this gives the one-line comparison the
//! issues ask for, measured in the same run.

use std::time::Instant;

/// One thing to time: a perft run and the node count it must return.
pub struct Contender {
    pub label: &'static str,
    pub run: fn() -> u64,
    pub nodes: u64,
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
