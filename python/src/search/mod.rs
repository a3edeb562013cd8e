//! The `Search` class: the Rust MCTS (`heterodox_selfplay::Search`) over
//! many games at once, driven from Python one evaluation round at a time,
//! so that the caller's own network (PyTorch on a GPU, say) evaluates
//! every game's leaves in one batch. The tree work stays in Rust, in
//! parallel, with the GIL released; only the leaves' tensors cross (see
//! [`crate::evaluation`] for the arrays and their checks).

mod games;
mod settings;

pub(crate) use settings::SearchArgs;

use std::sync::{Mutex, MutexGuard, PoisonError};

use heterodox_env::Variant;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{
    call_rule_options, check_batch_memory, fens_per, history_arg, int_in, max_plies_arg, seed_arg,
    MAX_HISTORY,
};
use crate::errors::{value_error, IntoPyErr};
use crate::evaluation::{call_evaluator, read_evaluations, EvaluationError};
use crate::game::Game;
use games::{build, DynSearch, Results, Setup, Start};

/// Games searched together: at most this many, as the Rust workers.
pub(crate) const MAX_GAMES: u64 = heterodox_selfplay::worker::MAX_CONCURRENT as u64;

/// The Rust MCTS over num_games games, driven from Python.
///
/// Search(variant, num_games=1, simulations=100, root_policy='puct',
/// seed=0, history=1, max_plies=None, noise=False, leaves_per_round=None,
/// determinizations=None, gumbel_actions=None, c_puct=None,
/// reuse_tree=True, immediate_wins=False, avoid_losses_in_one=False,
/// quiescence_weight=0.0, fens=None, rules=None, **rules).
/// quiescence_weight: each leaf's value is (1 - w) times the evaluator's
/// plus w times the engine's quiescence search of the leaf (captures,
/// poisonings, drops, part removals; 0 to 1, else ValueError).
/// immediate_wins: a position whose player can win with one action is
/// scored that win without asking the evaluator, and a root with such
/// an action plays it (its policy all on it). avoid_losses_in_one: at the
/// root, an action after which the opponent can win with one action gets
/// no prior (PUCT) or is considered last (Gumbel) while another avoids
/// that. Each round,
/// gather() returns the leaves every unfinished search wants evaluated
/// (a dict of numpy arrays: observations (L, C, 8, 8) float32, mask
/// (L, A) bool, legal / leaf (K,) int64, offsets (L + 1,) int64, game
/// (L,) int64) and apply(priors, values) takes float32 priors ((L, A) or
/// (K,)) and values ((L,), in [-1, 1] for the player to act) back; a bad
/// array is an EvaluationError. A round in which every simulation ends in
/// a finished game gathers no leaves (L = 0): it has finished the search,
/// and done is True. When done, policy() and result() give
/// the search's targets and step() plays. Traitor is searched over
/// determinizations sampled from the searcher's view. Game k starts as
/// the Rust self-play workers' game k of the same seed; the tree work
/// runs in parallel with the GIL released. fens holds one start per game
/// (or one for all): a position string, or a Game, whose earlier
/// positions and repetition history then count in the search.
#[pyclass(module = "heterodox._core")]
pub struct Search {
    /// `DynSearch` is `Send`; the mutex makes the class `Sync`. PyO3's
    /// borrow flag already keeps `&mut self` exclusive.
    inner: Mutex<Box<dyn DynSearch>>,
    variant: Variant,
    /// Reused buffers of the evaluations read from numpy.
    priors: Vec<f32>,
    values: Vec<f32>,
}

impl Search {
    fn inner(&self) -> MutexGuard<'_, Box<dyn DynSearch>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The finished searches' results, the policy as a (num_games, A)
    /// array.
    fn finished(&mut self) -> PyResult<(Array2<f32>, Results)> {
        let a = self.num_actions();
        let mut results = unlocked(&mut self.inner).results()?;
        let n = results.values.len();
        let policy = std::mem::take(&mut results.policy);
        let policy = Array2::from_shape_vec((n, a), policy).map_err(value_error)?;
        Ok((policy, results))
    }
}

/// The searches behind the class's own `&mut` (no lock needed).
fn unlocked(inner: &mut Mutex<Box<dyn DynSearch>>) -> &mut dyn DynSearch {
    inner
        .get_mut()
        .unwrap_or_else(PoisonError::into_inner)
        .as_mut()
}

/// Refuses to move on while a round's leaves await their evaluations.
fn nothing_awaits(inner: &dyn DynSearch) -> PyResult<()> {
    if inner.awaiting() {
        return Err(value_error(
            "the leaves of the last gather() await apply(priors, values)",
        ));
    }
    Ok(())
}

