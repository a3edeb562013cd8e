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

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_selfplay::LeafBatch;
// The trait is implemented by `network_evaluator_common!`; named here for the docs.
#[cfg(doc)]
use heterodox_selfplay::Evaluator;
use tch::{Device, Kind, Tensor};

use crate::cache::{leaf_key, EvalCache};
use crate::checkpoint::Network;
use crate::error::ModelError;

/// Why a batch could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The batch's positions are of another variant than the network's.
    #[error("the network reads {expected} observations, the batch holds {found} positions")]
    Variant { expected: String, found: String },
    /// The batch carries no observations (`LeafBatch::set_observations`
    /// turned them off): a network has nothing to read.
    #[error("the batch carries no observations (LeafBatch::set_observations(false)); the network reads them")]
    NoObservations,
    /// The batch's observations are not the network's input size.
    #[error("observation length: the network reads {expected} floats, the batch has {found}")]
    ObservationLength { expected: usize, found: usize },
    /// The batch's action space is not the network's policy size.
    #[error("action space: the network has {expected} policy logits, the batch {found} actions")]
    ActionCount { expected: usize, found: usize },
    /// A legal index beyond the policy.
    #[error("legal action index {index} is out of the policy's {num_actions} logits")]
    LegalIndex { index: u32, num_actions: usize },
    /// An output buffer of the wrong length.
    #[error("{buffer} buffer holds {found} floats, the batch needs {expected}")]
    BufferLength {
        buffer: &'static str,
        expected: usize,
        found: usize,
    },
    /// libtorch reported an error during the forward pass.
    #[error("forward pass failed: {0}")]
    Forward(String),
    /// The forward pass panicked (caught; the evaluator stays usable).
    #[error("forward pass panicked: {0}")]
    Panicked(String),
    /// The queue's runner thread is gone (it panicked outside a forward
    /// pass, or the queue is shutting down).
    #[error("the evaluation queue's runner has stopped")]
    Stopped,
}

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
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    forward_passes: AtomicU64,
    forwarded: AtomicU64,
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

/// What an evaluator checks a batch against: taken from the spec it serves.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) spec: EncodingSpec,
    pub(crate) input: [i64; 3],
    pub(crate) observation_len: usize,
    pub(crate) num_actions: usize,
}

impl Shape {
    /// Checks that `network` reads and writes `spec`'s tensors: against its
    /// stored spec when it has one ([`EncodingSpec::check`]: variant, rules,
    /// version, history, layout), and its config's shapes always.
    pub(crate) fn new(network: &Network, spec: &EncodingSpec) -> Result<Shape, ModelError> {
        if let Some(stored) = network.spec() {
            spec.check(stored)?;
        }
        network.config().check_spec(spec)?;
        let [c, h, w] = spec.observation_shape();
        Ok(Shape {
            spec: spec.clone(),
            input: [c as i64, h as i64, w as i64],
            observation_len: spec.observation_len(),
            num_actions: spec.num_actions,
        })
    }

    /// [`Shape::check`]s a request and counts it in `counters`; `Ok(false)`
    /// for an empty batch, which needs no evaluation.
    pub(crate) fn admit<P: GameVariant>(
        &self,
        counters: &Counters,
        batch: &LeafBatch<P>,
        priors: &[f32],
        values: &[f32],
    ) -> Result<bool, EvalError> {
        self.check(batch, priors, values)?;
        if batch.is_empty() {
            return Ok(false);
        }
        counters.request(batch.len());
        Ok(true)
    }

