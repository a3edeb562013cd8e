//! Self-play: many games searched at once, every game's leaves of a round
//! evaluated in one batch (a [`SearchGroup`]), tree and rules work spread
//! over threads (rayon).
//! Each finished game becomes a [`GameRecord`].
//!
//! Determinism: game `k` starts from `GameVariant::start(rules,
//! derive_seed(seed, k, 0))` and every search and move choice of it is
//! seeded from that game's seed and ply (its random opening plies too),
//! never from the thread or the
//! slot it ran in; games are handed to slots in order after each round. So
//! the same seed and the same evaluator give the same games, whatever
//! `pipeline` is (only the order in which they finish may differ). With a network
//! evaluator, batched matrix products may round differently as the batch
//! composition changes, which can flip near-ties: bit-exact replay needs
//! the uniform or rollout evaluator, or a network evaluated one leaf at a
//! time (documented best effort).
//!
//! **Pipelining.** With `pipeline = 1` a round is: tree work on every core
//! (play the moves whose search is done, gather every game's leaves), then
//! one evaluation of the merged batch, then the next round; on an
//! accelerator the device idles during the tree work and the cores during
//! the forward pass. With `pipeline = K > 1` the slots are split into K
//! parts, each its own [`SearchGroup`] with its own batch, and one
//! evaluating thread (scoped; [`Evaluator`] is `Send + Sync`) evaluates
//! one part's batch while the calling thread does the other parts' tree
//! work on the rayon pool: for K = 2, eval(A) runs while B applies its
//! evaluation, plays and gathers, then eval(B) while A does. At most one
//! batch is being evaluated at a time (a network evaluator's lock is never
//! contended); the other K - 1 are being prepared or wait their turn. The
//! evaluator's own rayon work (the rollout evaluator's playouts) runs on
//! the global pool, not one the caller `install`ed.

use std::collections::VecDeque;
use std::sync::mpsc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{derive_seed, mix64, SplitMix64};
use heterodox_env::{Color, Game, GameVariant};

use crate::config::{ply_cap, ConfigError, RootPolicy, SearchConfig};
use crate::earlier::EarlierPositions;
use crate::evaluator::{evaluate_into, Evaluator};
use crate::group::SearchGroup;
use crate::openings::{opening_rng, random_opening};
use crate::resign::{ResignConfig, ResignWatch};
use crate::search::{Search, SearchError};
use heterodox_data::record::{GameRecord, GameResult, StepRecord, RESIGNATION};

/// Settings of a self-play run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlayConfig {
    /// Games to play in all (at least 1).
    pub games: u32,
    /// Games in progress at once: their leaves share each evaluation.
    pub concurrent: u32,
    /// Evaluation batches in flight (1 to 8, at most `concurrent`): the
    /// `concurrent` slots are split into this many groups of (nearly)
    /// equal size, and one group's batch is evaluated on a second thread
    /// while the others do their tree work (module docs). Pays on an
    /// accelerator, whose forward pass then overlaps the CPU's tree work;
    /// each batch is 1/`pipeline` of the leaves. 1: one batch per round,
    /// the loop every run before it used. The games played are the same
    /// for every value (with a deterministic evaluator, bit for bit).
    pub pipeline: u32,
    /// Steps after which a game is cut without result; 0 takes the
    /// variant's `DEFAULT_MAX_PLIES`.
    pub max_plies: u32,
    /// PUCT: the first this-many steps sample the move in proportion to
    /// the visits (temperature 1), later steps take the most visited.
    /// Gumbel always plays the sequential-halving winner (its Gumbel noise
    /// already explores).
    pub temperature_plies: u32,
    /// Each game opens with a uniformly random number (0 to this) of
    /// uniformly random plies ([`crate::openings::random_opening`]),
    /// recorded as steps without a policy (not training positions); they
    /// count towards `max_plies` and `temperature_plies`. 0: every game
    /// starts from the start position. Without them a search
    /// that finds a forced line early plays it in every game, and the
    /// replay window fills with copies of one short game.
    pub opening_plies: u32,
    /// Playout cap randomization (KataGo): the share of moves searched in
    /// full (`search.simulations`) and recorded as training positions.
    /// The others are searched with `cheap_simulations` and no PUCT root
    /// noise, played, and recorded without a policy (not trained on), so
    /// the same CPU time gives fewer targets, each from a deeper search.
    /// Which moves are full is drawn from the game's seed and ply. 1 (the
    /// default): every move is full, as before the setting.
    pub full_search_share: f32,
    /// The simulations of a cheap move (with `full_search_share` < 1), at
    /// most `search.simulations`: 0 takes a quarter of them. Never fewer
    /// than the determinizations under hidden information (one per
    /// sampled state), nor than 1.
    pub cheap_simulations: u32,
    /// Base seed of the run.
    pub seed: u64,
    /// T: positions stacked in the network's observation.
    pub history: usize,
    pub search: SearchConfig,
    /// When a side resigns ([`crate::resign`]; off by default).
    pub resign: ResignConfig,
}

