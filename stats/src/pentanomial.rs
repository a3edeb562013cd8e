//! Paired games: the pentanomial counts of their totals, the mean score,
//! the variance per pair and the Elo with its interval, as chess-engine
//! testing frameworks (fishtest, OpenBench, fastchess) compute them.
//!
//! A pair is two games from one opening with colours swapped; player A
//! scores 0, 1/2, 1, 3/2 or 2 over it. Counting pairs by that total (the
//! pentanomial) rather than games by result keeps the correlation the
//! shared opening brings: an opening that favours White cancels within the
//! pair, and the variance of the pair score is the honest one.
//!
//! With `c_k` pairs scoring `k / 2` (k = 0..4) and `N` pairs, the mean
//! score per game is `s = sum c_k (k / 4) / N` and the variance of the
//! per-pair mean score `v = sum c_k (k / 4 - s)^2 / N`. The Elo is that of
//! `s` ([`crate::elo::elo_of_score`]) and its 95% interval maps the normal
//! interval `s -+ Z95 sqrt(v / N)` of the score (with the regularized
//! variance, below). These are fastchess' `EloPentanomial::diff` and
//! `error` (its published test values are this module's tests).

use serde::{Deserialize, Serialize};

use crate::elo::elo_of_score;
use crate::error::StatsError;
use crate::normal::Z95;

/// Pairs counted by A's total score over the pair: `counts[k]` pairs
/// scored `k / 2`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

/// The pseudo-count of an empty pentanomial bin (fishtest's `epsilon`).
pub const EMPTY_BIN: f64 = 1e-3;

