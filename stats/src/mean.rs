//! Means of per-game values and differences of two means.
//!
//! Two tests of a difference live here. [`Difference`] is Welch's **z**:
//! the difference over `sqrt(se_a^2 + se_b^2)`, referred to the normal
//! distribution, with a normal 95% interval; it is what the claims use
//! (their samples are hundreds of games, where z and t agree to the
//! digits printed). [`Welch`] is Welch's **t**-test proper: the same
//! statistic referred to Student's t with the Welch-Satterthwaite degrees
//! of freedom, with the matching t interval, as
//! `scipy.stats.ttest_ind(a, b, equal_var=False)` computes it; it is what
//! Python's `heterodox.stats.welch` returns, and the right one for small
//! samples.

use serde::{Deserialize, Serialize};

use crate::error::{check_probability, check_sample, StatsError};
use crate::normal::{two_sided_p_chebyshev, Z95};
use crate::proportion::wilson_interval;
use crate::student;

/// A mean of per-game values (scores, indicators) with its standard error
/// and 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    pub n: usize,
    pub mean: f64,
    pub std_error: f64,
    pub low: f64,
    pub high: f64,
}

impl Mean {
    /// The mean of `values`. For a `proportion` (scores and rates in
    /// [0, 1]) the interval is Wilson's, as for the arena's scores: it stays
    /// inside [0, 1] and is not a point at 0% or 100%; otherwise the normal
    /// interval. The standard error is the sample's either way (standard
    /// deviation with `n - 1`, over `sqrt(n)`; 0 for one value), and is
    /// what the tests of differences use. NaN throughout for no values.
    pub fn of(values: &[f64], proportion: bool) -> Mean {
        let n = values.len();
        if n == 0 {
            return Mean {
                n,
                mean: f64::NAN,
                std_error: f64::NAN,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let variance = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let std_error = (variance / n as f64).sqrt();
        let (low, high) = if proportion {
            wilson_interval(mean, n.min(u32::MAX as usize) as u32, Z95)
        } else {
            (mean - Z95 * std_error, mean + Z95 * std_error)
        };
        Mean {
            n,
            mean,
            std_error,
            low,
            high,
        }
    }
}

/// The difference `a - b` of two independent means, its 95% interval and
/// the two-sided p-value of "no difference": Welch's z (normal reference
/// distribution, p-value from [`crate::normal::two_sided_p_chebyshev`]).
/// The claims' test; [`Welch`] is the t-test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    pub z: f64,
    pub p_value: f64,
}

impl Difference {
    /// Of two means: a standard error of 0 (two constant samples) gives
    /// z NaN and p 1 for equal means, 0 otherwise.
    pub fn of(a: &Mean, b: &Mean) -> Difference {
        let estimate = a.mean - b.mean;
        let se = (a.std_error.powi(2) + b.std_error.powi(2)).sqrt();
        let z = if se > 0.0 { estimate / se } else { f64::NAN };
        Difference {
            estimate,
            low: estimate - Z95 * se,
            high: estimate + Z95 * se,
            z,
            p_value: if se > 0.0 {
                two_sided_p_chebyshev(z)
            } else if estimate == 0.0 || estimate.is_nan() {
                1.0
            } else {
                0.0
            },
        }
    }
}

/// Welch's t-test of the difference `mean(a) - mean(b)` of two
/// independent samples with possibly unequal variances.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Welch {
    /// `mean(a) - mean(b)`.
    pub difference: f64,
    /// `sqrt(var_a / n_a + var_b / n_b)` (sample variances, `n - 1`).
    pub std_error: f64,
    /// `difference / std_error`.
    pub statistic: f64,
    /// Welch-Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value from Student's t with `df` degrees of freedom.
    pub p_value: f64,
    /// The interval `difference -+ t_(df) std_error` at the confidence
    /// asked.
    pub low: f64,
    pub high: f64,
}

