//! The network as the search's evaluator: priors are exactly the softmax of
//! the network's logits over each leaf's legal actions, values its value
//! head; the batching queue answers the same numbers from several threads;
//! the cache returns identical outputs and counts; mismatched specs and
//! batches are typed errors; a search driven by the network finishes with a
//! legal move. Tiny networks (1 block, 8 channels) on the CPU.

use crate::support;

use std::time::Duration;

use heterodox_env::encoding::{encode_stacked, ActionSet, EncodingSpec};
use heterodox_env::rng::SplitMix64;
use heterodox_env::{new_position, Chess, Game, GameVariant, PoisonChess, Position, RuleOptions};
use heterodox_models::tch::{self, Kind, Tensor};
use heterodox_models::{
    EvalError, ModelError, NetEvaluator, Network, QueueConfig, QueuedEvaluator,
};
use heterodox_selfplay::{Evaluator, LeafBatch, RootPolicy, Search, SearchConfig};

use support::{tch_seed, tiny_for, CPU};

fn start<P: GameVariant>() -> P {
    new_position(None, &RuleOptions::new(), 0).expect("start position")
}

fn spec_of<P: GameVariant>(history: usize) -> EncodingSpec {
    EncodingSpec::of(&start::<P>(), history)
}

fn tiny_network(spec: &EncodingSpec, seed: i64) -> Network {
    tch_seed(seed);
    Network::for_spec(spec, &tiny_for(spec), CPU).unwrap()
}

/// `n` leaves from random chess games (T = 1), each the end of a fresh
/// random game of 4 to 40 plies, so that two leaves are almost never the
/// same position.
fn chess_batch(spec: &EncodingSpec, n: usize, seed: u64) -> LeafBatch<Chess> {
    let mut batch = LeafBatch::new(spec);
    let mut rng = SplitMix64::new(seed);
    let mut set = ActionSet::<Chess>::new(spec.num_actions);
    while batch.len() < n {
        let mut position = start::<Chess>();
        let plies = 4 + rng.below(37);
        for _ in 0..plies {
            if set.generate(&position).is_some() {
                break;
            }
            let action = set.actions()[rng.below(set.len())];
            position.play_unchecked(&action);
        }
        if set.generate(&position).is_some() {
            continue;
        }
        batch.push(&position, set.indices(), |out| {
            encode_stacked(&position, [], 1, 1, position.turn(), out)
        });
    }
    batch
}

/// The network's own logits and values for a batch, computed directly.
fn reference(
    network: &Network,
    batch: &LeafBatch<Chess>,
    spec: &EncodingSpec,
) -> (Vec<f32>, Vec<f32>) {
    let [c, h, w] = spec.observation_shape().map(|x| x as i64);
    let xs = Tensor::from_slice(batch.observations()).view([batch.len() as i64, c, h, w]);
    let (logits, values) = tch::no_grad(|| network.forward_t(&xs, false));
    let logits: Vec<f32> = Vec::try_from(logits.to_kind(Kind::Float).flatten(0, -1)).unwrap();
    let values: Vec<f32> = Vec::try_from(values.to_kind(Kind::Float)).unwrap();
    (logits, values)
}

/// Softmax in f64 of leaf `i`'s legal logits.
fn expected_priors(logits: &[f32], batch: &LeafBatch<Chess>, i: usize) -> Vec<f64> {
    let a = batch.num_actions();
    let row: Vec<f64> = batch
        .legal(i)
        .iter()
        .map(|&x| f64::from(logits[i * a + x as usize]))
        .collect();
    let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = row.iter().map(|x| (x - max).exp()).sum();
    row.iter().map(|x| (x - max).exp() / sum).collect()
}

fn evaluate<E: Evaluator<Chess>>(e: &E, batch: &LeafBatch<Chess>) -> (Vec<f32>, Vec<f32>) {
    let mut priors = vec![f32::NAN; batch.total_legal()];
    let mut values = vec![f32::NAN; batch.len()];
    e.evaluate(batch, &mut priors, &mut values);
    (priors, values)
}

fn assert_close(a: &[f32], b: &[f32], tolerance: f32, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() <= tolerance, "{what}[{i}]: {x} vs {y}");
    }
}

