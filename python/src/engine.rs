//! The `Engine` class: the alpha-beta engine (heterodox-engine) of one
//! variant, searching `Game`s from Python with the GIL released. One engine
//! keeps its transposition table from search to search (call `new_game`
//! between games); under hidden information it reads only the view of the
//! player to act.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use heterodox_engine::nnue::network::rules_string;
use heterodox_engine::nnue::Network;
use heterodox_engine::{
    Engine as AlphaBeta, EngineConfig, EvalWeights, Evaluation, Limits, Score, MAX_DEPTH,
};
use heterodox_env::{AnyGame, GameVariant, Variant, VariantVisitor};
use heterodox_selfplay::agent::nnue::shipped_network;
use pyo3::prelude::*;

use crate::args::{int_in, seed_arg};
use crate::errors::{value_error, IntoPyErr, NetworkError};
use crate::game::Game;

/// The most threads an engine of the bindings may run.
const MAX_THREADS: u64 = 256;

/// What one search found, from the side to act's point of view.
#[pyclass(module = "heterodox._core", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct EngineResult {
    /// The move to play, in long (UCI-style) notation, as Game.play reads it.
    #[pyo3(name = "move")]
    pub best: String,
    /// The same move in the variant's standard notation.
    pub notation: String,
    /// The move's action index (Game.action_index).
    pub action: usize,
    /// Centipawns, None when a mate was found.
    pub score_cp: Option<i32>,
    /// Moves to mate (negative: the side to act is mated), else None.
    pub mate: Option<i32>,
    /// The score as an expected result in [-1, 1].
    pub value: f32,
    /// The principal variation in long notation, the move first.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The last completed iteration.
    pub depth: u32,
    /// The deepest step any line reached (extensions and quiescence).
    pub seldepth: u32,
    /// Seconds the search took.
    pub seconds: f64,
}

#[pymethods]
impl EngineResult {
    fn __repr__(&self) -> String {
        let score = match (self.score_cp, self.mate) {
            (_, Some(mate)) => format!("mate {mate}"),
            (Some(cp), None) => format!("cp {cp}"),
            (None, None) => "?".to_owned(),
        };
        format!(
            "EngineResult(move='{}', {score}, depth={}, nodes={})",
            self.best, self.depth, self.nodes
        )
    }
}

/// An engine of any variant, chosen once by `Variant::visit`.
trait DynEngine: Send + Sync {
    fn search(&mut self, game: &AnyGame, limits: &Limits) -> PyResult<EngineResult>;
    fn evaluate(&mut self, game: &AnyGame) -> PyResult<i32>;
    fn new_game(&mut self);
    /// The posterior over the opponent's secret after the last search.
    fn beliefs(&self) -> Option<Vec<(String, f64)>>;
    /// The net file the last search or evaluation read, if any.
    fn network(&self) -> Option<PathBuf>;
}

/// What an engine evaluates with: an evaluation by name (the learned one
/// is the shipped net of each game's rule set, found when a game of those
/// rules comes), or a net file of the caller's.
#[derive(Clone, Debug)]
enum Choice {
    Named(Evaluation),
    File(PathBuf, Arc<Network>),
}

struct Typed<P: GameVariant> {
    engine: AlphaBeta<P>,
    choice: Choice,
    /// The rule settings the engine's net was chosen for, and its file.
    prepared: Option<(String, Option<PathBuf>)>,
}

impl<P: GameVariant> Typed<P> {
    /// Gives the engine the net of `game`'s rule set, when the rules
    /// differ from the last game's.
    fn prepare(&mut self, game: &heterodox_env::Game<P>) -> PyResult<()> {
        let rules = rules_string::<P>(&game.position().rules());
        if self.prepared.as_ref().is_some_and(|(r, _)| *r == rules) {
            return Ok(());
        }
        let (net, path) = match &self.choice {
            Choice::Named(Evaluation::Learned) => match shipped_network::<P>(&rules)
                .map_err(|e| NetworkError::new_err(e.to_string()))?
            {
                Some((path, net)) => (Some(net), Some(path)),
                None => (None, None),
            },
            Choice::Named(Evaluation::Classical(_)) => (None, None),
            Choice::File(path, net) => {
                let features = heterodox_engine::nnue::feature_set::<P>().ok_or_else(|| {
                    NetworkError::new_err("this variant has no learned evaluation")
                })?;
                net.header
                    .check::<P>(&game.position().rules(), features)
                    .map_err(|e| NetworkError::new_err(format!("{}: {e}", path.display())))?;
                (Some(Arc::clone(net)), Some(path.clone()))
            }
        };
        self.engine
            .set_network(net)
            .map_err(|e| NetworkError::new_err(e.to_string()))?;
        self.prepared = Some((rules, path));
        Ok(())
    }
}