impl Default for SelfPlayConfig {
    fn default() -> SelfPlayConfig {
        SelfPlayConfig {
            games: 64,
            concurrent: 64,
            pipeline: 1,
            max_plies: 0,
            temperature_plies: 30,
            opening_plies: 0,
            full_search_share: 1.0,
            cheap_simulations: 0,
            seed: 0,
            history: 1,
            search: SearchConfig::default(),
            resign: ResignConfig::default(),
        }
    }
}

/// Games in progress are bounded so that a typo cannot ask for more trees
/// than memory holds.
pub const MAX_CONCURRENT: u32 = 4096;

/// The most evaluation batches a run keeps in flight: past a few, the
/// batches only shrink.
pub const MAX_PIPELINE: u32 = 8;

/// Mixed into a game's seed to draw which of its moves are searched in
/// full, apart from its other random streams.
const FULL_SEARCH_STREAM: u64 = 0x5eed_f011;

/// The most random opening plies a game may draw.
pub const MAX_OPENING_PLIES: u32 = 1000;

impl SelfPlayConfig {
    /// The simulations of a cheap move (`cheap_simulations`, 0 taking a
    /// quarter of the full count), for a variant of perfect information or
    /// not: never below what a search of it needs.
    pub fn cheap_budget(&self, perfect_information: bool) -> u32 {
        let cheap = if self.cheap_simulations == 0 {
            self.search.simulations / 4
        } else {
            self.cheap_simulations
        };
        cheap.max(self.search.least_simulations(perfect_information))
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |field, value: u32, expected| ConfigError::OutOfRange {
            field,
            value: value.to_string(),
            expected,
        };
        if self.games == 0 {
            return Err(bad("games", 0, "at least 1"));
        }
        if self.concurrent == 0 || self.concurrent > MAX_CONCURRENT {
            return Err(bad("concurrent", self.concurrent, "1 to 4096"));
        }
        if self.pipeline == 0 || self.pipeline > MAX_PIPELINE {
            return Err(bad("pipeline", self.pipeline, "1 to 8"));
        }
        if self.pipeline > self.concurrent {
            // Every group needs a slot.
            return Err(bad("pipeline", self.pipeline, "at most concurrent"));
        }
        if self.history == 0 || self.history > 64 {
            return Err(bad("history", self.history as u32, "1 to 64"));
        }
        if self.opening_plies > MAX_OPENING_PLIES {
            return Err(bad("opening_plies", self.opening_plies, "0 to 1000"));
        }
        if !(0.0..=1.0).contains(&self.full_search_share) {
            return Err(ConfigError::OutOfRange {
                field: "full_search_share",
                value: self.full_search_share.to_string(),
                expected: "0 to 1",
            });
        }
        if self.cheap_simulations > self.search.simulations {
            return Err(bad(
                "cheap_simulations",
                self.cheap_simulations,
                "0 to search.simulations",
            ));
        }

        self.resign.validate()?;
        self.search.validate()
    }
}

