//! The engine's quiescence search on its own, as the leaf evaluation of
//! another search: a Monte Carlo tree search whose network misses a
//! hanging piece or a mate by a drop asks [`LeafQuiescence::score`] what
//! the captures, poisonings, drops and part removals at a leaf come to
//! (docs/training.md, "Quiescence at the leaves").
//!
//! It is the quiescence of [`crate::Engine`]'s search, node for node:
//! noisy actions only (each variant's [`crate::eval`] says which), the
//! player standing pat on the static evaluation except in check, the
//! first ply also trying quiet actions that give check, so that a mate
//! in one by a drop or a quiet check is found. Bounded twice: by the
//! quiescence's own ply limit and by [`LEAF_NODE_LIMIT`] nodes, after
//! which the static evaluation of the leaf is its score.

use std::sync::OnceLock;

use heterodox_env::GameVariant;

use crate::eval::EvalWeights;
use crate::search::quiescence::QUIESCENCE_PLIES;
use crate::search::score::{Score, INFINITE};
use crate::search::tt::TranspositionTable;
use crate::search::{Clock, SearchState, Searcher};

/// The most nodes one leaf's quiescence may visit: exchanges of Mad
/// Scientist composites can multiply (search/quiescence.rs), and a leaf
/// evaluation must cost about what a network's does.
pub const LEAF_NODE_LIMIT: u64 = 4096;

/// Frames a leaf's quiescence can reach: its ply limit, and one for the
/// position read at that limit.
const LEAF_PLIES: usize = QUIESCENCE_PLIES + 2;

/// Quiescence never reads the transposition table, but a searcher holds
/// one: every leaf searcher shares this smallest one instead of each
/// allocating its own.
fn unused_table() -> &'static TranspositionTable {
    static TABLE: OnceLock<TranspositionTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        TranspositionTable::new(crate::search::config::MIN_HASH_MIB)
            .expect("the smallest table allocates")
    })
}

/// A reusable quiescence search for leaves of variant `P`. Its buffers
/// are allocated once, for the quiescence's depth only (a few kilobytes
/// per ply), so that every tree of a self-play run can hold one.
pub struct LeafQuiescence<P: GameVariant> {
    state: SearchState<P::Action>,
    weights: EvalWeights,
    nodes: u64,
}

impl<P: GameVariant> std::fmt::Debug for LeafQuiescence<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeafQuiescence")
            .field("variant", &P::VARIANT)
            .field("weights", &self.weights)
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl<P: GameVariant> LeafQuiescence<P> {
    /// Quiescence reading the classical evaluation with `weights`.
    pub fn new(weights: EvalWeights) -> LeafQuiescence<P> {
        LeafQuiescence {
            state: SearchState::with_plies(LEAF_PLIES),
            weights,
            nodes: 0,
        }
    }

    /// The quiescence score of `pos` for its player to act: centipawns,
    /// or a mate the noisy actions and first-ply checks force. A finished
    /// position scores its result.
    pub fn score(&mut self, pos: &P) -> Score {
        let clock = Clock::new(None, Some(LEAF_NODE_LIMIT), None);
        let observer = pos.turn();
        let mut searcher = Searcher::new(
            unused_table(),
            &mut self.state,
            &clock,
            0,
            self.weights,
            observer,
        );
        let score = searcher.quiescence(pos, -INFINITE, INFINITE, 0, 0, true);
        let (stopped, nodes) = (searcher.stopped, searcher.nodes);
        let score = if stopped {
            // Out of nodes: what the leaf looks like as it stands.
            Searcher::new(
                unused_table(),
                &mut self.state,
                &clock,
                0,
                self.weights,
                observer,
            )
            .static_eval(pos, 0)
        } else {
            score
        };
        self.nodes += nodes;
        Score::from_internal(score)
    }

    /// Nodes visited by every call so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
