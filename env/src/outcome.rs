//! How a game ends.

use std::fmt;

use crate::Color;

/// Why a game ended: the FIDE endings, repetition, the endings of the
/// variants that came first, and [`Termination::Goal`] for any variant's
/// own winning condition (so a new variant adds no reason here).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    /// 100 half-moves without a capture or pawn move (applied automatically,
    /// as RL environments do; FIDE makes it a claim).
    FiftyMoves,
    /// The same position, with the same side to move and the same rights,
    /// for the third time (applied automatically).
    ThreefoldRepetition,
    /// Poison Chess: a poisoned King's countdown ran out; the poisoner
    /// wins (P9).
    PoisonDeath,
    /// Poison Chess: a checkmate given by a side whose own King is poisoned
    /// and who has no Doctor is a draw (P10).
    DoomedCheckmate,
    /// Mad Scientist Chess: a Scientist was captured; its captor wins (M1).
    ScientistCaptured,
    /// Mad Scientist Chess: the side to move has no legal action, a draw
    /// (M1: there is no checkmate or stalemate).
    NoLegalAction,
    /// A variant's own winning condition, named by the variant (King of
    /// the Hill: `king reached the hill`).
    Goal(&'static str),
}

impl Termination {
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::PoisonDeath => "king died of poison",
            Termination::DoomedCheckmate => "checkmate by a poisoned king without a doctor",
            Termination::ScientistCaptured => "scientist captured",
            Termination::NoLegalAction => "no legal action",
            Termination::Goal(name) => name,
        }
    }
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Decisive {
        winner: Color,
        termination: Termination,
    },
    Draw {
        termination: Termination,
    },
}

impl Outcome {
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    pub const fn termination(self) -> Termination {
        match self {
            Outcome::Decisive { termination, .. } | Outcome::Draw { termination } => termination,
        }
    }

    /// The score from `color`'s point of view: +1 win, 0 draw, -1 loss.
    pub fn reward(self, color: Color) -> f32 {
        match self.winner() {
            Some(winner) if winner == color => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    /// PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.termination().name())
    }
}
