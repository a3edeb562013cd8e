//! The statistics of `heterodox-stats` for Python: the functions behind
//! `heterodox.stats` (python/heterodox/stats.py), which wraps their tuples
//! in named, frozen results. Each checks its arguments first (finite
//! numbers, ranges, sizes within the limits below), so that a bad input is
//! a `ValueError` naming the argument, never a panic; the bootstrap runs
//! with the GIL released.

use heterodox_stats::bootstrap::{bootstrap_difference, bootstrap_mean, Bootstrap};
use heterodox_stats::elo::{elo_of_score, score_of_elo};
use heterodox_stats::mean::{Difference, Mean, Welch};
use heterodox_stats::pentanomial::Pentanomial;
use heterodox_stats::proportion::Wilson;
use heterodox_stats::regression::logistic_regression_ridge;
use heterodox_stats::sprt::{Sprt, SprtDecision};
use heterodox_stats::{normal, power, student};
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::value_error;

/// The most values one sample may hold (80 MB of floats).
const MAX_VALUES: usize = 10_000_000;

/// The most values a bootstrap draws in all (resamples times the sample
/// sizes): some seconds of work.
const MAX_BOOTSTRAP_DRAWS: u128 = 2_000_000_000;

/// The most replicates of a bootstrap.
const MAX_RESAMPLES: u64 = 10_000_000;

/// The most predictors of a logistic regression (the intercept apart),
/// and the most numbers its rows may hold in all.
const MAX_PREDICTORS: usize = 63;
const MAX_REGRESSION_CELLS: usize = 50_000_000;

/// `value` (a 1-D numpy float64 array or a sequence of numbers) as floats,
/// at most [`MAX_VALUES`] of them, each finite.
fn floats(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<f64>> {
    let values: Vec<f64> = if let Ok(array) = value.extract::<PyReadonlyArray1<'_, f64>>() {
        check_size(array.len(), name)?;
        array.as_array().iter().copied().collect()
    } else {
        let len = value.len().map_err(|_| not_numbers(value, name))?;
        check_size(len, name)?;
        value.extract().map_err(|_| not_numbers(value, name))?
    };
    if values.iter().any(|v| !v.is_finite()) {
        return Err(value_error(format!(
            "{name} must be finite numbers (no NaN or infinity)"
        )));
    }
    Ok(values)
}

fn check_size(len: usize, name: &str) -> PyResult<()> {
    if len > MAX_VALUES {
        return Err(value_error(format!(
            "{name} holds {len} values; at most {MAX_VALUES} are accepted"
        )));
    }
    Ok(())
}

fn not_numbers(value: &Bound<'_, PyAny>, name: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must be a sequence of numbers, not {}",
        value
            .get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string())
    ))
}

/// `value` unless it is NaN or infinite.
fn finite(value: f64, name: &str) -> PyResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(value_error(format!("{name} must be finite, not {value}")))
    }
}

/// An Elo as a float: `+inf`/`-inf` for a score of 1/0.
fn elo_or_infinity(elo: Option<f64>, score: f64) -> f64 {
    elo.unwrap_or(if score >= 0.5 {
        f64::INFINITY
    } else {
        f64::NEG_INFINITY
    })
}

/// Five pair counts as a pentanomial, their total within `u32`.
fn pentanomial_of(counts: Vec<u64>) -> PyResult<Pentanomial> {
    let counts: [u64; 5] = counts.try_into().map_err(|counts: Vec<u64>| {
        value_error(format!(
            "counts must be 5 numbers of pairs (totals 0, 1/2, 1, 3/2, 2), not {}",
            counts.len()
        ))
    })?;
    let total = counts
        .iter()
        .try_fold(0u64, |sum, &c| sum.checked_add(c))
        .unwrap_or(u64::MAX);
    if total > u64::from(u32::MAX) {
        return Err(value_error(format!(
            "counts total {total} pairs; at most {} are accepted",
            u32::MAX
        )));
    }
    Ok(Pentanomial::new(counts.map(|c| c as u32)))
}

/// P(Z <= x) for a standard normal Z (relative error about 1e-13).
#[pyfunction]
pub fn stats_normal_cdf(x: f64) -> f64 {
    normal::cdf(x)
}

/// P(Z > x) for a standard normal Z, accurate far in the tail.
#[pyfunction]
pub fn stats_normal_sf(x: f64) -> f64 {
    normal::sf(x)
}

