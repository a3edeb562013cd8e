//! Python bindings of Heterodox: the native module `heterodox._core`.
//!
//! The Python package `heterodox` (python/heterodox/) re-exports what this
//! module defines; `heterodox/_core.pyi` is its type stub, kept in sync with
//! this crate by python/tests/test_stub.py (names, signatures, docstrings).
//!
//! One module per concept: [`game`] (the `Game` class), [`outcome`] (the
//! `Outcome` class), [`vecenv`] (the batched `VecEnv` class), [`errors`]
//! (how Rust errors become Python ones), [`args`] (integer arguments and
//! size limits), [`array_args`] (numpy array arguments), [`typed`] (operations on the typed game inside an
//! `AnyGame`), [`perft`] (perft that Ctrl-C stops) and [`engine`] (the
//! alpha-beta engine, searching with the GIL released); for trainers in
//! Python, [`search`] (the `Search` class: the Rust MCTS over many games,
//! evaluated from Python), [`evaluation`] (the leaves sent to Python and
//! the priors and values read back), [`selfplay`] (the Rust self-play
//! workers with a Python evaluator, writing shards), [`shards`] and
//! [`loader`] (the Rust training loader, batches as numpy arrays); for
//! players, [`agent`] (agent strings as the command line reads them, and
//! the agents that need no network).
//! No `unwrap` on anything a user controls: every bad input is a
//! `ValueError` (one of the subclasses in [`errors`] when it is a bad
//! move, position string, notation, variant or rule option), so no panic
//! crosses the FFI.

use pyo3::prelude::*;

mod agent;
mod args;
mod array_args;
mod engine;
mod errors;
mod evaluation;
mod game;
mod loader;
mod nnue;
mod outcome;
mod perft;
mod play;
mod search;
mod selfplay;
mod shards;
mod spec;
mod stats;
mod typed;
mod vecenv;
mod zoo;

pub use agent::Agent;
pub use engine::{Engine, EngineResult};
pub use game::Game;
pub use loader::Loader;
pub use outcome::Outcome;
pub use search::Search;
pub use vecenv::VecEnv;

/// Heterodox: rules of chess variants for reinforcement-learning self-play.
#[pymodule]
mod _core {
    use heterodox_env::Variant;
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::Agent;
    #[pymodule_export]
    use super::Game;
    #[pymodule_export]
    use super::Outcome;
    #[pymodule_export]
    use super::VecEnv;
    #[pymodule_export]
    use super::{Engine, EngineResult};
    #[pymodule_export]
    use super::{Loader, Search};
    #[pymodule_export]
    use crate::agent::{parse_agent, AgentError};
    #[pymodule_export]
    use crate::errors::{
        IllegalMoveError, NetworkError, NotationError, OptionError, PositionError,
        UnknownVariantError,
    };
    #[pymodule_export]
    use crate::evaluation::EvaluationError;
    #[pymodule_export]
    use crate::nnue::{nnue_data, nnue_features};
    #[pymodule_export]
    use crate::play::{check_measures, play_games, PlayedGames};
    #[pymodule_export]
    use crate::selfplay::self_play;
    #[pymodule_export]
    use crate::shards::read_shard;
    #[pymodule_export]
    use crate::spec::encoding_spec;
    #[pymodule_export]
    use crate::stats::{
        stats_bootstrap_difference, stats_bootstrap_mean, stats_elo, stats_games_for_difference,
        stats_games_for_half_width, stats_games_for_score, stats_logistic, stats_mean,
        stats_normal_cdf, stats_normal_quantile, stats_normal_sf, stats_pair_counts,
        stats_pentanomial, stats_power_of_difference, stats_power_of_score, stats_score_of_elo,
        stats_sprt, stats_t_cdf, stats_t_quantile, stats_welch, stats_welch_z, stats_wilson,
    };
    #[pymodule_export]
    use crate::zoo::{zoo_agents, zoo_file, zoo_network_dir};

    /// The names of the variants, as accepted by Game(variant=...).
    #[pyfunction]
    fn variants() -> Vec<&'static str> {
        Variant::ALL.iter().map(|variant| variant.name()).collect()
    }

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
