//! Iterative deepening: the loop over depths for a perfect-information
//! position (with Lazy SMP helper threads when configured), and the loop
//! over determinizations under hidden information.
//!
//! Hidden information (`P::PERFECT_INFORMATION == false`): the engine reads
//! the position only through the view of the player to act
//! (`HiddenInformation::view`) and searches states drawn from that view
//! with the variant's sampler (all of them when there are at most
//! `determinizations`, else that many, seeded by the engine's seed and the
//! game's ply count). Every root action gets its exact score in each state
//! and the action with the best average is chosen; from the third
//! iteration on, only the five actions with the best averages so far are
//! searched again (`score_root_moves` keeps scoring them all). Repetition inside a
//! determinized search starts at the root, whose number of occurrences
//! (public) comes from the game: the game's earlier keys include the true
//! secret and are not read.
//!
//! MultiPV (`multipv` lines): with perfect information every iteration
//! searches the root once per line (search/multipv.rs); under hidden
//! information every candidate is scored exactly anyway, so the lines are
//! the best averages, and at least as many candidates as lines are kept.

use std::sync::atomic::Ordering;
use std::time::Duration;

use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::{Game, GameVariant, StateSampler};

use crate::eval::EvalWeights;
use crate::hidden::beliefs::draw;
use crate::hidden::threats::{exposed, ThreatCounts};
use crate::search::config::EngineConfig;
use crate::search::error::EngineError;
use crate::search::limits::{validate_multipv, Limits};
use crate::search::root::{root_moves, RootMove};
use crate::search::score::{is_mate, Score, INFINITE, MATE};
use crate::search::tt::TranspositionTable;
use crate::search::{Clock, SearchState, Searcher};

/// Under hidden information, iterations from this depth on search only the
/// actions with the best averages so far: each determinization must score
/// every searched action exactly, and the others rarely overtake them.
const FIRST_NARROWED_DEPTH: u32 = 3;
const HIDDEN_CANDIDATES: usize = 5;

/// What one completed iteration found (UCI's `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<A> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    pub time: Duration,
    /// Principal variation, the chosen action first.
    pub pv: Vec<A>,
    /// The best root actions of this iteration, best first, each with its
    /// own score and principal variation: as many as
    /// [`crate::Engine::set_multipv`] asked (one unless told), fewer when the root
    /// has fewer actions. The first is `score` and `pv`.
    pub lines: Vec<RootScore<A>>,
    /// Per mille of the transposition table filled by this search.
    pub hashfull: u32,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport<A> {
    /// The action to play.
    pub best: A,
    pub score: Score,
    /// The score in centipawns, or `±(31000 - steps)` for a mate.
    pub value: i32,
    pub pv: Vec<A>,
    /// The last completed iteration's lines ([`Info::lines`]), best first;
    /// the first is `best` with `score` and `pv`.
    pub lines: Vec<RootScore<A>>,
    pub nodes: u64,
    /// The last completed iteration (0 when stopped before the first
    /// completed; `best` is then the first legal action).
    pub depth: u32,
    pub seldepth: u32,
    pub elapsed: Duration,
}

/// A root action with its exact score (see `Engine::score_root_moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootScore<A> {
    pub action: A,
    pub score: Score,
    /// Centipawns, or `±(31000 - steps)` for a mate.
    pub value: i32,
    /// The principal variation after the action (the action first).
    pub pv: Vec<A>,
}

/// The engine's parts a search borrows.
pub(crate) struct Parts<'a, P: GameVariant> {
    pub config: &'a EngineConfig,
    pub tt: &'a mut TranspositionTable,
    pub main: &'a mut SearchState<P::Action>,
    pub helpers: &'a mut [SearchState<P::Action>],
    /// Hidden information: the posterior over the sampler's states from
    /// which the determinizations are drawn (uniform when `None`).
    pub posterior: Option<&'a [f64]>,
}

/// What the last completed iteration found.
struct Completed<A> {
    depth: u32,
    seldepth: u32,
    value: i32,
    pv: Vec<A>,
    scores: Vec<RootScore<A>>,
    /// The best `multipv` root actions, best first.
    lines: Vec<RootScore<A>>,
}

type Outcome<A> = Result<(SearchReport<A>, Vec<RootScore<A>>), EngineError>;