/// The standard normal quantile of p (Wichura's AS 241): -inf at 0, +inf
/// at 1. ValueError outside [0, 1].
#[pyfunction]
pub fn stats_normal_quantile(p: f64) -> PyResult<f64> {
    if !(0.0..=1.0).contains(&p) {
        return Err(value_error(format!("p must be in [0, 1], not {p}")));
    }
    Ok(normal::quantile(p))
}

/// P(T <= t) for Student's t with df degrees of freedom (df > 0, real).
#[pyfunction]
pub fn stats_t_cdf(t: f64, df: f64) -> PyResult<f64> {
    check_df(df)?;
    if t.is_nan() {
        return Err(value_error("t must not be NaN"));
    }
    Ok(student::cdf(t, df))
}

/// The quantile of p for Student's t with df degrees of freedom: -inf at
/// 0, +inf at 1. ValueError for p outside [0, 1] or df <= 0.
#[pyfunction]
pub fn stats_t_quantile(p: f64, df: f64) -> PyResult<f64> {
    check_df(df)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(value_error(format!("p must be in [0, 1], not {p}")));
    }
    Ok(student::quantile(p, df))
}

fn check_df(df: f64) -> PyResult<()> {
    if df > 0.0 && !df.is_nan() {
        Ok(())
    } else {
        Err(value_error(format!("df must be positive, not {df}")))
    }
}

/// Wilson's score interval of successes (fractional allowed: a draw is
/// half) out of n trials: (estimate, low, high).
#[pyfunction]
#[pyo3(signature = (successes, n, confidence=0.95))]
pub fn stats_wilson(successes: f64, n: u64, confidence: f64) -> PyResult<(f64, f64, f64)> {
    let w = Wilson::of_counts(successes, n, confidence).map_err(value_error)?;
    Ok((w.estimate, w.low, w.high))
}

/// The claims' mean of values with its standard error and 95% interval
/// (Wilson's when proportion is true, else normal): (n, mean, std_error,
/// low, high).
#[pyfunction]
#[pyo3(signature = (values, proportion=false))]
pub fn stats_mean(
    values: &Bound<'_, PyAny>,
    proportion: bool,
) -> PyResult<(usize, f64, f64, f64, f64)> {
    let values = floats(values, "values")?;
    if values.is_empty() {
        return Err(value_error("values needs at least 1 value, got 0"));
    }
    if proportion && values.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(value_error("a proportion's values must be in [0, 1]"));
    }
    let m = Mean::of(&values, proportion);
    Ok((m.n, m.mean, m.std_error, m.low, m.high))
}

/// The claims' Welch z test of mean(a) - mean(b) (normal reference, 95%
/// normal interval): (difference, low, high, z, pvalue).
#[pyfunction]
pub fn stats_welch_z(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<(f64, f64, f64, f64, f64)> {
    let (a, b) = (floats(a, "a")?, floats(b, "b")?);
    if a.is_empty() || b.is_empty() {
        return Err(value_error("a and b need at least 1 value each"));
    }
    let d = Difference::of(&Mean::of(&a, false), &Mean::of(&b, false));
    Ok((d.estimate, d.low, d.high, d.z, d.p_value))
}

/// Welch's t-test of mean(a) - mean(b): (difference, std_error,
/// statistic, df, pvalue, low, high), the interval at confidence.
#[pyfunction]
#[pyo3(signature = (a, b, confidence=0.95))]
#[allow(clippy::type_complexity)]
pub fn stats_welch(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    confidence: f64,
) -> PyResult<(f64, f64, f64, f64, f64, f64, f64)> {
    let (a, b) = (floats(a, "a")?, floats(b, "b")?);
    let w = Welch::of(&a, &b, confidence).map_err(value_error)?;
    Ok((
        w.difference,
        w.std_error,
        w.statistic,
        w.df,
        w.p_value,
        w.low,
        w.high,
    ))
}

/// The Elo difference of a mean score in [0, 1]: +inf at 1, -inf at 0.
#[pyfunction]
pub fn stats_elo(score: f64) -> PyResult<f64> {
    if !(0.0..=1.0).contains(&score) {
        return Err(value_error(format!("score must be in [0, 1], not {score}")));
    }
    Ok(elo_or_infinity(elo_of_score(score), score))
}

/// The expected score of a player elo stronger (logistic).
#[pyfunction]
pub fn stats_score_of_elo(elo: f64) -> PyResult<f64> {
    Ok(score_of_elo(finite(elo, "elo")?))
}

/// Pentanomial statistics of pair counts [0-2, 1/2-3/2, 1-1, 3/2-1/2,
/// 2-0]: (pairs, score, variance, elo, elo_low, elo_high), the variance
/// that of the per-pair mean score, the Elo interval 95% (infinite bounds
/// as inf).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn stats_pentanomial(counts: Vec<u64>) -> PyResult<(u32, f64, f64, f64, f64, f64)> {
    let pairs = pentanomial_of(counts)?;
    if pairs.pairs() == 0 {
        return Err(value_error("counts hold no pairs"));
    }
    let (score, variance) = pairs.mean_and_variance();
    let (elo, low, high) = pairs.elo_interval();
    let half =
        normal::Z95 * (pairs.regularized_mean_and_variance().1 / f64::from(pairs.pairs())).sqrt();
    Ok((
        pairs.pairs(),
        score,
        variance,
        elo_or_infinity(elo, score),
        elo_or_infinity(low, (score - half).max(0.0)),
        elo_or_infinity(high, (score + half).min(1.0)),
    ))
}

