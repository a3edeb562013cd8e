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
//!
//! The interval and the Elo are `heterodox-stats`' (shared with Python's
//! `heterodox.stats`), re-exported here where the arena names them; what stays
//! is the estimate of a [`DuelTally`].

use serde::{Deserialize, Serialize};

use heterodox_selfplay::DuelTally;

pub use heterodox_stats::elo::elo_of_score;
pub use heterodox_stats::normal::Z95;
pub use heterodox_stats::proportion::wilson_interval;

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

#[cfg(test)]
mod tests {
    use super::*;

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