#[test]
fn priors_are_the_softmax_of_the_legal_logits_and_values_the_value_head() {
    let spec = spec_of::<Chess>(1);
    let network = tiny_network(&spec, 1);
    let batch = chess_batch(&spec, 37, 7);
    let (logits, reference_values) = reference(&network, &batch, &spec);
    let evaluator = NetEvaluator::new(network, &spec).unwrap();
    let (priors, values) = evaluate(&evaluator, &batch);
    for i in 0..batch.len() {
        let range = batch.legal_range(i);
        assert_eq!(range.len(), batch.legal(i).len());
        let leaf = &priors[range];
        let sum: f64 = leaf.iter().map(|&p| f64::from(p)).sum();
        assert!((sum - 1.0).abs() < 1e-6, "leaf {i}: priors sum to {sum}");
        for (k, (&p, q)) in leaf
            .iter()
            .zip(expected_priors(&logits, &batch, i))
            .enumerate()
        {
            assert!(p > 0.0, "leaf {i}, action {k}: prior {p}");
            assert!(
                (f64::from(p) - q).abs() < 1e-6,
                "leaf {i}, action {k}: {p} vs {q}"
            );
        }
    }
    // The same batch through the same network: the same value head output.
    assert_eq!(values, reference_values);
    let stats = evaluator.stats();
    assert_eq!((stats.requests, stats.leaves), (1, 37));
    assert_eq!((stats.forward_passes, stats.forwarded), (1, 37));
    assert_eq!(
        (stats.cache_hits, stats.cache_misses, stats.failures),
        (0, 0, 0)
    );
    // Nothing is evaluated for an empty batch.
    evaluate(&evaluator, &LeafBatch::new(&spec));
    assert_eq!(evaluator.stats().forward_passes, 1);
}

#[test]
fn the_queue_answers_as_the_direct_evaluator_does_from_four_threads() {
    let spec = spec_of::<Chess>(1);
    let batches: Vec<LeafBatch<Chess>> = (0..4)
        .map(|t| chess_batch(&spec, 5 + 11 * t, 100 + t as u64))
        .collect();
    let direct = NetEvaluator::new(tiny_network(&spec, 2), &spec).unwrap();
    let expected: Vec<_> = batches.iter().map(|b| evaluate(&direct, b)).collect();
    let config = QueueConfig {
        max_batch: 1000,
        max_wait: Duration::from_millis(5),
        cache_size: 0,
    };
    let queued = QueuedEvaluator::new(direct.into_network(), &spec, config).unwrap();
    // One caller alone: the same numbers.
    let (priors, values) = evaluate(&queued, &batches[3]);
    assert_close(&priors, &expected[3].0, 1e-6, "priors");
    assert_close(&values, &expected[3].1, 1e-6, "values");
    let rounds = 20;
    std::thread::scope(|scope| {
        for (batch, (priors, values)) in batches.iter().zip(&expected) {
            let queued = &queued;
            scope.spawn(move || {
                for _ in 0..rounds {
                    let (p, v) = evaluate(queued, batch);
                    assert_close(&p, priors, 1e-6, "priors");
                    assert_close(&v, values, 1e-6, "values");
                }
            });
        }
    });
    let stats = queued.stats();
    let leaves: u64 = batches.iter().map(|b| b.len() as u64).sum();
    assert_eq!(stats.requests, 1 + 4 * rounds);
    assert_eq!(stats.leaves, batches[3].len() as u64 + rounds * leaves);
    assert_eq!(stats.forwarded, stats.leaves);
    assert_eq!(stats.failures, 0);
    // The four threads' requests were merged into fewer forward passes.
    assert!(
        stats.forward_passes < stats.requests,
        "{} forward passes for {} requests",
        stats.forward_passes,
        stats.requests
    );
    let network = queued.shutdown().unwrap();
    assert_eq!(network.config(), &tiny_for(&spec));
}

