//! [`Shape`]: what an evaluator checks a network and every batch against,
//! so that a network of another encoding is refused when the evaluator is
//! built and a bad batch never reaches libtorch.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_selfplay::LeafBatch;

use super::error::EvalError;
use super::stats::Counters;
use crate::checkpoint::Network;
use crate::error::ModelError;

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
