//! [`Games`]: N games of one variant, their searches one Rust
//! [`SearchGroup`] (search `k` is game `k`'s), gathered and applied
//! together. The Python class holds one behind [`DynSearch`], chosen once
//! by [`Variant::visit`].
//!
//! Seeding follows the self-play workers (`heterodox_selfplay::worker`):
//! game `k` starts from `GameVariant::start(rules, derive_seed(seed, k,
//! 0))`, its first search is seeded `mix64(game seed)` and the search
//! after ply `n` `mix64(game seed ^ n)`, so a game searched from Python
//! with the same priors is the game the Rust workers play.

use heterodox_data::GameResult;
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{derive_seed, mix64};
use heterodox_env::{AnyGame, Game, GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::config::ply_cap;
use heterodox_selfplay::{
    EarlierPositions, SearchConfig, SearchError, SearchGroup, UniformEvaluator,
};
use pyo3::prelude::*;

use crate::errors::{value_error, IllegalMoveError, IntoPyErr, PositionError};
use crate::evaluation::{EvaluationError, Layout, Requests};

/// What `Search(...)` asks for.
pub(crate) struct Setup {
    pub variant: Variant,
    pub options: RuleOptions,
    pub config: SearchConfig,
    pub num_games: usize,
    pub seed: u64,
    pub history: usize,
    /// 0: the variant's default ply cap.
    pub max_plies: u32,
    /// One start per game, or none (the seeded starts).
    pub fens: Vec<Start>,
}

/// Where one game of a search starts: a position string, or a `Game` from
/// Python with its history, so that repetitions and the stacked earlier
/// positions of the game so far count in the search.
#[derive(Clone)]
pub(crate) enum Start {
    Fen(String),
    Game {
        /// The game as it stands.
        game: AnyGame,
        /// The position it was created from, and the steps played since
        /// (long notation), to rebuild the earlier positions.
        start: AnyGame,
        steps: Vec<String>,
    },
}

/// What a finished search says, for every game: dense over the action
/// space, zero (and `best` -1) for games that are over.
pub(crate) struct Results {
    pub policy: Vec<f32>,
    pub visits: Vec<i64>,
    pub values: Vec<f32>,
    pub best: Vec<i64>,
}

/// The batch of searches, for any variant.
pub(crate) trait DynSearch: Send {
    fn spec(&self) -> &EncodingSpec;
    fn num_games(&self) -> usize;
    /// Every live game's search is done (or every game is over).
    fn is_done(&self) -> bool;
    /// Leaves gathered and not yet applied.
    fn awaiting(&self) -> bool;
    /// A round gathered and not yet applied, the empty round included.
    fn round_open(&self) -> bool;
    /// The leaves of every unfinished search; none only when the round
    /// finished every search.
    fn gather(&mut self) -> PyResult<Requests>;
    fn layout(&self) -> &Layout;
    fn apply(&mut self, priors: &[f32], values: &[f32]) -> PyResult<()>;
    /// Runs every unfinished search to its end with the uniform evaluator.
    fn run_uniform(&mut self) -> PyResult<()>;
    /// Simulations run by each game's current search (0 for games over).
    fn simulations(&self) -> Vec<u32>;
    fn results(&mut self) -> PyResult<Results>;
    /// Plays one action in every live game (`actions[k]`, or the search's
    /// choice where it is negative or absent) and starts the next
    /// searches. Returns which games are over.
    fn step(&mut self, actions: Option<&[i64]>) -> PyResult<Vec<bool>>;
    fn over(&self) -> Vec<bool>;
    /// PGN result tokens (`*` for a game cut at the ply cap), None while
    /// a game runs.
    fn results_pgn(&self) -> Vec<Option<&'static str>>;
    fn fen(&self, game: usize) -> String;
    fn plies(&self) -> Vec<u32>;
}

/// One game; its search is the group's search of the same index.
struct Slot<P: GameVariant> {
    game: Game<P>,
    /// Earlier positions, most recent first (at most history - 1).
    earlier: EarlierPositions<P>,
    seed: u64,
    result: Option<GameResult>,
}

pub(crate) struct Games<P: GameVariant> {
    slots: Vec<Slot<P>>,
    searches: SearchGroup<P>,
    spec: EncodingSpec,
    max_plies: u32,
    /// Where the leaves of the last gather sit, for reading evaluations.
    layout: Layout,
}

struct Build(Setup);

impl VariantVisitor for Build {
    type Output = PyResult<Box<dyn DynSearch>>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        Ok(Box::new(Games::<P>::new(self.0)?))
    }
}