#[test]
fn cache_hits_return_identical_outputs_and_are_counted() {
    let spec = spec_of::<Chess>(1);
    let uncached = NetEvaluator::new(tiny_network(&spec, 3), &spec).unwrap();
    let first = chess_batch(&spec, 24, 11);
    let second = chess_batch(&spec, 24, 12);
    let mut mixed = chess_batch(&spec, 0, 0);
    for i in 0..24 {
        let (b, j) = if i % 2 == 0 {
            (&first, i)
        } else {
            (&second, i)
        };
        let p = b.position(j).clone();
        mixed.push(&p, b.legal(j), |out| out.copy_from_slice(b.observation(j)));
    }
    let mixed_expected = evaluate(&uncached, &mixed);
    let cached = NetEvaluator::new(uncached.into_network(), &spec)
        .unwrap()
        .with_cache(4096);
    let (p1, v1) = evaluate(&cached, &first);
    let stats = cached.stats();
    assert_eq!((stats.cache_hits, stats.cache_misses), (0, 24));
    let (p2, v2) = evaluate(&cached, &first);
    let stats = cached.stats();
    assert_eq!((stats.cache_hits, stats.cache_misses), (24, 24));
    assert_eq!(
        stats.forward_passes, 1,
        "a batch of hits runs no forward pass"
    );
    assert_eq!(
        (&p1, &v1),
        (&p2, &v2),
        "hits are the stored outputs, bit for bit"
    );
    // Half hits (first's even leaves), half misses (second's odd leaves).
    let (pm, vm) = evaluate(&cached, &mixed);
    let stats = cached.stats();
    assert_eq!((stats.cache_hits, stats.cache_misses), (36, 36));
    assert_eq!((stats.forward_passes, stats.forwarded), (2, 36));
    for i in (0..24).step_by(2) {
        assert_eq!(&pm[mixed.legal_range(i)], &p1[first.legal_range(i)]);
        assert_eq!(vm[i], v1[i]);
    }
    assert_close(&pm, &mixed_expected.0, 1e-6, "priors");
    assert_close(&vm, &mixed_expected.1, 1e-6, "values");

    // The queue's cache, in its runner.
    let config = QueueConfig {
        cache_size: 4096,
        ..QueueConfig::default()
    };
    let queued = QueuedEvaluator::new(cached.into_network(), &spec, config).unwrap();
    let (q1, w1) = evaluate(&queued, &first);
    let (q2, w2) = evaluate(&queued, &first);
    assert_eq!((&q1, &w1), (&q2, &w2));
    assert_close(&q1, &p1, 1e-6, "priors");
    let stats = queued.stats();
    assert_eq!((stats.cache_hits, stats.cache_misses), (24, 24));
    assert_eq!(stats.forward_passes, 1);
}

#[test]
fn a_network_for_another_encoding_is_a_typed_error() {
    let chess = spec_of::<Chess>(1);
    let poison = spec_of::<PoisonChess>(1);
    let chess_t2 = spec_of::<Chess>(2);
    let err = NetEvaluator::new(tiny_network(&chess, 4), &poison).unwrap_err();
    assert!(matches!(err, ModelError::EncodingMismatch(_)), "{err}");
    let err = NetEvaluator::new(tiny_network(&chess, 4), &chess_t2).unwrap_err();
    assert!(matches!(err, ModelError::EncodingMismatch(_)), "{err}");
    let err =
        QueuedEvaluator::new(tiny_network(&chess, 4), &poison, QueueConfig::default()).unwrap_err();
    assert!(matches!(err, ModelError::EncodingMismatch(_)), "{err}");
    // A network without a recorded spec is checked by its shapes.
    let bare = Network::new(&tiny_for(&chess), CPU).unwrap();
    let err = NetEvaluator::new(bare, &poison).unwrap_err();
    assert!(
        matches!(err, ModelError::ConfigSpecMismatch { .. }),
        "{err}"
    );
    let bare = Network::new(&tiny_for(&chess), CPU).unwrap();
    assert!(NetEvaluator::new(bare, &chess).is_ok());
    let err = QueuedEvaluator::new(
        tiny_network(&chess, 4),
        &chess,
        QueueConfig {
            max_batch: 0,
            ..QueueConfig::default()
        },
    )
    .unwrap_err();
    assert!(matches!(err, ModelError::InvalidConfig(_)), "{err}");
}

#[test]
fn a_batch_that_does_not_fit_is_a_typed_error_and_uniform_through_the_trait() {
    let chess = spec_of::<Chess>(1);
    let poison = spec_of::<PoisonChess>(1);
    let direct = NetEvaluator::new(tiny_network(&chess, 5), &chess).unwrap();
    let queued =
        QueuedEvaluator::new(tiny_network(&chess, 5), &chess, QueueConfig::default()).unwrap();
    let p = start::<PoisonChess>();
    let mut wrong = LeafBatch::<PoisonChess>::new(&poison);
    wrong.push(&p, &[0, 1], |_| {});
    let mut priors = [f32::NAN; 2];
    let mut values = [f32::NAN];
    let expected = Err(EvalError::Variant {
        expected: chess.variant.clone(),
        found: poison.variant.clone(),
    });
    // Both evaluators check a batch before they run it.
    for refusal in [
        direct.try_evaluate(&wrong, &mut priors, &mut values),
        queued.try_evaluate(&wrong, &mut priors, &mut values),
    ] {
        assert_eq!(refusal, expected);
    }
    // Through the trait: uniform priors, value 0, one failure counted.
    Evaluator::evaluate(&direct, &wrong, &mut priors, &mut values);
    assert_eq!((priors, values), ([0.5, 0.5], [0.0]));
    assert_eq!(direct.stats().failures, 1);
    assert!(matches!(
        direct.last_error(),
        Some(EvalError::Variant { .. })
    ));
    assert_eq!(direct.stats().forward_passes, 0);

    let batch = chess_batch(&chess, 3, 1);
    let mut short = vec![0.0; batch.total_legal() - 1];
    let mut values = vec![0.0; 3];
    assert_eq!(
        direct.try_evaluate(&batch, &mut short, &mut values),
        Err(EvalError::BufferLength {
            buffer: "priors",
            expected: batch.total_legal(),
            found: batch.total_legal() - 1
        })
    );
    // A batch whose observations were turned off.
    let mut blind = LeafBatch::<Chess>::new(&chess);
    blind.set_observations(false);
    let c = start::<Chess>();
    blind.push(&c, &[3, 5], |_| {});
    let mut priors = [0.0; 2];
    let mut values = [0.0];
    for refusal in [
        direct.try_evaluate(&blind, &mut priors, &mut values),
        queued.try_evaluate(&blind, &mut priors, &mut values),
    ] {
        assert_eq!(refusal, Err(EvalError::NoObservations));
    }
    assert!(Evaluator::<Chess>::needs_observations(&direct));
    assert!(Evaluator::<Chess>::needs_observations(&queued));
    // A legal index beyond the policy.
    let mut bad = LeafBatch::<Chess>::new(&chess);
    bad.push(&c, &[3, chess.num_actions as u32], |_| {});
    let mut priors = [0.0; 2];
    let mut values = [0.0];
    assert_eq!(
        queued.try_evaluate(&bad, &mut priors, &mut values),
        Err(EvalError::LegalIndex {
            index: chess.num_actions as u32,
            num_actions: chess.num_actions
        })
    );
    assert_eq!(queued.stats().forward_passes, 0);
}

