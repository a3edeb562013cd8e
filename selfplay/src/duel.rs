//! Games between two different players: the engine behind evaluation
//! while training and the arena.
//!
//! A player is random play or a search with its own settings and
//! evaluator. Games are played in pairs: pair `k` starts from the same
//! opening (the variant's start position, seeded, then `opening_plies`
//! uniformly random plies drawn from a seeded generator) and player A
//! has White in one game of the pair and Black in the other, so that
//! neither the opening nor the first move favours a player. Evaluation
//! searches are seeded and play without Dirichlet noise: without varied
//! openings, two such players would play the same two games over and over.
//!
//! As in self-play, many games run at once and the leaves of every game
//! whose player to move is a search with the same evaluator are evaluated
//! in one batch: each search player's searches are one [`SearchGroup`],
//! search `k` playing that side of game slot `k`; tree work runs in
//! parallel (rayon). The same seed and evaluators play the same games.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::iter::Either;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{derive_seed, mix64, SplitMix64};
use heterodox_env::{Color, Game, GameVariant};

use crate::config::{ply_cap, ConfigError, SearchConfig};
use crate::earlier::EarlierPositions;
use crate::evaluator::Evaluator;
use crate::group::SearchGroup;
use crate::openings::{opening_rng, random_opening};
use crate::search::Search;
use crate::worker::SelfPlayError;
use heterodox_data::record::{GameRecord, GameResult, StepRecord};

/// One side of a duel.
pub enum Player<'a, P: GameVariant> {
    /// A uniformly random legal action each turn.
    Random,
    /// A search with `config` (run without root noise) guided by
    /// `evaluator`.
    Search {
        config: &'a SearchConfig,
        evaluator: &'a dyn Evaluator<P>,
    },
    /// A player that picks its steps itself, a game at a time (the
    /// alpha-beta engine, the greedy player): asked in the duel's parallel
    /// pass, so its games run on every core.
    Chooser(&'a dyn Chooser<P>),
}

/// A player that chooses its steps by itself, without the batched
/// evaluation the searches share.
pub trait Chooser<P: GameVariant>: Send + Sync {
    /// The step to play in `game`, which is not over. `slot` names the
    /// duel's game slot: the slot's games follow one another, so state
    /// kept between moves (a transposition table) belongs to a slot, and a
    /// chooser that wants the same games for the same seed clears it when
    /// the slot's game number changes. `seed` is the game's and the ply's.
    fn choose(&self, slot: usize, game_number: u32, game: &Game<P>, seed: u64)
        -> Choice<P::Action>;
}

/// A chooser's step and its value for the player making it, in [-1, 1]
/// (recorded as the step's root value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice<A> {
    pub action: A,
    pub value: f32,
}

// Not derived: a derive would ask `P: Copy`.
impl<P: GameVariant> Clone for Player<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: GameVariant> Copy for Player<'_, P> {}

impl<P: GameVariant> Player<'_, P> {
    /// `config` for evaluation play: no Dirichlet noise at a PUCT root.
    /// A Gumbel root keeps its (seeded) Gumbel noise: with it the root
    /// samples its candidate actions in proportion to the priors, without
    /// it a flat prior (the uniform evaluator) would consider the first
    /// `gumbel_actions` actions in generation order and nothing else.
    pub fn evaluation_config(config: &SearchConfig) -> SearchConfig {
        SearchConfig {
            dirichlet_epsilon: 0.0,
            ..config.clone()
        }
    }
}

/// Settings of a duel.
#[derive(Clone, Debug, PartialEq)]
pub struct DuelConfig {
    /// Games in all; rounded up to an even number (whole pairs) when
    /// `paired`.
    pub games: u32,
    /// Games in progress at once.
    pub concurrent: u32,
    /// Steps after which a game is cut (counted as a draw in scores); 0
    /// takes the variant's `DEFAULT_MAX_PLIES`.
    pub max_plies: u32,
    /// Random plies from the start position that make each pair's opening.
    pub opening_plies: u32,
    /// Base seed: openings, start positions and the searches' seeds.
    pub seed: u64,
    /// T: positions stacked in the searches' observations.
    pub history: usize,
    /// Position strings (the variant's FEN dialect) that the openings
    /// start from, in turn: pair `k` starts from `starts[k % len]`, then
    /// plays its `opening_plies`. An opening book, or composed positions
    /// (an ending to test). Empty: the variant's start position.
    pub starts: Vec<String>,
    /// Whether games come in pairs (one opening, both colours). `false`
    /// gives every game its own opening and seeds: for a player against
    /// itself, whose two games of a pair would be the same game.
    pub paired: bool,
}

