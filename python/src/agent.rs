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
//! One `Agent` plays games of any variant: it keeps one player per
//! variant and rule set, made the first time it meets one, so an engine
//! keeps its table from move to move of a game.

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

/// The players of one agent, one per variant and rule set met.
type Players = HashMap<(Variant, String), Box<dyn DynPlayer>>;

/// An agent that plays without a network, named as the command line names
/// it: Agent(spec, seed=0), e.g. Agent('ab@100ms'), Agent('greedy'),
/// Agent('rollout@64'). heterodox.agent(spec) is the usual way to make
/// one (it also makes network agents, 'zoo:hostage@64').
///
/// move(game) returns the agent's move in long notation (Game.play reads
/// it) without playing it; moves(games) does so for many games. The same
/// seed gives the same moves (each move is seeded by the seed and the
/// game's ply), except under a time budget ('ab@100ms'). Under hidden
/// information (Traitor) the searches read only what the player to act
/// may know. The searches run with the GIL released.
#[pyclass(module = "heterodox._core")]
pub struct Agent {
    spec: AgentSpec,
    seed: u64,
    players: Mutex<Players>,
}

impl Agent {
    /// The agent's move in `game`, from the player of its variant and
    /// rules (made on first use); the GIL released while it thinks.
    fn choose(&self, py: Python<'_>, game: AnyGame) -> PyResult<String> {
        let key = (game.variant(), game_rules(&game));
        let (spec, seed) = (&self.spec, self.seed);
        py.detach(|| {
            let mut players = self.players.lock().unwrap_or_else(PoisonError::into_inner);
            let player = match players.entry(key) {
                std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
                std::collections::hash_map::Entry::Vacant(entry) => {
                    let made = game.variant().visit(MakePlayer {
                        spec,
                        game: &game,
                        seed,
                    })?;
                    entry.insert(made)
                }
            };
            player.choose(&game)
        })
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

    /// The agent's move in each of `games` (a list of Game), in order:
    /// the same moves as move() one game at a time. At most 4096 games;
    /// AgentError naming the first game that is over.
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
        games
            .into_iter()
            .map(|game| self.choose(py, game))
            .collect()
    }

    /// Forgets what the agent learnt of the games so far (the engine's
    /// table): call it between games to replay them exactly.
    fn new_game(&self) {
        let mut players = self.players.lock().unwrap_or_else(PoisonError::into_inner);
        for player in players.values_mut() {
            player.new_game();
        }
    }

    fn __repr__(&self) -> String {
        format!("Agent('{}', seed={})", self.spec, self.seed)
    }
}
