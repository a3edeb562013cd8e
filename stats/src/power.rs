//! How many games would decide: the power of two-sided tests of scores and
//! proportions, the games they need, and the games an interval of a given
//! half-width needs.
//!
//! Proportions are compared on Cohen's arcsine scale,
//! `h = 2 asin sqrt(p1) - 2 asin sqrt(p2)`, on which an estimate from `n`
//! trials has variance `1 / n` whatever the proportion. A two-sided level-`alpha` z test whose
//! statistic is shifted by `d` under the alternative rejects with
//! probability `P(Z > z - d) + P(Z < -z - d)`, `z` the `1 - alpha / 2`
//! normal quantile (both tails counted); `d = |h| sqrt(n)` for a score
//! against 1/2 over `n` games, `d = |h| sqrt(n / 2)` for two proportions of
//! `n` games each. The games needed solve `power = target` for `n` (a real
//! number: round up). This is statsmodels' `NormalIndPower` with
//! `effect_size = proportion_effectsize(p1, p2)` (`ratio=0` for one sample,
//! 1 for two).
//!
//! Draws count as half a win and make the per-game variance smaller than
//! the Bernoulli variance these assume, so with draws the games needed are
//! an upper bound.

use crate::error::{check_probability, StatsError};
use crate::normal;

/// Cohen's effect size `h` of two proportions.
pub fn cohen_h(p1: f64, p2: f64) -> f64 {
    2.0 * p1.sqrt().asin() - 2.0 * p2.sqrt().asin()
}

/// Probability that a two-sided level-`alpha` z test rejects when its
/// statistic's mean is `shift`.
fn power_of_shift(shift: f64, alpha: f64) -> f64 {
    let z = -normal::quantile(alpha / 2.0);
    normal::sf(z - shift) + normal::cdf(-z - shift)
}

/// The shift `d >= 0` at which the test has `power` (> alpha): bisection
/// to the last bit (the power increases with `d`).
fn shift_for_power(power: f64, alpha: f64) -> f64 {
    let (mut low, mut high) = (0.0f64, 1.0f64);
    while power_of_shift(high, alpha) < power {
        low = high;
        high *= 2.0;
    }
    loop {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            return mid;
        }
        if power_of_shift(mid, alpha) < power {
            low = mid;
        } else {
            high = mid;
        }
    }
}

fn check_levels(alpha: f64, power: Option<f64>) -> Result<(), StatsError> {
    check_probability("alpha", alpha)?;
    if let Some(power) = power {
        check_probability("power", power)?;
        if power <= alpha {
            return Err(StatsError::OutOfRange {
                what: "power",
                range: "above alpha (a test that rejects at random has power alpha)",
                value: power,
            });
        }
    }
    Ok(())
}

fn check_proportion(what: &'static str, p: f64) -> Result<(), StatsError> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            what,
            range: "in [0, 1]",
            value: p,
        })
    }
}

fn check_games(games: f64) -> Result<(), StatsError> {
    if games > 0.0 && games.is_finite() {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            what: "games",
            range: "positive and finite",
            value: games,
        })
    }
}

fn effect(p1: f64, p2: f64) -> Result<f64, StatsError> {
    let h = cohen_h(p1, p2).abs();
    if h > 0.0 {
        Ok(h)
    } else {
        Err(StatsError::Undefined(
            "no games decide between equal proportions (the effect is 0)",
        ))
    }
}

/// The power of the two-sided level-`alpha` test of "the score is 1/2"
/// over `games` games when the true score is `score`.
pub fn power_of_score(score: f64, games: f64, alpha: f64) -> Result<f64, StatsError> {
    check_proportion("score", score)?;
    check_games(games)?;
    check_levels(alpha, None)?;
    Ok(power_of_shift(
        cohen_h(score, 0.5).abs() * games.sqrt(),
        alpha,
    ))
}

/// The games for which the two-sided level-`alpha` test of "the score is
/// 1/2" has `power` when the true score is `score` (not 1/2).
pub fn games_for_score(score: f64, alpha: f64, power: f64) -> Result<f64, StatsError> {
    check_proportion("score", score)?;
    check_levels(alpha, Some(power))?;
    let h = effect(score, 0.5)?;
    Ok((shift_for_power(power, alpha) / h).powi(2))
}

