//! `POST /api/games/{id}/agent`: the agent to move takes one step. Its
//! search runs on a blocking thread (never the runtime's), within the
//! server's budget of searches (searches.rs: 503 `busy` when full), and
//! the thread itself plays the move into the game, so a game is never left
//! "thinking" by a request nobody waits for. The request holds the
//! search's stop flag: when the server drops the request (its client went
//! away) the flag is set and the engine stops at once; a game leaving the
//! store sets it too (store.rs).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::app::{as_seat, state_of, with_session, App, TokenBody};
use super::error::ApiError;
use super::extract::JsonBody;
use super::searches::{searches, StopOnDrop};

pub async fn agent(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    let (session, _) = app.store.get(&id, &body.token)?;
    let stop = Arc::new(AtomicBool::new(false));
    // The slot is taken before the game is marked thinking, so a busy
    // server changes nothing.
    let (task, slot) = with_session(&app, &id, &session, |s| {
        let slot = match searches(&s.agent_to_move()?) {
            true => Some(app.searches.try_start()?),
            false => None,
        };
        Ok((s.start_agent(Arc::clone(&stop))?, slot))
    })?;
    let _abandoned = StopOnDrop(stop);
    let game = Arc::clone(&session);
    let finished = tokio::task::spawn_blocking(move || {
        let done = catch_unwind(AssertUnwindSafe(task));
        // The search has ended: its slot is free, whatever follows.
        drop(slot);
        let Ok(mut s) = game.lock() else {
            return Err(ApiError::internal("the game was lost to an internal error"));
        };
        match done {
            Ok(done) => s.finish_agent(done),
            Err(_) => {
                s.abort_agent();
                Err(ApiError::internal("the agent's search panicked"))
            }
        }
    })
    .await;
    // A game that left meanwhile answers why (410), before anything else.
    as_seat(&app, &id, &body.token, |s, seat| {
        match finished {
            Ok(result) => result?,
            Err(e) => return Err(ApiError::internal(format!("the agent's thread died: {e}"))),
        }
        Ok(Json(state_of(s, &id, seat, body.flip)))
    })
}
