//! The statistics the claims report: proportions and their differences
//! with normal-approximation tests, and a logistic regression of a score
//! in [0, 1] with robust (sandwich) standard errors.
//!
//! A game's score (1, 1/2, 0) is a fractional response, so the regression
//! is the quasi-binomial logistic model fitted by iteratively reweighted
//! least squares; its sandwich covariance stays valid when draws make the
//! binomial variance wrong.
//!
//! They live in the `heterodox-stats` crate, which Python shares
//! (`heterodox.stats`); this module re-exports them where the claims name them.
//! The p-values are the normal fit the claims use
//! (`heterodox_stats::normal::two_sided_p_chebyshev`).

pub use heterodox_stats::mean::{Difference, Mean};
pub use heterodox_stats::normal::{
    cdf_chebyshev as normal_cdf, two_sided_p_chebyshev as two_sided_p,
};
pub use heterodox_stats::regression::{
    logistic_regression, logistic_regression_ridge, Coefficient, RegressionError,
};
