//! [`EvalError`]: why a batch could not be evaluated, from the checks
//! before a forward pass to the pass itself and the queue's runner.

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