impl Default for DuelConfig {
    fn default() -> DuelConfig {
        DuelConfig {
            games: 64,
            concurrent: 64,
            max_plies: 0,
            opening_plies: 4,
            seed: 0,
            history: 1,
            starts: Vec::new(),
            paired: true,
        }
    }
}

/// One finished game of a duel (serialized in a claim's journal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelGame {
    /// The game's number: pair `index / 2`.
    pub index: u32,
    /// Whether player A had White.
    pub a_white: bool,
    /// The game, opening plies included (their steps have no policy).
    pub record: GameRecord,
    /// Simulations run by A's and by B's searches in this game (0 for
    /// random play).
    pub simulations: [u64; 2],
}

impl DuelGame {
    /// A's score: 1 for a win, 0.5 for a draw or a cut game, 0 for a loss.
    pub fn score_a(&self) -> f64 {
        let a = if self.a_white {
            Color::White
        } else {
            Color::Black
        };
        match self.record.result {
            GameResult::Truncated => 0.5,
            result => (f64::from(result.value_for(a)) + 1.0) / 2.0,
        }
    }
}

/// Wins, draws (cut games included) and losses, from player A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DuelTally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl DuelTally {
    /// Counts `games`.
    pub fn of(games: &[DuelGame]) -> DuelTally {
        let mut tally = DuelTally::default();
        for game in games {
            let score = game.score_a();
            if score > 0.75 {
                tally.wins += 1;
            } else if score < 0.25 {
                tally.losses += 1;
            } else {
                tally.draws += 1;
            }
        }
        tally
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's mean score, draws counting half; 0.5 for no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }
}

/// One game in progress. Sides are indexed 0 for A, 1 for B; a search
/// side's search of this game is its group's search of the slot's index.
struct Slot<P: GameVariant> {
    /// The slot's number (its games follow one another).
    number: usize,
    game: Game<P>,
    earlier: EarlierPositions<P>,
    steps: Vec<StepRecord>,
    index: u32,
    seed: u64,
    /// The position string the game started from, when not the variant's
    /// start position.
    start: Option<String>,
    a_white: bool,
    active: bool,
    /// The side to move, and whether its search has started.
    mover: usize,
    searching: bool,
    /// Simulations each side's searches ran in this game.
    simulations: [u64; 2],
}

/// A duel between players A and B on variant `P` under one rule set.
pub struct Duel<P: GameVariant> {
    rules: P::Rules,
    config: DuelConfig,
    spec: EncodingSpec,
    max_plies: u32,
    /// `config.starts`, read.
    starts: Vec<P>,
    /// Set by another thread to stop the duel ([`Duel::stop_when`]).
    stop: Option<Arc<AtomicBool>>,
}

/// Part `index` of `count` of a duel's games: the games of the pairs (of
/// the games, unpaired) whose number is `index` modulo `count`. Every
/// game's seeds and opening follow from its index alone, so the parts of
/// a duel played anywhere, in any order, are together the games of the
/// whole duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelPart {
    pub index: u32,
    pub count: u32,
}

impl DuelPart {
    /// `index` of `count`; `None` unless `index < count`.
    pub fn new(index: u32, count: u32) -> Option<DuelPart> {
        (index < count).then_some(DuelPart { index, count })
    }

    /// Whether the pair (or unpaired game) numbered `pair` is this part's.
    pub fn holds(self, pair: u32) -> bool {
        pair % self.count == self.index
    }
}

