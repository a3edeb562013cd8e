//! Paired games: pentanomial statistics and the generalised SPRT, as chess
//! engine testing frameworks (fishtest, OpenBench) use them.
//!
//! A pair is two games from one opening with colours swapped; player A
//! scores 0, 1/2, 1, 3/2 or 2 over it. Counting pairs by that total (the
//! pentanomial) rather than games by result keeps the correlation the
//! shared opening brings: an opening that favours White cancels within the
//! pair, and the variance of the pair score is the honest one.
//!
//! The test of "A is `elo1` rather than `elo0` stronger than B" uses the
//! generalised SPRT's normal approximation of the log-likelihood ratio
//! (Michel Van den Bergh, "A Generalized SPRT"): with `s` the mean score
//! per game and `v` the variance of the per-pair mean (both from the
//! pentanomial counts) and `s0`, `s1` the expected scores at `elo0`,
//! `elo1` (logistic), `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v)` over `N`
//! pairs. It stops at `ln(beta / (1 - alpha))` (H0 accepted: not `elo1`
//! stronger) or `ln((1 - beta) / alpha)` (H1 accepted).

use serde::{Deserialize, Serialize};

use heterodox_selfplay::DuelGame;

use crate::arena::rating::{elo_of_score, Z95};

/// Pairs counted by A's total score over the pair: `counts[k]` pairs
/// scored `k / 2`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts the complete pairs of `games` (game `2k` and `2k + 1` from
    /// one opening; an unpaired game is left out).
    pub fn of(games: &[DuelGame]) -> Pentanomial {
        let mut sorted: Vec<&DuelGame> = games.iter().collect();
        sorted.sort_by_key(|g| g.index);
        let mut counts = [0u32; 5];
        for pair in sorted.chunks(2) {
            if let [a, b] = pair {
                if a.index / 2 == b.index / 2 {
                    let halves = ((a.score_a() + b.score_a()) * 2.0).round() as usize;
                    counts[halves.min(4)] += 1;
                }
            }
        }
        Pentanomial { counts }
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of the per-pair mean score.
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

/// Pairs an SPRT plays before it may decide.
pub const MIN_SPRT_PAIRS: u32 = 10;

/// The pseudo-count of an empty pentanomial bin (fishtest's `epsilon`).
pub const EMPTY_BIN: f64 = 1e-3;

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

/// The expected score of a player `elo` stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential test of "A is `elo1` stronger than B" against "`elo0`".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtDecision {
    /// `elo1` accepted.
    H1,
    /// `elo0` accepted.
    H0,
    Continue,
}

impl Sprt {
    /// Parses `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let numbers: Vec<f64> = text
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt '{text}': expected ELO0,ELO1[,ALPHA,BETA] as numbers"))?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(format!("--sprt '{text}': expected ELO0,ELO1[,ALPHA,BETA]")),
        };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("--sprt '{text}': ELO0 must be below ELO1"));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err(format!(
                "--sprt '{text}': ALPHA and BETA must be between 0 and 0.5"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `(lower, upper)` bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs so far (0 before the first
    /// pair), from the regularized pentanomial, so that identical pairs
    /// decide as fast as their evidence allows instead of never.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let (mean, variance) = pairs.regularized_mean_and_variance();
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        f64::from(pairs.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Accepts a hypothesis once the LLR crosses a bound, and not before
    /// [`MIN_SPRT_PAIRS`] pairs: the LLR is a normal approximation, which
    /// one or two pairs cannot support (a single 2-0 pair would otherwise
    /// accept H1 at 0,10 Elo).
    pub fn decision(&self, pairs: &Pentanomial) -> SprtDecision {
        if pairs.pairs() < MIN_SPRT_PAIRS {
            return SprtDecision::Continue;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
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
    fn identical_pairs_decide_and_keep_a_finite_bound() {
        // Every pair won 2-0: the plain variance is 0. Regularized, the LLR
        // of three such pairs is 34.06, past the bound 2.94, but three
        // pairs are too few to decide; ten decide H1, where before the
        // test could never stop.
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(sweep.mean_and_variance(), (1.0, 0.0));
        let sprt = Sprt::parse("0,10").unwrap();
        assert!((sprt.llr(&sweep) - 34.058_083_241_381_18).abs() < 1e-9);
        assert_eq!(sprt.decision(&sweep), SprtDecision::Continue);
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, MIN_SPRT_PAIRS],
        };
        assert_eq!(sprt.decision(&sweep), SprtDecision::H1);
        let (elo, low, high) = Pentanomial {
            counts: [0, 0, 0, 0, 20],
        }
        .elo_interval();
        assert_eq!((elo, high), (None, None));
        assert!((low.unwrap() - 948.205_757_323_349_2).abs() < 1e-6);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::parse("0,10").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        // 1000 pairs scoring 57.5%: far above +10 Elo (s1 = 0.5144).
        let strong = Pentanomial {
            counts: [50, 150, 400, 250, 150],
        };
        assert_eq!(sprt.decision(&strong), SprtDecision::H1);
        // 3000 even pairs: LLR = 3000 * 0.0144 * -0.0144 / 0.15 = -4.1.
        let even = Pentanomial {
            counts: [300, 600, 1200, 600, 300],
        };
        assert_eq!(sprt.decision(&even), SprtDecision::H0);
        assert_eq!(
            sprt.decision(&Pentanomial {
                counts: [0, 1, 1, 1, 0]
            }),
            SprtDecision::Continue
        );
        // The LLRs themselves, computed independently (Python, the same
        // formula over fishtest's regularized counts).
        assert!((sprt.llr(&strong) - 14.061_885_093_141_92).abs() < 1e-9);
        assert!((sprt.llr(&even) - -4.139_821_364_527_281).abs() < 1e-9);
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,5,0.6,0.05").is_err());
        assert!(Sprt::parse("a,b").is_err());
    }
}