    /// Checks a batch and its output buffers before anything is run, so that
    /// a bad batch never reaches libtorch (nor a merged queue batch).
    pub(crate) fn check<P: GameVariant>(
        &self,
        batch: &LeafBatch<P>,
        priors: &[f32],
        values: &[f32],
    ) -> Result<(), EvalError> {
        let name = P::VARIANT.name();
        if name != self.spec.variant {
            return Err(EvalError::Variant {
                expected: self.spec.variant.clone(),
                found: name.to_owned(),
            });
        }
        if !batch.has_observations() {
            return Err(EvalError::NoObservations);
        }
        if batch.observation_len() != self.observation_len {
            return Err(EvalError::ObservationLength {
                expected: self.observation_len,
                found: batch.observation_len(),
            });
        }
        if batch.num_actions() != self.num_actions {
            return Err(EvalError::ActionCount {
                expected: self.num_actions,
                found: batch.num_actions(),
            });
        }
        if priors.len() != batch.total_legal() {
            return Err(EvalError::BufferLength {
                buffer: "priors",
                expected: batch.total_legal(),
                found: priors.len(),
            });
        }
        if values.len() != batch.len() {
            return Err(EvalError::BufferLength {
                buffer: "values",
                expected: batch.len(),
                found: values.len(),
            });
        }
        if let Some(&index) = batch
            .all_legal()
            .iter()
            .find(|&&a| a as usize >= self.num_actions)
        {
            return Err(EvalError::LegalIndex {
                index,
                num_actions: self.num_actions,
            });
        }
        Ok(())
    }
}

/// One caller's leaves, borrowed: observation `i` is
/// `observations[i * L..(i + 1) * L]`, its legal indices (and priors)
/// `offsets[i]..offsets[i + 1]`, its cache key `keys[i]` (empty when the
/// cache is off). Checked by [`Shape::check`] before it gets here.
pub(crate) struct Request<'a> {
    pub(crate) observations: &'a [f32],
    pub(crate) legal: &'a [u32],
    pub(crate) offsets: &'a [usize],
    pub(crate) keys: &'a [u64],
    pub(crate) priors: &'a mut [f32],
    pub(crate) values: &'a mut [f32],
}

/// The network with its cache and reused buffers: evaluates any number of
/// requests with one forward pass over their cache misses. Owned by a
/// `NetEvaluator`'s mutex or by a queue's runner thread.
pub(crate) struct Engine {
    pub(crate) network: Network,
    shape: Shape,
    cache: EvalCache,
    counters: Arc<Counters>,
    /// Observations of the misses, when they are not one request's whole
    /// buffer.
    inputs: Vec<f32>,
    /// Flat logit index `row * num_actions + action` of each legal action
    /// of each miss, in order.
    index: Vec<i64>,
    /// The picked logits and the values, back on the CPU.
    logits: Vec<f32>,
    values: Vec<f32>,
    /// (request, leaf) of each miss, in forward-pass row order.
    misses: Vec<(u32, u32)>,
}

impl Engine {
    pub(crate) fn new(
        network: Network,
        shape: Shape,
        cache_size: usize,
        counters: Arc<Counters>,
    ) -> Engine {
        Engine {
            network,
            shape,
            cache: EvalCache::new(cache_size),
            counters,
            inputs: Vec::new(),
            index: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            misses: Vec::new(),
        }
    }

    pub(crate) fn cache_enabled(&self) -> bool {
        self.cache.is_enabled()
    }

