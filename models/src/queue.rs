//! [`QueuedEvaluator`]: many self-play threads, one network, larger
//! forward passes.
//!
//! The pattern of OpenSpiel's libtorch AlphaZero (its `VPRNet` evaluator
//! behind a batching queue): a runner thread owns the network; each caller
//! (a self-play worker with its own batch of many games' leaves) copies its
//! leaves into a request, sends it through a channel and blocks for the
//! answer. The runner waits for a first request, then keeps collecting
//! until the requests hold `max_batch` leaves or `max_wait` has passed
//! since the first arrived, runs one forward pass over all of them (their
//! cache misses), and answers each caller.
//!
//! * `max_batch` is where collecting stops, not a cap: requests are never
//!   split, so one forward pass may hold up to `max_batch - 1` leaves more.
//!   Set it to the number of leaves the callers have in flight together
//!   (threads x leaves per call) and no one waits for the deadline.
//! * `max_wait` bounds the latency a lone caller pays when the others are
//!   busy searching: 1 ms by default, small beside a CPU forward pass.
//! * The cache lives in the runner (no lock); the callers hash their own
//!   leaves, in parallel, before sending.
//! * Request buffers are pooled: once warm, a call allocates only its
//!   one-shot reply channel, nothing per leaf.
//!
//! **Failure.** A forward pass that fails or panics is caught in the runner
//! and answered to every caller of that pass as an [`EvalError`]; the
//! runner goes on. Should the runner thread die anyway, its channels close
//! and every caller, waiting or later, gets [`EvalError::Stopped`] instead
//! of hanging. Through the [`Evaluator`] trait, errors become uniform
//! priors and value 0, counted in [`EvalStats::failures`], as for
//! [`crate::NetEvaluator`].
//!
//! **Shutdown.** Dropping the evaluator closes the request channel (no
//! caller can be in a call then, since calls borrow it) and joins the
//! runner; [`QueuedEvaluator::shutdown`] does the same and returns the
//! network.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use heterodox_selfplay::LeafBatch;
// The trait is implemented by `network_evaluator_common!`; named here for the docs.
#[cfg(doc)]
use heterodox_selfplay::Evaluator;
use tch::Device;

use crate::checkpoint::Network;
use crate::error::ModelError;
use crate::evaluator::{
    index_batch, network_evaluator_common, panic_message, Counters, Engine, EvalError, Request,
    Shape,
};

/// Settings of a [`QueuedEvaluator`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueConfig {
    /// Leaves at which the runner stops collecting requests (at least 1).
    pub max_batch: usize,
    /// How long the runner collects after the first request.
    pub max_wait: Duration,
    /// Cache entries (0: no cache); see [`crate::cache`].
    pub cache_size: usize,
}

impl Default for QueueConfig {
    fn default() -> QueueConfig {
        QueueConfig {
            max_batch: 256,
            max_wait: Duration::from_millis(1),
            cache_size: 0,
        }
    }
}

/// One caller's leaves, owned (pooled between calls).
#[derive(Default)]
struct Job {
    observations: Vec<f32>,
    legal: Vec<u32>,
    offsets: Vec<usize>,
    keys: Vec<u64>,
    priors: Vec<f32>,
    values: Vec<f32>,
}

impl Job {
    fn request(&mut self) -> Request<'_> {
        Request {
            observations: &self.observations,
            legal: &self.legal,
            offsets: &self.offsets,
            keys: &self.keys,
            priors: &mut self.priors,
            values: &mut self.values,
        }
    }
}

type Reply = (Job, Result<(), EvalError>);

struct Message {
    job: Job,
    reply: SyncSender<Reply>,
}

/// The network behind a batching queue served by its own thread (see the
/// module docs). `Send + Sync`: share it by reference (or `Arc`) between
/// self-play threads.
pub struct QueuedEvaluator {
    sender: Option<Sender<Message>>,
    runner: Option<JoinHandle<Network>>,
    shape: Shape,
    device: Device,
    cached: bool,
    counters: Arc<Counters>,
    pool: Mutex<Vec<Job>>,
}

