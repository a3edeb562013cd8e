//! Agents from Python, named as the command line names them
//! (`heterodox_selfplay::agent::spec`): [`parse_agent`] reads any agent
//! string, and the `Agent` class plays the agents that need no network
//! (`random`, `greedy`, `ab@...`, `uniform@...`, `rollout@...`) through the
//! one-game player every front end uses
//! (`heterodox_selfplay::agent::AgentPlayer`), with the GIL released. A
//! network agent (`zoo:`, `net:`) is played by `heterodox.agent` in Python,
//! which evaluates its searches with PyTorch (this module links no
//! libtorch).
//!
//! One `Agent` plays games of any variant, each move from the state a
//! fresh player has: it keeps a pool of players per variant and rule set,
//! made the first time it meets one, and hands each move a player of the
//! game's, its engine's table cleared if it has searched since. So a move
//! depends on the game alone (its position, history and ply) and the seed,
//! never on the calls before it, and `moves` plays exactly what `move`
//! plays on each game, its games in parallel (one player per thread).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{AnyGame, GameVariant, Variant, VariantVisitor};
use heterodox_selfplay::agent::{AgentError as PlayerError, AgentKind, AgentPlayer, AgentSpec};
use heterodox_selfplay::{RootPolicy, SearchConfig};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::args::seed_arg;
use crate::game::Game;

create_exception!(
    heterodox,
    AgentError,
    PyValueError,
    "An agent string that does not parse (the message says why and lists the\nkinds of agents), an agent that cannot play the game asked (a network of\nanother variant), or a move asked of a game that is over."
);

/// The most games one `moves` call takes (a batch of searches).
const MAX_GAMES: usize = heterodox_selfplay::worker::MAX_CONCURRENT as usize;

/// Reads an agent string, or raises AgentError saying why not.
fn read_spec(spec: &str) -> PyResult<AgentSpec> {
    spec.parse::<AgentSpec>()
        .map_err(|e| AgentError::new_err(e.to_string()))
}

/// What an agent string names, as a dict, for Python to build the agents
/// this module does not play (networks): 'spec' (the string written back
/// in its canonical form), 'kind' ('random', 'greedy', 'engine',
/// 'uniform', 'rollout', 'net' or 'zoo'), 'network' (the checkpoint
/// directory of 'net', the shipped name of 'zoo', else None), and for the
/// searching kinds the Search keywords that play it: 'simulations',
/// 'root_policy' ('gumbel' or 'puct'), 'immediate_wins',
/// 'avoid_losses_in_one', 'quiescence_weight'. AgentError for a string
/// that does not parse.
#[pyfunction]
pub fn parse_agent<'py>(py: Python<'py>, spec: &str) -> PyResult<Bound<'py, PyDict>> {
    let parsed = read_spec(spec)?;
    let out = PyDict::new(py);
    out.set_item("spec", parsed.to_string())?;
    let (kind, network) = match &parsed.kind {
        AgentKind::Random => ("random", None),
        AgentKind::Greedy => ("greedy", None),
        AgentKind::Engine(..) => ("engine", None),
        AgentKind::Uniform => ("uniform", None),
        AgentKind::Rollout => ("rollout", None),
        AgentKind::Net(path) => ("net", Some(path.display().to_string())),
        AgentKind::Zoo(name) => ("zoo", Some(name.clone())),
    };
    out.set_item("kind", kind)?;
    out.set_item("network", network)?;
    if let Some(config) = parsed.search_config(&SearchConfig::default()) {
        out.set_item("simulations", config.simulations)?;
        let policy = match config.root_policy {
            RootPolicy::Gumbel => "gumbel",
            RootPolicy::Puct => "puct",
        };
        out.set_item("root_policy", policy)?;
        out.set_item("immediate_wins", config.immediate_wins)?;
        out.set_item("avoid_losses_in_one", config.avoid_losses_in_one)?;
        out.set_item("quiescence_weight", config.quiescence_weight)?;
    }
    Ok(out)
}

/// One variant's player, behind the variant-free interface the class
/// holds.
trait DynPlayer: Send {
    /// The agent's move in `game` (a game of this player's variant), in
    /// long notation.
    fn choose(&mut self, game: &AnyGame) -> Result<String, PlayerError>;
    fn new_game(&mut self);
}

impl<P: GameVariant> DynPlayer for AgentPlayer<P> {
    fn choose(&mut self, game: &AnyGame) -> Result<String, PlayerError> {
        let game = game
            .downcast_ref::<P>()
            .expect("a player is only handed games of its variant");
        Ok(AgentPlayer::choose(self, game)?.action.to_string())
    }

    fn new_game(&mut self) {
        AgentPlayer::new_game(self);
    }
}

/// Builds the player of `spec` for the variant and rules of a game.
struct MakePlayer<'a> {
    spec: &'a AgentSpec,
    game: &'a AnyGame,
    seed: u64,
}

impl VariantVisitor for MakePlayer<'_> {
    type Output = Result<Box<dyn DynPlayer>, PlayerError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let game = self
            .game
            .downcast_ref::<P>()
            .expect("visited with the game's own variant");
        let encoding = EncodingSpec::of(game.position(), 1);
        Ok(Box::new(AgentPlayer::<P>::new(
            self.spec, &encoding, self.seed, None,
        )?))
    }
}

/// A pooled player, and whether it has moved since it was made or
/// cleared (its engine's table then needs clearing before the next move).
struct Pooled {
    player: Box<dyn DynPlayer>,
    used: bool,
}

