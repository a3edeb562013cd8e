//! Perft that Ctrl-C can stop. A deep perft runs for hours; with the GIL
//! released Python never sees the signal, so the count runs on its own
//! thread while the calling thread waits in short slices, checking for
//! signals (`Python::check_signals`) between them. The work is split into
//! one task per root action, run by rayon; on a signal a stop flag is set,
//! which every task reads at each node more than one ply above the leaves,
//! so the whole count ends within microseconds and the error is raised at
//! once.
//!
//! The recursion is `heterodox_env::perft`'s plus that flag (one relaxed
//! atomic load per interior node); env's own stays free of it, as the
//! reference the benchmarks time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use heterodox_env::{AnyGame, Game, GameVariant, Position};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::typed::{with_game, TypedFn};

/// How often the waiting thread looks for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Leaf counts per legal root action, in long notation and generator
/// order, `depth` plies deep (`depth` >= 1); `None` when `stop` was set.
struct DivideTask {
    depth: u32,
    stop: Arc<AtomicBool>,
}

impl TypedFn for DivideTask {
    type Output = Option<Vec<(String, u64)>>;

    fn call<P: GameVariant>(self, game: &Game<P>) -> Self::Output {
        let position = game.position();
        let mut roots = Vec::new();
        position.legal_actions(&mut roots);
        let stop = &*self.stop;
        // One task per root action, as env's divide splits the work.
        let totals: Vec<Option<u64>> = roots
            .par_iter()
            .map(|action| {
                let mut child = position.clone();
                child.play_unchecked(action);
                perft_until(&child, self.depth - 1, stop)
            })
            .collect();
        let totals: Vec<u64> = totals.into_iter().collect::<Option<_>>()?;
        Some(roots.iter().map(ToString::to_string).zip(totals).collect())
    }
}

/// Leaf nodes `depth` plies below `position` (depth 1 bulk-counted), or
/// `None` once `stop` is set.
fn perft_until<P: Position>(position: &P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut buffers: Vec<Vec<P::Action>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(position, depth, stop, &mut buffers)
}

/// The recursion, with one reusable action buffer per remaining ply so no
/// node allocates.
fn perft_with<P: Position>(
    position: &P,
    depth: u32,
    stop: &AtomicBool,
    buffers: &mut [Vec<P::Action>],
) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(position.count_legal_actions() as u64),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let (actions, rest) = buffers.split_first_mut()?;
            position.legal_actions(actions);
            let mut nodes = 0;
            for action in actions.iter() {
                let mut child = position.clone();
                child.play_unchecked(action);
                nodes += perft_with(&child, depth - 1, stop, rest)?;
            }
            Some(nodes)
        }
    }
}

/// Perft "divide" of `game` at `depth` (>= 1), run with the GIL released
/// and stopped by Ctrl-C (`KeyboardInterrupt`) or any other signal handler
/// that raises.
pub(crate) fn divide(py: Python<'_>, game: AnyGame, depth: u32) -> PyResult<Vec<(String, u64)>> {
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel();
    let task = DivideTask {
        depth,
        stop: Arc::clone(&stop),
    };
    std::thread::spawn(move || {
        // The receiver is gone only when the caller was interrupted.
        let _ = sender.send(with_game(&game, task));
    });
    // A `Receiver` is not `Sync`; the mutex lets the detached closure
    // borrow it (only this thread ever locks it).
    let receiver = Mutex::new(receiver);
    let wait = || {
        receiver
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv_timeout(SIGNAL_POLL)
    };
    loop {
        match py.detach(wait) {
            Ok(Some(counts)) => return Ok(counts),
            // Only a stop request (sent below, after which nobody waits)
            // or a panic in the count ends it without a result.
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("perft stopped without a result"))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(error) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
    }
}
