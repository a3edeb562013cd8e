//! Resignation in self-play, as AlphaZero does it: a side whose search
//! values its position at `-threshold` or worse on `moves` of its own
//! consecutive moves resigns, and the game is scored a loss for it.
//!
//! Why: games that are decided but not yet over cost self-play time and,
//! cut at the ply cap, teach the value head nothing. Resigning ends them
//! early with the result the search already sees.
//!
//! A resignation can be wrong (the search misjudged a position it could
//! have held), so a seeded fraction of games never resigns; in those the
//! watch notes the first side that would have, and the run counts how
//! often that side did not go on to lose (a false resignation). AlphaZero
//! kept that rate below 5% by tuning the threshold.

use serde::{Deserialize, Serialize};

use heterodox_env::rng::{mix64, unit_f64};
use heterodox_env::Color;

use crate::config::ConfigError;

/// When a side resigns. `threshold = 0` turns resignation off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ResignConfig {
    /// Resign at a root value of `-threshold` or below, in (0, 1]; 0: never.
    pub threshold: f32,
    /// On this many consecutive moves of the resigning side (at least 1).
    pub moves: u32,
    /// Share of games, drawn by the game's seed, in which nobody resigns
    /// (in [0, 1]): they measure the false resignations.
    pub no_resign_fraction: f32,
}

impl Default for ResignConfig {
    fn default() -> ResignConfig {
        ResignConfig {
            threshold: 0.0,
            moves: 2,
            no_resign_fraction: 0.2,
        }
    }
}

impl ResignConfig {
    /// Whether anyone may resign at all.
    pub fn enabled(&self) -> bool {
        self.threshold > 0.0
    }

    /// Checks every field's range, naming the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |field, value: String, expected| ConfigError::OutOfRange {
            field,
            value,
            expected,
        };
        if !(0.0..=1.0).contains(&self.threshold) {
            let value = self.threshold.to_string();
            return Err(bad("resign.threshold", value, "0 (off) to 1"));
        }
        if self.moves == 0 || self.moves > 1000 {
            let value = self.moves.to_string();
            return Err(bad("resign.moves", value, "1 to 1000"));
        }
        if !(0.0..=1.0).contains(&self.no_resign_fraction) {
            let value = self.no_resign_fraction.to_string();
            return Err(bad("resign.no_resign_fraction", value, "0 to 1"));
        }
        Ok(())
    }
}

/// One game's watch over the two sides' root values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResignWatch {
    /// Whether this game may end by resignation (not a no-resign game).
    allowed: bool,
    /// Consecutive own moves at or below the threshold, by colour.
    low: [u32; 2],
    /// In a no-resign game, the first side that would have resigned.
    would_have: Option<Color>,
}

impl ResignWatch {
    /// The watch of the game seeded `game_seed`: whether it is a no-resign
    /// game depends on that seed only.
    pub fn new(config: &ResignConfig, game_seed: u64) -> ResignWatch {
        // 53 bits of the mixed seed as a uniform number in [0, 1).
        let draw = unit_f64(mix64(game_seed ^ 0x5e51_9a7e));
        ResignWatch {
            allowed: config.enabled() && draw >= f64::from(config.no_resign_fraction),
            low: [0; 2],
            would_have: None,
        }
    }

    /// Notes the root value `value` of `mover`'s move (from its side);
    /// true when `mover` resigns now.
    pub fn observe(&mut self, config: &ResignConfig, mover: Color, value: f32) -> bool {
        if !config.enabled() {
            return false;
        }
        let low = &mut self.low[mover.index()];
        *low = if value <= -config.threshold {
            *low + 1
        } else {
            0
        };
        if *low < config.moves {
            return false;
        }
        if self.allowed {
            return true;
        }
        self.would_have.get_or_insert(mover);
        false
    }

    /// In a no-resign game, the first side that would have resigned.
    pub fn would_have_resigned(&self) -> Option<Color> {
        self.would_have
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(threshold: f32, no_resign_fraction: f32) -> ResignConfig {
        ResignConfig {
            threshold,
            moves: 2,
            no_resign_fraction,
        }
    }

    /// Shows a fresh watch (seed 7) the `moves` in turn, each a mover and
    /// its root value: what `observe` answered to each (resign or not),
    /// and the watch.
    fn watch(config: &ResignConfig, moves: &[(Color, f32)]) -> (Vec<bool>, ResignWatch) {
        let mut watch = ResignWatch::new(config, 7);
        let answers = moves
            .iter()
            .map(|&(mover, value)| watch.observe(config, mover, value))
            .collect();
        (answers, watch)
    }

    #[test]
    fn a_side_resigns_after_its_own_consecutive_low_values() {
        // The opponent's move between does not break White's run.
        let moves = [
            (Color::White, -0.95),
            (Color::Black, 0.95),
            (Color::White, -0.9),
        ];
        let (answers, _) = watch(&config(0.9, 0.0), &moves);
        assert_eq!(answers, [false, false, true]);
    }

    #[test]
    fn a_better_value_starts_the_count_again() {
        let moves = [-0.99, -0.89, -0.99, -0.99].map(|value| (Color::Black, value));
        let (answers, _) = watch(&config(0.9, 0.0), &moves);
        assert_eq!(answers, [false, false, false, true]);
    }

    #[test]
    fn off_never_resigns() {
        let (answers, watch) = watch(&config(0.0, 0.0), &[(Color::White, -1.0); 10]);
        assert_eq!(answers, [false; 10]);
        assert_eq!(watch.would_have_resigned(), None);
    }

    #[test]
    fn a_no_resign_game_notes_who_would_have_resigned() {
        let moves =
            [Color::Black, Color::Black, Color::White, Color::White].map(|mover| (mover, -0.6));
        let (answers, watch) = watch(&config(0.5, 1.0), &moves);
        assert_eq!(answers, [false; 4]);
        assert_eq!(watch.would_have_resigned(), Some(Color::Black));
    }

    #[test]
    fn the_no_resign_share_follows_the_fraction_and_the_seed() {
        let config = config(0.5, 0.25);
        let allowed = (0..4000u64)
            .filter(|&seed| ResignWatch::new(&config, seed).allowed)
            .count();
        // 3000 expected; the binomial's sd is about 27.
        assert!((2900..=3100).contains(&allowed), "{allowed}");
        assert_eq!(ResignWatch::new(&config, 99), ResignWatch::new(&config, 99));
    }

    #[test]
    fn bad_settings_name_the_field() {
        let mut bad = config(1.5, 0.2);
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "setting resign.threshold = 1.5 is out of range (0 (off) to 1)"
        );
        bad.threshold = 0.9;
        bad.moves = 0;
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "setting resign.moves = 0 is out of range (1 to 1000)"
        );
        bad.moves = 2;
        bad.no_resign_fraction = -0.1;
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "setting resign.no_resign_fraction = -0.1 is out of range (0 to 1)"
        );
    }
}
