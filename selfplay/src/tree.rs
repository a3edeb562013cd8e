//! The search tree: nodes in one flat arena (indices, not pointers), each
//! with its statistics from the side of the player who acts at its parent.
//! No allocation per simulation once the arena has grown: `reset` keeps the
//! buffers, and children of a node are one contiguous run.

use heterodox_env::Color;

/// Index of a node in the arena.
pub type NodeId = u32;

/// The root's index in a fresh arena.
pub const ROOT: NodeId = 0;

/// What is known of a node.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum NodeState {
    /// Never reached.
    Unexpanded,
    /// Reached; its evaluation is awaited (a leaf of the current batch).
    Pending,
    /// Evaluated; children created.
    Expanded,
    /// The game is over here: the result for the player who would act.
    Terminal(f32),
}

/// One node: reached from its parent by `action`.
#[derive(Clone, Debug)]
pub struct Node {
    pub parent: NodeId,
    /// The action index (the encoding's index) from the parent.
    pub action: u32,
    /// Position of that action in the parent's legal list (to recover the
    /// typed action without a search).
    pub slot: u16,
    /// Prior probability of the action at the parent (after root noise).
    pub prior: f32,
    /// The network's prior before root noise, and its log (Gumbel's
    /// logit, computed once here rather than at every selection).
    pub raw_prior: f32,
    pub logit: f32,
    pub first_child: NodeId,
    pub child_count: u32,
    /// Completed simulations through this node.
    pub visits: u32,
    /// Simulations through this node waiting for their leaf's evaluation.
    pub in_flight: u32,
    /// Sum of backed-up values, from the side of the player who acts at
    /// the parent (the one who chooses this node).
    pub value_sum: f32,
    /// The player to act at this node (set when reached).
    pub player: Color,
    /// The evaluator's value of this node, from `player`'s side.
    pub raw_value: f32,
    pub state: NodeState,
}

impl Node {
    fn new(parent: NodeId, action: u32, slot: u16, prior: f32) -> Node {
        Node {
            parent,
            action,
            slot,
            prior,
            raw_prior: prior,
            logit: 0.0,
            first_child: 0,
            child_count: 0,
            visits: 0,
            in_flight: 0,
            value_sum: 0.0,
            player: Color::White,
            raw_value: 0.0,
            state: NodeState::Unexpanded,
        }
    }

    /// Mean value for the chooser (the parent's player), 0 when unvisited.
    #[inline]
    pub fn q(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / self.visits as f32
        }
    }

    /// Children ids.
    #[inline]
    pub fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.child_count
    }
}

/// The arena. The root's own statistics live in its node too: its
/// `value_sum` is from the root player's side (it has no parent). The typed
/// action leading to node `id > 0` is `actions[id - 1]`, kept beside the
/// nodes so that descending never regenerates a parent's legal list.
#[derive(Clone, Debug)]
pub struct Tree<A> {
    nodes: Vec<Node>,
    actions: Vec<A>,
}

impl<A: Copy> Default for Tree<A> {
    fn default() -> Tree<A> {
        let mut tree = Tree {
            nodes: Vec::new(),
            actions: Vec::new(),
        };
        tree.reset();
        tree
    }
}