impl<P: GameVariant> DynEngine for Typed<P> {
    fn evaluate(&mut self, game: &AnyGame) -> PyResult<i32> {
        let game = game.downcast_ref::<P>().expect("the variant was checked");
        self.prepare(game)?;
        Ok(self.engine.evaluate(game.position()))
    }

    fn network(&self) -> Option<PathBuf> {
        self.prepared.as_ref().and_then(|(_, path)| path.clone())
    }

    fn search(&mut self, game: &AnyGame, limits: &Limits) -> PyResult<EngineResult> {
        let game = game
            .downcast_ref::<P>()
            .expect("the variant was checked")
            .clone();
        self.prepare(&game)?;
        let report = self
            .engine
            .search(&game, limits, |_| {})
            .map_err(|e| value_error(e.to_string()))?;
        let position = game.position();
        let (score_cp, mate) = match report.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        Ok(EngineResult {
            best: report.best.to_string(),
            notation: position.notation(&report.best),
            action: position.action_index(&report.best),
            score_cp,
            mate,
            value: report.score.expected_result(),
            pv: report.pv.iter().map(ToString::to_string).collect(),
            nodes: report.nodes,
            depth: report.depth,
            seldepth: report.seldepth,
            seconds: report.elapsed.as_secs_f64(),
        })
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn beliefs(&self) -> Option<Vec<(String, f64)>> {
        self.engine.beliefs().map(|report| {
            report
                .secrets
                .into_iter()
                .map(|b| (b.secret, b.probability))
                .collect()
        })
    }
}

struct Build {
    config: EngineConfig,
    evaluation: Option<String>,
}

impl VariantVisitor for Build {
    type Output = PyResult<Box<dyn DynEngine>>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let engine = AlphaBeta::<P>::new(self.config).map_err(|e| value_error(e.to_string()))?;
        let choice = match self.evaluation.as_deref() {
            None => Choice::Named(match self.config.weights {
                EvalWeights::Hand => Evaluation::Classical(EvalWeights::Hand),
                EvalWeights::Tuned => Evaluation::Learned,
            }),
            Some(text) => match text.parse::<Evaluation>() {
                Ok(evaluation) => Choice::Named(evaluation),
                Err(_) if text.ends_with(".safetensors") => {
                    let path = PathBuf::from(text);
                    let net =
                        Network::load(&path).map_err(|e| NetworkError::new_err(e.to_string()))?;
                    if net.header.variant != P::VARIANT.name() {
                        return Err(NetworkError::new_err(format!(
                            "{text}: the net is for variant {}, not {}",
                            net.header.variant,
                            P::VARIANT.name()
                        )));
                    }
                    Choice::File(path, Arc::new(net))
                }
                Err(e) => {
                    return Err(value_error(format!(
                        "{e}, or the path of a net file (*.safetensors)"
                    )))
                }
            },
        };
        let engine_weights = match choice {
            Choice::Named(evaluation) => evaluation.weights(),
            Choice::File(..) => self.config.weights,
        };
        let engine = if engine_weights == self.config.weights {
            engine
        } else {
            AlphaBeta::<P>::new(EngineConfig {
                weights: engine_weights,
                ..self.config
            })
            .map_err(|e| value_error(e.to_string()))?
        };
        Ok(Box::new(Typed {
            engine,
            choice,
            prepared: None,
        }))
    }
}

/// The alpha-beta engine of one variant (docs/engine.md).
///
/// Engine(variant, hash_mib=16, threads=1, determinizations=4, seed=0,
/// weights="tuned", evaluation="learned") allocates its transposition table
/// once. evaluation="learned" evaluates with the shipped net of each game's
/// rule set where one exists (agents/*/nnue.safetensors) and the tuned
/// classical evaluation elsewhere; "classical" always with the tuned
/// classical one (what every result before the nets played), "hand" with
/// the classical numbers set by hand before tuning (as weights="hand");
/// a path to a net file (*.safetensors, heterodox nnue train's or one saved
/// by PyTorch) with that net, refused with NetworkError for other rules.
/// evaluate(game) is the static evaluation of the game's position in
/// centipawns for the side to act. search(game, depth=None,
/// movetime_ms=None, nodes=None) searches the game's position for the
/// player to act within the limits given (at least one; depth 1 to 64,
/// movetime_ms and nodes at least 1) with the GIL released, and returns an
/// EngineResult. A depth or node limit on one thread gives the same result
/// every time. Under hidden information (Traitor) the engine reads only the
/// view of the player to act. Bad arguments, a game of another variant and
/// a finished game raise ValueError naming the problem.
#[pyclass(module = "heterodox._core")]
pub struct Engine {
    variant: Variant,
    inner: Box<dyn DynEngine>,
}

