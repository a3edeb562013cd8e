//! The `Outcome` class: how a finished game ended.

use heterodox_env::Color;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

use crate::errors::value_error;

/// How a finished game ended: the winner ('white', 'black', or None for a
/// draw), the termination ('checkmate', 'stalemate', 'insufficient material',
/// 'fifty-move rule', 'threefold repetition', ...) and the PGN result.
///
/// Immutable and hashable; two outcomes are equal when their winner and
/// termination are, so a game's outcome compares directly with one built by
/// hand: `game.outcome() == Outcome("black", "checkmate")`.
#[pyclass(module = "heterodox._core", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    winner: Option<Color>,
    termination: String,
}

impl From<heterodox_env::Outcome> for Outcome {
    fn from(outcome: heterodox_env::Outcome) -> Outcome {
        Outcome {
            winner: outcome.winner(),
            termination: outcome.termination().name().to_owned(),
        }
    }
}

/// Reads a side's name: 'white' or 'black'.
pub(crate) fn parse_color(name: &str) -> PyResult<Color> {
    Color::ALL
        .into_iter()
        .find(|color| color.name() == name)
        .ok_or_else(|| {
            value_error(format!(
                "invalid color '{name}': expected 'white' or 'black'"
            ))
        })
}

#[pymethods]
impl Outcome {
    #[new]
    #[pyo3(signature = (winner, termination))]
    fn new(winner: Option<&str>, termination: String) -> PyResult<Outcome> {
        let winner = winner.map(parse_color).transpose()?;
        Ok(Outcome {
            winner,
            termination,
        })
    }

    /// The winning side, 'white' or 'black'; None for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.winner.map(Color::name)
    }

    /// Why the game ended, e.g. 'checkmate' or 'stalemate'.
    #[getter]
    fn termination(&self) -> &str {
        &self.termination
    }

    /// The PGN result: '1-0', '0-1' or '1/2-1/2'.
    #[getter]
    fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// True when the game was drawn (there is no winner).
    #[getter]
    fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// The score from `color`'s point of view ('white' or 'black'): 1.0 for
    /// a win, 0.0 for a draw, -1.0 for a loss.
    fn reward(&self, color: &str) -> PyResult<f64> {
        let color = parse_color(color)?;
        Ok(match self.winner {
            Some(winner) if winner == color => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let winner = match self.winner {
            Some(color) => format!("'{}'", color.name()),
            None => "None".to_owned(),
        };
        let termination = PyString::new(py, &self.termination).repr()?;
        Ok(format!(
            "Outcome(winner={winner}, termination={termination})"
        ))
    }

    fn __str__(&self) -> String {
        format!("{} ({})", self.result(), self.termination)
    }

    /// Pickle support: rebuilt from (winner, termination).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (Option<&'static str>, String)) {
        let outcome = slf.get();
        (
            slf.get_type(),
            (outcome.winner(), outcome.termination.clone()),
        )
    }
}