    /// Fills every request's priors and values: cache hits copied, misses
    /// evaluated together in one forward pass and then cached.
    pub(crate) fn evaluate(&mut self, requests: &mut [Request<'_>]) -> Result<(), EvalError> {
        let l = self.shape.observation_len;
        let a = self.shape.num_actions;
        self.misses.clear();
        let mut hits = 0u64;
        for (r, req) in requests.iter_mut().enumerate() {
            for i in 0..req.values.len() {
                if self.cache.is_enabled() {
                    let range = req.offsets[i]..req.offsets[i + 1];
                    if let Some(value) = self.cache.get(req.keys[i], &mut req.priors[range]) {
                        req.values[i] = value;
                        hits += 1;
                        continue;
                    }
                }
                self.misses.push((r as u32, i as u32));
            }
        }
        if self.cache.is_enabled() {
            let c = &self.counters;
            c.cache_hits.fetch_add(hits, Ordering::Relaxed);
            c.cache_misses
                .fetch_add(self.misses.len() as u64, Ordering::Relaxed);
        }
        let m = self.misses.len();
        if m == 0 {
            return Ok(());
        }
        // One request evaluated whole is read in place; otherwise the
        // misses' observations are packed.
        let whole = requests.len() == 1 && m == requests[0].values.len();
        if !whole {
            self.inputs.clear();
        }
        self.index.clear();
        for (row, &(r, i)) in self.misses.iter().enumerate() {
            let (r, i) = (r as usize, i as usize);
            let req = &requests[r];
            if !whole {
                self.inputs
                    .extend_from_slice(&req.observations[i * l..(i + 1) * l]);
            }
            let base = (row * a) as i64;
            self.index.extend(
                req.legal[req.offsets[i]..req.offsets[i + 1]]
                    .iter()
                    .map(|&x| base + i64::from(x)),
            );
        }
        let inputs: &[f32] = if whole {
            &requests[0].observations[..m * l]
        } else {
            &self.inputs
        };
        forward(
            &self.network,
            self.shape.input,
            inputs,
            m,
            &self.index,
            &mut self.logits,
            &mut self.values,
        )?;
        self.counters.forward_passes.fetch_add(1, Ordering::Relaxed);
        self.counters
            .forwarded
            .fetch_add(m as u64, Ordering::Relaxed);
        let mut at = 0;
        for (row, &(r, i)) in self.misses.iter().enumerate() {
            let req = &mut requests[r as usize];
            let i = i as usize;
            let range = req.offsets[i]..req.offsets[i + 1];
            let k = range.len();
            let priors = &mut req.priors[range];
            softmax(&self.logits[at..at + k], priors);
            at += k;
            let value = self.values[row];
            req.values[i] = value;
            if self.cache.is_enabled() {
                self.cache.insert(req.keys[i], priors, value);
            }
        }
        Ok(())
    }
}

/// One forward pass over `m` observations: `logits` receives the logits at
/// the flat indices `index`, `values` the `m` values. libtorch errors and
/// panics become [`EvalError`]s.
fn forward(
    network: &Network,
    [c, h, w]: [i64; 3],
    inputs: &[f32],
    m: usize,
    index: &[i64],
    logits: &mut Vec<f32>,
    values: &mut Vec<f32>,
) -> Result<(), EvalError> {
    logits.resize(index.len(), 0.0);
    values.resize(m, 0.0);
    let run = || -> Result<(), EvalError> {
        let torch = |e: tch::TchError| EvalError::Forward(e.to_string());
        // Restores the caller's grad mode on every exit, unwinding included.
        let _guard = tch::no_grad_guard();
        let device = network.var_store().device();
        let xs = Tensor::f_from_slice(inputs)
            .and_then(|t| t.f_view([m as i64, c, h, w]))
            .map_err(torch)?;
        let (policy, value) = network
            .try_forward_t(&xs, false)
            .map_err(|e| EvalError::Forward(e.to_string()))?;
        if !index.is_empty() {
            let idx = Tensor::f_from_slice(index)
                .and_then(|t| t.f_to_device(device))
                .map_err(torch)?;
            let picked = policy
                .f_flatten(0, -1)
                .and_then(|t| t.f_index_select(0, &idx))
                .and_then(|t| t.f_to_kind(Kind::Float))
                .and_then(|t| t.f_to_device(Device::Cpu))
                .and_then(|t| t.f_contiguous())
                .map_err(torch)?;
            picked.f_copy_data(logits, index.len()).map_err(torch)?;
        }
        let value = value
            .f_to_kind(Kind::Float)
            .and_then(|t| t.f_to_device(Device::Cpu))
            .and_then(|t| t.f_contiguous())
            .map_err(torch)?;
        value.f_copy_data(values, m).map_err(torch)
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(result) => result,
        Err(payload) => Err(EvalError::Panicked(panic_message(payload.as_ref()))),
    }
}

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    }
}