/// The batch of searches `setup` describes.
pub(crate) fn build(setup: Setup) -> PyResult<Box<dyn DynSearch>> {
    setup.variant.visit(Build(setup))
}

/// Game `k`'s `Game` from Python as a game of `P` under `rules`: a
/// ValueError naming the game when it is another variant or was made
/// under other rules (its tensors would not be the search's).
fn typed_game<P: GameVariant>(game: &AnyGame, rules: &P::Rules, k: usize) -> PyResult<Game<P>> {
    let typed = game.downcast_ref::<P>().ok_or_else(|| {
        value_error(format!(
            "game {k} is a game of {}, not of {}",
            game.variant().name(),
            P::VARIANT.name()
        ))
    })?;
    if &typed.position().rules() != rules {
        return Err(value_error(format!(
            "game {k} was made under the rules '{}', the search's are '{}'",
            P::rule_options(&typed.position().rules()),
            P::rule_options(rules)
        )));
    }
    Ok(typed.clone())
}

impl<P: GameVariant> Games<P> {
    fn new(setup: Setup) -> PyResult<Games<P>> {
        let rules = P::parse_rules(&setup.options).map_err(IntoPyErr::into_py_err)?;
        let mut slots = Vec::with_capacity(setup.num_games);
        for k in 0..setup.num_games {
            let seed = derive_seed(setup.seed, k, 0);
            let mut earlier = EarlierPositions::new(setup.history);
            let game = match setup.fens.get(k) {
                Some(Start::Fen(fen)) => {
                    Game::new(P::from_position_string(fen, &rules).map_err(|e| {
                        PositionError::new_err(format!("invalid start position for game {k}: {e}"))
                    })?)
                }
                Some(Start::Game { game, start, steps }) => {
                    let typed = typed_game::<P>(game, &rules, k)?;
                    let mut replay = start.clone();
                    for step in steps {
                        earlier.push(typed_game::<P>(&replay, &rules, k)?.position());
                        replay.play(step).map_err(IntoPyErr::into_py_err)?;
                    }
                    typed
                }
                None => Game::new(P::start(&rules, seed).map_err(IntoPyErr::into_py_err)?),
            };
            let result = game.outcome().map(GameResult::from_outcome);
            slots.push(Slot {
                game,
                earlier,
                seed,
                result,
            });
        }
        let first = slots
            .first()
            .ok_or_else(|| value_error("num_games must be at least 1"))?;
        let spec = EncodingSpec::of(first.game.position(), setup.history);
        let mut searches =
            SearchGroup::new(&setup.config, &spec, slots.len()).map_err(value_error)?;
        for (k, slot) in slots.iter().enumerate() {
            if slot.result.is_none() {
                searches
                    .search_mut(k)
                    .start(&slot.game, slot.earlier.positions(), mix64(slot.seed))
                    .map_err(value_error)?;
            }
        }
        Ok(Games {
            slots,
            searches,
            spec,
            max_plies: ply_cap::<P>(setup.max_plies),
            layout: Layout::default(),
        })
    }
}

impl<P: GameVariant> DynSearch for Games<P> {
    fn spec(&self) -> &EncodingSpec {
        &self.spec
    }

    fn num_games(&self) -> usize {
        self.slots.len()
    }

    fn is_done(&self) -> bool {
        self.slots
            .iter()
            .enumerate()
            .all(|(k, s)| s.result.is_some() || self.searches.search(k).is_done())
    }

    fn awaiting(&self) -> bool {
        self.searches.awaiting()
    }

    fn round_open(&self) -> bool {
        self.searches.round_open()
    }