/// A search on chess with the network, direct and through the queue: it
/// finishes, with a legal best action and every simulation counted.
#[test]
fn a_search_with_the_network_returns_a_legal_action() {
    let spec = spec_of::<Chess>(1);
    let config = SearchConfig {
        simulations: 64,
        leaves_per_round: 8,
        root_policy: RootPolicy::Puct,
        ..SearchConfig::default()
    };
    let direct = NetEvaluator::new(tiny_network(&spec, 6), &spec)
        .unwrap()
        .with_cache(1 << 12);
    let mut game = Game::new(start::<Chess>());
    let mut search = Search::<Chess>::new(config.clone(), &spec).unwrap();
    let mut batch = LeafBatch::new(&spec);
    search.start(&game, &[], 1).unwrap();
    let result = search.run(&direct, &mut batch);
    assert!(game.position().is_legal(&result.actions[result.best]));
    assert_eq!(result.visits.iter().sum::<u32>(), 64);
    assert!(result.value.is_finite());
    assert_eq!(direct.stats().failures, 0);
    game.play(&result.actions[result.best]).unwrap();

    let queued =
        QueuedEvaluator::new(direct.into_network(), &spec, QueueConfig::default()).unwrap();
    search.start(&game, &[], 2).unwrap();
    let result = search.run(&queued, &mut batch);
    assert!(game.position().is_legal(&result.actions[result.best]));
    assert_eq!(result.visits.iter().sum::<u32>(), 64);
    assert_eq!(queued.stats().failures, 0);
}

/// On a GPU machine (test binaries do not link libtorch's CUDA library:
/// run with `LD_PRELOAD=.../libtorch_cuda.so`), the evaluators give the
/// CPU's numbers from a CUDA network, to TF32 convolution precision.
/// Skipped without CUDA.
#[test]
fn the_evaluators_run_on_cuda_when_there_is_one() {
    if !tch::Cuda::is_available() {
        eprintln!("no CUDA device: skipped");
        return;
    }
    let spec = spec_of::<Chess>(1);
    let dir = support::scratch_dir("evaluator-cuda");
    let network = tiny_network(&spec, 7);
    network.save(&dir).unwrap();
    let batch = chess_batch(&spec, 50, 3);
    let cpu = NetEvaluator::new(network, &spec).unwrap();
    let (priors, values) = evaluate(&cpu, &batch);
    let cuda = tch::Device::Cuda(0);
    let direct = NetEvaluator::new(Network::load_for(&dir, &spec, cuda).unwrap(), &spec).unwrap();
    assert_eq!(direct.device(), cuda);
    let (p, v) = evaluate(&direct, &batch);
    assert_close(&p, &priors, 2e-3, "priors");
    assert_close(&v, &values, 2e-3, "values");
    let queued =
        QueuedEvaluator::new(direct.into_network(), &spec, QueueConfig::default()).unwrap();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let (p, v) = evaluate(&queued, &batch);
                assert_close(&p, &priors, 2e-3, "priors");
                assert_close(&v, &values, 2e-3, "values");
            });
        }
    });
    assert_eq!(queued.stats().failures, 0);
}