/// `out = softmax(logits)`, max-subtracted. Non-finite logits give
/// non-finite priors, which the search replaces by uniform ones.
#[inline]
pub(crate) fn softmax(logits: &[f32], out: &mut [f32]) {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x));
    let mut sum = 0.0f32;
    for (o, &x) in out.iter_mut().zip(logits) {
        let e = (x - max).exp();
        *o = e;
        sum += e;
    }
    let inv = 1.0 / sum;
    for o in out.iter_mut() {
        *o *= inv;
    }
}

/// Fills `offsets` with a batch's legal ranges (`n + 1` entries) and, when
/// `keys` is given, each leaf's cache key.
pub(crate) fn index_batch<P: GameVariant>(
    batch: &LeafBatch<P>,
    offsets: &mut Vec<usize>,
    keys: Option<&mut Vec<u64>>,
) {
    offsets.clear();
    offsets.push(0);
    offsets.extend((0..batch.len()).map(|i| batch.legal_range(i).end));
    if let Some(keys) = keys {
        keys.clear();
        keys.extend((0..batch.len()).map(|i| leaf_key(batch.observation(i), batch.legal(i))));
    }
}

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

/// What both network evaluators ([`NetEvaluator`], [`crate::QueuedEvaluator`])
/// show the same way, written once: their `Debug`, the accessors of the
/// fields both hold (`shape`, `device`, `counters`), `try_evaluate` (the
/// checks and counting of [`Shape::admit`], then the evaluator's own
/// `evaluate_admitted`), and the [`Evaluator`] impl that falls back to
/// uniform priors when `try_evaluate` fails (see the module docs). The two
/// differ only in how a batch reaches the network: `$route` says how, in
/// the docs of `try_evaluate`.
macro_rules! network_evaluator_common {
    ($evaluator:ident, $route:literal) => {
        impl std::fmt::Debug for $evaluator {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($evaluator))
                    .field("spec", &self.shape.spec.summary())
                    .field("device", &self.device)
                    .field("stats", &self.stats())
                    .finish_non_exhaustive()
            }
        }

        impl $evaluator {
            /// Counters since construction.
            pub fn stats(&self) -> $crate::evaluator::EvalStats {
                self.counters.snapshot()
            }

            /// The most recent failure, if any.
            pub fn last_error(&self) -> Option<$crate::evaluator::EvalError> {
                self.counters.last_error()
            }

            /// The spec this evaluator serves.
            pub fn spec(&self) -> &heterodox_env::encoding::EncodingSpec {
                &self.shape.spec
            }

            /// Where the forward passes run.
            pub fn device(&self) -> tch::Device {
                self.device
            }

            #[doc = concat!("Evaluates `batch` (see [`Evaluator`])", $route, ", or says why")]
            /// not; on an error the outputs are unspecified.
            pub fn try_evaluate<P: heterodox_env::GameVariant>(
                &self,
                batch: &heterodox_selfplay::LeafBatch<P>,
                priors: &mut [f32],
                values: &mut [f32],
            ) -> Result<(), $crate::evaluator::EvalError> {
                if !self.shape.admit(&self.counters, batch, priors, values)? {
                    return Ok(());
                }
                self.evaluate_admitted(batch, priors, values)
            }
        }

        impl<P: heterodox_env::GameVariant> heterodox_selfplay::Evaluator<P> for $evaluator {
            #[doc = concat!("[`", stringify!($evaluator), "::try_evaluate`]; on an error, uniform")]
            /// priors and value 0 (see the module docs).
            fn evaluate(
                &self,
                batch: &heterodox_selfplay::LeafBatch<P>,
                priors: &mut [f32],
                values: &mut [f32],
            ) {
                if let Err(e) = self.try_evaluate(batch, priors, values) {
                    self.counters.fail(e, batch, priors, values);
                }
            }

            /// The network reads observations: the search must encode its leaves.
            fn needs_observations(&self) -> bool {
                true
            }
        }
    };
}
pub(crate) use network_evaluator_common;

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
