//! Agents: the one string that names every kind of player ([`spec`]) and
//! one agent playing one game a move at a time ([`player`]). Every front
//! end (the CLI's arena and play, the protocols, the web server, Python)
//! reads agents through this module; a network's evaluator is loaded above
//! it and handed in.

pub mod contender;
pub mod nnue;
pub mod player;
pub mod spec;
pub mod variety;
pub mod zoo;

pub use contender::{Contender, EngineChooser, GreedyChooser};
pub use player::{
    builtin_evaluator, engine_config, is_secret_step, knows_everything, AgentError, AgentMove,
    AgentPlayer, MoveBudget, TopMove,
};
pub use spec::{
    is_zoo_name, menu, AgentChoice, AgentKind, AgentSpec, AgentSpecError, EngineBudget, Probes,
    DEFAULT_AGENT, DEFAULT_SIMULATIONS, MAX_MOVETIME_MS, MAX_NODES,
};
pub use variety::{varied_move, Variety, VaryError};
pub use zoo::{Zoo, ZooAgent, ZooError};
