//! [`Engine`]: the network with its cache and reused buffers, which turns
//! any number of callers' [`Request`]s into one forward pass over their
//! cache misses. Both evaluators drive one: `NetEvaluator` behind its
//! mutex, the queue from its runner thread; a panic in the pass is caught
//! here, so neither loses its engine to one.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use heterodox_env::GameVariant;
use heterodox_selfplay::LeafBatch;
use tch::{Device, Kind, Tensor};

use super::error::EvalError;
use super::shape::Shape;
use super::softmax::softmax;
use super::stats::Counters;
use crate::cache::{leaf_key, EvalCache};
use crate::checkpoint::Network;

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
    pub(super) cache: EvalCache,
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
