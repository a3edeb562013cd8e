//! `play_games`: many games between agents at the command line's speed,
//! into a table (`heterodox.play`). The games are the arena's: the same
//! duel (`heterodox_selfplay::Duel`), the same players
//! (`heterodox_selfplay::agent::Contender`), the same seeds and the same
//! journal, so `heterodox.play(variant, [a, b], games, seed=s)` plays the
//! games `heterodox arena --agents a,b --games N --seed s` plays. They run
//! on every core with the GIL released; the calling thread only waits,
//! reports progress and watches for Ctrl-C, which stops the duel and
//! returns the games finished so far. A network agent's leaves are
//! evaluated by the Python callable given for it (`heterodox.torch`), in
//! one batch a round.
//!
//! [`table`] holds the played games; [`measures`] reads per-ply measures
//! from them.

pub mod measures;
pub mod table;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use heterodox_env::rng::derive_seed;
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::agent::{AgentKind, AgentSpec, Contender};
use heterodox_selfplay::journal::Journal;
use heterodox_selfplay::{
    openings, Duel, DuelConfig, DuelGame, DuelPart, Evaluator, LeafBatch, SearchConfig,
};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::agent::AgentError;
use crate::args::{rule_options, seed_arg};
use crate::errors::{value_error, IntoPyErr};
use crate::evaluation::PyEvaluator;
pub use table::{check_measures, PlayedGames};

/// The most games one call plays (each record stays in memory).
const MAX_PLAY_GAMES: u64 = 1 << 20;
/// The most games in progress at once: an engine agent keeps a 16 MiB
/// table per game slot, so 256 slots of two engines stay within 8 GiB.
const MAX_CONCURRENT: u64 = 256;

/// A network agent's evaluator, shared so that its first error can be
/// read back after the duel (the duel's player owns a box of it).
struct SharedEvaluator<P: GameVariant>(Arc<PyEvaluator<P>>);

impl<P: GameVariant> Evaluator<P> for SharedEvaluator<P> {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        self.0.evaluate(batch, priors, values);
    }
}

/// What a call asked for, read before any game.
struct Request {
    variant: Variant,
    options: RuleOptions,
    agents: [AgentSpec; 2],
    /// One callable per agent, for the network agents.
    evaluators: [Option<Py<PyAny>>; 2],
    config: DuelConfig,
    /// Only this part of the games (a task of a run split across
    /// machines, `heterodox.ray.play`); `None`: all.
    part: Option<DuelPart>,
    /// Opening lines or position strings, read under the rules.
    book: Vec<String>,
    out: Option<PathBuf>,
    resume: bool,
    command: String,
    progress: Option<Py<PyAny>>,
}

/// Plays `games` games of `agents` (one agent string: against itself,
/// every game its own opening; two: paired colours, one opening per pair)
/// and returns them as a `PlayedGames` table. See `heterodox.play`.
#[pyfunction]
#[pyo3(signature = (variant, agents, games, *, rules = None, starts = None, opening_plies = 4,
    max_plies = 0, seed = None, concurrent = 32, evaluators = None, out = None, resume = false,
    command = None, progress = None, part = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_games(
    variant: &str,
    agents: Vec<String>,
    games: u64,
    rules: Option<&Bound<'_, PyDict>>,
    starts: Option<Vec<String>>,
    opening_plies: u64,
    max_plies: u64,
    seed: Option<&Bound<'_, PyAny>>,
    concurrent: u64,
    evaluators: Option<Vec<Option<Py<PyAny>>>>,
    out: Option<PathBuf>,
    resume: bool,
    command: Option<String>,
    progress: Option<Py<PyAny>>,
    part: Option<(u32, u32)>,
) -> PyResult<PlayedGames> {
    let part = match part {
        Some((index, count)) => Some(DuelPart::new(index, count).ok_or_else(|| {
            value_error(format!(
                "part: (index, count) with 0 <= index < count, got ({index}, {count})"
            ))
        })?),
        None => None,
    };
    let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
    let specs = match agents.as_slice() {
        [one] => [one.clone(), one.clone()],
        [a, b] => [a.clone(), b.clone()],
        _ => {
            return Err(value_error(format!(
                "agents: one agent string (self-play) or two (paired colours), got {}",
                agents.len()
            )))
        }
    };
    let read = |text: &str| {
        text.parse::<AgentSpec>()
            .map_err(|e| AgentError::new_err(e.to_string()))
    };
    let agents = [read(&specs[0])?, read(&specs[1])?];
    let mut evaluators = evaluators.unwrap_or_default();
    if evaluators.len() > 2 {
        return Err(value_error(format!(
            "evaluators: one per agent (two at most), got {}",
            evaluators.len()
        )));
    }
    evaluators.resize_with(2, || None);
    let evaluators = [evaluators[0].take(), evaluators[1].take()];
    for (agent, evaluator) in agents.iter().zip(&evaluators) {
        let network = matches!(agent.kind, AgentKind::Net(_) | AgentKind::Zoo(_));
        if evaluator.is_some() != network {
            return Err(AgentError::new_err(format!(
                "agent '{agent}': {}",
                if network {
                    "a network agent needs its evaluator (heterodox.play loads it)"
                } else {
                    "it has no network, so no evaluator is given for it"
                }
            )));
        }
    }
    // Two different agents play pairs (one opening, both colours); an
    // agent against itself would play each pair's two games alike, so
    // every game has its own opening.
    let paired = agents[0].to_string() != agents[1].to_string();
    let config = DuelConfig {
        games: in_range(games, "games", 1, MAX_PLAY_GAMES)?,
        concurrent: in_range(concurrent, "concurrent", 1, MAX_CONCURRENT)?,
        max_plies: in_range(max_plies, "max_plies", 0, 100_000)?,
        opening_plies: in_range(opening_plies, "opening_plies", 0, 1000)?,
        seed: seed_arg(seed)?,
        history: 1,
        starts: Vec::new(),
        paired,
    };
    let request = Request {
        variant,
        options: rule_options(rules)?,
        agents,
        evaluators,
        config,
        part,
        book: starts.unwrap_or_default(),
        out,
        resume,
        command: command.unwrap_or_else(|| "heterodox.play".to_owned()),
        progress,
    };
    variant.visit(request)
}

