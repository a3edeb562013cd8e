//! Why a statistic cannot be computed from the data or parameters given.

use std::fmt;

/// A bad input to one of the validating functions; the message names the
/// argument and what it must be.
#[derive(Clone, Debug, PartialEq)]
pub enum StatsError {
    /// A sample with fewer values than the statistic needs.
    TooFew {
        what: &'static str,
        needed: usize,
        got: usize,
    },
    /// A value that is NaN or infinite.
    NotFinite { what: &'static str },
    /// A parameter outside its range (`range` in words, e.g. "in (0, 1)").
    OutOfRange {
        what: &'static str,
        range: &'static str,
        value: f64,
    },
    /// Data for which the statistic is undefined (the message says why).
    Undefined(&'static str),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::TooFew { what, needed, got } => {
                write!(f, "{what} needs at least {needed} values, got {got}")
            }
            StatsError::NotFinite { what } => {
                write!(f, "{what} must be finite (no NaN or infinity)")
            }
            StatsError::OutOfRange { what, range, value } => {
                write!(f, "{what} must be {range}, not {value}")
            }
            StatsError::Undefined(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for StatsError {}

/// `Err` unless `value` is in the open interval (0, 1).
pub(crate) fn check_probability(what: &'static str, value: f64) -> Result<(), StatsError> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            what,
            range: "in (0, 1)",
            value,
        })
    }
}

/// `Err` unless every value is finite and there are at least `needed`.
pub(crate) fn check_sample(
    what: &'static str,
    values: &[f64],
    needed: usize,
) -> Result<(), StatsError> {
    if values.len() < needed {
        return Err(StatsError::TooFew {
            what,
            needed,
            got: values.len(),
        });
    }
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(StatsError::NotFinite { what })
    }
}