network_evaluator_common!(
    QueuedEvaluator,
    " through the queue, blocking until the runner answers"
);

impl QueuedEvaluator {
    /// Starts the runner thread with `network`, for leaves encoded as `spec`
    /// says (checked as by [`crate::NetEvaluator::new`]).
    pub fn new(
        network: Network,
        spec: &EncodingSpec,
        config: QueueConfig,
    ) -> Result<QueuedEvaluator, ModelError> {
        if config.max_batch == 0 {
            return Err(ModelError::InvalidConfig(
                "queue max_batch must be at least 1".to_owned(),
            ));
        }
        let shape = Shape::new(&network, spec)?;
        let device = network.var_store().device();
        let counters = Arc::new(Counters::default());
        let engine = Engine::new(
            network,
            shape.clone(),
            config.cache_size,
            Arc::clone(&counters),
        );
        let (sender, receiver) = mpsc::channel();
        let runner = std::thread::Builder::new()
            .name("heterodox-eval".to_owned())
            .spawn(move || serve(engine, receiver, config))
            .map_err(|e| ModelError::Io {
                path: "<evaluation runner thread>".into(),
                source: e,
            })?;
        Ok(QueuedEvaluator {
            sender: Some(sender),
            runner: Some(runner),
            shape,
            device,
            cached: config.cache_size > 0,
            counters,
            pool: Mutex::new(Vec::new()),
        })
    }

    /// Sends a checked, non-empty `batch` to the runner and waits for its
    /// answer.
    fn evaluate_admitted<P: GameVariant>(
        &self,
        batch: &LeafBatch<P>,
        priors: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        let mut job = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        job.observations.clear();
        job.observations.extend_from_slice(batch.observations());
        job.legal.clear();
        job.legal.extend_from_slice(batch.all_legal());
        index_batch(
            batch,
            &mut job.offsets,
            self.cached.then_some(&mut job.keys),
        );
        if !self.cached {
            job.keys.clear();
        }
        job.priors.clear();
        job.priors.resize(priors.len(), 0.0);
        job.values.clear();
        job.values.resize(values.len(), 0.0);
        let (reply, answer) = mpsc::sync_channel(1);
        let sender = self.sender.as_ref().ok_or(EvalError::Stopped)?;
        sender
            .send(Message { job, reply })
            .map_err(|_| EvalError::Stopped)?;
        let (job, status) = answer.recv().map_err(|_| EvalError::Stopped)?;
        if status.is_ok() {
            priors.copy_from_slice(&job.priors);
            values.copy_from_slice(&job.values);
        }
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(job);
        status
    }

    /// Stops the runner and gives the network back;
    /// [`EvalError::Stopped`] if the runner died.
    pub fn shutdown(mut self) -> Result<Network, EvalError> {
        self.stop().ok_or(EvalError::Stopped)
    }

    /// Closes the channel and joins the runner: `None` if it panicked.
    fn stop(&mut self) -> Option<Network> {
        drop(self.sender.take());
        self.runner.take().and_then(|runner| runner.join().ok())
    }
}