/// A variant and its rule settings in canonical form: players of one key
/// play the same games.
type Key = (Variant, String);

/// The idle players of one agent, per variant and rule set met: as many
/// as have moved at once (one per thread of a `moves` batch).
type Players = HashMap<Key, Vec<Pooled>>;

/// An agent that plays without a network, named as the command line names
/// it: Agent(spec, seed=0), e.g. Agent('ab@100ms'), Agent('greedy'),
/// Agent('rollout@64'). heterodox.agent(spec) is the usual way to make
/// one (it also makes network agents, 'zoo:hostage@64').
///
/// move(game) returns the agent's move in long notation (Game.play reads
/// it) without playing it; moves(games) does so for many games, in
/// parallel, and plays exactly the move move() plays on each. Every move
/// is thought afresh: it depends on the game (its position, history and
/// ply) and the seed alone, never on the moves asked before it, of this
/// game or another (an engine searches each move from an empty table), so
/// the same seed gives the same moves in any order and batching, except
/// under a time budget ('ab@100ms'). Under hidden information (Traitor)
/// the searches read only what the player to act may know. The searches
/// run with the GIL released.
#[pyclass(module = "heterodox._core")]
pub struct Agent {
    spec: AgentSpec,
    seed: u64,
    players: Mutex<Players>,
}

impl Agent {
    /// The agent's move in `game` as a fresh player of its variant and
    /// rules would choose it: an idle pooled player (its table cleared if
    /// it has moved since), else a new one, handed back afterwards. The
    /// pool's lock is held only to take and give back, so games move in
    /// parallel.
    fn choose_fresh(&self, game: &AnyGame) -> Result<String, PlayerError> {
        let key: Key = (game.variant(), game_rules(game));
        let idle = self
            .players
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(&key)
            .and_then(Vec::pop);
        let mut pooled = match idle {
            Some(pooled) => pooled,
            None => Pooled {
                player: game.variant().visit(MakePlayer {
                    spec: &self.spec,
                    game,
                    seed: self.seed,
                })?,
                used: false,
            },
        };
        if pooled.used {
            pooled.player.new_game();
        }
        let chosen = pooled.player.choose(game);
        pooled.used = true;
        self.players
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_default()
            .push(pooled);
        chosen
    }

    /// The agent's move in `game`, the GIL released while it thinks.
    fn choose(&self, py: Python<'_>, game: AnyGame) -> PyResult<String> {
        py.detach(|| self.choose_fresh(&game))
            .map_err(|e| AgentError::new_err(e.to_string()))
    }
}

/// A game's rule settings in canonical form (a player's encoding, and
/// an engine's table, hold for one rule set).
fn game_rules(game: &AnyGame) -> String {
    struct Rules<'a>(&'a AnyGame);
    impl VariantVisitor for Rules<'_> {
        type Output = String;
        fn visit<P: GameVariant>(self) -> String {
            let game = self.0.downcast_ref::<P>().expect("the game's own variant");
            P::rule_options(&game.position().rules()).to_string()
        }
    }
    game.variant().visit(Rules(game))
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed = None))]
    fn new(spec: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        let spec = read_spec(spec)?;
        if matches!(spec.kind, AgentKind::Net(_) | AgentKind::Zoo(_)) {
            return Err(AgentError::new_err(format!(
                "agent '{spec}' searches with a network: make it with heterodox.agent('{spec}'), which loads it with PyTorch"
            )));
        }
        Ok(Agent {
            spec,
            seed: seed_arg(seed)?,
            players: Mutex::new(HashMap::new()),
        })
    }

    /// The agent string, in its canonical form ('ab@8', 'uniform@64').
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The seed of the agent's choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The agent's move in `game`, in long notation, without playing it.
    /// AgentError when the game is over.
    #[pyo3(name = "move")]
    fn move_(&self, py: Python<'_>, game: &Bound<'_, Game>) -> PyResult<String> {
        let game = game.try_borrow()?.any().clone();
        self.choose(py, game)
    }

    /// The agent's move in each of `games` (a list of Game), in order,
    /// the games searched in parallel: exactly the move move() gives for
    /// each game (each is thought afresh, whatever the batch holds or
    /// was asked before). At most 4096 games; AgentError naming the first
    /// game that is over.
    fn moves(&self, py: Python<'_>, games: Vec<Bound<'_, Game>>) -> PyResult<Vec<String>> {
        if games.len() > MAX_GAMES {
            return Err(PyValueError::new_err(format!(
                "moves takes at most {MAX_GAMES} games, not {}",
                games.len()
            )));
        }
        let games: Vec<AnyGame> = games
            .iter()
            .map(|game| Ok(game.try_borrow()?.any().clone()))
            .collect::<PyResult<_>>()?;
        if let Some(k) = games.iter().position(|game| game.outcome().is_some()) {
            return Err(AgentError::new_err(format!(
                "game {k} is over: there is no move to choose"
            )));
        }
        py.detach(|| {
            games
                .par_iter()
                .map(|game| self.choose_fresh(game))
                .collect::<Result<Vec<String>, PlayerError>>()
        })
        .map_err(|e| AgentError::new_err(e.to_string()))
    }

    /// Frees the agent's players (their engines' tables). Kept for the
    /// code that called it between games: every move is thought afresh
    /// already, so the moves after it are the same as without it.
    fn new_game(&self) {
        self.players
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    fn __repr__(&self) -> String {
        format!("Agent('{}', seed={})", self.spec, self.seed)
    }
}
