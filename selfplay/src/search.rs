//! [`Search`]: one move's search as a state machine, so that many games'
//! searches share one evaluator batch.
//!
//! * [`Search::start`] sets up the root(s) from a game: under hidden
//!   information, full states sampled from the searcher's view (the true
//!   state is never read), one tree each.
//! * [`Search::gather`] walks from the root to leaves (PUCT or Gumbel
//!   selection, virtual loss for the simulations in flight), plays the
//!   actions on a scratch position, judges terminals from the rules (one
//!   generation pass) and repetition along the path, and appends each new
//!   leaf's observation (the shared stacked encoding) and legal indices to
//!   a [`LeafBatch`]. Terminal leaves are backed up at once.
//! * [`Search::apply`] takes the batch's priors and values back for this
//!   search's leaves, in order, and backs them up.
//! * When [`Search::is_done`], [`Search::result`] gives visits, the
//!   training target and the root value; [`Search::choose`] picks the move;
//!   [`Search::advance`] keeps the chosen subtree for the next move.
//!
//! Values are kept from the side of the player who chooses, compared by
//! player, never by depth parity: a Traitor announcement and its move, or
//! Mad Scientist discards, are several steps by one player.

use heterodox_env::encoding::{encode_stacked, ActionSet, EncodingSpec};
use heterodox_env::repetition::RepetitionPath;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, Game, GameVariant, StateSampler};

use crate::batch::LeafBatch;
use crate::config::{ConfigError, RootPolicy, SearchConfig};
use crate::evaluator::{outcome_value, Evaluator};
use crate::gumbel;
use crate::noise;
use crate::tree::{NodeId, NodeState, Tree, ROOT};

/// Why a search cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("hidden-information search supports history 1 only (earlier positions would show the opponent's true secret); got history {0}")]
    HiddenHistory(usize),
    #[error("the game is over: nothing to search")]
    GameOver,
    #[error("evaluations do not match the leaves gathered: expected {leaves} values and {priors} priors, got {found_values} and {found_priors}")]
    EvaluationShape {
        leaves: usize,
        priors: usize,
        found_values: usize,
        found_priors: usize,
    },
}

/// One determinization's tree and its root.
#[derive(Clone, Debug)]
struct Determinization<P: GameVariant> {
    root: P,
    tree: Tree<P::Action>,
    /// Simulations this tree is to run, and started so far.
    budget: u32,
    started: u32,
    /// Gumbel root: noise per root child, the considered children, and the
    /// visit schedule of sequential halving.
    gumbel: Vec<f32>,
    considered: Vec<bool>,
    schedule: Vec<u32>,
}

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
    /// The action a deterministic player picks: most visits (PUCT), the
    /// sequential-halving winner (Gumbel).
    pub best: usize,
}

impl<A> SearchResult<A> {
    /// The game record's step for playing root action `choice`: its
    /// index, the root value and the training target over the legal
    /// actions.
    pub fn step_record(&self, choice: usize) -> crate::record::StepRecord {
        crate::record::StepRecord {
            action: self.indices[choice],
            root_value: self.value,
            policy: self
                .indices
                .iter()
                .copied()
                .zip(self.policy.iter().copied())
                .collect(),
        }
    }
}

/// A search for one game. See the module docs.
pub struct Search<P: GameVariant> {
    config: SearchConfig,
    history: usize,
    trees: Vec<Determinization<P>>,
    spare: Tree<P::Action>,
    /// The tree kept by `advance` for the next `start`, with its root's key.
    kept: Option<u64>,
    rng: SplitMix64,
    searcher: Color,
    /// Earlier positions of the game before the root, most recent first
    /// (at most history - 1; perfect information only).
    before_root: Vec<P>,
    /// The repetition keys of the line being searched; each descent pushes
    /// and truncates. Perfect information: the game's keys, then the path.
    /// Hidden information: from the (sampled) root only, since the game's
    /// keys hold the true secrets; the root's own count, which is public,
    /// is `root_repetitions`.
    path: RepetitionPath,
    path_base: usize,
    root_repetitions: usize,
    /// Trees that hit a pending leaf this round (reused buffer).
    blocked: Vec<bool>,
    /// Positions along the current descent (for stacked history).
    descent: Vec<P>,
    scratch: Option<P>,
    set: ActionSet<P>,
    /// (tree, node) of the leaves emitted since the last apply, in order,
    /// and how many priors they take in all.
    pending: Vec<(u32, NodeId)>,
    pending_priors: usize,
    /// Scratch buffers for Gumbel's per-node computations.
    logits: Vec<f32>,
    q: Vec<f32>,
    visits: Vec<u32>,
    improved: Vec<f32>,
}