impl Drop for QueuedEvaluator {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The runner: collect, evaluate, answer, until the channel closes.
/// Returns the network for [`QueuedEvaluator::shutdown`].
fn serve(mut engine: Engine, receiver: Receiver<Message>, config: QueueConfig) -> Network {
    let mut pending: Vec<Message> = Vec::new();
    while let Ok(first) = receiver.recv() {
        let mut leaves = first.job.values.len();
        pending.push(first);
        let deadline = Instant::now() + config.max_wait;
        while leaves < config.max_batch {
            let left = deadline.saturating_duration_since(Instant::now());
            let next = if left.is_zero() {
                receiver.try_recv().map_err(|_| RecvTimeoutError::Timeout)
            } else {
                receiver.recv_timeout(left)
            };
            match next {
                Ok(message) => {
                    leaves += message.job.values.len();
                    pending.push(message);
                }
                Err(_) => break,
            }
        }
        let status = {
            let mut requests: Vec<Request<'_>> =
                pending.iter_mut().map(|m| m.job.request()).collect();
            // The engine catches libtorch panics itself; this also keeps
            // a bug elsewhere in it from killing the runner.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine.evaluate(&mut requests)
            }))
            .unwrap_or_else(|payload| Err(EvalError::Panicked(panic_message(payload.as_ref()))))
        };
        for message in pending.drain(..) {
            // A caller that has gone away is no concern of the runner.
            let _ = message.reply.send((message.job, status.clone()));
        }
    }
    engine.network
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NetConfig;
    use heterodox_env::encoding::encode_stacked;
    use heterodox_env::{new_position, Chess, RuleOptions};
    use heterodox_selfplay::Evaluator;

    fn spec() -> EncodingSpec {
        let start: Chess = new_position(None, &RuleOptions::new(), 0).unwrap();
        EncodingSpec::of(&start, 1)
    }

    fn network(spec: &EncodingSpec) -> Network {
        let config = NetConfig {
            blocks: 1,
            channels: 8,
            ..NetConfig::for_spec(spec)
        };
        Network::for_spec(spec, &config, Device::Cpu).unwrap()
    }

    fn one_leaf(spec: &EncodingSpec) -> LeafBatch<Chess> {
        let start: Chess = new_position(None, &RuleOptions::new(), 0).unwrap();
        let mut batch = LeafBatch::new(spec);
        batch.push(&start, &[1, 2, 3], |out| {
            encode_stacked(&start, [], 1, 1, start.turn(), out)
        });
        batch
    }

    /// A queue whose runner is `runner`, fed by the returned evaluator.
    fn with_runner(
        spec: &EncodingSpec,
        runner: impl FnOnce(Receiver<Message>) -> Network + Send + 'static,
    ) -> QueuedEvaluator {
        let shape = Shape::new(&network(spec), spec).unwrap();
        let (sender, receiver) = mpsc::channel();
        QueuedEvaluator {
            sender: Some(sender),
            runner: Some(std::thread::spawn(move || runner(receiver))),
            shape,
            device: Device::Cpu,
            cached: false,
            counters: Arc::default(),
            pool: Mutex::default(),
        }
    }

    #[test]
    fn a_failing_forward_pass_is_answered_and_the_runner_goes_on() {
        let spec = spec();
        let net = network(&spec);
        // The engine believes in a 4 x 16 board: every forward pass fails
        // in libtorch's shape check.
        let mut shape = Shape::new(&net, &spec).unwrap();
        shape.input = [shape.input[0], 4, 16];
        let engine = Engine::new(net, shape, 0, Arc::default());
        let queued = with_runner(&spec, move |rx| serve(engine, rx, QueueConfig::default()));
        let batch = one_leaf(&spec);
        for _ in 0..2 {
            let (mut priors, mut values) = ([0.0; 3], [0.0]);
            let result = queued.try_evaluate(&batch, &mut priors, &mut values);
            assert!(matches!(result, Err(EvalError::Forward(_))), "{result:?}");
        }
        assert!(queued.shutdown().is_ok());
    }

    #[test]
    fn a_dead_runner_never_leaves_a_caller_waiting() {
        let spec = spec();
        let batch = one_leaf(&spec);
        let (mut priors, mut values) = ([0.0; 3], [0.0]);
        // Dies while holding a request.
        let queued = with_runner(&spec, |rx| {
            let _request = rx.recv();
            panic!("runner died (deliberately, in a test)")
        });
        // Stopped twice: while the runner dies holding the request, and
        // once its channel is gone.
        for _ in 0..2 {
            assert_eq!(
                queued.try_evaluate(&batch, &mut priors, &mut values),
                Err(EvalError::Stopped)
            );
        }
        // Through the trait: uniform priors and value 0.
        Evaluator::evaluate(&queued, &batch, &mut priors, &mut values);
        assert_eq!((priors, values), ([1.0 / 3.0; 3], [0.0]));
        assert_eq!(queued.stats().failures, 1);
        assert_eq!(queued.shutdown().unwrap_err(), EvalError::Stopped);
    }
}