impl VariantVisitor for Request {
    type Output = PyResult<PlayedGames>;

    fn visit<P: GameVariant>(mut self) -> Self::Output {
        let rules = P::parse_rules(&self.options).map_err(IntoPyErr::into_py_err)?;
        if !self.book.is_empty() {
            self.config.starts = openings::parse_openings::<P>(&self.book.join("\n"), &rules)
                .map_err(|e| value_error(format!("start: {e}")))?;
        }
        let duel = Duel::<P>::new(rules.clone(), self.config.clone()).map_err(value_error)?;
        let encoding = duel.spec().clone();
        let shape = encoding.observation_shape();
        let search = SearchConfig::default();
        let mut shared: Vec<Arc<PyEvaluator<P>>> = Vec::new();
        let mut contenders = Vec::with_capacity(2);
        for (k, agent) in self.agents.iter().enumerate() {
            let network = self.evaluators[k].take().map(|callable| {
                let evaluator = Arc::new(PyEvaluator::<P>::new(callable, shape));
                shared.push(evaluator.clone());
                Box::new(SharedEvaluator(evaluator)) as Box<dyn Evaluator<P>>
            });
            // The arena's seeds: agent k's contender from the run's seed.
            let seed = derive_seed(self.config.seed, k, 7);
            let contender = Contender::<P>::new(agent, &encoding, &search, seed, network)
                .map_err(|e| AgentError::new_err(e.to_string()))?;
            contenders.push(contender);
        }
        let names = self.agents.each_ref().map(ToString::to_string);
        let journal = match &self.out {
            Some(out) => Some(self.journal(out, &names)?),
            None => None,
        };
        // The arena's journal key for its one pairing (agents 0 and 1).
        let key = format!(
            "{}-0-vs-1-{:016x}{}",
            P::VARIANT.name(),
            duel.seed(),
            if self.config.paired { "" } else { "-unpaired" }
        );
        let (kept, mut log) = match &journal {
            Some(journal) => {
                let (kept, log) = journal.duel(&key).map_err(journal_error)?;
                (kept, Some(log))
            }
            None => (Vec::new(), None),
        };
        let total = part_games(duel.total_games(), self.config.paired, self.part);
        let stop = Arc::new(AtomicBool::new(false));
        let duel = duel.stop_when(stop.clone());
        // Each finished game goes to this thread, which journals it,
        // reports progress and answers: the duel waits for the answer, so
        // a stop asked then (Ctrl-C, a progress callable that raises)
        // starts no further game.
        let (sender, receiver) = mpsc::channel::<DuelGame>();
        let (answer, answers) = mpsc::channel::<()>();
        let mut finished: Vec<DuelGame> = kept.clone();
        let mut interrupt: Option<PyErr> = None;
        let progress = self.progress.take();
        let part = self.part;
        report(&progress, finished.len(), total)?;
        let result = Python::attach(|py| {
            py.detach(|| {
                // Moved in: a receiver is used by one thread.
                let receiver = receiver;
                std::thread::scope(|scope| {
                    let players = (contenders[0].player(), contenders[1].player());
                    let duel = &duel;
                    let worker = scope.spawn(move || {
                        duel.run_part(players.0, players.1, kept, part, |game| {
                            if sender.send(game.clone()).is_ok() {
                                let _ = answers.recv();
                            }
                        })
                    });
                    let mut stop_with = |error: PyErr| {
                        interrupt.get_or_insert(error);
                        stop.store(true, Ordering::Relaxed);
                    };
                    // A network evaluator that raised answers with uniform
                    // priors from then on: stop, and keep no game of it.
                    let failed = || shared.iter().any(|e| e.failed());
                    loop {
                        if failed() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        match receiver.recv_timeout(Duration::from_millis(100)) {
                            Ok(_) if failed() => {
                                let _ = answer.send(());
                            }
                            Ok(game) => {
                                if let Some(log) = &mut log {
                                    log.append(&game);
                                }
                                finished.push(game);
                                let done = finished.len();
                                if let Err(e) = report(&progress, done, total) {
                                    stop_with(e);
                                }
                                let _ = answer.send(());
                            }
                            Err(mpsc::RecvTimeoutError::Timeout) => {
                                if let Err(e) = Python::attach(|py| py.check_signals()) {
                                    stop_with(e);
                                }
                            }
                            Err(mpsc::RecvTimeoutError::Disconnected) => break,
                        }
                    }
                    worker.join()
                })
            })
        });
        let result = match result {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        for evaluator in &shared {
            if let Some(error) = evaluator.take_error() {
                return Err(error);
            }
        }
        result.map_err(value_error)?;
        finished.sort_by_key(|g| g.index);
        // Ctrl-C: the games finished so far (the journal keeps them for
        // `resume=True`); a KeyboardInterrupt is not an error here.
        let interrupted = interrupt.is_some() && finished.len() < total as usize;
        if let Some(error) = interrupt {
            if !Python::attach(|py| {
                error.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py)
            }) {
                return Err(error);
            }
        }
        if let Some(failure) = journal.as_ref().and_then(Journal::failure) {
            Python::attach(|py| {
                PyErr::warn(
                    py,
                    &py.get_type::<pyo3::exceptions::PyUserWarning>(),
                    &std::ffi::CString::new(failure).unwrap_or_default(),
                    1,
                )
            })?;
        }
        let played = PlayedGames::new::<P>(&rules, names, finished, total, interrupted)?;
        if let (Some(out), Some(journal)) = (&self.out, &journal) {
            played.write::<P>(&rules, out)?;
            // A part keeps its journal: the driver merges the parts' and
            // resumes the whole run from it (heterodox.ray.play).
            if !interrupted && self.part.is_none() {
                journal.remove_files().map_err(journal_error)?;
            }
        }
        Ok(played)
    }
}

