//! `heterodox serve` (served by `heterodox-net`: its agents may run a
//! network): a local web server where a person plays any variant and rule
//! set against an agent or another person, or watches two agents. The page
//! (page/) is embedded; under it is an HTTP/JSON API (api.rs, documented
//! in docs/play.md).
//!
//! ```text
//! heterodox serve                      http://127.0.0.1:8080/
//! heterodox serve --port 0             any free port (the URL is printed)
//! heterodox serve --agent uniform@400  the agent a new game plays by default
//! ```
//!
//! Agents think on tokio's blocking threads (`spawn_blocking`), never on
//! the runtime's, at most `--max-searches` at once, each stopped when its
//! request is abandoned or its game leaves (searches.rs). Games are bounded
//! in number and idle time (store.rs); a panic in a handler answers 500
//! and the server goes on. Each request is logged on stderr (log.rs)
//! unless `--quiet`.

mod agent_turn;
mod api;
mod api_agent;
mod app;
mod caps;
mod check;
mod error;
mod extract;
mod log;
mod page;
mod searches;
mod seat;
mod session;
mod store;
mod view;
mod zoo;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use heterodox_training::arena::agent::{AgentSpec, DEFAULT_AGENT};

use crate::common::print_stdout;
use caps::AgentCaps;
use searches::Searches;
use store::{Limits, Store};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 takes any free port (the URL is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (the loopback by default: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The agent a new game plays unless the page names another: random,
    /// uniform@SIMS, rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS (networks
    /// optionally /nolosses or /nowins).
    #[arg(long, default_value = DEFAULT_AGENT)]
    agent: String,
    /// The most games kept at once; a new game past it evicts the least
    /// recently used.
    #[arg(long, default_value_t = 1000)]
    max_games: usize,
    /// Seconds a game is kept without a request.
    #[arg(long, default_value_t = 3600)]
    idle_seconds: u64,
    /// The deepest engine search a client may ask for (`ab@DEPTH`).
    #[arg(long, default_value_t = 12)]
    max_depth: u32,
    /// The longest engine move a client may ask for (`ab@MSms`), in ms.
    #[arg(long, default_value_t = 10_000)]
    max_movetime_ms: u64,
    /// The most engine nodes a move a client may ask for (`ab@NODESn`).
    #[arg(long, default_value_t = 10_000_000)]
    max_nodes: u64,
    /// The most simulations a move a client may ask of a tree search
    /// (`rollout@SIMS`, `zoo:NAME@SIMS`).
    #[arg(long, default_value_t = 4096)]
    max_simulations: u32,
    /// The most agent searches running at once (the engine and the tree
    /// searches; random and greedy play need none); past it an agent move
    /// is answered 503 busy with Retry-After. Default: the number of cores.
    #[arg(long)]
    max_searches: Option<usize>,
    /// No request log on stderr.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    device: crate::device::DeviceArgs,
}

pub fn run(args: &ServeArgs) -> Result<(), String> {
    let default_agent: AgentSpec = args.agent.parse().map_err(|e| format!("--agent: {e}"))?;
    if args.max_games == 0 {
        return Err("--max-games must be at least 1".to_owned());
    }
    if args.idle_seconds == 0 {
        return Err("--idle-seconds must be at least 1".to_owned());
    }
    let caps = AgentCaps {
        max_depth: args.max_depth,
        max_movetime_ms: args.max_movetime_ms,
        max_nodes: args.max_nodes,
        max_simulations: args.max_simulations,
    };
    let max_searches = match args.max_searches {
        Some(0) => return Err("--max-searches must be at least 1".to_owned()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let device = args.device.device()?;
    let limits = Limits {
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle_seconds),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.host, args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address listened on: {e}"))?;
        let app = Arc::new(app::App {
            store: Store::new(limits),
            default_agent,
            caps,
            searches: Searches::new(max_searches),
            zoo: zoo::shipped(caps.max_simulations),
            device,
        });
        let sweeper = Arc::clone(&app);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(30));
            loop {
                every.tick().await;
                sweeper.store.sweep();
            }
        });
        print_stdout(&format!(
            "heterodox serve: http://{address}/ (Ctrl-C stops)\n"
        ));
        axum::serve(listener, api::router(app, args.quiet))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}
