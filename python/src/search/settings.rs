//! The search settings Python passes as keywords, shared by `Search` and
//! `self_play`, read into the Rust `SearchConfig` (whose defaults they
//! keep) and checked by its own `validate`, so both entry points accept
//! exactly what the Rust workers accept.

use heterodox_selfplay::config::MAX_SIMULATIONS;
use heterodox_selfplay::{RootPolicy, SearchConfig};
use pyo3::prelude::*;

use crate::args::int_in;
use crate::errors::value_error;

/// The keyword arguments that shape one search.
pub(crate) struct SearchArgs<'a, 'py> {
    /// Absent: the Rust default (100).
    pub simulations: Option<&'a Bound<'py, PyAny>>,
    pub root_policy: &'a str,
    pub leaves_per_round: Option<&'a Bound<'py, PyAny>>,
    pub determinizations: Option<&'a Bound<'py, PyAny>>,
    pub gumbel_actions: Option<&'a Bound<'py, PyAny>>,
    pub c_puct: Option<f32>,
    /// Root noise (Dirichlet for PUCT, Gumbel draws for Gumbel): on for
    /// self-play, off for evaluation play.
    pub noise: bool,
    pub reuse_tree: bool,
    /// A node whose player can win with one action is scored a win
    /// without the evaluator, and the root plays such an action.
    pub immediate_wins: bool,
    /// At the root, actions after which the opponent can win with one
    /// action are searched last while another avoids that.
    pub avoid_losses_in_one: bool,
    /// Each leaf's value: (1 - w) the evaluator's + w the engine's
    /// quiescence search (0 to 1; 0: none).
    pub quiescence_weight: f32,
}

impl SearchArgs<'_, '_> {
    pub fn config(&self) -> PyResult<SearchConfig> {
        let defaults = SearchConfig::default();
        let root_policy = match self.root_policy {
            "puct" => RootPolicy::Puct,
            "gumbel" => RootPolicy::Gumbel,
            other => {
                return Err(value_error(format!(
                    "root_policy must be 'puct' or 'gumbel', not {other:?}"
                )))
            }
        };
        let count = |value: Option<&Bound<'_, PyAny>>, name: &str, max: u64, default: u32| {
            value.map_or(Ok(default), |v| int_in(v, name, 1, max).map(|n| n as u32))
        };
        let simulations = self.simulations.map_or(Ok(defaults.simulations), |s| {
            int_in(s, "simulations", 1, u64::from(MAX_SIMULATIONS)).map(|s| s as u32)
        })?;
        // The default four determinizations matter under hidden
        // information only: fewer simulations than that is no error.
        let determinizations = count(
            self.determinizations,
            "determinizations",
            u64::from(MAX_SIMULATIONS),
            defaults.determinizations.min(simulations),
        )?;
        let config = SearchConfig {
            simulations,
            determinizations,
            root_policy,
            c_puct: self.c_puct.unwrap_or(defaults.c_puct),
            dirichlet_epsilon: if self.noise {
                defaults.dirichlet_epsilon
            } else {
                0.0
            },
            gumbel_noise: self.noise,
            leaves_per_round: count(
                self.leaves_per_round,
                "leaves_per_round",
                4096,
                defaults.leaves_per_round,
            )?,
            gumbel_actions: count(
                self.gumbel_actions,
                "gumbel_actions",
                4096,
                defaults.gumbel_actions,
            )?,
            reuse_tree: self.reuse_tree,
            immediate_wins: self.immediate_wins,
            avoid_losses_in_one: self.avoid_losses_in_one,
            quiescence_weight: self.quiescence_weight,
            ..defaults
        };
        config.validate().map_err(value_error)?;
        Ok(config)
    }
}