impl<P: GameVariant> Duel<P> {
    pub fn new(rules: P::Rules, config: DuelConfig) -> Result<Duel<P>, SelfPlayError> {
        let bad = |field, value: String, expected| ConfigError::OutOfRange {
            field,
            value,
            expected,
        };
        if config.games == 0 || config.games > 1 << 24 {
            return Err(bad("games", config.games.to_string(), "1 to 16777216").into());
        }
        if config.concurrent == 0 || config.concurrent > crate::worker::MAX_CONCURRENT {
            return Err(bad("concurrent", config.concurrent.to_string(), "1 to 4096").into());
        }
        if config.history == 0 || config.history > 64 {
            return Err(bad("history", config.history.to_string(), "1 to 64").into());
        }
        if config.opening_plies > 1000 {
            return Err(bad(
                "opening_plies",
                config.opening_plies.to_string(),
                "0 to 1000",
            )
            .into());
        }
        let starts = config
            .starts
            .iter()
            .enumerate()
            .map(|(k, text)| {
                P::from_position_string(text, &rules).map_err(|e| {
                    SelfPlayError::Start(format!("start position {} ('{text}'): {e}", k + 1))
                })
            })
            .collect::<Result<Vec<P>, _>>()?;
        let probe = match starts.first() {
            Some(start) => start.clone(),
            None => P::start(&rules, derive_seed(config.seed, 0, 0))
                .map_err(|e| SelfPlayError::Start(e.to_string()))?,
        };
        let spec = EncodingSpec::of(&probe, config.history);
        Ok(Duel {
            rules,
            max_plies: ply_cap::<P>(config.max_plies),
            config,
            spec,
            starts,
            stop: None,
        })
    }

    /// Stops the duel once `flag` is set (by another thread: Ctrl-C in
    /// Python): the games in progress are dropped at their next step, no
    /// game starts, and the run returns the games finished so far.
    pub fn stop_when(mut self, flag: Arc<AtomicBool>) -> Duel<P> {
        self.stop = Some(flag);
        self
    }

    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The encoding the searches' observations follow.
    pub fn spec(&self) -> &EncodingSpec {
        &self.spec
    }

    /// Plays every game between `a` and `b`; `on_game` receives each
    /// finished game as it ends. Returns the games in order of their
    /// index. A search player's settings are checked before any game.
    pub fn run(
        &self,
        a: Player<'_, P>,
        b: Player<'_, P>,
        on_game: impl FnMut(&DuelGame),
    ) -> Result<Vec<DuelGame>, SelfPlayError> {
        self.run_resuming(a, b, Vec::new(), on_game)
    }

    /// The base seed of the duel's games.
    pub fn seed(&self) -> u64 {
        self.config.seed
    }

    /// Games in all: `games`, rounded up to whole pairs when paired.
    pub fn total_games(&self) -> u32 {
        if self.config.paired {
            self.config.games.div_ceil(2) * 2
        } else {
            self.config.games
        }
    }

    /// [`Duel::run`] after an interruption: `kept` holds games of this
    /// duel that finished before (a claim's journal), and only the others
    /// are played, each from its own seeds as in an uninterrupted run.
    /// Every game is then the same as in that run, except a network's,
    /// whose evaluations may differ in their last bits with what else is
    /// in its batch. `on_game` receives only the games played now. A kept
    /// game whose index is out of range or repeated, whose colours do not
    /// follow its index or whose seed is not its pair's is refused before
    /// anything is played.
    pub fn run_resuming(
        &self,
        a: Player<'_, P>,
        b: Player<'_, P>,
        kept: Vec<DuelGame>,
        on_game: impl FnMut(&DuelGame),
    ) -> Result<Vec<DuelGame>, SelfPlayError> {
        self.run_part(a, b, kept, None, on_game)
    }