/// The outcome of one descent.
enum Descent {
    Leaf,
    Terminal,
    Collision,
}

impl<P: GameVariant> Search<P> {
    /// A search with `config` for positions encoded as `spec` says.
    pub fn new(config: SearchConfig, spec: &EncodingSpec) -> Result<Search<P>, SearchError> {
        config.validate()?;
        if !P::PERFECT_INFORMATION && spec.history > 1 {
            return Err(SearchError::HiddenHistory(spec.history));
        }
        Ok(Search {
            history: spec.history,
            trees: Vec::new(),
            spare: Tree::default(),
            kept: None,
            rng: SplitMix64::new(0),
            searcher: Color::White,
            before_root: Vec::new(),
            path: RepetitionPath::default(),
            path_base: 0,
            root_repetitions: 1,
            blocked: Vec::new(),
            descent: Vec::new(),
            scratch: None,
            set: ActionSet::new(spec.num_actions),
            pending: Vec::new(),
            pending_priors: 0,
            logits: Vec::new(),
            q: Vec::new(),
            visits: Vec::new(),
            improved: Vec::new(),
            config,
        })
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Sets up a search of `game`'s position. `earlier` holds the game's
    /// positions before it, most recent first (only the first
    /// `history - 1` are read; ignored under hidden information). `seed`
    /// drives the determinizations and the root noise; `noise` turns root
    /// noise on (self-play) or off (evaluation).
    pub fn start(&mut self, game: &Game<P>, earlier: &[P], seed: u64) -> Result<(), SearchError> {
        if game.outcome().is_some() {
            return Err(SearchError::GameOver);
        }
        let position = game.position();
        self.rng = SplitMix64::new(seed);
        self.searcher = position.turn();
        self.before_root.clear();
        if P::PERFECT_INFORMATION {
            self.before_root
                .extend(earlier.iter().take(self.history.saturating_sub(1)).cloned());
        }
        self.root_repetitions = game.repetitions();
        if P::PERFECT_INFORMATION {
            self.path.reset(game);
        } else {
            self.path.truncate(0);
        }
        self.path_base = self.path.len();
        self.pending.clear();
        self.pending_priors = 0;
        let count = if P::PERFECT_INFORMATION {
            1
        } else {
            self.config.determinizations as usize
        };
        let key = position.repetition_key();
        let reuse = self.kept.take() == Some(key) && count == 1 && self.trees.len() == 1;
        self.trees.truncate(count);
        let sampler = P::sampler(&position.view(self.searcher));
        let simulations = self.config.simulations;
        for t in 0..count {
            let root = sampler.sample(&mut self.rng);
            let budget =
                simulations / count as u32 + u32::from((t as u32) < simulations % count as u32);
            if t < self.trees.len() {
                let d = &mut self.trees[t];
                d.root = root;
                d.budget = budget;
                d.started = 0;
                if !reuse {
                    d.tree.reset();
                }
            } else {
                self.trees.push(Determinization {
                    root,
                    tree: Tree::default(),
                    budget,
                    started: 0,
                    gumbel: Vec::new(),
                    considered: Vec::new(),
                    schedule: Vec::new(),
                });
            }
        }
        if reuse {
            // The kept root was evaluated; give it fresh root noise.
            self.prepare_root(0);
        }
        Ok(())
    }

    /// True when every simulation has been run and applied.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty()
            && self
                .trees
                .iter()
                .all(|d| d.tree.node(ROOT).state == NodeState::Expanded && d.started >= d.budget)
    }

    /// Leaves emitted and not yet applied.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Adds up to `leaves_per_round` leaves to `batch` (first the roots,
    /// alone, when they are not yet evaluated); terminal leaves are backed
    /// up here and not emitted. Returns the number of leaves added.
    pub fn gather(&mut self, batch: &mut LeafBatch<P>) -> usize {
        let mut added = 0;
        // Roots first: nothing can be selected below an unevaluated root.
        let mut roots_pending = false;
        for t in 0..self.trees.len() {
            match self.trees[t].tree.node(ROOT).state {
                NodeState::Unexpanded => {
                    self.emit_root(t, batch);
                    added += 1;
                    roots_pending = true;
                }
                NodeState::Pending => roots_pending = true,
                _ => {}
            }
        }
        if roots_pending {
            return added;
        }
        let limit = self.config.leaves_per_round as usize;
        self.blocked.clear();
        self.blocked.resize(self.trees.len(), false);
        let mut t = 0;
        let mut idle = 0;
        // Round-robin over trees with budget left, until the round is full
        // or every tree is blocked (collision) or spent.
        while added < limit && idle < self.trees.len() {
            let d = &self.trees[t];
            if self.blocked[t] || d.started >= d.budget {
                idle += 1;
            } else {
                match self.descend(t, batch) {
                    Descent::Leaf => {
                        added += 1;
                        idle = 0;
                    }
                    Descent::Terminal => idle = 0,
                    Descent::Collision => {
                        self.blocked[t] = true;
                        idle += 1;
                    }
                }
            }
            t = (t + 1) % self.trees.len();
        }
        added
    }

