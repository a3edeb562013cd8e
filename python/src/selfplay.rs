//! `self_play`: the Rust self-play workers (`heterodox_selfplay::SelfPlay`)
//! with a Python callable as evaluator, writing the same shards as the
//! Rust trainer (`heterodox_data::shard`). Nothing of the workers is
//! rewritten here: the run is the Rust run, with the GIL released except
//! while the callable runs, so the same seed and the same evaluations give
//! the same games as `heterodox selfplay`.

use std::path::PathBuf;

use heterodox_data::shard::{write_shard, ShardErrorKind, ShardHeader};
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::{
    SearchConfig, SelfPlay, SelfPlayConfig, SelfPlayStats, UniformEvaluator, MAX_OPENING_PLIES,
};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{call_rule_options, history_arg, int_in, max_plies_arg, seed_arg, MAX_HISTORY};
use crate::errors::{value_error, IntoPyErr};
use crate::evaluation::PyEvaluator;
use crate::search::{SearchArgs, MAX_GAMES};

/// The most games one call plays: each record stays in memory until the
/// shard is written.
const MAX_SELFPLAY_GAMES: u64 = 1 << 20;

struct Run {
    options: RuleOptions,
    config: SelfPlayConfig,
    evaluator: Option<Py<PyAny>>,
    path: Option<PathBuf>,
    producer: String,
}

impl VariantVisitor for Run {
    type Output = PyResult<SelfPlayStats>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(&self.options).map_err(IntoPyErr::into_py_err)?;
        let run = SelfPlay::<P>::new(rules.clone(), self.config).map_err(value_error)?;
        let mut games = Vec::new();
        let on_game = |record, _: &SelfPlayStats| games.push(record);
        let stats = match self.evaluator {
            None => run.run(&UniformEvaluator, on_game),
            Some(callable) => {
                let evaluator = PyEvaluator::<P>::new(callable, run.spec().observation_shape());
                let stats = run.run(&evaluator, on_game);
                if let Some(error) = evaluator.take_error() {
                    return Err(error);
                }
                stats
            }
        };
        // Games end in completion order, which depends on their lengths
        // only: sorted by seed (their index), a shard lists them as the
        // run numbered them.
        games.sort_by_key(|g| g.seed);
        if let Some(path) = self.path {
            let header = ShardHeader::new::<P>(&rules, self.producer);
            write_shard(&path, &header, &games).map_err(|e| match e.kind {
                ShardErrorKind::Io(_) => PyOSError::new_err(e.to_string()),
                _ => value_error(e),
            })?;
        }
        Ok(stats)
    }
}