/// What a search reads of the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The player to act's view only (every search a player makes).
    View,
    /// The whole state, hidden parts included: a payoff of positions whose
    /// secrets are all given (hidden/selection.rs), never a player's move.
    Everything,
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn run<P: GameVariant>(
    parts: Parts<'_, P>,
    game: &Game<P>,
    limits: &Limits,
    exact: bool,
    margin: i32,
    multipv: usize,
    reading: Reading,
    on_iteration: impl FnMut(&Info<P::Action>),
) -> Outcome<P::Action> {
    limits.validate()?;
    validate_multipv(multipv)?;
    if let Some(outcome) = game.outcome() {
        return Err(EngineError::GameOver(outcome.to_string()));
    }
    parts.tt.new_search();
    let actions = game.position().num_actions();
    for state in std::iter::once(&mut *parts.main).chain(parts.helpers.iter_mut()) {
        state.history.ensure(actions);
        state.history.age();
    }
    let clock = Clock::new(limits.movetime, limits.nodes, limits.stop.clone());
    let request = Request {
        limits,
        clock: &clock,
        exact,
        margin,
        multipv,
    };
    if P::PERFECT_INFORMATION || reading == Reading::Everything {
        perfect(parts, game, &request, on_iteration)
    } else {
        hidden(parts, game, &request, on_iteration)
    }
}

/// What one search was asked for.
struct Request<'a> {
    limits: &'a Limits,
    clock: &'a Clock,
    /// Every root action scored exactly (`Engine::score_root_moves`).
    exact: bool,
    margin: i32,
    /// Principal variations to report (1 to `MAX_MULTIPV`).
    multipv: usize,
}

fn scores_of<A: Copy>(moves: &[RootMove<A>]) -> Vec<RootScore<A>> {
    moves
        .iter()
        .map(|m| RootScore {
            action: m.action,
            score: Score::from_internal(m.score),
            value: m.score,
            pv: m.pv.clone(),
        })
        .collect()
}

fn info<A: Clone>(
    clock: &Clock,
    done: &Completed<A>,
    nodes: u64,
    tt: &TranspositionTable,
) -> Info<A> {
    let time = clock.start.elapsed();
    Info {
        depth: done.depth,
        seldepth: done.seldepth,
        score: Score::from_internal(done.value),
        nodes,
        nps: nodes_per_second(nodes, time),
        time,
        pv: done.pv.clone(),
        lines: done.lines.clone(),
        hashfull: tt.hashfull(),
    }
}

fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// Whether to start another iteration after one whose best lines were
/// `lines`. `mates_end` says whether lines that all end in mates within
/// reach end the search (not when every action must be scored, nor under
/// hidden information, where a mate in one state is not one in all).
fn keep_going<A>(
    request: &Request<'_>,
    lines: &[RootScore<A>],
    depth: u32,
    root_moves: usize,
    mates_end: bool,
) -> bool {
    let settled =
        |line: &RootScore<A>| is_mate(line.value) && (MATE - line.value.abs()) as u32 <= depth;
    if mates_end && lines.iter().all(settled) {
        // Every line ends in a mate within `depth` steps, all in view: no
        // shorter one is left to find.
        return false;
    }
    match request.limits.movetime {
        // The next iteration takes longer than all before it together.
        Some(movetime) => request.clock.start.elapsed() * 2 < movetime && root_moves > 1,
        None => true,
    }
}

fn report<A: Copy>(
    done: Option<Completed<A>>,
    first: &RootMove<A>,
    nodes: u64,
    clock: &Clock,
) -> (SearchReport<A>, Vec<RootScore<A>>) {
    let elapsed = clock.start.elapsed();
    match done {
        Some(done) => (
            SearchReport {
                best: done.pv[0],
                score: Score::from_internal(done.value),
                value: done.value,
                pv: done.pv,
                lines: done.lines,
                nodes,
                depth: done.depth,
                seldepth: done.seldepth,
                elapsed,
            },
            done.scores,
        ),
        None => (
            SearchReport {
                best: first.action,
                score: Score::Cp(0),
                value: 0,
                pv: vec![first.action],
                lines: vec![RootScore {
                    action: first.action,
                    score: Score::Cp(0),
                    value: 0,
                    pv: vec![first.action],
                }],
                nodes,
                depth: 0,
                seldepth: 0,
                elapsed,
            },
            Vec::new(),
        ),
    }
}

