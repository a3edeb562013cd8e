//! Timing shared by the throughput benchmarks (env: vecenv, search_step;
//! selfplay: loader): the median rate over a
//! few rounds of about half a second each.

use std::time::{Duration, Instant};

pub const ROUNDS: usize = 5;
const ROUND_TIME: Duration = Duration::from_millis(500);

/// Units/s: the median over rounds of `run()` calls, each returning how
/// many units (steps, nodes) it did.
pub fn measure(mut run: impl FnMut() -> u64) -> f64 {
    let mut rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let mut units = 0;
        while start.elapsed() < ROUND_TIME {
            units += run();
        }
        rates.push(units as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    rates[ROUNDS / 2]
}
