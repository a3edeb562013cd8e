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
//!
//! The statistics are `heterodox-stats`' (`heterodox_stats::pentanomial`,
//! `heterodox_stats::sprt`, shared with Python's `heterodox.stats`),
//! re-exported here where the arena names them. What stays is counting the
//! arena's games: [`Pentanomial`] is the statistics crate's, with the
//! constructor [`Pentanomial::of`] from [`DuelGame`]s; it dereferences to
//! it (`counts`, `pairs`, `mean_and_variance`, `elo_interval`, and what
//! [`Sprt::llr`] and [`Sprt::decision`] take).

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize};

use heterodox_selfplay::DuelGame;

pub use heterodox_stats::elo::score_of_elo;
pub use heterodox_stats::pentanomial::EMPTY_BIN;
pub use heterodox_stats::sprt::{Sprt, SprtDecision, MIN_SPRT_PAIRS};

/// Pairs counted by A's total score over the pair: `counts[k]` pairs
/// scored `k / 2` (`heterodox_stats::pentanomial::Pentanomial`, which it
/// dereferences to and serializes as).
#[derive(Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pentanomial(pub heterodox_stats::pentanomial::Pentanomial);

impl Pentanomial {
    /// Counts the complete pairs of `games` (game `2k` and `2k + 1` from
    /// one opening; an unpaired game is left out).
    pub fn of(games: &[DuelGame]) -> Pentanomial {
        let mut sorted: Vec<&DuelGame> = games.iter().collect();
        sorted.sort_by_key(|g| g.index);
        let mut pairs = heterodox_stats::pentanomial::Pentanomial::default();
        for pair in sorted.chunks(2) {
            if let [a, b] = pair {
                if a.index / 2 == b.index / 2 {
                    pairs.record(a.score_a() + b.score_a());
                }
            }
        }
        Pentanomial(pairs)
    }
}

impl Deref for Pentanomial {
    type Target = heterodox_stats::pentanomial::Pentanomial;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl From<heterodox_stats::pentanomial::Pentanomial> for Pentanomial {
    fn from(pairs: heterodox_stats::pentanomial::Pentanomial) -> Pentanomial {
        Pentanomial(pairs)
    }
}

/// As the statistics crate's: `Pentanomial { counts: [..] }`.
impl fmt::Debug for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_and_dereferences_as_the_statistics_crates() {
        let pairs = Pentanomial::from(heterodox_stats::pentanomial::Pentanomial::new([
            1, 2, 4, 2, 1,
        ]));
        assert_eq!(
            serde_json::to_string(&pairs).unwrap(),
            r#"{"counts":[1,2,4,2,1]}"#
        );
        assert_eq!(pairs.counts, [1, 2, 4, 2, 1]);
        assert_eq!(pairs.pairs(), 10);
        assert_eq!(
            format!("{pairs:?}"),
            "Pentanomial { counts: [1, 2, 4, 2, 1] }"
        );
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(sprt.decision(&pairs), SprtDecision::Continue);
        assert_eq!(Pentanomial::of(&[]).pairs(), 0);
    }
}
