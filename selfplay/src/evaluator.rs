//! Evaluators: what turns a batch of leaves into priors and values. One
//! batched trait for every kind (uniform, random rollouts, a neural network
//! in another crate, a Python callable), so the search never knows which.

use heterodox_env::rng::SplitMix64;
use heterodox_env::{GameVariant, Outcome};
use rayon::prelude::*;

use crate::batch::LeafBatch;

/// Evaluates leaves in batches.
///
/// For leaf `i` of `batch`: `priors[batch.legal_range(i)]` receives a
/// probability per legal action (same order as `batch.legal(i)`, summing to
/// 1), and `values[i]` the expected result in [-1, 1] for the player to act
/// at the leaf (`batch.player(i)`).
pub trait Evaluator<P: GameVariant>: Send + Sync {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]);

    /// Whether the evaluator reads observations. Those that do not (the
    /// uniform and rollout evaluators read legal actions and positions
    /// only) let the search skip encoding.
    fn needs_observations(&self) -> bool {
        true
    }
}

/// Sizes `priors` (one per legal action of every leaf) and `values` (one
/// per leaf) for `batch`, zeroed, and has `evaluator` fill them; an empty
/// batch is not sent. The one place that hands a batch to an evaluator
/// (`Search::run` for one game, `SearchGroup` for many).
pub fn evaluate_into<P: GameVariant, E: Evaluator<P> + ?Sized>(
    evaluator: &E,
    batch: &LeafBatch<P>,
    priors: &mut Vec<f32>,
    values: &mut Vec<f32>,
) {
    priors.clear();
    priors.resize(batch.total_legal(), 0.0);
    values.clear();
    values.resize(batch.len(), 0.0);
    if !batch.is_empty() {
        evaluator.evaluate(batch, priors, values);
    }
}

/// Uniform priors and value 0: search guided by the rules alone (terminal
/// values), the baseline of benchmarks and tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<P: GameVariant> Evaluator<P> for UniformEvaluator {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        for (i, value) in values.iter_mut().enumerate().take(batch.len()) {
            let range = batch.legal_range(i);
            let p = 1.0 / range.len().max(1) as f32;
            priors[range].fill(p);
            *value = 0.0;
        }
    }

    fn needs_observations(&self) -> bool {
        false
    }
}

/// Uniform priors and the average result of `rollouts` uniformly random
/// playouts from the leaf (at most `max_plies` steps each, unfinished
/// counts as a draw): the classical MCTS baseline. Deterministic: each
/// leaf's rollouts are seeded by `seed` and the leaf's key.
#[derive(Clone, Copy, Debug)]
pub struct RolloutEvaluator {
    pub rollouts: u32,
    pub max_plies: u32,
    pub seed: u64,
}

impl Default for RolloutEvaluator {
    fn default() -> RolloutEvaluator {
        RolloutEvaluator {
            rollouts: 1,
            max_plies: 200,
            seed: 0,
        }
    }
}

impl RolloutEvaluator {
    fn rollout<P: GameVariant>(
        &self,
        start: &P,
        rng: &mut SplitMix64,
        actions: &mut Vec<P::Action>,
    ) -> f32 {
        let player = start.turn();
        let mut position = start.clone();
        for _ in 0..self.max_plies {
            if let Some(outcome) = position.legal_actions_and_outcome(actions) {
                return outcome_value(outcome, player);
            }
            let action = actions[rng.below(actions.len())];
            position.play_unchecked(&action);
        }
        position.outcome().map_or(0.0, |o| outcome_value(o, player))
    }
}

/// Leaves per rayon task of the rollout evaluator: a playout is tens of
/// microseconds, so a few leaves per task keep the scheduling cost small.
const ROLLOUT_LEAVES_PER_TASK: usize = 4;

impl<P: GameVariant> Evaluator<P> for RolloutEvaluator {
    /// The playouts of a batch run in parallel (rayon): each leaf's value
    /// depends only on its position and the seed, so the result is the
    /// same whatever the threads. One move buffer per task, none per leaf.
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        let n = batch.len();
        for i in 0..n {
            let range = batch.legal_range(i);
            let p = 1.0 / range.len().max(1) as f32;
            priors[range].fill(p);
        }
        values[..n]
            .par_iter_mut()
            .enumerate()
            .with_min_len(ROLLOUT_LEAVES_PER_TASK)
            .for_each_init(
                || Vec::with_capacity(256),
                |actions, (i, value)| {
                    let position = batch.position(i);
                    let mut rng = SplitMix64::new(self.seed ^ position.repetition_key());
                    let total: f32 = (0..self.rollouts.max(1))
                        .map(|_| self.rollout(position, &mut rng, actions))
                        .sum();
                    *value = total / self.rollouts.max(1) as f32;
                },
            );
    }

    fn needs_observations(&self) -> bool {
        false
    }
}

/// The value of a finished game for `player`: +1 won, -1 lost, 0 drawn.
pub fn outcome_value(outcome: Outcome, player: heterodox_env::Color) -> f32 {
    match outcome {
        Outcome::Decisive { winner, .. } if winner == player => 1.0,
        Outcome::Decisive { .. } => -1.0,
        Outcome::Draw { .. } => 0.0,
    }
}