    /// [`Duel::run_resuming`] playing only `part` of the games (a task of
    /// a run split across machines; `None`: all): the part's games that
    /// are not kept are played, and returned with the kept ones.
    pub fn run_part(
        &self,
        a: Player<'_, P>,
        b: Player<'_, P>,
        kept: Vec<DuelGame>,
        part: Option<DuelPart>,
        mut on_game: impl FnMut(&DuelGame),
    ) -> Result<Vec<DuelGame>, SelfPlayError> {
        let players = [a, b];
        let total = self.total_games();
        let mut is_kept = vec![false; total as usize];
        for game in &kept {
            let index = game.index as usize;
            let pair = if self.config.paired { index / 2 } else { index };
            let problem = if index >= is_kept.len() {
                Some(format!("this duel has {total} games"))
            } else if is_kept[index] {
                Some("it is there twice".to_owned())
            } else if game.a_white != (index % 2 == 0) {
                Some("A has the other colour in this game".to_owned())
            } else if game.record.seed != derive_seed(self.config.seed, pair, 0) {
                Some("its seed is another duel's".to_owned())
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(SelfPlayError::Kept(format!(
                    "game {}: {problem}",
                    game.index
                )));
            }
            is_kept[index] = true;
        }
        let paired = self.config.paired;
        let wanted = move |k: u32| {
            let pair = if paired { k / 2 } else { k };
            part.is_none_or(|part| part.holds(pair))
        };
        let mut to_play = (0..total).filter(|&k| !is_kept[k as usize] && wanted(k));
        let remaining = (0..total)
            .filter(|&k| !is_kept[k as usize] && wanted(k))
            .count();
        let concurrent = (self.config.concurrent as usize).min(remaining.max(1));
        let mut groups: [Option<SearchGroup<P>>; 2] = [None, None];
        for (group, player) in groups.iter_mut().zip(&players) {
            if let Player::Search { config, evaluator } = player {
                let config = Player::<P>::evaluation_config(config);
                let mut searches = SearchGroup::new(&config, &self.spec, concurrent)?;
                searches.set_observations(evaluator.needs_observations());
                *group = Some(searches);
            }
        }
        if remaining == 0 {
            let mut games = kept;
            games.sort_by_key(|g| g.index);
            return Ok(games);
        }
        let mut slots: Vec<Slot<P>> = (0..concurrent)
            .map(|number| {
                let mut slot = Slot {
                    number,
                    game: Game::new(P::start(&self.rules, 0).map_err(start_error)?),
                    earlier: EarlierPositions::new(self.config.history),
                    steps: Vec::new(),
                    index: 0,
                    seed: 0,
                    start: None,
                    a_white: true,
                    active: false,
                    mover: 0,
                    searching: false,
                    simulations: [0; 2],
                };
                let first = to_play.next().expect("a game for every slot");
                self.start_game(&mut slot, first)?;
                Ok(slot)
            })
            .collect::<Result<_, SelfPlayError>>()?;
        let mut finished: Vec<DuelGame> = kept;
        finished.reserve(remaining);
        while slots.iter().any(|s| s.active) && !self.stopped() {
            let ended: Vec<Option<DuelGame>> = {
                let [a, b] = &mut groups;
                slots
                    .par_iter_mut()
                    .zip(side_searches(a.as_mut(), concurrent))
                    .zip(side_searches(b.as_mut(), concurrent))
                    .map(|((slot, a), b)| self.advance(slot, &players, [a, b]))
                    .collect()
            };
            for (k, game) in ended.into_iter().enumerate() {
                let Some(game) = game else { continue };
                on_game(&game);
                finished.push(game);
                if self.stopped() {
                    continue;
                }
                if let Some(next) = to_play.next() {
                    self.start_game(&mut slots[k], next)?;
                    // Its first leaves are gathered next round.
                }
            }
            for (side, (group, player)) in groups.iter_mut().zip(&players).enumerate() {
                let (Some(group), Player::Search { evaluator, .. }) = (group, player) else {
                    continue;
                };
                // The games whose mover is this side; those whose round
                // ended in finished games only are simply not applied.
                group
                    .gather(|k| {
                        let slot = &slots[k];
                        slot.active && slot.searching && slot.mover == side
                    })
                    .expect("every round is applied");
                group.evaluate(*evaluator);
            }
        }
        finished.sort_by_key(|g| g.index);
        Ok(finished)
    }

    /// Sets up game `index`: its pair's opening, A's colour.
    fn start_game(&self, slot: &mut Slot<P>, index: u32) -> Result<(), SelfPlayError> {
        let pair = if self.config.paired { index / 2 } else { index };
        slot.index = index;
        slot.a_white = index % 2 == 0;
        slot.seed = derive_seed(self.config.seed, pair as usize, 0);
        slot.steps.clear();
        slot.earlier.clear();
        slot.searching = false;
        slot.simulations = [0; 2];
        let start = if self.starts.is_empty() {
            slot.start = None;
            P::start(&self.rules, slot.seed).map_err(start_error)?
        } else {
            let k = pair as usize % self.starts.len();
            slot.start = Some(self.config.starts[k].clone());
            self.starts[k].clone()
        };
        // The opening: random plies that leave a game to play.
        let mut rng = opening_rng(slot.seed);
        slot.game = Game::new(start.clone());
        for action in random_opening(&start, self.config.opening_plies, &mut rng) {
            self.play(slot, &action, 0.0);
        }
        slot.active = true;
        Ok(())
    }