impl Welch {
    /// The test of samples `a` and `b` (at least 2 finite values each)
    /// with a two-sided interval at `confidence` (0.95 for 95%). Errors for
    /// too few or non-finite values, a confidence outside (0, 1), or two
    /// constant samples (no variance: the statistic is undefined).
    pub fn of(a: &[f64], b: &[f64], confidence: f64) -> Result<Welch, StatsError> {
        check_sample("a", a, 2)?;
        check_sample("b", b, 2)?;
        check_probability("confidence", confidence)?;
        let (mean_a, var_a) = mean_and_variance(a);
        let (mean_b, var_b) = mean_and_variance(b);
        let (n_a, n_b) = (a.len() as f64, b.len() as f64);
        let (va, vb) = (var_a / n_a, var_b / n_b);
        let se2 = va + vb;
        if se2 <= 0.0 {
            return Err(StatsError::Undefined(
                "both samples are constant: Welch's t is undefined without variance",
            ));
        }
        let std_error = se2.sqrt();
        let difference = mean_a - mean_b;
        let statistic = difference / std_error;
        let df = se2 * se2 / (va * va / (n_a - 1.0) + vb * vb / (n_b - 1.0));
        let t = -student::quantile((1.0 - confidence) / 2.0, df);
        Ok(Welch {
            difference,
            std_error,
            statistic,
            df,
            p_value: student::two_sided_p(statistic, df),
            low: difference - t * std_error,
            high: difference + t * std_error,
        })
    }
}

/// Mean and sample variance (`n - 1`), two passes.
pub(crate) fn mean_and_variance(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_differences() {
        let a = Mean::of(&[1.0, 0.5, 0.5, 0.0, 1.0, 1.0], true);
        assert_eq!(a.n, 6);
        assert!((a.mean - 4.0 / 6.0).abs() < 1e-12);
        // Sample variance: deviations 1/3, -1/6, -1/6, -2/3, 1/3, 1/3.
        let variance = (3.0 / 9.0 + 2.0 / 36.0 + 4.0 / 9.0) / 5.0;
        assert!((a.std_error - (variance / 6.0f64).sqrt()).abs() < 1e-12);
        assert_eq!((a.low, a.high), wilson_interval(4.0 / 6.0, 6, Z95));
        let b = Mean::of(&[0.5, 0.5, 0.5, 0.5], true);
        let d = Difference::of(&a, &b);
        assert!((d.estimate - (4.0 / 6.0 - 0.5)).abs() < 1e-12);
        assert!((d.z - d.estimate / a.std_error).abs() < 1e-12);
        let constant = Difference::of(&b, &b);
        assert!(constant.z.is_nan());
        assert_eq!(constant.p_value, 1.0);
        assert!(Mean::of(&[], false).mean.is_nan());
    }

    #[test]
    fn welch_matches_scipy() {
        // scipy.stats.ttest_ind(a, b, equal_var=False) and its
        // confidence_interval(0.95).
        let a = [1.0, 0.5, 0.5, 0.0, 1.0, 1.0, 0.5, 1.0];
        let b = [0.0, 0.5, 0.0, 0.0, 1.0, 0.5];
        let w = Welch::of(&a, &b, 0.95).unwrap();
        assert!((w.difference - (0.6875 - 1.0 / 3.0)).abs() < 1e-15);
        assert!(
            (w.statistic - 1.668_133_238_289_963_2).abs() < 1e-12,
            "{w:?}"
        );
        assert!((w.df - 10.310_559_473_573_026).abs() < 1e-11, "{w:?}");
        assert!(
            (w.p_value - 0.125_331_723_336_434_14).abs() < 1e-12,
            "{w:?}"
        );
        assert!((w.low - -0.116_972_246_326_181_36).abs() < 1e-11, "{w:?}");
        assert!((w.high - 0.825_305_579_659_514_8).abs() < 1e-11, "{w:?}");
        assert!(Welch::of(&a, &[1.0], 0.95).is_err());
        assert!(Welch::of(&[1.0, 1.0], &[2.0, 2.0], 0.95).is_err());
        assert!(Welch::of(&a, &[1.0, f64::NAN], 0.95).is_err());
        assert!(Welch::of(&a, &b, 0.0).is_err());
    }
}
