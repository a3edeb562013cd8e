//! Where a simulation goes: the root's noise (Dirichlet into the PUCT
//! priors; the Gumbel draws, the considered Top-k and the halving
//! schedule), PUCT selection, and Gumbel's root (sequential halving) and
//! interior (`pi'(a) - N(a)/(1 + sum N)`) rules.

use heterodox_env::GameVariant;

use super::Search;
use crate::config::RootPolicy;
use crate::gumbel;
use crate::noise;
use crate::tree::{NodeId, Tree, ROOT};

impl<P: GameVariant> Search<P> {
    /// Root noise: Dirichlet into the priors (PUCT, weight > 0), or the
    /// Gumbel draws, the considered Top-k and the halving schedule.
    pub(super) fn prepare_root(&mut self, t: usize) {
        let d = &mut self.trees[t];
        let root = d.tree.node(ROOT);
        let n = root.child_count as usize;
        let children = root.children();
        match self.config.root_policy {
            RootPolicy::Puct => {
                let eps = if self.cheap.is_some() {
                    0.0
                } else {
                    self.config.dirichlet_epsilon
                };
                if eps > 0.0 && n > 0 {
                    let mut noise = vec![0.0; n];
                    noise::dirichlet(self.config.dirichlet_alpha, &mut self.rng, &mut noise);
                    for (c, eta) in children.clone().zip(noise) {
                        let node = d.tree.node_mut(c);
                        node.prior = (1.0 - eps) * node.raw_prior + eps * eta;
                    }
                }
                // Actions that lose at once get no prior, the others
                // share theirs.
                if !d.losing.is_empty() {
                    let mut kept = 0.0;
                    for (c, &lost) in children.clone().zip(&d.losing) {
                        let node = d.tree.node_mut(c);
                        if lost {
                            node.prior = 0.0;
                        }
                        kept += node.prior;
                    }
                    if kept > 0.0 {
                        for c in children {
                            d.tree.node_mut(c).prior /= kept;
                        }
                    }
                }
            }
            RootPolicy::Gumbel => {
                d.gumbel.clear();
                for c in children.clone() {
                    let g = if self.config.gumbel_noise {
                        noise::gumbel(&mut self.rng)
                    } else {
                        0.0
                    };
                    d.gumbel.push(g + d.tree.node(c).logit);
                }
                // Actions that lose at once are considered last, and never
                // chosen over one that does not.
                for (score, &lost) in d.gumbel.iter_mut().zip(&d.losing) {
                    if lost {
                        *score = f32::NEG_INFINITY;
                    }
                }
                let k = (self.config.gumbel_actions as usize).min(n);
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| d.gumbel[b].total_cmp(&d.gumbel[a]).then(a.cmp(&b)));
                d.considered.clear();
                d.considered.resize(n, false);
                for &i in &order[..k] {
                    d.considered[i] = true;
                }
                d.schedule = gumbel::considered_visit_schedule(k, d.budget as usize);
            }
        }
    }

    /// The child of `node` a simulation goes to.
    pub(super) fn select(&mut self, t: usize, node: NodeId) -> NodeId {
        match self.config.root_policy {
            RootPolicy::Gumbel if node == ROOT => self.select_gumbel_root(t),
            RootPolicy::Gumbel => self.select_gumbel_interior(t, node),
            RootPolicy::Puct => self.select_puct(t, node),
        }
    }

    /// `Q + c P sqrt(N) / (1 + n)`, in-flight simulations counted as
    /// losses, unvisited children at the parent's value less the FPU
    /// reduction.
    fn select_puct(&self, t: usize, node: NodeId) -> NodeId {
        let tree = &self.trees[t].tree;
        let parent = tree.node(node);
        let total = parent.visits + parent.in_flight;
        let sqrt_total = (total.max(1) as f32).sqrt();
        let fpu = own_value(tree, node) - self.config.fpu_reduction;
        let mut best = parent.first_child;
        let mut best_score = f32::NEG_INFINITY;
        for c in parent.children() {
            let child = tree.node(c);
            let n = child.visits + child.in_flight;
            let q = if n == 0 {
                fpu
            } else {
                (child.value_sum - child.in_flight as f32) / n as f32
            };
            let score = q + self.config.c_puct * child.prior * sqrt_total / (1.0 + n as f32);
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// Fills the scratch buffers with `node`'s children's logits, visits
    /// (in flight included) and sigma of completed Q.
    pub(super) fn completed_q(&mut self, t: usize, node: NodeId) {
        let tree = &self.trees[t].tree;
        let parent = tree.node(node);
        self.logits.clear();
        self.q.clear();
        self.visits.clear();
        self.improved.clear();
        for c in parent.children() {
            let child = tree.node(c);
            let n = child.visits + child.in_flight;
            self.logits.push(child.logit);
            self.visits.push(n);
            self.q.push(if n == 0 {
                0.0
            } else {
                (child.value_sum - child.in_flight as f32) / n as f32
            });
            self.improved.push(child.raw_prior);
        }
        gumbel::completed_sigma(
            parent.raw_value,
            &self.improved,
            &mut self.q,
            &self.visits,
            self.config.gumbel_c_visit,
            self.config.gumbel_c_scale,
        );
    }

    /// Sequential halving: among the considered actions whose visits equal
    /// the schedule's count for this simulation, the best
    /// `g + logits + sigma(q)`.
    fn select_gumbel_root(&mut self, t: usize) -> NodeId {
        self.completed_q(t, ROOT);
        let d = &self.trees[t];
        let root = d.tree.node(ROOT);
        let simulation = (root.visits + root.in_flight) as usize;
        let target = d
            .schedule
            .get(simulation)
            .or(d.schedule.last())
            .copied()
            .unwrap_or(0);
        let mut best = None;
        let mut best_key = (false, f32::NEG_INFINITY);
        for i in 0..root.child_count as usize {
            if !d.considered[i] {
                continue;
            }
            let on_schedule = self.visits[i] == target;
            let score = d.gumbel[i] + self.q[i];
            // Prefer actions on schedule; among the others (collisions in
            // a batch), the least visited first, then the score.
            let key = (
                on_schedule,
                score
                    - if on_schedule {
                        0.0
                    } else {
                        self.visits[i] as f32 * 1e6
                    },
            );
            if best.is_none() || key.0 && !best_key.0 || key.0 == best_key.0 && key.1 > best_key.1 {
                best = Some(i);
                best_key = key;
            }
        }
        root.first_child + best.unwrap_or(0) as u32
    }

    /// Below the root: the action whose visit share lags most behind the
    /// improved policy, `argmax pi'(a) - N(a) / (1 + sum N)`.
    fn select_gumbel_interior(&mut self, t: usize, node: NodeId) -> NodeId {
        self.completed_q(t, node);
        let total: u32 = self.visits.iter().sum();
        let mut improved = std::mem::take(&mut self.improved);
        gumbel::improved_policy(&self.logits, &self.q, &mut improved);
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, (&p, &n)) in improved.iter().zip(&self.visits).enumerate() {
            let score = p - n as f32 / (1.0 + total as f32);
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        self.improved = improved;
        self.trees[t].tree.node(node).first_child + best as u32
    }
}

/// The value of `node` for its own player: its evaluation before it has
/// visits, else its mean, turned to its player's side.
fn own_value<A: Copy>(tree: &Tree<A>, node: NodeId) -> f32 {
    let n = tree.node(node);
    if n.visits == 0 {
        return n.raw_value;
    }
    if node == ROOT || tree.node(n.parent).player == n.player {
        n.q()
    } else {
        -n.q()
    }
}
