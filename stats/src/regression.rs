//! Logistic regression of a score in [0, 1] with robust (sandwich)
//! standard errors, optionally with a ridge penalty.
//!
//! A game's score (1, 1/2, 0) is a fractional response, so the model is the
//! quasi-binomial logistic `logit E[y] = x . beta`, fitted by Newton's
//! method (iteratively reweighted least squares) on the binomial score
//! equations `sum (y - mu) x = 0`. Its covariance is the sandwich
//! `B^-1 M B^-1` with the bread `B = sum mu (1 - mu) x x'` (the Fisher
//! information, which for the logit link is also the observed one) and the
//! meat `M = sum (y - mu)^2 x x'`, with no small-sample factor: White's
//! HC0. It stays valid when draws make the binomial variance wrong. This is
//! exactly statsmodels' `GLM(y, X, family=Binomial()).fit(cov_type='HC0')`
//! (docs/stats.md gives the measured agreement); HC1 would scale the
//! covariance by `n / (n - k)`. The p-values are the claims',
//! [`crate::normal::two_sided_p_chebyshev`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::elo::sigmoid;
use crate::normal::{two_sided_p_chebyshev, Z95};

/// A fitted coefficient.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coefficient {
    pub estimate: f64,
    pub std_error: f64,
    pub low: f64,
    pub high: f64,
    pub z: f64,
    pub p_value: f64,
}

/// Why a regression has no estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegressionError {
    /// No more rows than the coefficients.
    TooFewRows(usize),
    /// The predictors are collinear.
    Singular,
    /// Newton's method diverged or did not settle in 100 steps.
    NoConvergence,
}

impl fmt::Display for RegressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegressionError::TooFewRows(k) => write!(
                f,
                "the regression needs more games than its {k} coefficients"
            ),
            RegressionError::Singular => {
                f.write_str("the predictors are collinear (e.g. a lead that never varies)")
            }
            RegressionError::NoConvergence => {
                f.write_str("the fit did not converge (separated data)")
            }
        }
    }
}

impl std::error::Error for RegressionError {}

/// Fits `logit E[y] = x . beta` to rows `x` (each with the intercept's 1
/// included, as the first column) and responses `y` in [0, 1]; returns the
/// coefficients with sandwich standard errors, in the columns' order.
///
/// # Panics
///
/// If a row is shorter than the first (the callers build rectangular
/// rows; Python's binding checks before calling).
pub fn logistic_regression(x: &[Vec<f64>], y: &[f64]) -> Result<Vec<Coefficient>, RegressionError> {
    logistic_regression_ridge(x, y, 0.0)
}

/// [`logistic_regression`] with a ridge penalty `ridge / 2 * |beta|^2` on
/// every coefficient but the intercept (the first column): a normal prior
/// of variance `1 / ridge` on each. It keeps the estimate finite where the
/// data separate (every game with a material lead won, as between strong
/// agents in a few games), at the price of shrinking small samples'
/// coefficients towards 0; with many rows the data outweigh it. The
/// standard errors are the sandwich of the penalised fit (bread `X'WX +
/// ridge I` without the intercept's entry), so they shrink with it.
pub fn logistic_regression_ridge(
    x: &[Vec<f64>],
    y: &[f64],
    ridge: f64,
) -> Result<Vec<Coefficient>, RegressionError> {
    let k = x.first().map_or(0, Vec::len);
    if x.len() <= k {
        return Err(RegressionError::TooFewRows(k));
    }
    let mut beta = vec![0.0; k];
    let mut converged = false;
    for _ in 0..100 {
        let (information, score) = information_and_score(x, y, &beta, ridge);
        let step = solve(&information, &score).ok_or(RegressionError::Singular)?;
        let mut largest = 0.0f64;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b += s;
            largest = largest.max(s.abs());
        }
        if beta.iter().any(|b| !b.is_finite() || b.abs() > 50.0) {
            return Err(RegressionError::NoConvergence);
        }
        if largest < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(RegressionError::NoConvergence);
    }
    let (information, _) = information_and_score(x, y, &beta, ridge);
    let bread = invert(&information).ok_or(RegressionError::Singular)?;
    let mut meat = vec![vec![0.0; k]; k];
    for (row, &target) in x.iter().zip(y) {
        let residual = target - sigmoid(dot(row, &beta));
        for i in 0..k {
            for j in 0..k {
                meat[i][j] += residual * residual * row[i] * row[j];
            }
        }
    }
    let covariance = multiply(&multiply(&bread, &meat), &bread);
    Ok((0..k)
        .map(|i| {
            let std_error = covariance[i][i].max(0.0).sqrt();
            let z = beta[i] / std_error;
            Coefficient {
                estimate: beta[i],
                std_error,
                low: beta[i] - Z95 * std_error,
                high: beta[i] + Z95 * std_error,
                z,
                p_value: two_sided_p_chebyshev(z),
            }
        })
        .collect())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// X'WX and X'(y - mu) at `beta`, with the ridge's terms (all but the
