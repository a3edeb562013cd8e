//! The counters of an evaluator: [`EvalStats`], the snapshot its users
//! read, and [`Counters`], the atomics its callers and its engine bump
//! from any thread, with the fallback every failed evaluation takes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use heterodox_env::GameVariant;
#[cfg(doc)]
use heterodox_selfplay::Evaluator;
use heterodox_selfplay::LeafBatch;

use super::error::EvalError;

/// Counters of an evaluator since it was built (a snapshot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// `evaluate` calls with at least one leaf.
    pub requests: u64,
    /// Leaves asked about.
    pub leaves: u64,
    /// Leaves answered from the cache / not found there (both 0 when the
    /// cache is off).
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Forward passes run, and the positions they evaluated.
    pub forward_passes: u64,
    pub forwarded: u64,
    /// Calls that failed (see the module docs).
    pub failures: u64,
}

impl EvalStats {
    /// Mean positions per forward pass.
    pub fn mean_batch(&self) -> f64 {
        self.forwarded as f64 / self.forward_passes.max(1) as f64
    }
}

/// Counters shared by an evaluator's callers and its engine.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    requests: AtomicU64,
    leaves: AtomicU64,
    pub(super) cache_hits: AtomicU64,
    pub(super) cache_misses: AtomicU64,
    pub(super) forward_passes: AtomicU64,
    pub(super) forwarded: AtomicU64,
    failures: AtomicU64,
    logged: AtomicBool,
    last_error: Mutex<Option<EvalError>>,
}

impl Counters {
    pub(crate) fn snapshot(&self) -> EvalStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        EvalStats {
            requests: get(&self.requests),
            leaves: get(&self.leaves),
            cache_hits: get(&self.cache_hits),
            cache_misses: get(&self.cache_misses),
            forward_passes: get(&self.forward_passes),
            forwarded: get(&self.forwarded),
            failures: get(&self.failures),
        }
    }

    pub(crate) fn request(&self, leaves: usize) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.leaves.fetch_add(leaves as u64, Ordering::Relaxed);
    }

    pub(crate) fn last_error(&self) -> Option<EvalError> {
        self.last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The [`Evaluator`] fallback: uniform priors, value 0, the failure
    /// counted, kept, and printed the first time.
    pub(crate) fn fail<P: GameVariant>(
        &self,
        error: EvalError,
        batch: &LeafBatch<P>,
        priors: &mut [f32],
        values: &mut [f32],
    ) {
        for i in 0..batch.len() {
            let range = batch.legal_range(i);
            let p = 1.0 / range.len().max(1) as f32;
            if let Some(out) = priors.get_mut(range) {
                out.fill(p);
            }
        }
        let n = values.len().min(batch.len());
        values[..n].fill(0.0);
        self.failures.fetch_add(1, Ordering::Relaxed);
        if !self.logged.swap(true, Ordering::Relaxed) {
            eprintln!(
                "heterodox-models: evaluation failed ({error}); uniform priors and value 0 \
                 returned (further failures are counted in EvalStats::failures)"
            );
        }
        *self
            .last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(error);
    }
}