/// Running totals of a self-play run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayStats {
    pub games: u32,
    /// Training positions: searched steps, random opening plies not
    /// counted.
    pub positions: u64,
    /// Every step of the finished games, opening plies included.
    pub plies: u64,
    /// Simulations run: leaves evaluated and descents that ended in a
    /// finished game, over every move's search ([`Search::simulations`]).
    pub simulations: u64,
    /// Leaves sent to the evaluator (each search's root included).
    pub evaluations: u64,
    pub white_wins: u32,
    pub black_wins: u32,
    pub draws: u32,
    pub truncated: u32,
    /// Games that ended by resignation.
    pub resigned: u32,
    /// No-resign games in which a side reached the resignation rule.
    pub resign_checks: u32,
    /// Of those, the games that side did not lose: resignations that
    /// would have been wrong.
    pub false_resignations: u32,
    pub seconds: f64,
}

impl SelfPlayStats {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }

    /// Plies per game, opening plies included.
    pub fn average_length(&self) -> f64 {
        self.plies as f64 / f64::from(self.games.max(1))
    }
}

/// One game in progress; its search is the group's search of the same
/// index.
struct Slot<P: GameVariant> {
    game: Game<P>,
    /// Earlier positions, most recent first (at most history - 1).
    earlier: EarlierPositions<P>,
    steps: Vec<StepRecord>,
    resign: ResignWatch,
    index: u64,
    seed: u64,
    active: bool,
    /// The search in progress is a full one: its move is a training
    /// position (playout cap randomization).
    full: bool,
}

impl<P: GameVariant> Slot<P> {
    /// Ends the slot's game: the slot goes idle and gives up the game's
    /// seed and steps, to make its record.
    fn finish(&mut self) -> (u64, Vec<StepRecord>) {
        self.active = false;
        (self.seed, std::mem::take(&mut self.steps))
    }
}

/// What a slot's move of one round gives back.
#[derive(Default)]
struct Moved {
    /// The game, if it ended.
    record: Option<GameRecord>,
    /// Simulations of the search whose move was played.
    simulations: u32,
    /// With a finished no-resign game: the side that would have resigned.
    would_have_resigned: Option<Color>,
}

/// A share of the run's slots: game `k` of `slots` is search `k` of
/// `searches`. With `pipeline = 1` the one part holds every slot.
struct Part<P: GameVariant> {
    searches: SearchGroup<P>,
    slots: Vec<Slot<P>>,
    /// What the slots' moves of the gathered round gave back, counted once
    /// the round is evaluated.
    moved: Vec<Moved>,
    /// The gathered round's evaluations (pipelined: filled on the
    /// evaluating thread, applied on the calling one).
    priors: Vec<f32>,
    values: Vec<f32>,
}

impl<P: GameVariant> Part<P> {
    fn active(&self) -> bool {
        self.slots.iter().any(|s| s.active)
    }
}

/// What every part of a run shares: the totals, the next game to hand
/// out, the caller's callback.
struct Progress<F: FnMut(GameRecord, &SelfPlayStats)> {
    started: Instant,
    stats: SelfPlayStats,
    next_game: u64,
    on_game: F,
}

/// A self-play run of variant `P`.
pub struct SelfPlay<P: GameVariant> {
    config: SelfPlayConfig,
    rules: P::Rules,
    spec: EncodingSpec,
    max_plies: u32,
}

impl<P: GameVariant> SelfPlay<P> {
    pub fn new(rules: P::Rules, config: SelfPlayConfig) -> Result<SelfPlay<P>, SelfPlayError> {
        config.validate()?;
        let probe = P::start(&rules, derive_seed(config.seed, 0, 0))
            .map_err(|e| SelfPlayError::Start(e.to_string()))?;
        let spec = EncodingSpec::of(&probe, config.history);
        // Checks the search settings against the encoding (hidden
        // information and history) before any game starts.
        Search::<P>::new(config.search.clone(), &spec)?;
        Ok(SelfPlay {
            max_plies: ply_cap::<P>(config.max_plies),
            config,
            rules,
            spec,
        })
    }