    /// Plays `action`, recording it as a step without a search (with the
    /// player's `value` of it).
    fn play(&self, slot: &mut Slot<P>, action: &P::Action, value: f32) {
        let index = slot.game.position().action_index(action) as u32;
        slot.steps.push(StepRecord::unsearched(index, value));
        slot.earlier.push(slot.game.position());
        slot.game.play_unchecked(action);
    }

    /// The side (0 = A, 1 = B) to move in the slot's game.
    fn side_to_move(slot: &Slot<P>) -> usize {
        let white = slot.game.position().turn() == Color::White;
        usize::from(white != slot.a_white)
    }

    /// Plays moves until a search needs leaves evaluated or the game ends.
    /// `searches` holds this game's search of each search side. Returns
    /// the game if it ended.
    fn advance(
        &self,
        slot: &mut Slot<P>,
        players: &[Player<'_, P>; 2],
        mut searches: [Option<&mut Search<P>>; 2],
    ) -> Option<DuelGame> {
        if !slot.active {
            return None;
        }
        let mut actions = Vec::new();
        loop {
            if let Some(game) = self.finish_if_over(slot) {
                return Some(game);
            }
            if self.stopped() {
                slot.active = false;
                return None;
            }
            let side = Self::side_to_move(slot);
            slot.mover = side;
            let plies = slot.game.plies();
            let Some(search) = searches[side].as_deref_mut() else {
                let seed = mix64(slot.seed ^ (u64::from(plies) << 32) ^ 0x5eed);
                let choice = match players[side] {
                    Player::Chooser(chooser) => {
                        chooser.choose(slot.number, slot.index, &slot.game, seed)
                    }
                    _ => {
                        // Random play.
                        slot.game.legal_actions(&mut actions);
                        let mut rng = SplitMix64::new(seed);
                        Choice {
                            action: actions[rng.below(actions.len())],
                            value: 0.0,
                        }
                    }
                };
                self.play(slot, &choice.action, choice.value);
                continue;
            };
            if !slot.searching {
                // Seeded by the game and the ply, not by the player: two
                // identical players then play a pair's games identically.
                let seed = mix64(slot.seed ^ u64::from(plies));
                search
                    .start(&slot.game, slot.earlier.positions(), seed)
                    .expect("the game is not over");
                slot.searching = true;
            }
            if !search.is_done() {
                // Its side's group gathers the leaves.
                return None;
            }
            slot.simulations[side] += u64::from(search.simulations());
            let result = search.result();
            let action = result.actions[result.best];
            slot.searching = false;
            slot.steps.push(result.step_record(result.best));
            slot.earlier.push(slot.game.position());
            slot.game.play_unchecked(&action);
            search.played(action);
        }
    }

    fn finish_if_over(&self, slot: &mut Slot<P>) -> Option<DuelGame> {
        let outcome = slot.game.outcome();
        if outcome.is_none() && slot.game.plies() < self.max_plies {
            return None;
        }
        slot.active = false;
        slot.searching = false;
        Some(DuelGame {
            index: slot.index,
            a_white: slot.a_white,
            record: GameRecord::ended(
                slot.seed,
                slot.start.clone(),
                std::mem::take(&mut slot.steps),
                outcome,
            ),
            simulations: slot.simulations,
        })
    }
}

/// Game slot `k`'s search of one side, for a pass over the slots: the
/// side's group's search `k`, none for random play.
fn side_searches<P: GameVariant>(
    group: Option<&mut SearchGroup<P>>,
    slots: usize,
) -> impl IndexedParallelIterator<Item = Option<&mut Search<P>>> {
    match group {
        Some(group) => Either::Left(group.searches_mut().par_iter_mut().map(Some)),
        None => Either::Right((0..slots).into_par_iter().map(|_| None)),
    }
}

fn start_error(e: impl std::fmt::Display) -> SelfPlayError {
    SelfPlayError::Start(e.to_string())
}