/// Plays games of the network against itself with the Rust self-play
/// workers and writes them as a shard.
///
/// self_play(variant, path=None, evaluator=None, games=64, concurrent=None,
/// simulations=100, root_policy='puct', seed=0, history=1, max_plies=None,
/// temperature_plies=30, opening_plies=0, noise=True,
/// leaves_per_round=None, determinizations=None, gumbel_actions=None,
/// c_puct=None, immediate_wins=False, avoid_losses_in_one=False,
/// quiescence_weight=0.0, full_search_share=1.0, cheap_simulations=None,
/// producer=None, rules=None, **rules).
/// full_search_share: the share of moves searched with `simulations` and
/// recorded as training positions (playout cap randomization, 0 to 1);
/// the others are searched with cheap_simulations (None: a quarter of
/// simulations), without PUCT root noise, and recorded without a policy.
/// opening_plies: each game opens with 0 to this many uniformly random plies, recorded without
/// a policy (not training positions; 0 to 1000). evaluator(requests) -> (priors, values) gets
/// every game's leaves of a round as one dict (the keys of
/// Search.gather() but 'game') and answers as Search.apply() takes them;
/// None is the Rust uniform evaluator. path (ending in .hdxshard) receives
/// the games, in the order of their seeds, atomically. Returns the run's
/// totals (games, positions, simulations: those run, evaluations: the
/// leaves sent to the evaluator, white_wins, black_wins, draws, truncated,
/// seconds). An exception in the evaluator, or an answer that
/// does not fit (EvaluationError), stops Python from being called again
/// and is raised when the run returns; no shard is written then.
#[pyfunction]
#[pyo3(signature = (variant, path = None, evaluator = None, games = None, concurrent = None, simulations = None, root_policy = "puct", seed = None, history = None, max_plies = None, temperature_plies = None, opening_plies = None, noise = true, leaves_per_round = None, determinizations = None, gumbel_actions = None, c_puct = None, immediate_wins = false, avoid_losses_in_one = false, quiescence_weight = 0.0, full_search_share = 1.0, cheap_simulations = None, producer = None, rules = None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn self_play<'py>(
    py: Python<'py>,
    variant: &str,
    path: Option<PathBuf>,
    evaluator: Option<Bound<'py, PyAny>>,
    games: Option<&Bound<'py, PyAny>>,
    concurrent: Option<&Bound<'py, PyAny>>,
    simulations: Option<&Bound<'py, PyAny>>,
    root_policy: &str,
    seed: Option<&Bound<'py, PyAny>>,
    history: Option<&Bound<'py, PyAny>>,
    max_plies: Option<&Bound<'py, PyAny>>,
    temperature_plies: Option<&Bound<'py, PyAny>>,
    opening_plies: Option<&Bound<'py, PyAny>>,
    noise: bool,
    leaves_per_round: Option<&Bound<'py, PyAny>>,
    determinizations: Option<&Bound<'py, PyAny>>,
    gumbel_actions: Option<&Bound<'py, PyAny>>,
    c_puct: Option<f32>,
    immediate_wins: bool,
    avoid_losses_in_one: bool,
    quiescence_weight: f32,
    full_search_share: f32,
    cheap_simulations: Option<&Bound<'py, PyAny>>,
    producer: Option<String>,
    rules: Option<&Bound<'py, PyDict>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
    let search: SearchConfig = SearchArgs {
        simulations,
        root_policy,
        leaves_per_round,
        determinizations,
        gumbel_actions,
        c_puct,
        noise,
        reuse_tree: true,
        immediate_wins,
        avoid_losses_in_one,
        quiescence_weight,
    }
    .config()?;
    let defaults = SelfPlayConfig::default();
    let games = games.map_or(Ok(64), |g| int_in(g, "games", 1, MAX_SELFPLAY_GAMES))? as u32;
    let config = SelfPlayConfig {
        games,
        concurrent: concurrent.map_or(Ok(u64::from(games).min(MAX_GAMES)), |c| {
            int_in(c, "concurrent", 1, MAX_GAMES)
        })? as u32,
        max_plies: max_plies_arg(max_plies)?.unwrap_or(0),
        temperature_plies: temperature_plies.map_or(Ok(defaults.temperature_plies), |t| {
            int_in(t, "temperature_plies", 0, u64::from(u32::MAX)).map(|t| t as u32)
        })?,
        opening_plies: opening_plies.map_or(Ok(defaults.opening_plies), |o| {
            int_in(o, "opening_plies", 0, u64::from(MAX_OPENING_PLIES)).map(|o| o as u32)
        })?,
        full_search_share,
        cheap_simulations: cheap_simulations.map_or(Ok(0), |c| {
            int_in(c, "cheap_simulations", 1, u64::from(search.simulations)).map(|c| c as u32)
        })?,
        seed: seed_arg(seed)?,
        history: history_arg(history, MAX_HISTORY.min(64))?,
        search,
        resign: defaults.resign,
        pipeline: defaults.pipeline,
    };
    let run = Run {
        options: call_rule_options(rules, options)?,
        config,
        evaluator: evaluator.map(Bound::unbind),
        path,
        producer: producer.unwrap_or_else(|| "heterodox python self_play".to_owned()),
    };
    let stats = py.detach(|| variant.visit(run))?;
    let dict = PyDict::new(py);
    dict.set_item("games", stats.games)?;
    dict.set_item("positions", stats.positions)?;
    dict.set_item("simulations", stats.simulations)?;
    dict.set_item("evaluations", stats.evaluations)?;
    dict.set_item("white_wins", stats.white_wins)?;
    dict.set_item("black_wins", stats.black_wins)?;
    dict.set_item("draws", stats.draws)?;
    dict.set_item("truncated", stats.truncated)?;
    dict.set_item("seconds", stats.seconds)?;
    Ok(dict)
}