/// The pentanomial counts of pair totals (each 0, 0.5, 1, 1.5 or 2).
#[pyfunction]
pub fn stats_pair_counts(totals: &Bound<'_, PyAny>) -> PyResult<[u32; 5]> {
    let totals = floats(totals, "totals")?;
    Ok(Pentanomial::from_pair_scores(totals)
        .map_err(value_error)?
        .counts)
}

/// The GSPRT of elo0 against elo1 on pair counts: (llr, lower, upper,
/// decision), decision 'H1', 'H0' or 'continue' (always 'continue' under
/// 10 pairs).
#[pyfunction]
#[pyo3(signature = (counts, elo0, elo1, alpha=0.05, beta=0.05))]
pub fn stats_sprt(
    counts: Vec<u64>,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
) -> PyResult<(f64, f64, f64, &'static str)> {
    let pairs = pentanomial_of(counts)?;
    let sprt = Sprt::new(elo0, elo1, alpha, beta).map_err(value_error)?;
    let (lower, upper) = sprt.bounds();
    let decision = match sprt.decision(&pairs) {
        SprtDecision::H1 => "H1",
        SprtDecision::H0 => "H0",
        SprtDecision::Continue => "continue",
    };
    Ok((sprt.llr(&pairs), lower, upper, decision))
}

/// Quasi-binomial logistic regression of y in [0, 1] on the rows of x
/// (predictors only: the intercept is added as the first coefficient),
/// with HC0 sandwich standard errors and a ridge penalty on all but the
/// intercept: one (estimate, std_error, low, high, z, pvalue) per
/// coefficient.
#[pyfunction]
#[pyo3(signature = (x, y, ridge=0.0))]
#[allow(clippy::type_complexity)]
pub fn stats_logistic(
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    ridge: f64,
) -> PyResult<Vec<(f64, f64, f64, f64, f64, f64)>> {
    if !(ridge >= 0.0 && ridge.is_finite()) {
        return Err(value_error(format!(
            "ridge must be finite and at least 0, not {ridge}"
        )));
    }
    let y = floats(y, "y")?;
    if y.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(value_error("y must be in [0, 1]"));
    }
    let rows = x.len().map_err(|_| not_numbers(x, "x"))?;
    if rows != y.len() {
        return Err(value_error(format!(
            "x has {rows} rows but y has {} values",
            y.len()
        )));
    }
    let mut design = Vec::with_capacity(rows);
    let mut width = None;
    for (i, row) in x.try_iter()?.enumerate() {
        let row = floats(&row?, "a row of x")?;
        if *width.get_or_insert(row.len()) != row.len() {
            return Err(value_error(format!(
                "x's rows differ in length: row 0 has {} values, row {i} {}",
                width.unwrap_or(0),
                row.len()
            )));
        }
        if row.len() > MAX_PREDICTORS || (row.len() + 1) * rows > MAX_REGRESSION_CELLS {
            return Err(value_error(format!(
                "x is too large: at most {MAX_PREDICTORS} predictors and {MAX_REGRESSION_CELLS} numbers in all"
            )));
        }
        let mut with_intercept = Vec::with_capacity(row.len() + 1);
        with_intercept.push(1.0);
        with_intercept.extend(row);
        design.push(with_intercept);
    }
    let fit = logistic_regression_ridge(&design, &y, ridge).map_err(value_error)?;
    Ok(fit
        .iter()
        .map(|c| (c.estimate, c.std_error, c.low, c.high, c.z, c.p_value))
        .collect())
}