impl<A: Copy> Tree<A> {
    /// Starts over with a single unexpanded root, keeping the buffers.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.actions.clear();
        self.nodes.push(Node::new(ROOT, 0, 0, 1.0));
    }

    /// The typed action leading to `id` (not the root).
    #[inline]
    pub fn action(&self, id: NodeId) -> A {
        self.actions[id as usize - 1]
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Creates the children of `id` (typed actions and their indices, in
    /// legal-list order, priors to come) and marks it pending: reached,
    /// its evaluation awaited.
    pub fn add_children(&mut self, id: NodeId, player: Color, actions: &[A], indices: &[u32]) {
        let first = self.nodes.len() as NodeId;
        for (slot, (&action, &index)) in actions.iter().zip(indices).enumerate() {
            self.nodes.push(Node::new(id, index, slot as u16, 0.0));
            self.actions.push(action);
        }
        let node = self.node_mut(id);
        node.first_child = first;
        node.child_count = actions.len() as u32;
        node.player = player;
        node.state = NodeState::Pending;
    }

    /// Completes a pending node: its children's priors (legal-list order)
    /// and its own value, from its player's side.
    pub fn set_evaluation(&mut self, id: NodeId, priors: &[f32], value: f32) {
        let children = self.node(id).children();
        for (child, &p) in children.zip(priors) {
            let node = self.node_mut(child);
            node.prior = p;
            node.raw_prior = p;
            // ln p, floored so that a zero prior is a large negative logit.
            node.logit = p.max(1e-30).ln();
        }
        let node = self.node_mut(id);
        node.raw_value = value;
        node.state = NodeState::Expanded;
    }

    /// Marks `id` as the end of the game, `value` for `player` to act.
    pub fn set_terminal(&mut self, id: NodeId, player: Color, value: f32) {
        let node = self.node_mut(id);
        node.player = player;
        node.state = NodeState::Terminal(value);
    }

    /// Adds one in-flight simulation along the path from `leaf` to the root.
    pub fn add_in_flight(&mut self, leaf: NodeId) {
        let mut id = leaf;
        loop {
            self.node_mut(id).in_flight += 1;
            if id == ROOT {
                break;
            }
            id = self.node(id).parent;
        }
    }

    /// Backs up `value` (for `player`, the one to act at `leaf`) from
    /// `leaf` to the root: each node gets it from its chooser's side, by
    /// comparing players, never by depth parity (a turn may have several
    /// steps). `in_flight` says whether the path carried an in-flight
    /// simulation to remove.
    pub fn backup(&mut self, leaf: NodeId, player: Color, value: f32, in_flight: bool) {
        let mut id = leaf;
        loop {
            let chooser = if id == ROOT {
                self.node(ROOT).player
            } else {
                self.node(self.node(id).parent).player
            };
            let node = self.node_mut(id);
            node.visits += 1;
            if in_flight {
                node.in_flight -= 1;
            }
            node.value_sum += if chooser == player { value } else { -value };
            if id == ROOT {
                break;
            }
            id = node.parent;
        }
    }

    /// Removes an in-flight simulation without a result (a collision on a
    /// pending leaf).
    pub fn cancel_in_flight(&mut self, leaf: NodeId) {
        let mut id = leaf;
        loop {
            self.node_mut(id).in_flight -= 1;
            if id == ROOT {
                break;
            }
            id = self.node(id).parent;
        }
    }

    /// The root player's mean value at the root.
    pub fn root_value(&self) -> f32 {
        self.node(ROOT).q()
    }

    /// Makes the subtree of `child` (a child of the root) the whole tree,
    /// compacting it into `spare` (whose buffer is reused) and swapping.
    pub fn reroot(&mut self, child: NodeId, spare: &mut Tree<A>) {
        spare.nodes.clear();
        spare.actions.clear();
        let mut root = self.node(child).clone();
        if root.player != self.node(ROOT).player {
            // Its sum was from the old root player's side; a root keeps
            // its own player's.
            root.value_sum = -root.value_sum;
        }
        root.parent = ROOT;
        root.in_flight = 0;
        if root.state == NodeState::Pending {
            root.state = NodeState::Unexpanded;
            root.child_count = 0;
        }
        spare.nodes.push(root);
        // Breadth first: each node's children are contiguous in the copy too.
        let mut next = 0;
        while next < spare.nodes.len() {
            let old = spare.nodes[next].clone();
            if old.child_count > 0 {
                let first = spare.nodes.len() as NodeId;
                for c in old.children() {
                    let mut copy = self.node(c).clone();
                    copy.parent = next as NodeId;
                    copy.in_flight = 0;
                    if copy.state == NodeState::Pending {
                        copy.state = NodeState::Unexpanded;
                        copy.child_count = 0;
                    }
                    spare.nodes.push(copy);
                    spare.actions.push(self.action(c));
                }
                spare.nodes[next].first_child = first;
            }
            next += 1;
        }
        std::mem::swap(self, spare);
    }
}