    /// The encoding the run's observations follow.
    pub fn spec(&self) -> &EncodingSpec {
        &self.spec
    }

    fn start_game(&self, slot: &mut Slot<P>, search: &mut Search<P>, index: u64) {
        slot.seed = derive_seed(self.config.seed, index as usize, 0);
        slot.index = index;
        let start = P::start(&self.rules, slot.seed).expect("checked when the run was made");
        slot.earlier.clear();
        slot.steps.clear();
        let mut rng = opening_rng(slot.seed);
        let plies = rng.below(self.config.opening_plies as usize + 1) as u32;
        let opening = random_opening(&start, plies, &mut rng);
        slot.game = Game::new(start);
        for action in opening {
            let index = slot.game.position().action_index(&action) as u32;
            slot.steps.push(StepRecord::unsearched(index, 0.0));
            slot.earlier.push(slot.game.position());
            slot.game.play_unchecked(&action);
        }
        slot.resign = ResignWatch::new(&self.config.resign, slot.seed);
        slot.active = true;
        self.start_search(slot, search, mix64(slot.seed));
    }

    /// Starts the search of the slot's position, full or cheap as the
    /// game's seed and ply draw it (`full_search_share`).
    fn start_search(&self, slot: &mut Slot<P>, search: &mut Search<P>, seed: u64) {
        let share = self.config.full_search_share;
        slot.full = share >= 1.0 || {
            let ply = u64::from(slot.game.plies());
            let mut rng = SplitMix64::new(mix64(slot.seed ^ ply << 24 ^ FULL_SEARCH_STREAM));
            rng.next_unit() < f64::from(share)
        };
        let (game, earlier) = (&slot.game, slot.earlier.positions());
        if slot.full {
            search.start(game, earlier, seed)
        } else {
            let cheap = self.config.cheap_budget(P::PERFECT_INFORMATION);
            search.start_cheap(game, earlier, seed, cheap)
        }
        .expect("the game is not over, and the cheap budget was checked");
    }

    /// `count` slots and their searches, given the next games in index
    /// order.
    fn part(&self, count: usize, observations: bool, next_game: &mut u64) -> Part<P> {
        let mut searches = SearchGroup::new(&self.config.search, &self.spec, count)
            .expect("checked when the run was made");
        searches.set_observations(observations);
        let slots = (0..count)
            .map(|k| {
                let mut slot = Slot {
                    game: Game::new(P::start(&self.rules, 0).expect("checked")),
                    earlier: EarlierPositions::new(self.config.history),
                    steps: Vec::new(),
                    resign: ResignWatch::default(),
                    index: 0,
                    seed: 0,
                    active: false,
                    full: true,
                };
                self.start_game(&mut slot, searches.search_mut(k), *next_game);
                *next_game += 1;
                slot
            })
            .collect();
        Part {
            searches,
            slots,
            moved: Vec::new(),
            priors: Vec::new(),
            values: Vec::new(),
        }
    }

    /// A part's tree and rules work of one round, in parallel: finish the
    /// moves whose search is done, then gather the next leaves (one batch
    /// for the part's games). What the moves gave back waits in
    /// `part.moved` until the round is evaluated ([`SelfPlay::settle`]).
    fn gather(&self, part: &mut Part<P>, stats: &mut SelfPlayStats) {
        let (leaves, moved) = part
            .searches
            .gather_with(&mut part.slots, |_, slot, search| {
                let moved = self.play_searched(slot, search);
                (slot.active, moved)
            })
            .expect("every round is applied");
        stats.evaluations += leaves as u64;
        part.moved = moved;
    }

