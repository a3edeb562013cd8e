//! Wilson's score interval of a proportion.
//!
//! For a proportion `p` observed over `n` trials and the normal quantile
//! `z`, the interval is `(p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) /
//! (1 + z^2/n)`. It stays inside [0, 1] and is sensible at 0 or `n`
//! successes, where the normal approximation collapses to a point. For
//! game scores a draw counts as half a success, which gives it the
//! Bernoulli variance `s (1 - s)`, an upper bound of the per-game variance
//! with draws: the interval is conservative. Agrees with statsmodels'
//! `proportion_confint(method='wilson')` (same formula; docs/stats.md).

use serde::{Deserialize, Serialize};

use crate::error::{check_probability, StatsError};
use crate::normal;

/// A proportion and its Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wilson {
    /// The observed proportion.
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Wilson {
    /// The interval of a proportion `p` over `n` trials at the normal
    /// quantile `z` ([`normal::Z95`] for 95%); `(0, 1)` for no trials.
    pub fn new(p: f64, n: u32, z: f64) -> Wilson {
        let (low, high) = interval(p, f64::from(n), z);
        Wilson {
            estimate: p,
            low,
            high,
        }
    }

    /// The interval of `successes` (fractional for scores, a draw being
    /// half) out of `trials` at a two-sided `confidence` level (0.95 for
    /// 95%). Errors: no trials, successes outside [0, trials], or a
    /// confidence outside (0, 1).
    pub fn of_counts(successes: f64, trials: u64, confidence: f64) -> Result<Wilson, StatsError> {
        if trials == 0 {
            return Err(StatsError::TooFew {
                what: "trials",
                needed: 1,
                got: 0,
            });
        }
        let n = trials as f64;
        if !(0.0..=n).contains(&successes) {
            return Err(StatsError::OutOfRange {
                what: "successes",
                range: "between 0 and the number of trials",
                value: successes,
            });
        }
        check_probability("confidence", confidence)?;
        let p = successes / n;
        let (low, high) = interval(p, n, normal::z_of_confidence(confidence));
        Ok(Wilson {
            estimate: p,
            low,
            high,
        })
    }
}

/// Wilson's score interval for a proportion `p` observed over `n` trials,
/// at the normal quantile `z`; `(0, 1)` for no trials. What the arena's
/// scores and the claims' proportions use.
pub fn wilson_interval(p: f64, n: u32, z: f64) -> (f64, f64) {
    interval(p, f64::from(n), z)
}

fn interval(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 one bound is exactly 0 or 1; say so rather than
    // leave it to rounding.
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Z95;

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 8 successes out of 10: (0.4902, 0.9433) (Wilson 1927, z = 1.96).
        let (low, high) = wilson_interval(0.8, 10, Z95);
        assert!((low - 0.490_16).abs() < 1e-4, "{low}");
        assert!((high - 0.943_32).abs() < 1e-4, "{high}");
        // All successes: the upper bound is 1, the lower n / (n + z^2).
        let (low, high) = wilson_interval(1.0, 32, Z95);
        assert!((low - 32.0 / (32.0 + Z95 * Z95)).abs() < 1e-12);
        assert_eq!(high, 1.0);
        assert_eq!(wilson_interval(0.5, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn counts_and_confidence() {
        // statsmodels proportion_confint(24.5, 40, method='wilson').
        let w = Wilson::of_counts(24.5, 40, 0.95).unwrap();
        assert_eq!(w.estimate, 24.5 / 40.0);
        assert!((w.low - 0.458_096_354_632_844_4).abs() < 1e-14, "{w:?}");
        assert!((w.high - 0.747_188_785_097_766_1).abs() < 1e-14, "{w:?}");
        // 95% is Z95, to the last bits.
        let (low, high) = wilson_interval(24.5 / 40.0, 40, Z95);
        assert!((w.low - low).abs() < 1e-15 && (w.high - high).abs() < 1e-15);
        let w99 = Wilson::of_counts(24.5, 40, 0.99).unwrap();
        assert!(w99.low < w.low && w99.high > w.high);
        assert!(Wilson::of_counts(3.0, 0, 0.95).is_err());
        assert!(Wilson::of_counts(41.0, 40, 0.95).is_err());
        assert!(Wilson::of_counts(f64::NAN, 40, 0.95).is_err());
        assert!(Wilson::of_counts(4.0, 40, 1.0).is_err());
    }
}