/// intercept).
fn information_and_score(
    x: &[Vec<f64>],
    y: &[f64],
    beta: &[f64],
    ridge: f64,
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let k = beta.len();
    let mut information = vec![vec![0.0; k]; k];
    let mut score = vec![0.0; k];
    for (row, &target) in x.iter().zip(y) {
        let mu = sigmoid(dot(row, beta));
        let weight = mu * (1.0 - mu);
        for i in 0..k {
            score[i] += (target - mu) * row[i];
            for j in 0..k {
                information[i][j] += weight * row[i] * row[j];
            }
        }
    }
    for i in 1..k {
        score[i] -= ridge * beta[i];
        information[i][i] += ridge;
    }
    (information, score)
}

fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = a.len();
    (0..k)
        .map(|i| {
            (0..k)
                .map(|j| (0..k).map(|m| a[i][m] * b[m][j]).sum())
                .collect()
        })
        .collect()
}

/// Gauss-Jordan inverse with partial pivoting; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = a.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..k).map(|j| f64::from(u8::from(i == j))));
            r
        })
        .collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&p, &q| m[p][col].abs().total_cmp(&m[q][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 * scale {
            return None;
        }
        m.swap(col, pivot);
        let p = m[col][col];
        for v in &mut m[col] {
            *v /= p;
        }
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            let f = row[col];
            if r != col && f != 0.0 {
                for (value, p) in row.iter_mut().zip(&pivot_row) {
                    *value -= f * p;
                }
            }
        }
    }
    Some(m.into_iter().map(|row| row[k..].to_vec()).collect())
}

fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let inverse = invert(a)?;
    Some(inverse.iter().map(|row| dot(row, b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_regression_recovers_a_known_fit() {
        // Two groups: x = 0 scores 1/4 on average, x = 1 scores 3/4. The
        // fit is saturated: beta0 = logit(1/4), beta1 = logit(3/4) -
        // logit(1/4) = 2 ln 3.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for (g, scores) in [(0.0, [0.0, 0.0, 0.5, 0.5]), (1.0, [1.0, 1.0, 0.5, 0.5])] {
            for s in scores {
                x.push(vec![1.0, g]);
                y.push(s);
            }
        }
        let fit = logistic_regression(&x, &y).unwrap();
        assert!((fit[0].estimate + 3.0f64.ln()).abs() < 1e-9, "{fit:?}");
        assert!(
            (fit[1].estimate - 2.0 * 3.0f64.ln()).abs() < 1e-9,
            "{fit:?}"
        );
        // Sandwich variance of beta0: sum (y - mu)^2 / (n mu (1 - mu))^2
        // = 4 * (1/16) / (4 * 3/16)^2 = 4/9.
        assert!(
            (fit[0].std_error - (4.0f64 / 9.0).sqrt()).abs() < 1e-9,
            "{fit:?}"
        );
    }

    #[test]
    fn degenerate_regressions_are_errors() {
        let x = vec![vec![1.0, 2.0]; 5];
        assert_eq!(
            logistic_regression(&x, &[0.0, 1.0, 0.5, 0.5, 1.0]),
            Err(RegressionError::Singular)
        );
        assert_eq!(
            logistic_regression(&[vec![1.0, 0.0]], &[1.0]),
            Err(RegressionError::TooFewRows(2))
        );
        let separated: Vec<Vec<f64>> = (0..6).map(|i| vec![1.0, f64::from(i)]).collect();
        assert_eq!(
            logistic_regression(&separated, &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]),
            Err(RegressionError::NoConvergence)
        );
    }

    #[test]
    fn a_ridge_keeps_separated_data_finite() {
        // The data that defeat the plain fit above. The penalised fit
        // solves sum (y - mu) = 0 (the intercept is free) and
        // sum (y - mu) x = ridge * beta1.
        let separated: Vec<Vec<f64>> = (0..6).map(|i| vec![1.0, f64::from(i)]).collect();
        let y = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let fit = logistic_regression_ridge(&separated, &y, 0.25).unwrap();
        let beta = [fit[0].estimate, fit[1].estimate];
        let residuals: Vec<f64> = separated
            .iter()
            .zip(y)
            .map(|(row, target)| target - sigmoid(dot(row, &beta)))
            .collect();
        assert!(residuals.iter().sum::<f64>().abs() < 1e-9, "{fit:?}");
        let slope: f64 = residuals
            .iter()
            .zip(&separated)
            .map(|(r, row)| r * row[1])
            .sum();
        assert!((slope - 0.25 * beta[1]).abs() < 1e-9, "{fit:?}");
        assert!(beta[1] > 0.5 && beta[1] < 5.0, "{fit:?}");
        // By symmetry the midpoint x = 2.5 scores one half.
        assert!((beta[0] + 2.5 * beta[1]).abs() < 1e-9, "{fit:?}");
        // Ridge 0 is the plain fit.
        assert_eq!(
            logistic_regression_ridge(&separated, &y, 0.0),
            Err(RegressionError::NoConvergence)
        );
    }
}