    /// After a part's round is evaluated and applied: counts the moves of
    /// the round, hands each finished game to `on_game` and starts the
    /// next game in its slot (its first leaves are gathered next round).
    fn settle(
        &self,
        part: &mut Part<P>,
        run: &mut Progress<impl FnMut(GameRecord, &SelfPlayStats)>,
    ) {
        let stats = &mut run.stats;
        for (k, moved) in std::mem::take(&mut part.moved).into_iter().enumerate() {
            stats.simulations += u64::from(moved.simulations);
            let Some(record) = moved.record else { continue };
            stats.games += 1;
            // Searched steps only: opening plies train nothing.
            stats.positions += record.steps.iter().filter(|s| !s.policy.is_empty()).count() as u64;
            stats.plies += record.steps.len() as u64;
            match record.result {
                GameResult::WhiteWins => stats.white_wins += 1,
                GameResult::BlackWins => stats.black_wins += 1,
                GameResult::Draw => stats.draws += 1,
                GameResult::Truncated => stats.truncated += 1,
            }
            if record.termination == RESIGNATION {
                stats.resigned += 1;
            }
            if let Some(side) = moved.would_have_resigned {
                stats.resign_checks += 1;
                if record.result.value_for(side) >= 0.0 {
                    stats.false_resignations += 1;
                }
            }
            stats.seconds = run.started.elapsed().as_secs_f64();
            (run.on_game)(record, stats);
            if run.next_game < u64::from(self.config.games) {
                self.start_game(
                    &mut part.slots[k],
                    part.searches.search_mut(k),
                    run.next_game,
                );
                run.next_game += 1;
            }
        }
    }

    /// Plays every game; `on_game` receives each finished game as soon as
    /// it ends (in order of completion, which `pipeline` may change; the
    /// games do not change) with the totals so far. A panic of the
    /// evaluator is passed on, with `pipeline > 1` too.
    pub fn run<E: Evaluator<P> + ?Sized>(
        &self,
        evaluator: &E,
        on_game: impl FnMut(GameRecord, &SelfPlayStats),
    ) -> SelfPlayStats {
        let concurrent = self.config.concurrent.min(self.config.games) as usize;
        let pipeline = (self.config.pipeline as usize).clamp(1, concurrent);
        let mut run = Progress {
            started: Instant::now(),
            stats: SelfPlayStats::default(),
            next_game: 0,
            on_game,
        };
        let observations = evaluator.needs_observations();
        if pipeline == 1 {
            // One batch per round: gather, evaluate, settle.
            let mut part = self.part(concurrent, observations, &mut run.next_game);
            while part.active() {
                self.gather(&mut part, &mut run.stats);
                part.searches.evaluate(evaluator);
                self.settle(&mut part, &mut run);
            }
        } else {
            // Sizes differ by at most one; games 0.. go to part 0's slots
            // first, like one group's.
            let parts = (0..pipeline)
                .map(|i| {
                    let count = concurrent / pipeline + usize::from(i < concurrent % pipeline);
                    self.part(count, observations, &mut run.next_game)
                })
                .collect();
            self.run_pipelined(evaluator, parts, &mut run);
        }
        run.stats.seconds = run.started.elapsed().as_secs_f64();
        run.stats
    }

