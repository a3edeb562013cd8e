//! The generalised sequential probability ratio test of paired games, as
//! chess-engine testing frameworks (fishtest, OpenBench) run it.
//!
//! The test of "A is `elo1` rather than `elo0` stronger than B" uses the
//! generalised SPRT's normal approximation of the log-likelihood ratio
//! (Michel Van den Bergh, "A Generalized SPRT"): with `s` the mean score
//! per game and `v` the variance of the per-pair mean (both from the
//! regularized pentanomial counts, [`Pentanomial`]) and `s0`, `s1` the
//! expected scores at `elo0`, `elo1` (logistic,
//! [`crate::elo::score_of_elo`]),
//!
//! `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v)`
//!
//! over `N` pairs. It stops at `ln(beta / (1 - alpha))` (H0 accepted: not
//! `elo1` stronger) or `ln((1 - beta) / alpha)` (H1 accepted), and not
//! before [`MIN_SPRT_PAIRS`] pairs. fastchess' exact "logistic
//! pentanomial" LLR agrees with this one to the 2 decimals it publishes
//! (the tests below).

use serde::{Deserialize, Serialize};

use crate::elo::score_of_elo;
use crate::error::{check_probability, StatsError};
use crate::pentanomial::Pentanomial;

/// Pairs an SPRT plays before it may decide.
pub const MIN_SPRT_PAIRS: u32 = 10;

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
    /// The test of `elo0` against `elo1` (finite, `elo0 < elo1`) with error
    /// rates `alpha` (accepting H1 when H0 holds) and `beta` (the reverse),
    /// each in (0, 0.5).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, StatsError> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(StatsError::NotFinite {
                what: "elo0 and elo1",
            });
        }
        if elo0 >= elo1 {
            return Err(StatsError::OutOfRange {
                what: "elo0",
                range: "below elo1",
                value: elo0,
            });
        }
        for (what, value) in [("alpha", alpha), ("beta", beta)] {
            check_probability(what, value)?;
            if value >= 0.5 {
                return Err(StatsError::OutOfRange {
                    what,
                    range: "in (0, 0.5)",
                    value,
                });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Parses `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05),
    /// the command line's `--sprt`.
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
    fn identical_pairs_decide() {
        // Every pair won 2-0: the plain variance is 0. Regularized, the LLR
        // of three such pairs is 34.06, past the bound 2.94, but three
        // pairs are too few to decide; ten decide H1, where before the
        // test could never stop.
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        let sprt = Sprt::parse("0,10").unwrap();
        assert!((sprt.llr(&sweep) - 34.058_083_241_381_18).abs() < 1e-9);
        assert_eq!(sprt.decision(&sweep), SprtDecision::Continue);
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, MIN_SPRT_PAIRS],
        };
        assert_eq!(sprt.decision(&sweep), SprtDecision::H1);
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
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,5,0.6,0.05").is_err());
        assert!(Sprt::parse("a,b").is_err());
    }

    #[test]
    fn fastchess_published_llrs() {
        // Disservin/fastchess, app/tests/sprt_test.cpp, "logistic
        // pentanomial 1" and "2": Stats(LL, LD, WL, DD, WD, WW), alpha =
        // beta = 0.05, and the exact GSPRT LLR to 2 decimals. The normal
        // approximation lands within their rounding (-3.0743, -4.9782).
        for (counts, elo0, elo1, expected) in [
            ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
            ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
        ] {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
            let llr = sprt.llr(&Pentanomial::new(counts));
            assert!((llr - expected).abs() < 0.005, "{counts:?} {llr}");
        }
    }

    #[test]
    fn new_validates() {
        assert_eq!(
            Sprt::new(0.0, 10.0, 0.05, 0.05),
            Ok(Sprt::parse("0,10").unwrap())
        );
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.5, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.0).is_err());
    }
}
