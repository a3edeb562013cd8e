//! What a web client may ask an agent to do. A page or API client names
//! its agents by string, and the server runs them on its own cores: so a
//! client chooses among the agents the server allows, under per-move caps
//! its command line sets (`serve --max-depth`, `--max-movetime-ms`,
//! `--max-nodes`, `--max-simulations`), and never names a path on the
//! server's disk. Network directories (`net:`) come from the command line
//! only (`serve --agent net:DIR@SIMS`); shipped networks are `zoo:NAME`.
//! A refusal says why without touching the disk, so it tells nothing of
//! which paths exist.

use heterodox_training::arena::agent::{AgentKind, AgentSpec, EngineBudget};
use serde_json::{json, Value};

/// The largest budget a client may give one agent's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentCaps {
    /// Iterations of the alpha-beta engine (`ab@DEPTH`).
    pub max_depth: u32,
    /// Thinking time of the engine (`ab@MSms`), in milliseconds.
    pub max_movetime_ms: u64,
    /// Nodes of the engine (`ab@NODESn`).
    pub max_nodes: u64,
    /// Simulations of a tree search (`rollout@SIMS`, `zoo:NAME@SIMS`, ...).
    pub max_simulations: u32,
}

impl AgentCaps {
    /// Why a client may not name `spec`, or `None` when it may. The
    /// server's own agent (`default`, from its command line) is always
    /// allowed.
    pub fn refusal(&self, spec: &AgentSpec, default: &AgentSpec) -> Option<String> {
        if spec == default {
            return None;
        }
        let too_much = |what: String, cap: String, option: &str| {
            Some(format!(
                "{what}, above this server's cap of {cap} (serve --{option})"
            ))
        };
        match &spec.kind {
            AgentKind::Net(_) => Some(
                "a network directory (net:) is named on the server's command line \
                 (serve --agent), not by a client; shipped networks are zoo:NAME@SIMS"
                    .to_owned(),
            ),
            AgentKind::Engine(EngineBudget::Depth(depth), _) if *depth > self.max_depth => {
                too_much(
                    format!("searches to depth {depth}"),
                    self.max_depth.to_string(),
                    "max-depth",
                )
            }
            AgentKind::Engine(EngineBudget::MoveTime(ms), _) if *ms > self.max_movetime_ms => {
                too_much(
                    format!("thinks {ms} ms a move"),
                    format!("{} ms", self.max_movetime_ms),
                    "max-movetime-ms",
                )
            }
            AgentKind::Engine(EngineBudget::Nodes(nodes), _) if *nodes > self.max_nodes => {
                too_much(
                    format!("searches {nodes} nodes a move"),
                    self.max_nodes.to_string(),
                    "max-nodes",
                )
            }
            _ if spec.is_search() && spec.simulations > self.max_simulations => too_much(
                format!("searches {} simulations a move", spec.simulations),
                self.max_simulations.to_string(),
                "max-simulations",
            ),
            _ => None,
        }
    }

    /// The caps as `/api/info` reports them.
    pub fn to_json(self) -> Value {
        json!({
            "max_depth": self.max_depth,
            "max_movetime_ms": self.max_movetime_ms,
            "max_nodes": self.max_nodes,
            "max_simulations": self.max_simulations,
        })
    }
}