fn perfect<P: GameVariant>(
    parts: Parts<'_, P>,
    game: &Game<P>,
    request: &Request<'_>,
    mut on_iteration: impl FnMut(&Info<P::Action>),
) -> Outcome<P::Action> {
    let Request {
        limits,
        clock,
        exact,
        margin,
        ..
    } = *request;
    let root = game.position().clone();
    let tt: &TranspositionTable = parts.tt;
    let max_depth = limits.max_depth();
    let helpers = if exact {
        &mut [][..]
    } else {
        &mut *parts.helpers
    };
    std::thread::scope(|scope| {
        for (n, helper) in helpers.iter_mut().enumerate() {
            helper.path.reset(game.repetition_keys());
            let root = root.clone();
            let weights = parts.config.weights;
            scope.spawn(move || helper_search(tt, helper, clock, &root, max_depth, n + 1, weights));
        }
        parts.main.path.reset(game.repetition_keys());
        let mut moves = root_moves(&root);
        let mut searcher =
            Searcher::<P>::new(tt, parts.main, clock, 0, parts.config.weights, root.turn());
        searcher.exact_margin = margin;
        let mut done: Option<Completed<P::Action>> = None;
        // Each line's score in the last iteration: its aspiration window.
        let mut previous = vec![None; request.multipv.min(moves.len())];
        for depth in 1..=max_depth {
            let Some(value) =
                searcher.iterate_lines(&root, &mut moves, depth as i32, &mut previous, exact)
            else {
                break;
            };
            let completed = Completed {
                depth,
                seldepth: searcher.seldepth as u32,
                value,
                pv: moves[0].pv.clone(),
                scores: if exact { scores_of(&moves) } else { Vec::new() },
                lines: scores_of(&moves[..previous.len()]),
            };
            let nodes = searcher.nodes + clock.helper_nodes.load(Ordering::Relaxed);
            on_iteration(&info(clock, &completed, nodes, tt));
            let go_on = keep_going(request, &completed.lines, depth, moves.len(), !exact);
            done = Some(completed);
            if !go_on {
                break;
            }
        }
        clock.helpers_stop.store(true, Ordering::Relaxed);
        let nodes = searcher.nodes;
        let first = moves
            .iter()
            .min_by_key(|m| m.index)
            .expect("the game is not over");
        Ok((nodes, report(done, first, 0, clock)))
    })
    .map(|(nodes, (mut report, scores))| {
        report.nodes = nodes + clock.helper_nodes.load(Ordering::Relaxed);
        (report, scores)
    })
}

/// A Lazy SMP helper: the same iterative deepening on its own buffers,
/// sharing the table (odd helpers one iteration ahead, so the threads
/// spread over depths), until the main thread is done.
fn helper_search<P: GameVariant>(
    tt: &TranspositionTable,
    state: &mut SearchState<P::Action>,
    clock: &Clock,
    root: &P,
    max_depth: u32,
    number: usize,
    weights: EvalWeights,
) {
    let mut moves = root_moves(root);
    let mut searcher = Searcher::<P>::new(tt, state, clock, 0, weights, root.turn());
    let mut previous = None;
    let mut counted = 0;
    for depth in (1 + (number % 2) as u32)..=max_depth {
        let result = searcher.iterate(root, &mut moves, depth as i32, previous, false);
        clock
            .helper_nodes
            .fetch_add(searcher.nodes - counted, Ordering::Relaxed);
        counted = searcher.nodes;
        match result {
            Some(value) => previous = Some(value),
            None => break,
        }
        if clock.helpers_stop.load(Ordering::Relaxed) {
            break;
        }
    }
}