impl Pentanomial {
    /// Of counts `[0-2, 1/2-3/2, 1-1, 3/2-1/2, 2-0]` pairs.
    pub fn new(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Counts one pair of A's `total` score over its two games, rounded
    /// to the nearest half point and clamped to [0, 2] (what a pair of
    /// real game results always is).
    pub fn record(&mut self, total: f64) {
        let halves = (total * 2.0).round() as usize;
        self.counts[halves.min(4)] += 1;
    }

    /// Of the pair totals (each 0, 0.5, 1, 1.5 or 2); errors for any other
    /// value.
    pub fn from_pair_scores(
        totals: impl IntoIterator<Item = f64>,
    ) -> Result<Pentanomial, StatsError> {
        let mut pairs = Pentanomial::default();
        for total in totals {
            if !((0.0..=2.0).contains(&total) && (total * 2.0).fract() == 0.0) {
                return Err(StatsError::OutOfRange {
                    what: "a pair's total score",
                    range: "one of 0, 0.5, 1, 1.5 and 2",
                    value: total,
                });
            }
            pairs.record(total);
        }
        Ok(pairs)
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of the per-pair mean score;
    /// (1/2, 0) for no pairs.
    pub fn mean_and_variance(&self) -> (f64, f64) {
        moments(self.counts.map(f64::from))
    }

    /// [`Pentanomial::mean_and_variance`] with every empty bin counted as
    /// [`EMPTY_BIN`] pairs, as fishtest regularizes: a run of identical
    /// pairs (an agent winning every pair 2-0) has variance 0, which would
    /// make the LLR undefined and the Elo interval a point; the pseudo-count
    /// keeps both finite and moves the mean by less than 1e-4 per pair.
    pub fn regularized_mean_and_variance(&self) -> (f64, f64) {
        if self.pairs() == 0 {
            return (0.5, 0.0);
        }
        moments(
            self.counts
                .map(|c| if c == 0 { EMPTY_BIN } else { f64::from(c) }),
        )
    }

    /// The Elo difference and its 95% interval from the pair scores: the
    /// maximum-likelihood score (the mean) and a normal interval on the
    /// score scale from the regularized pentanomial variance, mapped to Elo;
    /// `None` where a bound is infinite (a score of 0 or 1).
    pub fn elo_interval(&self) -> (Option<f64>, Option<f64>, Option<f64>) {
        let (mean, _) = self.mean_and_variance();
        let (_, variance) = self.regularized_mean_and_variance();
        let n = f64::from(self.pairs().max(1));
        let half = Z95 * (variance / n).sqrt();
        (
            elo_of_score(mean),
            elo_of_score((mean - half).max(0.0)),
            elo_of_score((mean + half).min(1.0)),
        )
    }
}

/// Mean score per game and variance of the per-pair mean of pair counts
/// (possibly fractional); (1/2, 0) for no pairs.
fn moments(counts: [f64; 5]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mean = scores.iter().zip(counts).map(|(s, c)| s * c).sum::<f64>() / n;
    let variance = scores
        .iter()
        .zip(counts)
        .map(|(s, c)| (s - mean).powi(2) * c)
        .sum::<f64>()
        / n;
    (mean, variance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pentanomial_moments() {
        let p = Pentanomial {
            counts: [1, 2, 4, 2, 1],
        };
        let (mean, variance) = p.mean_and_variance();
        assert!((mean - 0.5).abs() < 1e-12);
        // (2 * 0.25 + 4 * 0.0625) / 10
        assert!((variance - 0.075).abs() < 1e-12);
        let (elo, low, high) = p.elo_interval();
        assert_eq!(elo, Some(0.0));
        // 0.5 -+ 1.96 sqrt(0.075 / 10), mapped to Elo (regularizing moves
        // nothing here: no bin is empty).
        assert!((low.unwrap() - -122.818_423_864_861_16).abs() < 1e-9);
        assert!((high.unwrap() - 122.818_423_864_861_22).abs() < 1e-9);
    }

    #[test]
    fn identical_pairs_keep_a_finite_bound() {
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(sweep.mean_and_variance(), (1.0, 0.0));
        let (elo, low, high) = Pentanomial {
            counts: [0, 0, 0, 0, 20],
        }
        .elo_interval();
        assert_eq!((elo, high), (None, None));
        assert!((low.unwrap() - 948.205_757_323_349_2).abs() < 1e-6);
        assert_eq!(Pentanomial::default().mean_and_variance(), (0.5, 0.0));
        assert_eq!(
            Pentanomial::default().regularized_mean_and_variance(),
            (0.5, 0.0)
        );
    }

    #[test]
    fn fastchess_published_values() {
        // Disservin/fastchess, app/tests/elo_test.cpp, "EloPentanomial 1-3":
        // Stats(LL, LD, WL, DD, WD, WW) and the expected diff() and error()
        // (half the Elo interval's width) to 2 decimals. WL and DD both
        // total 1 and share a bin here.
        for (counts, diff, error) in [
            ([34, 54, 31 + 32, 64, 75], 55.58, 27.65),
            ([332, 433, 457 + 41, 333, 334], -8.64, 10.33),
            ([7895, 8757, 5485 + 200, 568, 9999], -21.04, 2.95),
        ] {
            let (elo, low, high) = Pentanomial::new(counts).elo_interval();
            let half = (high.unwrap() - low.unwrap()) / 2.0;
            assert!((elo.unwrap() - diff).abs() < 0.005, "{counts:?}");
            assert!((half - error).abs() < 0.005, "{counts:?} {half}");
        }
    }

    #[test]
    fn pairs_from_totals() {
        let p = Pentanomial::from_pair_scores([2.0, 1.0, 1.5, 1.0, 0.0]).unwrap();
        assert_eq!(p.counts, [1, 0, 2, 1, 1]);
        assert_eq!(p.pairs(), 5);
        assert!(Pentanomial::from_pair_scores([0.75]).is_err());
        assert!(Pentanomial::from_pair_scores([2.5]).is_err());
        assert!(Pentanomial::from_pair_scores([f64::NAN]).is_err());
        let mut q = Pentanomial::default();
        q.record(1.999_999);
        q.record(-1.0);
        assert_eq!(q.counts, [1, 0, 0, 0, 1]);
    }
}
