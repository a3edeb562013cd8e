//! What every handler shares: the server's state ([`App`]), the request
//! body that names only a seat, and running work on a game as a seat. The
//! game handlers (api.rs), the agent's move (api_agent.rs) and the
//! extractors (extract.rs) all build on it; it is its own module so that
//! none of them needs another's file for it (the router names every
//! handler, and a handler names no router).

use std::sync::Arc;

use heterodox_models::tch::Device;
use heterodox_training::arena::agent::AgentSpec;
use serde::Deserialize;
use serde_json::Value;

use super::caps::AgentCaps;
use super::error::ApiError;
use super::searches::Searches;
use super::seat::Seat;
use super::session::Session;
use super::store::{SharedSession, Store};
use super::zoo::ZooAgent;

/// The largest request body read (a move or a new game is far smaller).
pub const MAX_BODY: usize = 16 * 1024;

/// What every handler shares.
pub struct App {
    pub store: Store,
    /// Plays Black in a new game that names no players.
    pub default_agent: AgentSpec,
    /// What a client may ask of an agent (`serve --max-...`).
    pub caps: AgentCaps,
    /// The agent searches running, bounded (`serve --max-searches`).
    pub searches: Arc<Searches>,
    /// The shipped networks a client may choose.
    pub zoo: Vec<ZooAgent>,
    pub device: Device,
}

/// A request body that names only a seat (undo, resign, draw, the
/// agent's move), and whether the board is shown flipped.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    pub token: String,
    #[serde(default)]
    pub flip: bool,
}

/// Runs `work` on a game. A game whose lock a panic poisoned is dropped
/// (its state may be half changed) and answers 410 from then on.
pub fn with_session<T>(
    app: &App,
    id: &str,
    session: &SharedSession,
    work: impl FnOnce(&mut dyn Session) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let Ok(mut guard) = session.lock() else {
        app.store.lose(id);
        return Err(ApiError::internal(format!(
            "game {id} was lost to an internal error"
        )));
    };
    work(guard.as_mut())
}

/// Runs `work` on game `id` as the seat `token` holds there.
pub fn as_seat<T>(
    app: &App,
    id: &str,
    token: &str,
    work: impl FnOnce(&mut dyn Session, Seat) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let (session, seat) = app.store.get(id, token)?;
    with_session(app, id, &session, |s| work(s, seat))
}

/// The state as `seat` sees it, with the game's id.
pub fn state_of(session: &dyn Session, id: &str, seat: Seat, flip: bool) -> Value {
    let mut state = session.state(seat, flip);
    state["id"] = Value::from(id);
    state
}