    /// Emits tree `t`'s root as a leaf.
    fn emit_root(&mut self, t: usize, batch: &mut LeafBatch<P>) {
        let root = self.trees[t].root.clone();
        self.set.generate(&root);
        let d = &mut self.trees[t];
        d.tree
            .add_children(ROOT, root.turn(), self.set.actions(), self.set.indices());
        let repetitions = self.root_repetitions;
        let (history, before) = (self.history, &self.before_root);
        batch.push(&root, self.set.indices(), |out| {
            encode_stacked(&root, before, repetitions, history, root.turn(), out)
        });
        self.pending.push((t as u32, ROOT));
        self.pending_priors += self.set.len();
    }

    /// One descent from tree `t`'s root.
    fn descend(&mut self, t: usize, batch: &mut LeafBatch<P>) -> Descent {
        let keep_history = self.history > 1;
        self.path.truncate(self.path_base);
        if !P::PERFECT_INFORMATION {
            self.path.push(self.trees[t].root.repetition_key(), true);
        }
        self.descent.clear();
        let mut position = match self.scratch.take() {
            Some(mut p) => {
                p.clone_from(&self.trees[t].root);
                p
            }
            None => self.trees[t].root.clone(),
        };
        let mut node = ROOT;
        let result = loop {
            match self.trees[t].tree.node(node).state {
                NodeState::Expanded if self.trees[t].tree.node(node).child_count == 0 => {
                    // Only a sampled root can be over here (the real game
                    // is not): a draw for the search.
                    let player = self.trees[t].tree.node(node).player;
                    let d = &mut self.trees[t];
                    d.tree.backup(node, player, 0.0, false);
                    d.started += 1;
                    break Descent::Terminal;
                }
                NodeState::Expanded => {
                    let child = self.select(t, node);
                    if keep_history {
                        self.descent.push(position.clone());
                    }
                    let action = self.trees[t].tree.action(child);
                    let irreversible = position.is_irreversible(&action);
                    position.play_unchecked(&action);
                    self.path.push(position.repetition_key(), irreversible);
                    node = child;
                }
                NodeState::Pending => break Descent::Collision,
                NodeState::Terminal(value) => {
                    let player = self.trees[t].tree.node(node).player;
                    let d = &mut self.trees[t];
                    d.tree.backup(node, player, value, false);
                    d.started += 1;
                    break Descent::Terminal;
                }
                NodeState::Unexpanded => {
                    let player = position.turn();
                    let outcome = self.set.generate(&position);
                    let repetitions = self.path.repetitions();
                    let value = match outcome {
                        Some(outcome) => Some(outcome_value(outcome, player)),
                        None if repetitions >= 3 => Some(0.0),
                        None => None,
                    };
                    let d = &mut self.trees[t];
                    d.started += 1;
                    if let Some(value) = value {
                        d.tree.set_terminal(node, player, value);
                        d.tree.backup(node, player, value, false);
                        break Descent::Terminal;
                    }
                    d.tree
                        .add_children(node, player, self.set.actions(), self.set.indices());
                    d.tree.add_in_flight(node);
                    let (history, before, descent) =
                        (self.history, &self.before_root, &self.descent);
                    batch.push(&position, self.set.indices(), |out| {
                        encode_stacked(
                            &position,
                            descent.iter().rev().chain(before.iter()),
                            repetitions,
                            history,
                            player,
                            out,
                        )
                    });
                    self.pending.push((t as u32, node));
                    self.pending_priors += self.set.len();
                    break Descent::Leaf;
                }
            }
        };
        self.scratch = Some(position);
        result
    }