/// Reads `fens`: each a position string or a `Game` (whose history then
/// travels with it); anything else is a TypeError naming the entry.
fn read_starts(fens: &[Bound<'_, PyAny>]) -> PyResult<Vec<Start>> {
    fens.iter()
        .enumerate()
        .map(|(k, entry)| {
            if let Ok(game) = entry.cast::<Game>() {
                let game = game.try_borrow()?;
                Ok(Start::Game {
                    game: game.any().clone(),
                    start: game.start().clone(),
                    steps: game.steps().map(str::to_owned).collect(),
                })
            } else if let Ok(fen) = entry.extract::<String>() {
                Ok(Start::Fen(fen))
            } else {
                Err(PyTypeError::new_err(format!(
                    "fens[{k}] must be a position string or a Game, not {}",
                    entry.get_type().name()?
                )))
            }
        })
        .collect()
}

#[pymethods]
impl Search {
    #[new]
    #[pyo3(signature = (variant, num_games = None, simulations = None, root_policy = "puct", seed = None, history = None, max_plies = None, noise = false, leaves_per_round = None, determinizations = None, gumbel_actions = None, c_puct = None, reuse_tree = true, immediate_wins = false, avoid_losses_in_one = false, quiescence_weight = 0.0, fens = None, rules = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_games: Option<&Bound<'_, PyAny>>,
        simulations: Option<&Bound<'_, PyAny>>,
        root_policy: &str,
        seed: Option<&Bound<'_, PyAny>>,
        history: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        noise: bool,
        leaves_per_round: Option<&Bound<'_, PyAny>>,
        determinizations: Option<&Bound<'_, PyAny>>,
        gumbel_actions: Option<&Bound<'_, PyAny>>,
        c_puct: Option<f32>,
        reuse_tree: bool,
        immediate_wins: bool,
        avoid_losses_in_one: bool,
        quiescence_weight: f32,
        fens: Option<Vec<Bound<'_, PyAny>>>,
        rules: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Search> {
        let parsed: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
        let num_games = num_games.map_or(Ok(1), |n| int_in(n, "num_games", 1, MAX_GAMES))?;
        let config = SearchArgs {
            simulations,
            root_policy,
            leaves_per_round,
            determinizations,
            gumbel_actions,
            c_puct,
            noise,
            reuse_tree,
            immediate_wins,
            avoid_losses_in_one,
            quiescence_weight,
        }
        .config()?;
        let seed = seed_arg(seed)?;
        let history = history_arg(history, MAX_HISTORY)?;
        let max_plies = max_plies_arg(max_plies)?.unwrap_or(0);
        let all = call_rule_options(rules, options)?;
        let fens = match fens {
            Some(fens) => fens_per(read_starts(&fens)?, num_games as usize, "game")?,
            None => Vec::new(),
        };
        // A gather round holds at most leaves_per_round leaves per game
        // (and one root per determinization), each an observation and a
        // mask row: refused here, before any tree is built, if too large.
        let probe = heterodox_env::vecenv::make_batch_env(
            parsed,
            &all,
            heterodox_env::vecenv::EnvConfig::new(1).with_history(history),
        )
        .map_err(IntoPyErr::into_py_err)?;
        let [channels, _, _] = probe.observation_shape();
        let per_round = u64::from(config.leaves_per_round.max(config.determinizations));
        check_batch_memory(num_games * per_round, channels * 64, probe.num_actions())?;
        drop(probe);
        let setup = Setup {
            variant: parsed,
            options: all,
            config,
            num_games: num_games as usize,
            seed,
            history,
            max_plies,
            fens,
        };
        let inner = py.detach(|| build(setup))?;
        Ok(Search {
            inner: Mutex::new(inner),
            variant: parsed,
            priors: Vec::new(),
            values: Vec::new(),
        })
    }

    /// The variant's registered name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// The number of games searched together.
    #[getter]
    fn num_games(&self) -> usize {
        self.inner().num_games()
    }

    /// The size of the action space (A).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner().spec().num_actions
    }

    /// The shape of one observation, (C, 8, 8).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [channels, height, width] = self.inner().spec().observation_shape();
        (channels, height, width)
    }

    /// True when every unfinished game's search has run all its simulations
    /// (policy(), result() and step() may be called).
    #[getter]
    fn done(&self) -> bool {
        self.inner().is_done()
    }

    /// The leaves to evaluate next, from every unfinished search (see the
    /// class docs). No leaves (L = 0) only when the search is done: the
    /// round may have finished it, every simulation of it ending in a
    /// finished game. Call apply() before the next gather() (for the
    /// empty round, with empty arrays, or not at all).
    fn gather<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = unlocked(&mut self.inner);
        py.detach(|| inner.gather())?.into_dict(py)
    }

    /// Backs up the evaluations of the last gather(): priors float32
    /// (L, A) or (K,), values float32 (L,) or (L, 1); for an empty round,
    /// arrays of no leaves. EvaluationError if they do not fit; the
    /// search is then unchanged.
    fn apply(
        &mut self,
        py: Python<'_>,
        priors: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let inner = unlocked(&mut self.inner);
        if !inner.round_open() {
            return Err(EvaluationError::new_err(
                "no leaves await evaluation: call gather() first",
            ));
        }
        read_evaluations(
            priors,
            values,
            inner.layout(),
            &mut self.priors,
            &mut self.values,
        )?;
        let (p, v) = (&self.priors, &self.values);
        py.detach(|| inner.apply(p, v))
    }

    /// Runs every search to its end: evaluator(requests) -> (priors,
    /// values) is called once per round with gather()'s dict, never with
    /// an empty one; None runs the Rust uniform evaluator (uniform
    /// priors, value 0) without leaving Rust.
    #[pyo3(signature = (evaluator = None))]
    fn run(&mut self, py: Python<'_>, evaluator: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let Some(evaluator) = evaluator else {
            let inner = unlocked(&mut self.inner);
            nothing_awaits(inner)?;
            return py.detach(|| inner.run_uniform());
        };
        loop {
            let inner = unlocked(&mut self.inner);
            let requests = py.detach(|| inner.gather())?;
            if requests.leaves() == 0 {
                // Every search is done, finished by this round perhaps:
                // the empty round needs no evaluation.
                return py.detach(|| inner.apply(&[], &[]));
            }
            let (mut priors, mut values) = (Vec::new(), Vec::new());
            let layout = requests.layout();
            let result = call_evaluator(evaluator, requests, &mut priors, &mut values);
            let inner = unlocked(&mut self.inner);
            if let Err(error) = result {
                // Back to a consistent state: nothing awaits.
                let uniform: Vec<f32> = (0..layout.leaves())
                    .flat_map(|leaf| {
                        let n = layout.offsets[leaf + 1] - layout.offsets[leaf];
                        std::iter::repeat_n(1.0 / n.max(1) as f32, n)
                    })
                    .collect();
                let zeros = vec![0.0; layout.leaves()];
                py.detach(|| inner.apply(&uniform, &zeros))?;
                return Err(error);
            }
            py.detach(|| inner.apply(&priors, &values))?;
        }
    }

    /// The search's training target per game, float32 (num_games, A): the
    /// visit distribution (PUCT) or the completed-Q improved policy
    /// (Gumbel), averaged over determinizations; zero rows for games that
    /// are over.
    fn policy<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (policy, _) = self.finished()?;
        Ok(policy.into_pyarray(py).into_any())
    }

    /// Everything the finished searches say, as numpy arrays: 'policy'
    /// (num_games, A) float32, 'visits' (num_games, A) int64, 'value'
    /// (num_games,) float32 (the root value for the player to move),
    /// 'best' (num_games,) int64 (the action a deterministic player takes;
    /// -1 for games that are over).
    fn result<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (policy, results) = self.finished()?;
        let (n, a) = policy.dim();
        let dict = PyDict::new(py);
        let visits = Array2::from_shape_vec((n, a), results.visits).map_err(value_error)?;
        dict.set_item("policy", policy.into_pyarray(py))?;
        dict.set_item("visits", visits.into_pyarray(py))?;
        dict.set_item("value", Array1::from(results.values).into_pyarray(py))?;
        dict.set_item("best", Array1::from(results.best).into_pyarray(py))?;
        Ok(dict)
    }

    /// Plays one action in every game that is not over: actions[k] (an
    /// action index; int64 array of num_games entries, negative for the
    /// search's choice) or, without actions, the search's choice (most
    /// visits for PUCT, the sequential-halving winner for Gumbel); then
    /// starts the next searches. Returns which games are over (bool array).
    /// IllegalMoveError for an action that is not legal; nothing moves then.
    #[pyo3(signature = (actions = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Option<PyReadonlyArray1<'py, i64>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let n = self.num_games();
        let actions: Option<Vec<i64>> = match actions {
            Some(a) if a.len()? != n => {
                return Err(value_error(format!(
                    "actions must have shape ({n},) (one per game), not ({},)",
                    a.len()?
                )))
            }
            Some(a) => Some(a.as_array().iter().copied().collect()),
            None => None,
        };
        let inner = unlocked(&mut self.inner);
        nothing_awaits(inner)?;
        let over = py.detach(|| inner.step(actions.as_deref()))?;
        Ok(PyArray1::from_vec(py, over))
    }

    /// Which games are over (finished or cut at max_plies), bool (num_games,).
    fn over<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, self.inner().over())
    }

    /// Each game's result as a PGN token ('1-0', '0-1', '1/2-1/2', '*'
    /// for a game cut at max_plies), None while it runs.
    fn results(&self) -> Vec<Option<&'static str>> {
        self.inner().results_pgn()
    }

    /// Plies played in each game.
    fn plies(&self) -> Vec<u32> {
        self.inner().plies()
    }

    /// Simulations run by each game's current search so far: leaves
    /// evaluated and descents that ended in a finished game (the
    /// simulations setting once done; 0 for games that are over).
    fn simulations(&self) -> Vec<u32> {
        self.inner().simulations()
    }

    /// The position string of game `game` (the full state: under hidden
    /// information it shows both players' secrets).
    fn fen(&self, game: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.num_games();
        let game = int_in(game, "game", 0, u64::MAX)? as usize;
        if game >= n {
            return Err(PyIndexError::new_err(format!(
                "game {game} is out of range: there are {n} games"
            )));
        }
        Ok(self.inner().fen(game))
    }

    fn __repr__(&self) -> String {
        let inner = self.inner();
        format!(
            "Search({:?}, num_games={}, {})",
            self.variant.name(),
            inner.num_games(),
            inner.spec().summary()
        )
    }
}
