//! Scores: centipawns from the side to act's point of view inside the
//! search, mate scores as `MATE - plies`, and the public [`Score`].

use std::fmt;

/// The deepest ply (steps from the root) the search ever reaches, with
/// extensions, same-player steps and quiescence; per-ply buffers have this
/// many entries, allocated once.
pub const MAX_PLY: usize = 192;

/// The score of a won position at the root: a mate `n` steps away scores
/// `MATE - n`, so shorter wins score higher.
pub const MATE: i32 = 31_000;

/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Above every score; alpha-beta windows start at `-INFINITE..INFINITE`.
pub const INFINITE: i32 = 32_000;

/// The evaluations' bound, defined with them (the search reads it; the
/// evaluations must not read the search).
pub use crate::eval::EVAL_LIMIT;

/// The score of the side to act in a won position `ply` steps from the
/// root (a negative score for a loss).
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline]
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// A score as reported: centipawns from the side to act's point of view,
/// or a forced mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn is 100), positive when the side to act is better.
    Cp(i32),
    /// A forced win in `n` moves (`n > 0`), or a forced loss in `-n` moves
    /// (`n < 0`; `Mate(0)` is a loss on the spot). Moves are counted as UCI
    /// does, a move being a step by each side; in variants where a turn has
    /// several steps (Traitor's announcement, Mad Scientist's discards)
    /// the count is of steps halved, an upper bound on the turns.
    Mate(i32),
}

/// Centipawns at which [`Score::expected_result`] gives about 0.76: a
/// knight's worth ahead is usually won, a pawn's worth not yet.
pub const RESULT_SCALE_CP: f32 = 400.0;

/// The logistic function, `1 / (1 + e^-x)`: an expected result (0 a loss,
/// 1 a win) from a score difference on its natural scale. One function for
/// every such model (the tuner's base-ten Elo curve, the rating list's
/// Bradley-Terry fit, the claims' logistic regression), so that they all
/// mean the same curve; each scales its own argument.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Score {
    /// The score as an expected result for the side to act, in [-1, 1]:
    /// `tanh(cp / 400)`, and +1 or -1 for a forced win or loss. The value
    /// a search's choice is recorded with (duels, teacher data), on the
    /// same scale as a network's value head.
    pub fn expected_result(self) -> f32 {
        match self {
            Score::Cp(cp) => (cp as f32 / RESULT_SCALE_CP).tanh(),
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => -1.0,
        }
    }

    /// The public form of a search score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            let plies = MATE - score;
            Score::Mate((plies + 1) / 2)
        } else if score <= -MATE_BOUND {
            let plies = MATE + score;
            Score::Mate(-(plies / 2))
        } else {
            Score::Cp(score)
        }
    }
}

impl fmt::Display for Score {
    /// UCI's form: `cp 35`, `mate 3`, `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// A mate score as stored in the transposition table: relative to the
/// node, not to the root, so that it stays right at another ply.
#[inline]
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
#[inline]
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_as_uci_does() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
        assert_eq!(Score::Cp(12).to_string(), "cp 12");
    }

    #[test]
    fn table_scores_round_trip() {
        for score in [mate_in(7), mated_in(9), 120, -40] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
        assert_eq!(from_table(to_table(mate_in(7), 5), 3), mate_in(5));
    }
}
