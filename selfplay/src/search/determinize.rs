//! The roots a search runs from. Under hidden information, full states
//! drawn from the searcher's view (never the true state; uniformly, or
//! with `beliefs` from the searcher's posterior), one tree each,
//! each with an equal share of the simulations; under perfect information
//! the position itself, whose searched subtree may be kept for the next
//! move ([`Search::advance`]).

use heterodox_engine::draw_from_posterior;
use heterodox_env::{GameVariant, StateSampler};

use super::{winning_action, Search};
use crate::config::RootPolicy;
use crate::evaluator::outcome_value;
use crate::tree::{NodeState, Tree, ROOT};

/// One determinization's tree and its root.
#[derive(Clone, Debug)]
pub(super) struct Determinization<P: GameVariant> {
    pub root: P,
    pub tree: Tree<P::Action>,
    /// Simulations this tree is to run, and started so far.
    pub budget: u32,
    pub started: u32,
    /// Gumbel root: noise per root child, the considered children, and the
    /// visit schedule of sequential halving.
    pub gumbel: Vec<f32>,
    pub considered: Vec<bool>,
    pub schedule: Vec<u32>,
    /// The action index of a root action that wins at once (with
    /// `immediate_wins`): the search's choice whatever the simulations say.
    pub winning: Option<u32>,
    /// Per root child (legal-list order): whether the opponent can win at
    /// once after it, while another child avoids that
    /// (`avoid_losses_in_one`); empty when none is to be avoided.
    pub losing: Vec<bool>,
}

/// Tree `t`'s share of `simulations` over `count` trees: equal shares, the
/// remainder to the first trees.
fn budget(simulations: u32, count: usize, t: usize) -> u32 {
    simulations / count as u32 + u32::from((t as u32) < simulations % count as u32)
}

impl<P: GameVariant> Search<P> {
    /// Sets up the trees for a search of `position`: the roots drawn from
    /// the searcher's view, their budgets, and the kept subtree when it is
    /// this position's.
    pub(super) fn set_up_roots(&mut self, position: &P) {
        let count = if P::PERFECT_INFORMATION {
            1
        } else {
            self.config.determinizations as usize
        };
        let key = position.repetition_key();
        let reuse = self.kept.take() == Some(key) && count == 1 && self.trees.len() == 1;
        self.trees.truncate(count);
        let sampler = P::sampler(&position.view(self.searcher));
        // With beliefs, the roots are drawn from the searcher's posterior.
        let posterior = self
            .believers
            .as_ref()
            .and_then(|b| b[self.searcher as usize].posterior(position))
            .filter(|p| p.len() == sampler.len());
        let simulations = self.budget();
        for t in 0..count {
            let root = match &posterior {
                Some(p) => sampler.state(draw_from_posterior(p, &mut self.rng)),
                None => sampler.sample(&mut self.rng),
            };
            let budget = budget(simulations, count, t);
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
                    winning: None,
                    losing: Vec::new(),
                });
            }
            // The root's actions, generated once for both probes.
            if self.config.immediate_wins || self.config.avoid_losses_in_one {
                self.set.generate(&self.trees[t].root);
            }
            self.trees[t].winning = self.root_winning_action(t);
            self.mark_root_losses(t);
        }
        if reuse {
            // The kept root was evaluated; give it fresh root noise.
            self.prepare_root(0);
        }
    }

    /// The action index of tree `t`'s first root action that wins at once,
    /// when `immediate_wins` asks for it (`self.set` holds its actions).
    fn root_winning_action(&mut self, t: usize) -> Option<u32> {
        if !self.config.immediate_wins {
            return None;
        }
        let root = &self.trees[t].root;
        let slot = winning_action(root, self.set.actions(), &mut self.probe)?;
        Some(self.set.indices()[slot])
    }

    /// Marks tree `t`'s root actions after which the opponent can win with
    /// one action, when `avoid_losses_in_one` asks for it and some action
    /// avoids that (a lost position is searched as it is). An action
    /// after which the same player acts again (an announcement, a
    /// discard) is not judged. `self.set` holds the root's actions.
    fn mark_root_losses(&mut self, t: usize) {
        let d = &mut self.trees[t];
        d.losing.clear();
        if !self.config.avoid_losses_in_one || d.winning.is_some() {
            return;
        }
        let root = &d.root;
        let player = root.turn();
        for action in self.set.actions() {
            let after = match &mut self.reply_probe {
                Some(p) => {
                    p.clone_from(root);
                    p
                }
                None => self.reply_probe.insert(root.clone()),
            };
            after.play_unchecked(action);
            let lost = match self.replies.generate(after) {
                Some(outcome) => outcome_value(outcome, player) < 0.0,
                None => {
                    after.turn() != player
                        && winning_action(after, self.replies.actions(), &mut self.probe).is_some()
                }
            };
            d.losing.push(lost);
        }
        if d.losing.iter().all(|&lost| lost) || !d.losing.contains(&true) {
            d.losing.clear();
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
}