fn hidden<P: GameVariant>(
    parts: Parts<'_, P>,
    game: &Game<P>,
    request: &Request<'_>,
    mut on_iteration: impl FnMut(&Info<P::Action>),
) -> Outcome<P::Action> {
    let Request {
        limits,
        clock,
        exact: every_action,
        margin,
        multipv,
    } = *request;
    let position = game.position();
    let view = position.view(position.turn());
    let sampler = P::sampler(&view);
    let wanted = parts.config.determinizations;
    let states: Vec<P> = if sampler.len() <= wanted {
        (0..sampler.len()).map(|i| sampler.state(i)).collect()
    } else {
        let mut rng = SplitMix64::new(derive_seed(parts.config.seed, game.plies() as usize, 0));
        match parts.posterior.filter(|p| p.len() == sampler.len()) {
            Some(posterior) => (0..wanted)
                .map(|_| sampler.state(draw(posterior, &mut rng)))
                .collect(),
            None => (0..wanted).map(|_| sampler.sample(&mut rng)).collect(),
        }
    };
    let occurrences = game.repetitions();
    let mut lists: Vec<Vec<RootMove<P::Action>>> = states.iter().map(root_moves).collect();
    if parts.config.threat_guard && !every_action && sampler.len() > 1 {
        guard::<P>(&sampler, &mut lists, &mut parts.main.threats);
    }
    let mut candidates: Vec<P::Action> = lists[0].iter().map(|m| m.action).collect();
    let lines = multipv.min(candidates.len());
    let tt: &TranspositionTable = parts.tt;
    let mut nodes = 0;
    let mut seldepth = 0;
    let mut done: Option<Completed<P::Action>> = None;
    'deepening: for depth in 1..=limits.max_depth() {
        for (state, moves) in states.iter().zip(lists.iter_mut()) {
            parts
                .main
                .path
                .reset_root(state.repetition_key(), occurrences);
            let mut searched: Vec<RootMove<P::Action>> = moves
                .iter()
                .filter(|m| candidates.contains(&m.action))
                .cloned()
                .collect();
            let mut searcher = Searcher::<P>::new(
                tt,
                parts.main,
                clock,
                nodes,
                parts.config.weights,
                state.turn(),
            );
            if every_action {
                searcher.exact_margin = margin;
            }
            let result = searcher.iterate(state, &mut searched, depth as i32, None, true);
            nodes += searcher.nodes;
            seldepth = seldepth.max(searcher.seldepth as u32);
            if result.is_none() {
                break 'deepening;
            }
            for update in searched {
                if let Some(m) = moves.iter_mut().find(|m| m.action == update.action) {
                    *m = update;
                }
            }
        }
        let mut scores = average(&lists);
        // Actions left out of this iteration keep older, shallower scores:
        // they rank after the ones searched now.
        scores.sort_by_key(|s| !candidates.contains(&s.action));
        if !every_action && depth + 1 >= FIRST_NARROWED_DEPTH {
            candidates = scores
                .iter()
                .take(HIDDEN_CANDIDATES.max(lines))
                .map(|s| s.action)
                .collect();
        }
        let completed = Completed {
            depth,
            seldepth,
            value: scores[0].value,
            pv: scores[0].pv.clone(),
            lines: scores[..lines].to_vec(),
            scores,
        };
        on_iteration(&info(clock, &completed, nodes, tt));
        let go_on = keep_going(request, &completed.lines, depth, lists[0].len(), false);
        done = Some(completed);
        if !go_on {
            break;
        }
    }
    let first = lists[0]
        .iter()
        .min_by_key(|m| m.index)
        .expect("the game is not over");
    Ok(report(done, first, nodes, clock))
}

/// The threat guard ([`crate::hidden::threats`]): the root actions after
/// which some consistent state lets the opponent win at once are taken out
/// of every determinization's list, unless every action is exposed.
fn guard<P: GameVariant>(
    sampler: &P::Sampler,
    lists: &mut [Vec<RootMove<P::Action>>],
    counts: &mut ThreatCounts,
) {
    let states: Vec<P> = sampler
        .covering()
        .into_iter()
        .map(|k| sampler.state(k))
        .collect();
    let actions: Vec<P::Action> = lists[0].iter().map(|m| m.action).collect();
    let flags = exposed(&states, &actions, &mut counts.positions);
    counts.checks += 1;
    let set_aside = flags.iter().filter(|&&e| e).count();
    if set_aside == actions.len() {
        counts.unavoidable += 1;
        return;
    }
    if set_aside == 0 {
        return;
    }
    counts.fired += 1;
    counts.set_aside += set_aside as u64;
    let exposed_actions: Vec<P::Action> = actions
        .iter()
        .zip(&flags)
        .filter(|(_, &e)| e)
        .map(|(a, _)| *a)
        .collect();
    for list in lists.iter_mut() {
        list.retain(|m| !exposed_actions.contains(&m.action));
    }
}

/// Each root action's score averaged over the determinizations, best
/// first (ties in generation order); the principal variation is the first
/// determinization's.
fn average<A: Copy + PartialEq>(lists: &[Vec<RootMove<A>>]) -> Vec<RootScore<A>> {
    let mut first: Vec<&RootMove<A>> = lists[0].iter().collect();
    first.sort_by_key(|m| m.index);
    let mut scores: Vec<RootScore<A>> = first
        .iter()
        .map(|m| {
            let total: i64 = lists
                .iter()
                .map(|list| {
                    list.iter()
                        .find(|other| other.action == m.action)
                        .map_or(-INFINITE, |other| other.score) as i64
                })
                .sum();
            let value = (total / lists.len() as i64) as i32;
            RootScore {
                action: m.action,
                score: Score::from_internal(value),
                value,
                pv: m.pv.clone(),
            }
        })
        .collect();
    // Stable: equal averages keep generation order.
    scores.sort_by_key(|s| std::cmp::Reverse(s.value));
    scores
}
