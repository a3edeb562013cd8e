//! The server's budget of agent searches. A client makes the server think
//! on its own cores, so the searches running at once are bounded (`serve
//! --max-searches`, the number of cores by default): past it a request is
//! answered 503 `busy` with `Retry-After` rather than queued, so that a
//! burst of requests never becomes minutes of queued thinking. A slot is
//! held by the thread that searches and freed when its search has really
//! ended, so the count in `/api/info` is what the cores are doing.
//!
//! A search nobody waits for is stopped: the request's future, dropped by
//! the server when its client goes away, sets the search's stop flag
//! ([`StopOnDrop`]), as does a game leaving the store (store.rs). The
//! alpha-beta engine reads the flag between nodes (its `Limits::stop`, the
//! flag UCI's `stop` sets); a tree search is not interrupted, and at the
//! simulation cap (`--max-simulations 4096`) ends within about a second.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use heterodox_training::arena::agent::{AgentKind, AgentSpec};

use super::error::ApiError;

/// Seconds a client told the server is busy is asked to wait.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// Whether `spec`'s moves take a search slot: the engine and the tree
/// searches think; random and greedy play answer at once.
pub fn searches(spec: &AgentSpec) -> bool {
    !matches!(spec.kind, AgentKind::Random | AgentKind::Greedy)
}

/// The agent searches running now, at most `max`.
pub struct Searches {
    max: usize,
    running: AtomicUsize,
}

impl Searches {
    pub fn new(max: usize) -> Arc<Searches> {
        Arc::new(Searches {
            max,
            running: AtomicUsize::new(0),
        })
    }

    pub fn max(&self) -> usize {
        self.max
    }

    /// Searches running now (an abandoned one until it has stopped).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// A slot for one search, or 503 `busy` when all are taken.
    pub fn try_start(self: &Arc<Self>) -> Result<SearchSlot, ApiError> {
        let mut now = self.running.load(Ordering::SeqCst);
        loop {
            if now >= self.max {
                return Err(ApiError::busy(
                    format!(
                        "the server is busy: it runs at most {} agent searches at once \
                         (serve --max-searches) and all are running; try again in {} s",
                        self.max, RETRY_AFTER_SECONDS
                    ),
                    RETRY_AFTER_SECONDS,
                ));
            }
            match self
                .running
                .compare_exchange(now, now + 1, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return Ok(SearchSlot(Arc::clone(self))),
                Err(seen) => now = seen,
            }
        }
    }
}

/// One running search's place in [`Searches`], given back when dropped.
pub struct SearchSlot(Arc<Searches>);

impl Drop for SearchSlot {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sets a search's stop flag when dropped: held by the request waiting for
/// the search, so a request the server drops (its client went away)
/// stops its search. Setting it after the search ended does nothing.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