    /// Takes the evaluations of this search's leaves, in the order
    /// `gather` emitted them: `priors` holds each leaf's priors over its
    /// legal actions back to back, `values` one value per leaf (for the
    /// player to act at the leaf). Invalid priors (non-finite, negative,
    /// zero sum) are replaced by uniform ones. Evaluations of the wrong
    /// length are refused and change nothing.
    pub fn apply(&mut self, priors: &[f32], values: &[f32]) -> Result<(), SearchError> {
        let expected = self.pending_priors;
        if values.len() != self.pending.len() || priors.len() != expected {
            return Err(SearchError::EvaluationShape {
                leaves: self.pending.len(),
                priors: expected,
                found_values: values.len(),
                found_priors: priors.len(),
            });
        }
        let mut offset = 0;
        let pending = std::mem::take(&mut self.pending);
        for (&(t, node), &value) in pending.iter().zip(values) {
            let t = t as usize;
            let tree = &mut self.trees[t].tree;
            let n = tree.node(node).child_count as usize;
            let leaf_priors = &priors[offset..offset + n];
            offset += n;
            let total: f32 = leaf_priors.iter().sum();
            let valid = total > 0.0
                && total.is_finite()
                && leaf_priors.iter().all(|p| p.is_finite() && *p >= 0.0);
            let value = if value.is_finite() {
                value.clamp(-1.0, 1.0)
            } else {
                0.0
            };
            if valid {
                self.improved.clear();
                self.improved.extend(leaf_priors.iter().map(|p| p / total));
            } else {
                self.improved.clear();
                self.improved.resize(n, 1.0 / n.max(1) as f32);
            }
            tree.set_evaluation(node, &self.improved, value);
            if node == ROOT {
                self.prepare_root(t);
            } else {
                let player = tree.node(node).player;
                tree.backup(node, player, value, true);
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.pending_priors = 0;
        Ok(())
    }

    /// Root noise: Dirichlet into the priors (PUCT, weight > 0), or the
    /// Gumbel draws, the considered Top-k and the halving schedule.
    fn prepare_root(&mut self, t: usize) {
        let d = &mut self.trees[t];
        let root = d.tree.node(ROOT);
        let n = root.child_count as usize;
        let children = root.children();
        match self.config.root_policy {
            RootPolicy::Puct => {
                let eps = self.config.dirichlet_epsilon;
                if eps > 0.0 && n > 0 {
                    let mut noise = vec![0.0; n];
                    noise::dirichlet(self.config.dirichlet_alpha, &mut self.rng, &mut noise);
                    for (c, eta) in children.zip(noise) {
                        let node = d.tree.node_mut(c);
                        node.prior = (1.0 - eps) * node.raw_prior + eps * eta;
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
    fn select(&mut self, t: usize, node: NodeId) -> NodeId {
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
    fn completed_q(&mut self, t: usize, node: NodeId) {
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

    /// Visits, target policy, value and the deterministic choice, combined
    /// over determinizations (matched by action index).
    pub fn result(&mut self) -> SearchResult<P::Action> {
        let first = &self.trees[0];
        let root = first.tree.node(ROOT);
        let actions: Vec<P::Action> = root.children().map(|c| first.tree.action(c)).collect();
        let indices: Vec<u32> = root.children().map(|c| first.tree.node(c).action).collect();
        let n = indices.len();
        let mut visits = vec![0u32; n];
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
        let best = match self.config.root_policy {
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
        SearchResult {
            actions,
            indices,
            visits,
            policy,
            value,
            best,
        }
    }

    /// Keeps the subtree under the root action with `index` for a search
    /// of the position it leads to (PUCT, perfect information, with
    /// `reuse_tree`); otherwise the next search starts afresh.
    pub fn advance(&mut self, index: u32) {
        self.kept = None;
        if !(self.config.reuse_tree
            && self.config.root_policy == RootPolicy::Puct
            && P::PERFECT_INFORMATION
            && self.trees.len() == 1)
        {
            return;
        }
        let d = &mut self.trees[0];
        let Some(child) = d
            .tree
            .node(ROOT)
            .children()
            .find(|&c| d.tree.node(c).action == index)
        else {
            return;
        };
        if d.tree.node(child).state != NodeState::Expanded {
            return;
        }
        let mut next = d.root.clone();
        next.play_unchecked(&d.tree.action(child));
        d.tree.reroot(child, &mut self.spare);
        self.kept = Some(next.repetition_key());
    }

    /// Runs the search to the end with `evaluator`, one batch per gather
    /// round (one game alone; self-play batches many games' rounds), and
    /// returns its result. `batch` is a reused buffer.
    pub fn run<E: Evaluator<P> + ?Sized>(
        &mut self,
        evaluator: &E,
        batch: &mut LeafBatch<P>,
    ) -> SearchResult<P::Action> {
        let mut priors = Vec::new();
        let mut values = Vec::new();
        batch.set_observations(evaluator.needs_observations());
        while !self.is_done() {
            batch.clear();
            self.gather(batch);
            crate::evaluator::evaluate_into(evaluator, batch, &mut priors, &mut values);
            self.apply(&priors, &values)
                .expect("the evaluator fills the buffers it is given");
        }
        self.result()
    }

    /// Nodes in the trees (for memory accounting and tests).
    pub fn tree_size(&self) -> usize {
        self.trees.iter().map(|d| d.tree.len()).sum()
    }

    /// The searching player.
    pub fn searcher(&self) -> Color {
        self.searcher
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

fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}
