//! Search and self-play for Heterodox: a gather/apply MCTS whose leaves
//! from many games are evaluated in one batch (`SearchGroup`), two root
//! policies (PUCT with Dirichlet noise; Gumbel with sequential halving),
//! determinized search under hidden information, the evaluator trait,
//! self-play workers (their records and shards are `heterodox_data`'s),
//! duels between two players (evaluation and the arena), and the agent
//! strings with the one-game player every front end uses (`agent`).
//!
//! Depends on the rules core and the alpha-beta engine only (no libtorch),
//! so the Python package can use it; the neural-network evaluator lives
//! with the networks.

pub mod agent;
pub mod batch;
pub mod config;
pub mod duel;
pub mod earlier;
pub mod evaluator;
pub mod group;
pub mod gumbel;
pub mod journal;
mod noise;
pub mod openings;
pub mod resign;
pub mod search;
pub mod tree;
pub mod worker;

pub use batch::LeafBatch;
pub use config::{ConfigError, RootPolicy, SearchConfig};
pub use duel::{Choice, Chooser, Duel, DuelConfig, DuelGame, DuelPart, DuelTally, Player};
pub use earlier::EarlierPositions;
pub use evaluator::{outcome_value, Evaluator, RolloutEvaluator, UniformEvaluator};
pub use group::SearchGroup;
pub use resign::ResignConfig;
pub use search::{Search, SearchError, SearchResult, PRIOR_FLOOR};
pub use worker::{SelfPlay, SelfPlayConfig, SelfPlayError, SelfPlayStats, MAX_OPENING_PLIES};
