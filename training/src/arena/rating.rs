//! Scores with confidence intervals, and their Elo equivalents.
//!
//! The score is the mean result from one player's side (win 1, draw 1/2,
//! loss 0). Its 95% interval is Wilson's score interval over `n` games,
//! which stays inside (0, 1) and is sensible at 0 or `n` wins, where the
//! normal approximation collapses to a point; treating a draw as half a
//! win gives it the Bernoulli variance `s (1 - s)`, an upper bound of the
//! per-game variance with draws, so the interval is conservative. The Elo
//! difference of a score `s` is `400 log10(s / (1 - s))` (the logistic
//! model), and its interval maps the score's bounds; a score of exactly 0
//! or 1 has no finite Elo (`None`).

use serde::{Deserialize, Serialize};

use heterodox_selfplay::DuelTally;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A player's measured score against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreEstimate {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean score, draws counting half.
    pub score: f64,
    /// 95% interval of the score (Wilson).
    pub score_low: f64,
    pub score_high: f64,
    /// Elo difference and its 95% interval; `None` where infinite.
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
}

impl ScoreEstimate {
    pub fn of(tally: DuelTally) -> ScoreEstimate {
        let n = tally.games();
        let score = tally.score();
        let (score_low, score_high) = wilson_interval(score, n, Z95);
        ScoreEstimate {
            games: n,
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            score,
            score_low,
            score_high,
            elo: elo_of_score(score),
            elo_low: elo_of_score(score_low),
            elo_high: elo_of_score(score_high),
        }
    }

    /// `61.5% [52.3, 70.0] (+80 Elo [+16, +147]), 40 games +22 =5 -13`.
    pub fn describe(&self) -> String {
        let elo = |e: Option<f64>, sign_of_inf: f64| match e {
            Some(e) => format!("{e:+.0}"),
            None if sign_of_inf > 0.0 => "+inf".to_owned(),
            None => "-inf".to_owned(),
        };
        format!(
            "{:.1}% [{:.1}, {:.1}] ({} Elo [{}, {}]), {} games +{} ={} -{}",
            100.0 * self.score,
            100.0 * self.score_low,
            100.0 * self.score_high,
            elo(self.elo, self.score - 0.5),
            elo(self.elo_low, self.score_low - 0.5),
            elo(self.elo_high, self.score_high - 0.5),
            self.games,
            self.wins,
            self.draws,
            self.losses
        )
    }
}

/// Wilson's score interval for a proportion `p` observed over `n` trials;
/// `(0, 1)` for no trials.
pub fn wilson_interval(p: f64, n: u32, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(n);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 one bound is exactly 0 or 1; say so rather than
    // leave it to rounding.
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// The Elo difference of a mean score; `None` at 0 or 1.
pub fn elo_of_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| 400.0 * (score / (1.0 - score)).log10())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 8 successes out of 10: (0.4902, 0.9433) (Wilson 1927, z = 1.96).
        let (low, high) = wilson_interval(0.8, 10, Z95);
        assert!((low - 0.490_16).abs() < 1e-4, "{low}");
        assert!((high - 0.943_32).abs() < 1e-4, "{high}");
        // All successes: the upper bound is 1, the lower n / (n + z^2).
        let (low, high) = wilson_interval(1.0, 32, Z95);
        assert!((low - 32.0 / (32.0 + Z95 * Z95)).abs() < 1e-12);
        assert_eq!(high, 1.0);
        assert_eq!(wilson_interval(0.5, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_of_score(0.5), Some(0.0));
        // 10:1 odds are 400 Elo.
        let e = elo_of_score(10.0 / 11.0).unwrap();
        assert!((e - 400.0).abs() < 1e-9);
        assert_eq!(elo_of_score(1.0), None);
        assert_eq!(elo_of_score(0.0), None);
    }

    #[test]
    fn estimate_of_a_tally() {
        let e = ScoreEstimate::of(DuelTally {
            wins: 22,
            draws: 5,
            losses: 13,
        });
        assert_eq!(e.games, 40);
        assert!((e.score - 24.5 / 40.0).abs() < 1e-12);
        // Wilson's interval for 24.5 of 40 and the logistic Elo of each
        // bound, computed independently.
        assert_eq!(
            e.describe(),
            "61.3% [45.8, 74.7] (+80 Elo [-29, +188]), 40 games +22 =5 -13"
        );
        let perfect = ScoreEstimate::of(DuelTally {
            wins: 10,
            draws: 0,
            losses: 0,
        });
        assert_eq!(perfect.elo, None);
        assert!(perfect.elo_low.unwrap() > 0.0);
        assert!(
            perfect
                .describe()
                .starts_with("100.0% [72.2, 100.0] (+inf Elo [+166, +inf])"),
            "{}",
            perfect.describe()
        );
    }
}