    fn gather(&mut self) -> PyResult<Requests> {
        // `run()` with the uniform evaluator turns observations off.
        self.searches.set_observations(true);
        let slots = &self.slots;
        let leaves = self
            .searches
            .gather(|k| slots[k].result.is_none())
            .map_err(round_error)?;
        let mut requests = Requests::new(self.spec.observation_shape(), self.spec.num_actions);
        requests.extend(self.searches.batch());
        requests.game.reserve_exact(leaves);
        for k in 0..slots.len() {
            let games = self.searches.leaves_of(k).map(|_| k as i64);
            requests.game.extend(games);
        }
        self.layout = requests.layout();
        Ok(requests)
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn apply(&mut self, priors: &[f32], values: &[f32]) -> PyResult<()> {
        self.searches.apply(priors, values).map_err(round_error)?;
        self.layout = Layout::default();
        Ok(())
    }

    fn run_uniform(&mut self) -> PyResult<()> {
        let slots = &self.slots;
        self.searches
            .run(&UniformEvaluator, |k| slots[k].result.is_none())
            .map_err(round_error)
    }

    fn simulations(&self) -> Vec<u32> {
        self.slots
            .iter()
            .enumerate()
            .map(|(k, s)| match s.result {
                Some(_) => 0,
                None => self.searches.search(k).simulations(),
            })
            .collect()
    }

    fn results(&mut self) -> PyResult<Results> {
        let (n, a) = (self.slots.len(), self.spec.num_actions);
        let mut out = Results {
            policy: vec![0.0; n * a],
            visits: vec![0; n * a],
            values: vec![0.0; n],
            best: vec![-1; n],
        };
        for (k, s) in self.slots.iter().enumerate() {
            if s.result.is_some() {
                continue;
            }
            let search = self.searches.search_mut(k);
            if !search.is_done() {
                return Err(not_done(k));
            }
            let result = search.result();
            for (i, &index) in result.indices.iter().enumerate() {
                out.policy[k * a + index as usize] = result.policy[i];
                out.visits[k * a + index as usize] = i64::from(result.visits[i]);
            }
            out.values[k] = result.value;
            out.best[k] = i64::from(result.indices[result.best]);
        }
        Ok(out)
    }

    fn step(&mut self, actions: Option<&[i64]>) -> PyResult<Vec<bool>> {
        if let Some(k) = (0..self.slots.len())
            .find(|&k| self.slots[k].result.is_none() && !self.searches.search(k).is_done())
        {
            return Err(not_done(k));
        }
        // Every choice is checked before any game moves.
        let mut choices = Vec::with_capacity(self.slots.len());
        for (k, s) in self.slots.iter().enumerate() {
            if s.result.is_some() {
                choices.push(None);
                continue;
            }
            let result = self.searches.search_mut(k).result();
            let chosen = match actions.map(|a| a[k]) {
                Some(index) if index >= 0 => result
                    .indices
                    .iter()
                    .position(|&i| i64::from(i) == index)
                    .ok_or_else(|| {
                        IllegalMoveError::new_err(format!(
                            "action {index} is not legal in game {k} ({})",
                            s.game.position().fen()
                        ))
                    })?,
                _ => result.best,
            };
            choices.push(Some((result.actions[chosen], result.indices[chosen])));
        }
        let max_plies = self.max_plies;
        for (k, (s, choice)) in self.slots.iter_mut().zip(choices).enumerate() {
            let Some((action, index)) = choice else {
                continue;
            };
            let search = self.searches.search_mut(k);
            s.earlier.push(s.game.position());
            s.game.play_unchecked(&action);
            search.advance(index);
            if let Some(outcome) = s.game.outcome() {
                s.result = Some(GameResult::from_outcome(outcome));
            } else if s.game.plies() >= max_plies {
                s.result = Some(GameResult::Truncated);
            } else {
                let seed = mix64(s.seed ^ u64::from(s.game.plies()));
                search
                    .start(&s.game, s.earlier.positions(), seed)
                    .map_err(value_error)?;
            }
        }
        Ok(self.over())
    }

    fn over(&self) -> Vec<bool> {
        self.slots.iter().map(|s| s.result.is_some()).collect()
    }

    fn results_pgn(&self) -> Vec<Option<&'static str>> {
        self.slots
            .iter()
            .map(|s| s.result.map(GameResult::pgn))
            .collect()
    }

    fn fen(&self, game: usize) -> String {
        self.slots[game].game.position().fen()
    }

    fn plies(&self) -> Vec<u32> {
        self.slots.iter().map(|s| s.game.plies()).collect()
    }
}

/// A round out of order: gathered twice, or applied without a gather.
fn round_error(error: SearchError) -> PyErr {
    match error {
        SearchError::Unapplied { .. } => {
            value_error("the leaves of the last gather() await apply(priors, values)")
        }
        SearchError::NothingGathered => {
            EvaluationError::new_err("no leaves await evaluation: call gather() first")
        }
        // Unreachable: the evaluations were checked against the layout.
        other => value_error(other),
    }
}

fn not_done(game: usize) -> PyErr {
    value_error(format!(
        "the search of game {game} is not finished: call gather() and apply() until done"
    ))
}
