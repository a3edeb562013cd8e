//! When a search stops: a depth, a node count, a time, or a flag set by
//! another thread, whichever comes first. The ranges a limit may take and
//! the error that names them ([`LimitError`]) are defined here together,
//! so that nothing here imports from the modules that check limits.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The deepest iteration a search may be asked for. Checks, same-player
/// steps and quiescence go further; the per-ply buffers are sized for
/// [`crate::search::score::MAX_PLY`].
pub const MAX_DEPTH: u32 = 64;

/// The most principal variations a search may be asked for
/// ([`crate::Engine::set_multipv`]): more than any chess position has
/// legal moves, and each line costs a root search of its own per
/// iteration. A search never reports more lines than the root has actions.
pub const MAX_MULTIPV: usize = 256;

/// A search limit outside its range. The message names the argument, so a
/// CLI or Python caller can pass it on unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("depth {0} is out of range (1 to {MAX_DEPTH})")]
    Depth(u32),
    #[error("nodes {0} is out of range (at least 1)")]
    Nodes(u64),
    #[error("movetime {0} ms is out of range (at least 1 ms)")]
    Movetime(u128),
    #[error("no limit given: set depth, nodes, movetime or a stop flag")]
    Unbounded,
    #[error("multipv {0} is out of range (1 to {MAX_MULTIPV})")]
    MultiPv(usize),
}

/// Refuses a number of lines outside 1..=[`MAX_MULTIPV`].
pub(crate) fn validate_multipv(lines: usize) -> Result<(), LimitError> {
    if (1..=MAX_MULTIPV).contains(&lines) {
        Ok(())
    } else {
        Err(LimitError::MultiPv(lines))
    }
}

/// The limits of one search. At least one must be set; each that is set
/// must be in range ([`Limits::validate`]). A search with only a depth or a
/// node limit on one thread is deterministic.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Iterations to complete, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// Nodes to visit (every node of the main search and of quiescence
    /// counts), at least 1. Checked exactly, so a node limit is as
    /// reproducible as a depth.
    pub nodes: Option<u64>,
    /// Wall-clock time, at least 1 ms.
    pub movetime: Option<Duration>,
    /// Set by another thread to stop the search; the best move found so far
    /// is returned.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Search to `depth` iterations.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `movetime`.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    /// Refuses limits out of range (naming the argument) and a search with
    /// no limit at all.
    pub fn validate(&self) -> Result<(), LimitError> {
        if let Some(depth) = self.depth {
            if depth == 0 || depth > MAX_DEPTH {
                return Err(LimitError::Depth(depth));
            }
        }
        if self.nodes == Some(0) {
            return Err(LimitError::Nodes(0));
        }
        if let Some(movetime) = self.movetime {
            if movetime < Duration::from_millis(1) {
                return Err(LimitError::Movetime(movetime.as_millis()));
            }
        }
        if self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.stop.is_none()
        {
            return Err(LimitError::Unbounded);
        }
        Ok(())
    }

    /// The deepest iteration to start.
    pub(crate) fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_limits_name_the_argument() {
        assert_eq!(
            Limits::depth(0).validate().unwrap_err().to_string(),
            "depth 0 is out of range (1 to 64)"
        );
        assert_eq!(
            Limits::depth(65).validate().unwrap_err(),
            LimitError::Depth(65)
        );
        assert_eq!(
            Limits::nodes(0).validate().unwrap_err().to_string(),
            "nodes 0 is out of range (at least 1)"
        );
        assert_eq!(
            Limits::movetime(Duration::ZERO)
                .validate()
                .unwrap_err()
                .to_string(),
            "movetime 0 ms is out of range (at least 1 ms)"
        );
        assert_eq!(
            Limits::default().validate().unwrap_err(),
            LimitError::Unbounded
        );
        assert!(Limits::depth(64).validate().is_ok());
        assert_eq!(
            validate_multipv(0).unwrap_err().to_string(),
            "multipv 0 is out of range (1 to 256)"
        );
        assert_eq!(validate_multipv(257), Err(LimitError::MultiPv(257)));
        assert!(validate_multipv(1).is_ok() && validate_multipv(256).is_ok());
    }
}
