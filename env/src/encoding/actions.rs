//! [`ActionSet`]: the legal actions of a position with their indices, for
//! search and the batched environment. One generation pass fills the list,
//! the indices, an index -> action map and the terminal status; buffers
//! are reused, so a warm set never allocates.

use super::Encoding;
use crate::Outcome;

/// Marks an index with no legal action in [`ActionSet`]'s map.
const ABSENT: u16 = u16::MAX;

/// The legal actions of one position, their action indices (same order),
/// and the reverse map from index to action.
#[derive(Clone, Debug)]
pub struct ActionSet<P: Encoding> {
    actions: Vec<P::Action>,
    indices: Vec<u32>,
    /// `slot[index]` is the position of the action with that index in
    /// `actions`, or [`ABSENT`]. `num_actions` entries; only the entries
    /// set by the last generation are cleared before the next, so a set
    /// costs O(legal actions) per position, not O(action space).
    slot: Vec<u16>,
    outcome: Option<Outcome>,
}

impl<P: Encoding> ActionSet<P> {
    /// An empty set for an action space of `num_actions` indices (at most
    /// 65,535 legal actions at once: far above any variant's maximum).
    pub fn new(num_actions: usize) -> ActionSet<P> {
        ActionSet {
            actions: Vec::with_capacity(256),
            indices: Vec::with_capacity(256),
            slot: vec![ABSENT; num_actions],
            outcome: None,
        }
    }

    /// Lists the legal actions of `position` and judges its outcome by the
    /// rules of the position, from one generation pass
    /// ([`crate::Position::legal_actions_and_outcome`]). When the game is
    /// over the set is empty and the outcome is returned.
    pub fn generate(&mut self, position: &P) -> Option<Outcome> {
        self.clear();
        let outcome = position.legal_actions_and_outcome(&mut self.actions);
        if outcome.is_some() {
            self.actions.clear();
        }
        self.outcome = outcome;
        for (k, action) in self.actions.iter().enumerate() {
            let index = position.action_index(action);
            self.indices.push(index as u32);
            self.slot[index] = k as u16;
        }
        outcome
    }

    /// Empties the set (a finished game).
    pub fn clear(&mut self) {
        for &index in &self.indices {
            self.slot[index as usize] = ABSENT;
        }
        self.actions.clear();
        self.indices.clear();
        self.outcome = None;
    }

    /// The outcome found by the last [`ActionSet::generate`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Legal actions in generator order.
    pub fn actions(&self) -> &[P::Action] {
        &self.actions
    }

    /// Their indices, same order.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The position in [`ActionSet::actions`] of the legal action with
    /// `index`, in O(1); `None` when no legal action has that index (or it
    /// is out of range).
    pub fn position_of(&self, index: usize) -> Option<usize> {
        match self.slot.get(index) {
            Some(&k) if k != ABSENT => Some(usize::from(k)),
            _ => None,
        }
    }

    /// The legal action with `index`, in O(1).
    pub fn action_of(&self, index: usize) -> Option<P::Action> {
        self.position_of(index).map(|k| self.actions[k])
    }
}
