//! How errors of the rules core reach Python. Each kind of mistake a user
//! can make has its own exception class, so that code can catch exactly
//! the one it expects (an agent's illegal move, a typo in a position
//! string) without parsing messages. Every class derives from `ValueError`,
//! which all of them were before they existed, so `except ValueError`
//! keeps working. The message is always the Rust error's own `Display`,
//! which already says what is wrong: the unknown name and the valid ones,
//! the FEN field at fault, the illegal move and the position.
//!
//! The classes are created with the module name `heterodox`, where the
//! package re-exports them, so they print and pickle as
//! `heterodox.IllegalMoveError` and so on.

use std::fmt::Display;

use heterodox_env::vecenv::{MakeEnvError, StepError};
use heterodox_env::{FenError, MoveError, NewGameError, UnknownVariant};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    heterodox,
    IllegalMoveError,
    PyValueError,
    "A move or action that the rules do not allow here: an illegal move, an\naction index that is not legal in its env, or any move once the game is\nover. The game is unchanged."
);
create_exception!(
    heterodox,
    PositionError,
    PyValueError,
    "A position string (FEN, or a variant's dialect of it) that cannot be\nread, or that reads but is not a legal position of the variant. The\nmessage names the field at fault."
);
create_exception!(
    heterodox,
    NotationError,
    PyValueError,
    "Move text that does not name exactly one legal move: it cannot be read,\nit fits several legal moves (ambiguous SAN), or it states something\nfalse about the move (a Poison Chess suffix item)."
);
create_exception!(
    heterodox,
    UnknownVariantError,
    PyValueError,
    "A variant name that is not registered; the message lists the valid\nones (heterodox.variants())."
);
create_exception!(
    heterodox,
    OptionError,
    PyValueError,
    "A rule option that the variant does not have, or a value it does not\naccept; the message lists the valid ones."
);

/// A plain `ValueError` with `error`'s message, for bad arguments that are
/// none of the kinds above (a depth out of range, a player name, a shape).
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A Rust error as the Python exception of its kind.
pub(crate) trait IntoPyErr {
    fn into_py_err(self) -> PyErr;
}

impl IntoPyErr for MoveError {
    fn into_py_err(self) -> PyErr {
        let message = self.to_string();
        match self {
            MoveError::Illegal { .. } | MoveError::GameOver(_) => {
                IllegalMoveError::new_err(message)
            }
            MoveError::Syntax { .. }
            | MoveError::Ambiguous { .. }
            | MoveError::SuffixMismatch { .. } => NotationError::new_err(message),
        }
    }
}

impl IntoPyErr for FenError {
    fn into_py_err(self) -> PyErr {
        PositionError::new_err(self.to_string())
    }
}

impl IntoPyErr for UnknownVariant {
    fn into_py_err(self) -> PyErr {
        UnknownVariantError::new_err(self.to_string())
    }
}

impl IntoPyErr for heterodox_env::OptionError {
    fn into_py_err(self) -> PyErr {
        OptionError::new_err(self.to_string())
    }
}

impl IntoPyErr for NewGameError {
    fn into_py_err(self) -> PyErr {
        match self {
            NewGameError::Fen(error) => error.into_py_err(),
            NewGameError::Option(error) => error.into_py_err(),
        }
    }
}

impl IntoPyErr for MakeEnvError {
    fn into_py_err(self) -> PyErr {
        match self {
            MakeEnvError::Game(error) => error.into_py_err(),
            MakeEnvError::Option(error) => error.into_py_err(),
            MakeEnvError::Config(error) => value_error(error),
        }
    }
}

impl IntoPyErr for StepError {
    fn into_py_err(self) -> PyErr {
        match self {
            StepError::IllegalAction { .. } => IllegalMoveError::new_err(self.to_string()),
            StepError::ActionCount { .. } => value_error(self),
        }
    }
}

create_exception!(
    heterodox,
    NetworkError,
    PyValueError,
    "A learned evaluation's net file that cannot be read (missing, not a\nheterodox-nnue safetensors file, a weight beyond the quantized range), or\nthat was made for another variant, rule set or feature set; the message\nnames the file and the field."
);
