//! [`Search`]: one move's search as a state machine, so that many games'
//! searches share one evaluator batch ([`crate::SearchGroup`]).
//!
//! * [`Search::start`] sets up the root(s) from a game (determinize.rs:
//!   under hidden information, full states sampled from the searcher's
//!   view, the true state never read, one tree each).
//! * [`Search::gather`] walks from the root to leaves (select.rs: PUCT or
//!   Gumbel selection, virtual loss for the simulations in flight), plays
//!   the actions on a scratch position, judges terminals from the rules
//!   (one generation pass) and repetition along the path, and appends each
//!   new leaf's observation (the shared stacked encoding) and legal indices
//!   to a [`LeafBatch`]. Terminal leaves are backed up at once.
//! * [`Search::apply`] takes the batch's priors and values back for this
//!   search's leaves, in order, and backs them up.
//! * When [`Search::is_done`], [`Search::result`] (target.rs) gives visits,
//!   the training target, the root value and the deterministic choice;
//!   [`Search::advance`] keeps the chosen subtree for the next move.
//!
//! Values are kept from the side of the player who chooses, compared by
//! player, never by depth parity: a Traitor announcement and its move, or
//! Mad Scientist discards, are several steps by one player.

use heterodox_engine::{BeliefReport, Engine, EngineConfig, EvalWeights, LeafQuiescence};
use heterodox_env::encoding::{encode_stacked, ActionSet, EncodingSpec};
use heterodox_env::repetition::RepetitionPath;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, Game, GameVariant};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::batch::LeafBatch;
use crate::config::{ConfigError, SearchConfig};
use crate::evaluator::{outcome_value, Evaluator};
use crate::tree::{NodeId, NodeState, Tree, ROOT};

mod determinize;
mod select;
mod target;

use determinize::Determinization;
pub use target::{SearchResult, PRIOR_FLOOR};

/// Why a search cannot be set up, or a round not applied.
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
    #[error("the {leaves} leaves of the last gather await their evaluations: apply them first")]
    Unapplied { leaves: usize },
    #[error("no leaves await evaluation: gather first")]
    NothingGathered,
    #[error("the beliefs' engine cannot be set up: {0}")]
    Beliefs(String),
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
    /// Where `winning_action` plays each action to look at the result.
    probe: Option<P>,
    /// The root action being tried and its replies, for
    /// `avoid_losses_in_one`.
    reply_probe: Option<P>,
    replies: ActionSet<P>,
    set: ActionSet<P>,
    /// (tree, node) of the leaves emitted since the last apply, in order,
    /// and how many priors they take in all.
    pending: Vec<(u32, NodeId)>,
    pending_priors: usize,
    /// With `quiescence_weight` > 0: the engine's quiescence, and each
    /// pending leaf's quiescence value (in `pending`'s order), computed
    /// when the leaf is gathered, with the tree work.
    quiescence: Option<Box<LeafQuiescence<P>>>,
    quiescence_values: Vec<f32>,
    /// A cheap search's budget ([`Search::start_cheap`]): it replaces the
    /// configured simulations, and PUCT's root noise is off; `None` for a
    /// full search.
    cheap: Option<u32>,
    /// Simulations completed since `start`: terminal leaves backed up in
    /// `gather` and evaluated leaves backed up in `apply` (a root's own
    /// evaluation is none).
    simulations: u32,
    /// Scratch buffers for Gumbel's per-node computations.
    logits: Vec<f32>,
    q: Vec<f32>,
    visits: Vec<u32>,
    improved: Vec<f32>,
    /// With `beliefs` under hidden information: per player, the engine
    /// that keeps its posterior over the opponent's secret (and scores
    /// the opponent's steps for it); the roots are drawn from it.
    believers: Option<Box<[Engine<P>; 2]>>,
}

