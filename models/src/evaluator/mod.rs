//! [`NetEvaluator`]: the network as the search's [`Evaluator`].
//!
//! One call evaluates a whole [`LeafBatch`] (many games' leaves) with one
//! forward pass, in evaluation mode (batch-norm running statistics) and
//! without autograd, on the network's device. For leaf `i` the priors are
//! the softmax of the policy logits at the leaf's legal indices only
//! (max-subtracted, so no logit overflows `exp`), in the order of
//! `batch.legal(i)`; the value is the value head's output, already from the
//! side of the player to act, since observations are encoded from that
//! player's view.
//!
//! Only the legal logits leave the device: they are picked with one
//! `index_select` on the flat `[n * num_actions]` logits, so a CUDA
//! evaluator copies ~35 floats per chess leaf back, not 4672.
//!
//! **Threads.** [`Evaluator::evaluate`] takes `&self` and the trait is
//! `Send + Sync`, while a tch module is not meant to be driven from several
//! threads at once. `NetEvaluator` holds the network behind a `Mutex`:
//! callers from several threads take turns, each with its own forward pass.
//! For many self-play threads, [`crate::QueuedEvaluator`] is better: one
//! runner thread owns the network and merges the callers' batches into
//! larger forward passes. Pipelined self-play
//! (`heterodox_selfplay::SelfPlayConfig::pipeline`) calls `evaluate` from
//! its one evaluating thread while the rayon pool does tree work: one
//! batch at a time, so the lock is never contended there, and nothing here
//! touches the rayon pool (the observations were encoded while gathering).
//! On a CPU device libtorch's own intra-op threads then share the cores
//! with rayon's, which is why pipelining pays on a GPU only.
//!
//! **Failures.** [`NetEvaluator::try_evaluate`] returns an [`EvalError`]
//! (a batch of another variant or shape, a libtorch error, a panic inside
//! the forward pass, caught). The [`Evaluator`] trait cannot return one, so
//! its `evaluate` then writes uniform priors and value 0 (what the search
//! itself substitutes for invalid evaluations), prints the first failure to
//! stderr, and counts every one in [`EvalStats::failures`]; the last error
//! is kept in [`NetEvaluator::last_error`]. A self-play worker should check
//! `failures` after each round (or call `try_evaluate`) and stop rather than
//! record games searched without the network.

mod common;
mod engine;
mod error;
mod shape;
mod softmax;
mod stats;

use std::sync::{Arc, Mutex, PoisonError};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_selfplay::LeafBatch;
// The trait is implemented by `network_evaluator_common!`; named here for the docs.
#[cfg(doc)]
use heterodox_selfplay::Evaluator;
use tch::Device;

use crate::cache::EvalCache;
use crate::checkpoint::Network;
use crate::error::ModelError;

pub(crate) use common::network_evaluator_common;
pub(crate) use engine::{index_batch, panic_message, Engine, Request};
pub use error::EvalError;
pub(crate) use shape::Shape;
pub(crate) use stats::Counters;
pub use stats::EvalStats;

/// The engine and the per-call buffers, behind the evaluator's mutex.
struct Direct {
    engine: Engine,
    offsets: Vec<usize>,
    keys: Vec<u64>,
}

/// The network as a search [`Evaluator`], one forward pass per call, behind
/// a mutex (see the module docs).
pub struct NetEvaluator {
    state: Mutex<Direct>,
    shape: Shape,
    device: Device,
    counters: Arc<Counters>,
}

network_evaluator_common!(NetEvaluator, "");

impl NetEvaluator {
    /// An evaluator of `network` for leaves encoded as `spec` says, with no
    /// cache. A network that records its spec must have been built for
    /// `spec` ([`ModelError::EncodingMismatch`] otherwise, naming both); its
    /// config must have `spec`'s shapes ([`ModelError::ConfigSpecMismatch`]).
    /// A network built without a spec ([`Network::new`]) is checked by
    /// shapes alone.
    pub fn new(network: Network, spec: &EncodingSpec) -> Result<NetEvaluator, ModelError> {
        let shape = Shape::new(&network, spec)?;
        let device = network.var_store().device();
        let counters = Arc::new(Counters::default());
        let engine = Engine::new(network, shape.clone(), 0, Arc::clone(&counters));
        Ok(NetEvaluator {
            state: Mutex::new(Direct {
                engine,
                offsets: Vec::new(),
                keys: Vec::new(),
            }),
            shape,
            device,
            counters,
        })
    }

    /// The same evaluator with a cache of `entries` evaluations (0: none);
    /// see [`crate::cache`] for the key and the policy.
    pub fn with_cache(mut self, entries: usize) -> NetEvaluator {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        state.engine.cache = EvalCache::new(entries);
        self
    }

    /// One forward pass over a checked, non-empty `batch`.
    fn evaluate_admitted<P: GameVariant>(
        &self,
        batch: &LeafBatch<P>,
        priors: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Direct {
            engine,
            offsets,
            keys,
        } = &mut *guard;
        let cached = engine.cache_enabled();
        index_batch(batch, offsets, cached.then_some(&mut *keys));
        let mut request = [Request {
            observations: batch.observations(),
            legal: batch.all_legal(),
            offsets,
            keys: if cached { keys } else { &[] },
            priors,
            values,
        }];
        engine.evaluate(&mut request)
    }

    /// Gives the network back (e.g. to train it further).
    pub fn into_network(self) -> Network {
        self.state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .engine
            .network
    }
}