fn bootstrap_tuple(b: Bootstrap) -> (f64, f64, f64, f64, u32) {
    (b.estimate, b.low, b.high, b.std_error, b.resamples)
}

fn check_resamples(resamples: u64, draws_per_resample: usize) -> PyResult<u32> {
    if !(2..=MAX_RESAMPLES).contains(&resamples) {
        return Err(value_error(format!(
            "resamples must be from 2 to {MAX_RESAMPLES}, not {resamples}"
        )));
    }
    if u128::from(resamples) * draws_per_resample as u128 > MAX_BOOTSTRAP_DRAWS {
        return Err(value_error(format!(
            "resamples * sample size is over {MAX_BOOTSTRAP_DRAWS} draws; take fewer resamples"
        )));
    }
    Ok(resamples as u32)
}

/// Seeded percentile bootstrap of the mean of values: (estimate, low,
/// high, std_error, resamples). The same seed gives the same numbers.
#[pyfunction]
#[pyo3(signature = (values, resamples=10000, confidence=0.95, seed=0))]
pub fn stats_bootstrap_mean(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    resamples: u64,
    confidence: f64,
    seed: u64,
) -> PyResult<(f64, f64, f64, f64, u32)> {
    let values = floats(values, "values")?;
    let resamples = check_resamples(resamples, values.len())?;
    py.detach(|| bootstrap_mean(&values, resamples, confidence, seed))
        .map(bootstrap_tuple)
        .map_err(value_error)
}

/// Seeded percentile bootstrap of mean(a) - mean(b), each sample
/// resampled on its own: (estimate, low, high, std_error, resamples).
#[pyfunction]
#[pyo3(signature = (a, b, resamples=10000, confidence=0.95, seed=0))]
pub fn stats_bootstrap_difference(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    resamples: u64,
    confidence: f64,
    seed: u64,
) -> PyResult<(f64, f64, f64, f64, u32)> {
    let (a, b) = (floats(a, "a")?, floats(b, "b")?);
    let resamples = check_resamples(resamples, a.len() + b.len())?;
    py.detach(|| bootstrap_difference(&a, &b, resamples, confidence, seed))
        .map(bootstrap_tuple)
        .map_err(value_error)
}

/// Power of the two-sided level-alpha test of score = 1/2 over games
/// games when the true score is score (arcsine scale).
#[pyfunction]
#[pyo3(signature = (score, games, alpha=0.05))]
pub fn stats_power_of_score(score: f64, games: f64, alpha: f64) -> PyResult<f64> {
    power::power_of_score(score, games, alpha).map_err(value_error)
}

/// Games for which the two-sided level-alpha test of score = 1/2 has the
/// given power when the true score is score.
#[pyfunction]
#[pyo3(signature = (score, alpha=0.05, power=0.8))]
pub fn stats_games_for_score(score: f64, alpha: f64, power: f64) -> PyResult<f64> {
    power::games_for_score(score, alpha, power).map_err(value_error)
}

/// Power of the two-sided level-alpha test of p1 = p2 with games games on
/// each side (arcsine scale).
#[pyfunction]
#[pyo3(signature = (p1, p2, games, alpha=0.05))]
pub fn stats_power_of_difference(p1: f64, p2: f64, games: f64, alpha: f64) -> PyResult<f64> {
    power::power_of_difference(p1, p2, games, alpha).map_err(value_error)
}

/// Games on each side for which the two-sided level-alpha test of p1 = p2
/// has the given power.
#[pyfunction]
#[pyo3(signature = (p1, p2, alpha=0.05, power=0.8))]
pub fn stats_games_for_difference(p1: f64, p2: f64, alpha: f64, power: f64) -> PyResult<f64> {
    power::games_for_difference(p1, p2, alpha, power).map_err(value_error)
}

/// Games for which a normal interval of a mean at confidence has the given
/// half-width, one game's standard deviation being sd (1/2 bounds a
/// score's).
#[pyfunction]
#[pyo3(signature = (half_width, sd=0.5, confidence=0.95))]
pub fn stats_games_for_half_width(half_width: f64, sd: f64, confidence: f64) -> PyResult<f64> {
    power::games_for_half_width(half_width, sd, confidence).map_err(value_error)
}
