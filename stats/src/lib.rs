//! The statistics of Heterodox, in one crate that links nothing heavy (serde
//! only), so that the command line (the claims, the arena) and Python
//! (`heterodox.stats`, through the native module) compute the same numbers
//! with the same code. docs/stats.md lists each statistic with its Python
//! call and how closely it agrees with scipy and statsmodels.
//!
//! One module per concept:
//!
//! - [`normal`]: the standard normal distribution (cdf, upper tail,
//!   quantile, [`Z95`], two-sided p-values);
//! - [`student`]: Student's t distribution (cdf, quantile), for Welch's
//!   t-test;
//! - [`proportion`]: Wilson's score interval of a proportion;
//! - [`mean`]: a sample mean with its interval, and the difference of two
//!   means (Welch's z, which the claims use, and Welch's t-test);
//! - [`elo`]: Elo differences and expected scores (the logistic model);
//! - [`pentanomial`]: colour-swapped game pairs counted by their total
//!   score, with the Elo and its interval;
//! - [`sprt`]: the generalised sequential probability ratio test of
//!   paired games;
//! - [`regression`]: logistic regression of a fractional score
//!   (quasi-binomial) with sandwich standard errors, optionally ridged;
//! - [`bootstrap`]: seeded percentile bootstrap of a mean or of a
//!   difference of means;
//! - [`power`]: games needed to decide a test or to reach an interval's
//!   width.
//!
//! Functions that take data from outside (Python) validate it and return a
//! [`StatsError`]; the claims' and arena's functions, which read their own
//! counts, keep their total signatures (NaN or `None` where undefined).

pub mod bootstrap;
pub mod elo;
mod error;
pub mod mean;
pub mod normal;
pub mod pentanomial;
pub mod power;
pub mod proportion;
pub mod regression;
pub mod sprt;
pub mod student;

pub use error::StatsError;
pub use normal::Z95;
