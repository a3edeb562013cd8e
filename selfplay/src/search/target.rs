//! What a finished search says: [`SearchResult`] (visits, the training
//! target, the root value and the deterministic choice, combined over
//! determinizations) and the game record's step for a chosen move.

use heterodox_env::GameVariant;

use super::Search;
use crate::config::RootPolicy;
use crate::gumbel;
use crate::tree::ROOT;
use heterodox_data::record::StepRecord;

/// What a finished search says about the root's actions (legal-list order
/// of the root).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<A> {
    pub actions: Vec<A>,
    pub indices: Vec<u32>,
    /// Completed visits per action, summed over determinizations.
    pub visits: Vec<u32>,
    /// The training target: visit distribution (PUCT) or the completed-Q
    /// improved policy (Gumbel), averaged over determinizations.
    pub policy: Vec<f32>,
    /// The searcher's value at the root, in [-1, 1].
    pub value: f32,
    /// The evaluator's prior at the root (before noise), averaged over
    /// determinizations: what the network expected before the search.
    pub prior: Vec<f32>,
    /// The action a deterministic player picks: most visits (PUCT), the
    /// sequential-halving winner (Gumbel), or an action that wins at once
    /// (`immediate_wins`).
    pub best: usize,
    /// `best` wins at once (in every sampled state under hidden
    /// information): a player takes it even where it would otherwise draw
    /// its move from the visits (PUCT's opening temperature).
    pub proven_win: bool,
}

impl<A> SearchResult<A> {
    /// The game record's step for playing root action `choice`: its
    /// index, the root value, the training target over the legal actions
    /// and its surprise.
    pub fn step_record(&self, choice: usize) -> StepRecord {
        StepRecord {
            action: self.indices[choice],
            root_value: self.value,
            policy: self
                .indices
                .iter()
                .copied()
                .zip(self.policy.iter().copied())
                .collect(),
            surprise: self.surprise(),
        }
    }

    /// The policy surprise: the Kullback-Leibler divergence of the target
    /// from the prior, `sum pi ln(pi / p)` in nats, each prior floored at
    /// [`PRIOR_FLOOR`] so that an action the network ruled out costs a
    /// bounded surprise. 0 when the search only confirmed the prior; large
    /// where it found what the network missed, the positions KataGo trains
    /// on more often.
    pub fn surprise(&self) -> f32 {
        let kl: f32 = self
            .policy
            .iter()
            .zip(&self.prior)
            .filter(|(&pi, _)| pi > 0.0)
            .map(|(&pi, &p)| pi * (pi / p.max(PRIOR_FLOOR)).ln())
            .sum();
        kl.max(0.0)
    }
}

/// The smallest prior the surprise divides by.
pub const PRIOR_FLOOR: f32 = 1e-6;

impl<P: GameVariant> Search<P> {
    /// Visits, target policy, value and the deterministic choice, combined
    /// over determinizations (matched by action index).
    pub fn result(&mut self) -> SearchResult<P::Action> {
        let first = &self.trees[0];
        let root = first.tree.node(ROOT);
        let actions: Vec<P::Action> = root.children().map(|c| first.tree.action(c)).collect();
        let indices: Vec<u32> = root.children().map(|c| first.tree.node(c).action).collect();
        let n = indices.len();
        let mut visits = vec![0u32; n];
        let mut prior = vec![0.0f32; n];
        let mut policy = vec![0.0f32; n];
        let mut score = vec![f32::NEG_INFINITY; n];
        let mut value = 0.0;
        let count = self.trees.len();
        for t in 0..count {
            let mut tree_visits = vec![0u32; n];
            let mut slot_of = Vec::with_capacity(n);
            {
                let d = &self.trees[t];
                let root = d.tree.node(ROOT);
                value += root.q() / count as f32;
                for c in root.children() {
                    let index = d.tree.node(c).action;
                    let slot = indices.iter().position(|&i| i == index);
                    slot_of.push(slot);
                    if let Some(s) = slot {
                        tree_visits[s] += d.tree.node(c).visits;
                        prior[s] += d.tree.node(c).raw_prior / count as f32;
                    }
                }
            }
            match self.config.root_policy {
                RootPolicy::Puct => {
                    let total: u32 = tree_visits.iter().sum();
                    for (p, &v) in policy.iter_mut().zip(&tree_visits) {
                        *p += if total > 0 {
                            v as f32 / total as f32
                        } else {
                            1.0 / n as f32
                        } / count as f32;
                    }
                }
                RootPolicy::Gumbel => {
                    self.completed_q(t, ROOT);
                    let mut improved = vec![0.0; self.q.len()];
                    gumbel::improved_policy(&self.logits, &self.q, &mut improved);
                    let d = &self.trees[t];
                    let most = d
                        .tree
                        .node(ROOT)
                        .children()
                        .map(|c| d.tree.node(c).visits)
                        .max()
                        .unwrap_or(0);
                    for (i, slot) in slot_of.iter().enumerate() {
                        let Some(s) = *slot else { continue };
                        policy[s] += improved[i] / count as f32;
                        let child = d.tree.node(d.tree.node(ROOT).first_child + i as u32);
                        if d.considered.get(i).copied().unwrap_or(false) && child.visits == most {
                            score[s] = score[s].max(d.gumbel[i] + self.q[i]);
                        }
                    }
                }
            }
            for (total, v) in visits.iter_mut().zip(tree_visits) {
                *total += v;
            }
        }
        let mut best = match self.config.root_policy {
            RootPolicy::Gumbel if count == 1 => argmax(&score),
            _ => {
                // Most visits; ties to the higher target probability.
                (0..n)
                    .max_by(|&a, &b| {
                        visits[a]
                            .cmp(&visits[b])
                            .then(policy[a].total_cmp(&policy[b]))
                            .then(b.cmp(&a))
                    })
                    .unwrap_or(0)
            }
        };
        // An action that wins at once in every determinization is the
        // choice, the target and a won root, whatever the simulations found.
        let winning = self.trees[0]
            .winning
            .filter(|&index| self.trees.iter().all(|d| d.winning == Some(index)));
        let winning = winning.and_then(|index| indices.iter().position(|&i| i == index));
        if let Some(slot) = winning {
            best = slot;
            policy.iter_mut().for_each(|p| *p = 0.0);
            policy[slot] = 1.0;
            value = 1.0;
        }
        SearchResult {
            actions,
            indices,
            visits,
            policy,
            value,
            prior,
            best,
            proven_win: winning.is_some(),
        }
    }
}

fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}
