//! A classical alpha-beta engine for every Heterodox variant: an agent, a
//! teacher for networks and a yardstick.
//!
//! * [`Engine`]: iterative deepening, principal variation search with
//!   aspiration windows, a shared transposition table keyed by the
//!   variants' Zobrist keys, quiescence, null move and late-move
//!   reductions where the variant makes them sound, killers and history,
//!   check extension, mate scores with distance, repetition along the
//!   search path and the rules' own endings; depth, node, time and stop
//!   limits; Lazy SMP helper threads.
//! * One evaluation module per variant (`eval/`), chosen at compile time
//!   for each position type, and a generic one for any other variant.
//! * [`nnue`]: the learned evaluation, with each variant's feature set.
//! * Hidden information (Traitor): the engine reads only the view of the
//!   player to act and averages over states drawn from it.
//! * [`Greedy`]: the one-ply material baseline.
//! * [`LeafQuiescence`]: the quiescence search alone, the tactical leaf
//!   evaluation of the Monte Carlo tree search.
//! * The tools built on the engine: [`teach`] (labelled positions for the
//!   networks), [`tune`] (the Texel tuner), [`bench`] (the fixed benchmark
//!   whose node count is the search's signature) and [`adjudicate`].
//!
//! docs/engine.md describes the search, each evaluation with its numbers,
//! and the per-variant pruning choices.
//!
//! ```
//! use heterodox_engine::{Engine, EngineConfig, Limits, Score};
//! use heterodox_env::{Chess, Game, Position};
//!
//! // Scholar's mate is one move away.
//! let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
//! let game = Game::new(Chess::from_fen(fen).unwrap());
//! let mut engine = Engine::<Chess>::new(EngineConfig::default()).unwrap();
//! let report = engine.search(&game, &Limits::depth(3), |_| {}).unwrap();
//! assert_eq!(game.position().notation(&report.best), "Qxf7#");
//! assert_eq!(report.score, Score::Mate(1));
//! ```

// The crate by concept: the search and what drives it (`search/`), the
// classical evaluation (`eval/`), the learned one (`nnue/`), and the tools
// built on the engine (`tools/`: teacher, tuner, benchmark, adjudication).
// The re-exports below keep the public paths (`heterodox_engine::teach`,
// `heterodox_engine::score`, ...) the other crates use.
mod eval;
pub mod hidden;
pub mod nnue;
mod search;
mod tools;

pub use eval::{material_of_any, EvalWeights, Evaluation, UnknownEvaluation, UnknownWeights};
pub use hidden::beliefs::{draw as draw_from_posterior, BeliefReport, SecretBelief};
pub use hidden::threats::ThreatCounts;
pub use search::config::{
    ConfigError, EngineConfig, MAX_DETERMINIZATIONS, MAX_HASH_MIB, MAX_THREADS, MIN_HASH_MIB,
};
pub use search::driver::{Info, RootScore, SearchReport};
pub use search::engine::Engine;
pub use search::error::EngineError;
pub use search::greedy::Greedy;
pub use search::leaf::{LeafQuiescence, LEAF_NODE_LIMIT};
pub use search::limits::{LimitError, Limits, MAX_DEPTH, MAX_MULTIPV};
pub use search::score::{self, Score};
pub use tools::adjudicate::{adjudicate, Adjudication};
pub use tools::teach::{
    teach, teach_shard, ShardOutcome, TeachConfig, TeachError, TeachProgress, TeachSummary,
};
pub use tools::tune::{tune, TuneConfig, TuneError, TuneReport};
pub use tools::{belief_fit, bench, selections, teach, tune};