impl Engine {
    /// Refuses a game of another variant, naming both.
    fn check_variant(&self, any: &AnyGame) -> PyResult<()> {
        if any.variant() != self.variant {
            return Err(value_error(format!(
                "this engine plays {}, the game is {}",
                self.variant.name(),
                any.variant().name()
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (variant, hash_mib=None, threads=None, determinizations=None, seed=None, weights="tuned", evaluation=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &str,
        hash_mib: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        determinizations: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        weights: &str,
        evaluation: Option<String>,
    ) -> PyResult<Engine> {
        let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
        let defaults = EngineConfig::default();
        let config = EngineConfig {
            hash_mib: hash_mib.map_or(Ok(defaults.hash_mib), |h| {
                int_in(h, "hash_mib", 1, heterodox_engine::MAX_HASH_MIB)
            })?,
            threads: threads.map_or(Ok(defaults.threads), |t| {
                int_in(t, "threads", 1, MAX_THREADS).map(|t| t as usize)
            })?,
            determinizations: determinizations.map_or(Ok(defaults.determinizations), |d| {
                int_in(
                    d,
                    "determinizations",
                    1,
                    heterodox_engine::MAX_DETERMINIZATIONS as u64,
                )
                .map(|d| d as usize)
            })?,
            seed: seed_arg(seed)?,
            weights: weights
                .parse()
                .map_err(|e: heterodox_engine::UnknownWeights| value_error(e.to_string()))?,
            ..defaults
        };
        let inner = py.detach(|| variant.visit(Build { config, evaluation }))?;
        Ok(Engine { variant, inner })
    }

    /// The variant this engine plays.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// Searches `game`'s position for the player to act.
    #[pyo3(signature = (game, depth=None, movetime_ms=None, nodes=None))]
    fn search(
        &mut self,
        py: Python<'_>,
        game: &Game,
        depth: Option<&Bound<'_, PyAny>>,
        movetime_ms: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<EngineResult> {
        let limits = Limits {
            depth: depth
                .map(|d| int_in(d, "depth", 1, u64::from(MAX_DEPTH)).map(|d| d as u32))
                .transpose()?,
            movetime: movetime_ms
                .map(|m| int_in(m, "movetime_ms", 1, 86_400_000).map(Duration::from_millis))
                .transpose()?,
            nodes: nodes.map(|n| int_in(n, "nodes", 1, u64::MAX)).transpose()?,
            stop: None,
        };
        if limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none() {
            return Err(value_error(
                "search needs a limit: depth, movetime_ms or nodes",
            ));
        }
        let any = game.any();
        self.check_variant(any)?;
        if let Some(outcome) = any.outcome() {
            return Err(value_error(format!(
                "the game is over ({outcome}): there is nothing to search"
            )));
        }
        let any = any.clone();
        let inner = &mut self.inner;
        py.detach(|| inner.search(&any, &limits))
    }

    /// The static evaluation of `game`'s position in centipawns for the
    /// side to act (no search), with the engine's evaluation.
    fn evaluate(&mut self, py: Python<'_>, game: &Game) -> PyResult<i32> {
        let any = game.any();
        self.check_variant(any)?;
        let any = any.clone();
        let inner = &mut self.inner;
        py.detach(|| inner.evaluate(&any))
    }

    /// The net file the last search or evaluation played with, None for
    /// the classical evaluation: a file's path, or for a shipped net its
    /// place in the catalogue, agents/NAME/nnue.safetensors (built into the
    /// module, so it plays without a checkout).
    #[getter]
    fn network(&self) -> Option<PathBuf> {
        self.inner.network()
    }

    /// Forgets the transposition table, killers and history: the next
    /// search behaves as a fresh engine's.
    fn new_game(&mut self) {
        self.inner.new_game();
    }

    /// Under hidden information, the engine's posterior over the
    /// opponent's secret at its last search: every consistent secret with
    /// its probability, most likely first. It weighs the opponent's steps
    /// between this engine's searches of one game (its own choices
    /// played); None with perfect information and before any search.
    fn beliefs(&self) -> Option<Vec<(String, f64)>> {
        self.inner.beliefs()
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}')", self.variant.name())
    }
}