/// The engine that keeps one player's beliefs: one thread, a small table,
/// the tuned classical evaluation (its depth-1 searches need no more).
fn believer<P: GameVariant>() -> Result<Engine<P>, SearchError> {
    Engine::new(EngineConfig {
        hash_mib: 1,
        threads: 1,
        ..EngineConfig::default()
    })
    .map_err(|e| SearchError::Beliefs(e.to_string()))
}

/// The first of `actions` (legal in `position`) after which the player to
/// act in `position` has won by the rules of the position alone. `probe`
/// is a reused scratch position.
fn winning_action<P: GameVariant>(
    position: &P,
    actions: &[P::Action],
    probe: &mut Option<P>,
) -> Option<usize> {
    let player = position.turn();
    actions.iter().position(|action| {
        let after = match probe {
            Some(p) => {
                p.clone_from(position);
                p
            }
            None => probe.insert(position.clone()),
        };
        after.play_unchecked(action);
        after
            .outcome()
            .is_some_and(|outcome| outcome_value(outcome, player) > 0.0)
    })
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
        let believers = if config.beliefs && !P::PERFECT_INFORMATION {
            Some(Box::new([believer()?, believer()?]))
        } else {
            None
        };
        Ok(Search {
            believers,
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
            probe: None,
            reply_probe: None,
            replies: ActionSet::new(spec.num_actions),
            set: ActionSet::new(spec.num_actions),
            pending: Vec::new(),
            pending_priors: 0,
            quiescence: (config.quiescence_weight > 0.0)
                .then(|| Box::new(LeafQuiescence::new(EvalWeights::Tuned))),
            quiescence_values: Vec::new(),
            cheap: None,
            simulations: 0,
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
        self.cheap = None;
        self.begin(game, earlier, seed)
    }

    /// Like [`Search::start`], but a cheap search (playout cap
    /// randomization, KataGo): `simulations` (at least 1, and at least the
    /// determinizations under hidden information) replace the configured
    /// number, and PUCT's Dirichlet noise is off, so that the move played
    /// is as strong as the few simulations allow. Gumbel keeps its noise,
    /// which is what varies its moves. The next [`Search::start`] is a
    /// full search again.
    pub fn start_cheap(
        &mut self,
        game: &Game<P>,
        earlier: &[P],
        seed: u64,
        simulations: u32,
    ) -> Result<(), SearchError> {
        let least = self.config.least_simulations(P::PERFECT_INFORMATION);
        if simulations < least || simulations > crate::config::MAX_SIMULATIONS {
            return Err(SearchError::Config(ConfigError::OutOfRange {
                field: "cheap_simulations",
                value: simulations.to_string(),
                expected: "determinizations (1 with perfect information) to 1048576",
            }));
        }
        self.cheap = Some(simulations);
        self.begin(game, earlier, seed)
    }

    /// The simulations of the search in progress: the configured ones, or
    /// a cheap search's.
    pub fn budget(&self) -> u32 {
        self.cheap.unwrap_or(self.config.simulations)
    }

    fn begin(&mut self, game: &Game<P>, earlier: &[P], seed: u64) -> Result<(), SearchError> {
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
        self.quiescence_values.clear();
        self.simulations = 0;
        if let Some(believers) = &mut self.believers {
            believers[self.searcher as usize].update_beliefs(position);
        }
        self.set_up_roots(position);
        Ok(())
    }

    /// Tells the search which step its player took at the position it
    /// last searched: with `beliefs`, the player's next search finds the
    /// opponent's steps since from it (without, its posterior starts
    /// again from uniform). Does nothing otherwise.
    pub fn played(&mut self, action: P::Action) {
        if let Some(believers) = &mut self.believers {
            believers[self.searcher as usize].played(action);
        }
    }

    /// The states the trees search from, in tree order: the position
    /// itself, or under hidden information the states drawn from the
    /// searcher's view (for inspection and tests).
    pub fn roots(&self) -> impl Iterator<Item = &P> {
        self.trees.iter().map(|d| &d.root)
    }

    /// With `beliefs`: the posterior over the opponent's secret of the
    /// player who searched last, at the position searched; `None`
    /// otherwise.
    pub fn beliefs(&self) -> Option<BeliefReport> {
        self.believers.as_ref()?[self.searcher as usize].beliefs()
    }

    /// True when every simulation has been run and applied.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty()
            && self
                .trees
                .iter()
                .all(|d| d.tree.node(ROOT).state == NodeState::Expanded && d.started >= d.budget)
    }

    /// Simulations completed since [`Search::start`]: leaves evaluated and
    /// backed up, and descents that ended in a finished game or, with
    /// `immediate_wins`, a won one (a root's own evaluation is not one). Equal to the configured simulations
    /// once done.
    pub fn simulations(&self) -> u32 {
        self.simulations
    }

    /// Leaves emitted and not yet applied.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Adds up to `leaves_per_round` leaves to `batch` (first the roots,
    /// alone, when they are not yet evaluated); terminal leaves are backed
    /// up here and not emitted. Returns the number of leaves added.
    ///
    /// When the last round's leaves have been applied, a round that adds
    /// no leaf has finished the search: every descent that found no new
    /// leaf ended in a finished (or, with `immediate_wins`, won) game and
    /// used up a simulation, and the
    /// round goes on until the budget is spent (only a leaf of this round
    /// still awaiting its evaluation can stop a descent short). So a
    /// search that is not done always gives a leaf or finishes, and a
    /// driver loop `while !done { gather; evaluate; apply }` ends; the
    /// round that finishes it may hand the evaluator no leaves at all.
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
                    Descent::Terminal => {
                        self.simulations += 1;
                        idle = 0;
                    }
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
        self.push_quiescence(&root);
    }

    /// With quiescence at the leaves, the value of `leaf`'s quiescence
    /// for its player to act, in `pending`'s order.
    fn push_quiescence(&mut self, leaf: &P) {
        if let Some(quiescence) = &mut self.quiescence {
            let value = quiescence.score(leaf).expected_result();
            self.quiescence_values.push(value);
        }
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
                    // A player who can win at once has won: the node is
                    // as good as a finished game, and the evaluator is
                    // not asked.
                    let value = value.or_else(|| {
                        (self.config.immediate_wins
                            && winning_action(&position, self.set.actions(), &mut self.probe)
                                .is_some())
                        .then_some(1.0)
                    });
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
                    self.push_quiescence(&position);
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
        let weight = self.config.quiescence_weight;
        for (k, (&(t, node), &value)) in pending.iter().zip(values).enumerate() {
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
            let value = match self.quiescence_values.get(k) {
                Some(&q) => (1.0 - weight) * value + weight * q,
                None => value,
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
                self.simulations += 1;
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.pending_priors = 0;
        self.quiescence_values.clear();
        Ok(())
    }

    /// Runs the search to the end with `evaluator`, one batch per gather
    /// round (one game alone; [`crate::SearchGroup`] batches many games'
    /// rounds), and returns its result. `batch` is a reused buffer.
    pub fn run<E: Evaluator<P> + ?Sized>(
        &mut self,
        evaluator: &E,
        batch: &mut LeafBatch<P>,
    ) -> SearchResult<P::Action> {
        self.run_until(evaluator, batch, &AtomicBool::new(false))
    }

    /// [`Search::run`] that ends early, after the round in progress, once
    /// `stop` is set by another thread (a front end whose client left):
    /// the result is then the search's so far. The first round always
    /// runs, so the root is expanded and there is a result to give.
    pub fn run_until<E: Evaluator<P> + ?Sized>(
        &mut self,
        evaluator: &E,
        batch: &mut LeafBatch<P>,
        stop: &AtomicBool,
    ) -> SearchResult<P::Action> {
        let mut priors = Vec::new();
        let mut values = Vec::new();
        batch.set_observations(evaluator.needs_observations());
        let mut first = true;
        while !self.is_done() && (first || !stop.load(Ordering::Relaxed)) {
            first = false;
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