impl Request {
    /// The journal beside `out`, with the settings `heterodox arena`
    /// writes for the same games, so either continues the other's run.
    fn journal(&self, out: &std::path::Path, names: &[String; 2]) -> PyResult<Journal> {
        let settings = serde_json::json!({
            "command": "arena",
            "variant": self.variant.name(),
            "options": self.options.to_string(),
            "agents": names,
            "games": self.config.games,
            "schedule": "gauntlet",
            "opening_plies": self.config.opening_plies,
            "openings": self.config.starts,
            "max_plies": self.config.max_plies,
            "seed": self.config.seed,
        });
        let resume = self.resume;
        Journal::open(out, &settings, &self.command, resume).map_err(journal_error)
    }
}

fn journal_error(error: heterodox_selfplay::journal::JournalError) -> PyErr {
    match error {
        heterodox_selfplay::journal::JournalError::Io { .. } => {
            PyOSError::new_err(error.to_string())
        }
        other => value_error(other),
    }
}

/// The games of `part` of a duel of `total` games: whole pairs when
/// `paired` (the pair is the unit a part holds), else single games.
fn part_games(total: u32, paired: bool, part: Option<DuelPart>) -> u32 {
    let Some(part) = part else {
        return total;
    };
    let per_unit = if paired { 2 } else { 1 };
    (0..total / per_unit).filter(|&u| part.holds(u)).count() as u32 * per_unit
}

/// `value` when it lies in `min..=max`, else ValueError naming `name`.
fn in_range(value: u64, name: &str, min: u64, max: u64) -> PyResult<u32> {
    if (min..=max).contains(&value) {
        Ok(value as u32)
    } else {
        Err(value_error(format!(
            "{name} = {value} is out of range ({min} to {max})"
        )))
    }
}

/// Calls `progress(done, total)`, if given.
fn report(progress: &Option<Py<PyAny>>, done: usize, total: u32) -> PyResult<()> {
    if let Some(progress) = progress {
        Python::attach(|py| progress.call1(py, (done, total)).map(drop))?;
    }
    Ok(())
}
