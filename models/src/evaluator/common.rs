//! `network_evaluator_common!`: what the two network evaluators share,
//! written once as a macro (their types differ only in how a batch
//! reaches the network).

#[cfg(doc)]
use heterodox_selfplay::Evaluator;

/// What both network evaluators ([`NetEvaluator`](super::NetEvaluator),
/// [`crate::QueuedEvaluator`]) show the same way, written once: their
/// `Debug`, the accessors of the fields both hold (`shape`, `device`,
/// `counters`), `try_evaluate` (the checks and counting of
/// [`Shape::admit`](super::shape::Shape::admit), then the evaluator's own
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
