//! The search: iterative deepening over a principal-variation search with
//! aspiration windows (root.rs), the alpha-beta negamax with its prunings
//! and reductions (alphabeta.rs), quiescence (quiescence.rs) and move
//! ordering (ordering.rs).
//!
//! Multi-step turns: a Traitor announcement and its move, or a move and
//! Mad Scientist's discards, are several steps by one player. The search
//! compares the players of a node and its child: a child of the same
//! player is searched with the same window and its score taken as it is,
//! never negated, and costs no depth (the turn is not over); a child of
//! the other player is negated as usual.

//!
//! Around the searcher, by concept: [`engine`] (the public [`Engine`] and
//! what it keeps between searches), [`config`] (how one is built, with its
//! ranges and their error), [`limits`] (when a search stops, with its
//! ranges and their error), [`error`] (why a search could not run),
//! [`driver`] (iterative deepening, threads, determinizations, and what a
//! search reports), [`tt`] (the transposition table), [`path`]
//! (repetitions along the search path), [`score`] (centipawns and mates),
//! [`leaf`] (quiescence alone, for another search's leaves) and [`greedy`]
//! (the one-ply material player).
//!
//! Their imports run one way, so that no two modules import each other:
//! `engine -> driver -> {root, searcher} -> {tt, path, score}`, each error
//! beside the ranges it names (`limits`, `config`), and `error` wrapping
//! both.
//!
//! [`Engine`]: engine::Engine

mod alphabeta;
pub(crate) mod config;
pub(crate) mod driver;
pub(crate) mod engine;
pub(crate) mod error;
pub(crate) mod greedy;
pub(crate) mod leaf;
pub(crate) mod limits;
mod multipv;
pub(crate) mod ordering;
pub(crate) mod path;
pub(crate) mod quiescence;
pub(crate) mod root;
pub mod score;
pub(crate) mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use heterodox_env::{Color, GameVariant, Outcome};

use crate::eval::{self, EvalWeights};
use crate::hidden::threats::ThreatCounts;
use crate::nnue::network::Base;
use crate::nnue::Accumulators;
use crate::search::path::SearchPath;
use crate::search::score::EVAL_LIMIT;
use crate::search::score::{mate_in, mated_in, MAX_PLY};
use crate::search::tt::TranspositionTable;
use ordering::{History, Reductions};

/// Actions a frame's buffer is first sized for (more than any chess
/// position has; Hostage's drops may grow it once, never per node).
const ACTIONS_CAPACITY: usize = 256;

/// What the search keeps per ply.
#[derive(Debug)]
pub(crate) struct Frame<A> {
    pub actions: Vec<A>,
    /// (ordering score, index in `actions`) per action.
    pub order: Vec<(i32, u16)>,
    /// Action indices of the quiet actions tried (history malus).
    pub quiets: Vec<usize>,
    pub killers: [Option<A>; 2],
    pub pv: Vec<A>,
    /// The static evaluation and the player it is for.
    pub eval: i32,
    pub player: Color,
}

impl<A> Frame<A> {
    fn new() -> Frame<A> {
        Frame {
            actions: Vec::with_capacity(ACTIONS_CAPACITY),
            order: Vec::with_capacity(ACTIONS_CAPACITY),
            quiets: Vec::with_capacity(64),
            killers: [None, None],
            pv: Vec::with_capacity(MAX_PLY),
            eval: 0,
            player: Color::White,
        }
    }
}

/// Everything a search reuses between searches, allocated once: per-ply
/// buffers, the history, the repetition path, the reduction table.
#[derive(Debug)]
pub(crate) struct SearchState<A> {
    pub frames: Vec<Frame<A>>,
    pub history: History,
    pub path: SearchPath,
    pub reductions: Reductions,
    /// The learned evaluation's accumulators, one frame per ply, when the
    /// engine has a net (`Engine::set_network`).
    pub nnue: Option<Accumulators>,
    /// The threat guard's totals (hidden information; `Engine::threat_counts`).
    pub threats: ThreatCounts,
}

impl std::fmt::Debug for Reductions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reductions")
    }
}

impl<A> SearchState<A> {
    pub fn new() -> SearchState<A> {
        SearchState::with_plies(MAX_PLY + 1)
    }

    /// Buffers for `plies` plies only: a search that goes no deeper
    /// (quiescence alone, leaf.rs).
    pub fn with_plies(plies: usize) -> SearchState<A> {
        SearchState {
            frames: (0..plies).map(|_| Frame::new()).collect(),
            history: History::default(),
            path: SearchPath::new(),
            reductions: Reductions::new(),
            nnue: None,
            threats: ThreatCounts::default(),
        }
    }

    /// Forgets what earlier games taught (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        for frame in &mut self.frames {
            frame.killers = [None, None];
        }
    }
}

/// When to stop, shared by every searcher of one search.
#[derive(Debug)]
pub(crate) struct Clock {
    pub start: Instant,
    pub deadline: Option<Instant>,
    /// Total nodes allowed (all determinizations and threads together).
    pub node_limit: u64,
    pub stop: Option<Arc<AtomicBool>>,
    /// Set by the main thread to stop helper threads.
    pub helpers_stop: AtomicBool,
    /// Nodes searched by helper threads so far.
    pub helper_nodes: AtomicU64,
}

impl Clock {
    pub fn new(
        movetime: Option<Duration>,
        nodes: Option<u64>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: movetime.map(|t| start + t),
            node_limit: nodes.unwrap_or(u64::MAX),
            stop,
            helpers_stop: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
        }
    }

    /// True once time is up or someone asked to stop.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.helpers_stop.load(Ordering::Relaxed)
    }
}