/// The power of the two-sided level-`alpha` test of `p1 = p2` with
/// `games` games on each side, when the true proportions are `p1`, `p2`.
pub fn power_of_difference(p1: f64, p2: f64, games: f64, alpha: f64) -> Result<f64, StatsError> {
    check_proportion("p1", p1)?;
    check_proportion("p2", p2)?;
    check_games(games)?;
    check_levels(alpha, None)?;
    Ok(power_of_shift(
        cohen_h(p1, p2).abs() * (games / 2.0).sqrt(),
        alpha,
    ))
}

/// The games on each side for which the two-sided level-`alpha` test of
/// `p1 = p2` has `power` when the true proportions are `p1 != p2`.
pub fn games_for_difference(p1: f64, p2: f64, alpha: f64, power: f64) -> Result<f64, StatsError> {
    check_proportion("p1", p1)?;
    check_proportion("p2", p2)?;
    check_levels(alpha, Some(power))?;
    let h = effect(p1, p2)?;
    Ok(2.0 * (shift_for_power(power, alpha) / h).powi(2))
}

/// The games for which a normal interval of a mean at `confidence` has
/// half-width `half_width`, when one game's standard deviation is `sd`
/// (1/2 bounds a score's, with or without draws): `(z sd / h)^2`.
pub fn games_for_half_width(half_width: f64, sd: f64, confidence: f64) -> Result<f64, StatsError> {
    if !(half_width > 0.0 && half_width.is_finite()) {
        return Err(StatsError::OutOfRange {
            what: "half_width",
            range: "positive and finite",
            value: half_width,
        });
    }
    if !(sd > 0.0 && sd.is_finite()) {
        return Err(StatsError::OutOfRange {
            what: "sd",
            range: "positive and finite",
            value: sd,
        });
    }
    check_probability("confidence", confidence)?;
    Ok((normal::z_of_confidence(confidence) * sd / half_width).powi(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, relative: f64) -> bool {
        (a - b).abs() <= relative * b.abs()
    }

    #[test]
    fn match_statsmodels() {
        // The root of statsmodels' NormalIndPower().power(
        // proportion_effectsize(0.55, 0.5), n, alpha=0.05, ratio=0) = 0.8
        // (scipy's brentq to 1e-15; statsmodels' own solve_power stops at
        // 782.26450528, 4e-10 away), and ratio=1 for two samples.
        let one = games_for_score(0.55, 0.05, 0.8).unwrap();
        assert!(close(one, 782.264_505_613_773_2, 1e-10), "{one}");
        let two = games_for_difference(0.55, 0.5, 0.05, 0.8).unwrap();
        assert!(close(two, 1_564.529_011_227_546_3, 1e-10), "{two}");
        // And back: the power at those games is 0.8.
        assert!(close(power_of_score(0.55, one, 0.05).unwrap(), 0.8, 1e-12));
        assert!(close(
            power_of_difference(0.55, 0.5, two, 0.05).unwrap(),
            0.8,
            1e-12
        ));
        // No games test at level alpha.
        assert!(close(
            power_of_score(0.5, 100.0, 0.05).unwrap(),
            0.05,
            1e-12
        ));
    }

    #[test]
    fn half_width() {
        // +-5 points at 95% with the worst-case sd 1/2: 384.1 games.
        let n = games_for_half_width(0.05, 0.5, 0.95).unwrap();
        assert!(close(n, (normal::Z95 * 0.5 / 0.05).powi(2), 1e-14), "{n}");
        assert!(games_for_half_width(0.0, 0.5, 0.95).is_err());
        assert!(games_for_half_width(0.05, -1.0, 0.95).is_err());
    }

    #[test]
    fn bad_levels() {
        assert!(games_for_score(0.5, 0.05, 0.8).is_err());
        assert!(games_for_score(0.6, 0.05, 0.04).is_err());
        assert!(games_for_score(1.2, 0.05, 0.8).is_err());
        assert!(games_for_difference(0.6, 0.5, 0.0, 0.8).is_err());
        assert!(power_of_score(0.6, 0.0, 0.05).is_err());
    }
}
