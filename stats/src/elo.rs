//! Elo differences and expected scores: the logistic model, in which a
//! player `d` Elo stronger scores `1 / (1 + 10^(-d / 400))` on average
//! (win 1, draw 1/2, loss 0), so that a score `s` is worth
//! `400 log10(s / (1 - s))` Elo.

/// The logistic function `1 / (1 + e^-x)`, the same curve as
/// `heterodox_engine::score::sigmoid` (one formula, so the regression's
/// numbers are the engine's).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The Elo difference of a mean score; `None` at 0 or 1 (infinite) and
/// outside (0, 1).
pub fn elo_of_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| 400.0 * (score / (1.0 - score)).log10())
}

/// The expected score of a player `elo` stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_of_score(0.5), Some(0.0));
        // 10:1 odds are 400 Elo.
        let e = elo_of_score(10.0 / 11.0).unwrap();
        assert!((e - 400.0).abs() < 1e-9);
        assert_eq!(elo_of_score(1.0), None);
        assert_eq!(elo_of_score(0.0), None);
        assert_eq!(elo_of_score(f64::NAN), None);
    }

    #[test]
    fn scores_of_elo_invert_it() {
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-15);
        for elo in [-700.0, -35.5, 12.0, 250.0] {
            assert!((elo_of_score(score_of_elo(elo)).unwrap() - elo).abs() < 1e-9);
        }
        // The Elo curve is the logistic in ln(10) / 400 units.
        let x = 123.0 * std::f64::consts::LN_10 / 400.0;
        assert!((score_of_elo(123.0) - sigmoid(x)).abs() < 1e-15);
    }
}