/// One thread's search over one root position.
pub(crate) struct Searcher<'a, P: GameVariant> {
    pub tt: &'a TranspositionTable,
    pub state: &'a mut SearchState<P::Action>,
    pub clock: &'a Clock,
    /// Nodes of this searcher.
    pub nodes: u64,
    /// Nodes counted before this searcher started (earlier
    /// determinizations), for the shared node limit.
    pub node_base: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// The iteration's depth (bounds check extensions).
    pub root_depth: i32,
    /// Exact root scoring only: a root action is scored exactly when it
    /// comes within this many centipawns of the best so far, else it gets
    /// an upper bound at most this far below (`INFINITE`: every action
    /// exactly).
    pub exact_margin: i32,
    /// The evaluation's numbers.
    pub weights: EvalWeights,
    /// MultiPV: which line the root search is looking for (0: the best,
    /// as in every single-line search). A later line's root search leaves
    /// the moves of the better lines out, so its score is not the root's
    /// and is kept out of the table.
    pub root_line: usize,
    /// The player searching: what a hidden-information feature set of
    /// the learned evaluation may read.
    pub observer: Color,
}

/// Nodes between two looks at the clock.
const POLL_INTERVAL: u64 = 1024;

impl<'a, P: GameVariant> Searcher<'a, P> {
    pub fn new(
        tt: &'a TranspositionTable,
        state: &'a mut SearchState<P::Action>,
        clock: &'a Clock,
        node_base: u64,
        weights: EvalWeights,
        observer: Color,
    ) -> Searcher<'a, P> {
        Searcher {
            tt,
            state,
            clock,
            nodes: 0,
            node_base,
            seldepth: 0,
            stopped: false,
            root_depth: 1,
            exact_margin: crate::search::score::INFINITE,
            weights,
            root_line: 0,
            observer,
        }
    }

    /// The static evaluation of `pos`, `ply` steps from the root, for its
    /// player to act: the net's when the engine has one (its accumulator
    /// updated from the parent's frame), else the classical evaluation.
    #[inline]
    pub(crate) fn static_eval(&mut self, pos: &P, ply: usize) -> i32 {
        static_evaluation(
            self.state.nnue.as_mut(),
            pos,
            self.observer,
            ply,
            self.weights,
        )
    }

    /// Counts a node; true when the search must stop.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.node_base + self.nodes >= self.clock.node_limit
            || (self.nodes % POLL_INTERVAL == 0 && self.clock.expired())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Searches `child` (reached from a node of `parent_turn`'s player):
    /// negated with the window flipped when the player changes, as it is
    /// when the same player acts again.
    #[inline]
    pub(crate) fn child(
        &mut self,
        child: &P,
        same_player: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same_player {
            self.alpha_beta(child, depth, alpha, beta, ply, true)
        } else {
            -self.alpha_beta(child, depth, -beta, -alpha, ply, true)
        }
    }

    /// Steps down into `position` (a child, or the turn passed): its key
    /// joins the repetition path (`irreversible` as the action that led
    /// there) and its table entry is fetched ahead of the visit.
    /// `self.state.path.pop()` steps back up.
    #[inline]
    pub(crate) fn enter(&mut self, position: &P, irreversible: bool) {
        let key = position.repetition_key();
        self.tt.prefetch(key);
        self.state.path.push(key, irreversible);
    }

    /// The principal variation of `ply`: `action`, then the child's.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, action: P::Action) {
        let (head, tail) = self.state.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(action);
        pv.extend_from_slice(&tail[0].pv);
    }
}

/// The static evaluation the search reads, in centipawns for `pos`'s
/// player to act, `ply` steps from the root: with a net, its output (its
/// accumulator at `ply` updated from the parent's frame, as `observer` may
/// know the position) plus the tuned classical evaluation when the net
/// learned the classical evaluation's misses ([`Base::Classical`]), within
/// `±EVAL_LIMIT`; without one, the classical evaluation with `weights`.
/// The one place the two are summed: the searcher and
/// [`crate::Engine::evaluate`] both call it, so the score a caller reads
/// is the one the search sees.
#[inline]
pub(crate) fn static_evaluation<P: GameVariant>(
    nnue: Option<&mut Accumulators>,
    pos: &P,
    observer: Color,
    ply: usize,
    weights: EvalWeights,
) -> i32 {
    match nnue {
        Some(nnue) => {
            let learned = nnue.evaluate(pos, observer, ply);
            let base = match nnue.network().header.base {
                Base::None => 0,
                Base::Classical => eval::evaluate(pos, EvalWeights::Tuned),
            };
            (base + learned).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        }
        None => eval::evaluate(pos, weights),
    }
}

/// The score of a finished game for the player to act, `ply` steps from
/// the root.
#[inline]
pub(crate) fn outcome_score(outcome: Outcome, to_act: Color, ply: usize) -> i32 {
    match outcome.winner() {
        Some(winner) if winner == to_act => mate_in(ply),
        Some(_) => mated_in(ply),
        None => 0,
    }
}

/// The depth left for a child of a node searched at `depth`: one less,
/// but the same when the same player acts again (a turn of several steps
/// counts as one ply), and none at a shallow step (its actions are
/// searched to quiescence only).
#[inline]
pub(crate) fn child_depth(depth: i32, same_player: bool, shallow: bool) -> i32 {
    if shallow {
        0
    } else if same_player {
        depth
    } else {
        depth - 1
    }
}