    /// The pipelined loop (module docs): the evaluating thread takes the
    /// parts whose batch is gathered, in turn; meanwhile the calling thread
    /// applies, settles and gathers the parts whose evaluation is back.
    /// Each part goes through the same gather, evaluate, settle cycle as
    /// the single group of `pipeline = 1`.
    fn run_pipelined<E: Evaluator<P> + ?Sized>(
        &self,
        evaluator: &E,
        parts: Vec<Part<P>>,
        run: &mut Progress<impl FnMut(GameRecord, &SelfPlayStats)>,
    ) {
        std::thread::scope(|scope| {
            let (send, jobs) = mpsc::channel::<Part<P>>();
            let (back, done) = mpsc::channel::<Part<P>>();
            let evaluating = scope.spawn(move || {
                for mut part in jobs {
                    // An empty round is not sent to the evaluator.
                    evaluate_into(
                        evaluator,
                        part.searches.batch(),
                        &mut part.priors,
                        &mut part.values,
                    );
                    if back.send(part).is_err() {
                        return;
                    }
                }
            });
            // Parts whose evaluation (if any) is back: tree work next.
            let mut evaluated: VecDeque<Part<P>> = parts.into();
            // Parts gathered, awaiting the evaluator, in turn.
            let mut gathered: VecDeque<Part<P>> = VecDeque::new();
            let mut in_flight = false;
            loop {
                // Keep the evaluator busy first, then do tree work.
                if !in_flight {
                    if let Some(part) = gathered.pop_front() {
                        send.send(part)
                            .expect("the evaluating thread waits for parts");
                        in_flight = true;
                    }
                }
                if let Some(mut part) = evaluated.pop_front() {
                    if part.searches.round_open() {
                        part.searches
                            .apply(&part.priors, &part.values)
                            .expect("the part's evaluations split back by construction");
                    }
                    self.settle(&mut part, run);
                    if part.active() {
                        self.gather(&mut part, &mut run.stats);
                        gathered.push_back(part);
                    }
                    // A part with no game left is done.
                    continue;
                }
                if !in_flight {
                    break;
                }
                match done.recv() {
                    Ok(part) => evaluated.push_back(part),
                    Err(_) => {
                        // The evaluator panicked: pass its panic on.
                        drop(send);
                        match evaluating.join() {
                            Err(panic) => std::panic::resume_unwind(panic),
                            Ok(()) => unreachable!("the evaluating thread ended early"),
                        }
                    }
                }
                in_flight = false;
            }
        });
    }

    /// Plays the chosen move when the slot's search is done, ending the
    /// game or starting the next search.
    fn play_searched(&self, slot: &mut Slot<P>, search: &mut Search<P>) -> Moved {
        if !slot.active || !search.is_done() {
            return Moved::default();
        }
        let simulations = search.simulations();
        let ply = slot.game.plies();
        let result = search.result();
        let choice = if !result.proven_win
            && self.config.search.root_policy == RootPolicy::Puct
            && ply < self.config.temperature_plies
        {
            let mut rng = SplitMix64::new(mix64(slot.seed ^ u64::from(ply) << 20 ^ 0x7e3a));
            sample_proportional(&result.visits, &mut rng).unwrap_or(result.best)
        } else {
            result.best
        };
        let index = result.indices[choice];
        let mover = slot.game.position().turn();
        if slot
            .resign
            .observe(&self.config.resign, mover, result.value)
        {
            // It resigns instead of moving: the record ends before this
            // step.
            let (seed, steps) = slot.finish();
            return Moved {
                record: Some(GameRecord::resigned(seed, None, steps, mover)),
                simulations,
                would_have_resigned: None,
            };
        }
        slot.steps.push(if slot.full {
            result.step_record(choice)
        } else {
            StepRecord::unsearched(index, result.value)
        });
        slot.earlier.push(slot.game.position());
        slot.game.play_unchecked(&result.actions[choice]);
        search.played(result.actions[choice]);
        search.advance(index);
        let outcome = slot.game.outcome();
        if outcome.is_some() || slot.game.plies() >= self.max_plies {
            let (seed, steps) = slot.finish();
            return Moved {
                record: Some(GameRecord::ended(seed, None, steps, outcome)),
                simulations,
                would_have_resigned: slot.resign.would_have_resigned(),
            };
        }
        let seed = mix64(slot.seed ^ u64::from(slot.game.plies()));
        self.start_search(slot, search, seed);
        Moved {
            record: None,
            simulations,
            would_have_resigned: None,
        }
    }
}

/// An index drawn with probability proportional to `weights`; `None` when
/// they are all zero.
fn sample_proportional(weights: &[u32], rng: &mut SplitMix64) -> Option<usize> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut target = rng.next_u64() % total;
    for (i, &w) in weights.iter().enumerate() {
        if target < u64::from(w) {
            return Some(i);
        }
        target -= u64::from(w);
    }
    None
}

/// Why a self-play run could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelfPlayError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error("no start position: {0}")]
    Start(String),
    /// A game handed to [`crate::Duel::run_resuming`] that is not one of
    /// the duel's.
    #[error("a kept game does not fit this duel: {0}")]
    Kept(String),
}
