//! Seeded percentile bootstrap of a mean, or of the difference of two
//! independent samples' means.
//!
//! Each of `resamples` replicates draws `n` values with replacement from
//! the sample (from each sample independently, for a difference) and
//! takes the statistic; the interval at `confidence` is the replicates'
//! `(1 - confidence) / 2` and `(1 + confidence) / 2` percentiles, linearly
//! interpolated between order statistics as numpy's default `percentile`
//! does (what `scipy.stats.bootstrap(method='percentile')` reports), and
//! the standard error is the replicates' standard deviation (`n - 1`).
//! The draws come from [`SplitMix64`] seeded with `seed`, so a seed gives
//! the same numbers on every machine; they differ from scipy's own
//! (different generator), by Monte-Carlo error only.

use serde::{Deserialize, Serialize};

use crate::error::{check_probability, check_sample, StatsError};

/// A bootstrap estimate: the statistic of the data and its percentile
/// interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bootstrap {
    /// The statistic of the original sample(s).
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// Standard deviation of the replicates.
    pub std_error: f64,
    pub resamples: u32,
}

/// The fewest replicates a bootstrap takes (a standard error needs 2).
pub const MIN_RESAMPLES: u32 = 2;

/// Sebastiano Vigna's SplitMix64: a 64-bit generator with one word of
/// state, passing BigCrush, and trivially seeded (every seed is good).
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n >= 1`): Lemire's multiply-shift with
    /// rejection, so exactly uniform.
    pub fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}

/// The bootstrap of the mean of `values` (at least 1, finite).
pub fn bootstrap_mean(
    values: &[f64],
    resamples: u32,
    confidence: f64,
    seed: u64,
) -> Result<Bootstrap, StatsError> {
    check_sample("values", values, 1)?;
    check(resamples, confidence)?;
    let mut rng = SplitMix64::new(seed);
    let replicates = (0..resamples)
        .map(|_| resampled_mean(values, &mut rng))
        .collect();
    Ok(summarise(mean(values), replicates, confidence))
}

/// The bootstrap of `mean(a) - mean(b)`, each sample (at least 1 finite
/// value) resampled on its own.
pub fn bootstrap_difference(
    a: &[f64],
    b: &[f64],
    resamples: u32,
    confidence: f64,
    seed: u64,
) -> Result<Bootstrap, StatsError> {
    check_sample("a", a, 1)?;
    check_sample("b", b, 1)?;
    check(resamples, confidence)?;
    let mut rng = SplitMix64::new(seed);
    let replicates = (0..resamples)
        .map(|_| resampled_mean(a, &mut rng) - resampled_mean(b, &mut rng))
        .collect();
    Ok(summarise(mean(a) - mean(b), replicates, confidence))
}

fn check(resamples: u32, confidence: f64) -> Result<(), StatsError> {
    if resamples < MIN_RESAMPLES {
        return Err(StatsError::OutOfRange {
            what: "resamples",
            range: "at least 2",
            value: f64::from(resamples),
        });
    }
    check_probability("confidence", confidence)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

fn resampled_mean(values: &[f64], rng: &mut SplitMix64) -> f64 {
    let n = values.len() as u64;
    (0..n).map(|_| values[rng.below(n) as usize]).sum::<f64>() / n as f64
}

fn summarise(estimate: f64, mut replicates: Vec<f64>, confidence: f64) -> Bootstrap {
    let r = replicates.len() as f64;
    let centre = replicates.iter().sum::<f64>() / r;
    let variance = replicates.iter().map(|v| (v - centre).powi(2)).sum::<f64>() / (r - 1.0);
    replicates.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Bootstrap {
        estimate,
        low: percentile(&replicates, tail),
        high: percentile(&replicates, 1.0 - tail),
        std_error: variance.sqrt(),
        resamples: replicates.len() as u32,
    }
}

/// The `q` quantile of sorted values, numpy's default ("linear"): the
/// value at position `q (n - 1)`, interpolated.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * fraction
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The first outputs of SplitMix64 seeded with 1234567 (Vigna's
        // reference implementation, splitmix64.c).
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(rng.next_u64(), 9_817_491_932_198_370_423);
        let mut rng = SplitMix64::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
    }

    #[test]
    fn percentiles_interpolate_like_numpy() {
        let sorted = [1.0, 2.0, 4.0, 8.0];
        // numpy.percentile([1, 2, 4, 8], [0, 25, 50, 97.5, 100]).
        assert_eq!(percentile(&sorted, 0.0), 1.0);
        assert_eq!(percentile(&sorted, 0.25), 1.75);
        assert_eq!(percentile(&sorted, 0.5), 3.0);
        assert!((percentile(&sorted, 0.975) - 7.7).abs() < 1e-12);
        assert_eq!(percentile(&sorted, 1.0), 8.0);
    }

    #[test]
    fn a_seed_gives_the_same_interval() {
        let values: Vec<f64> = (0..50).map(|i| f64::from(i % 3) / 2.0).collect();
        let a = bootstrap_mean(&values, 2000, 0.95, 42).unwrap();
        assert_eq!(a, bootstrap_mean(&values, 2000, 0.95, 42).unwrap());
        assert_ne!(a, bootstrap_mean(&values, 2000, 0.95, 43).unwrap());
        assert!((a.estimate - mean(&values)).abs() < 1e-15);
        // Near the normal interval: sd 0.41 / sqrt(50) = 0.058.
        assert!(a.low < a.estimate && a.estimate < a.high);
        assert!((a.std_error - 0.058).abs() < 0.01, "{a:?}");
        let constant = bootstrap_mean(&[0.5; 10], 100, 0.95, 1).unwrap();
        assert_eq!(
            (constant.low, constant.high, constant.std_error),
            (0.5, 0.5, 0.0)
        );
        let d = bootstrap_difference(&values, &[0.0, 0.5], 500, 0.9, 3).unwrap();
        assert!((d.estimate - (mean(&values) - 0.25)).abs() < 1e-15);
        assert!(bootstrap_mean(&[], 100, 0.95, 0).is_err());
        assert!(bootstrap_mean(&values, 1, 0.95, 0).is_err());
        assert!(bootstrap_mean(&values, 100, 1.0, 0).is_err());
        assert!(bootstrap_difference(&values, &[f64::INFINITY], 100, 0.95, 0).is_err());
    }
}
