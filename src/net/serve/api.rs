//! The HTTP/JSON API under the page (docs/play.md documents it): routes,
//! request bodies and their checks. What every handler shares (the
//! server's state, running work on a game as a seat) is app.rs; the
//! agent's move, which thinks on a blocking thread under the server's
//! search budget, is api_agent.rs.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_training::arena::agent::{menu, AgentSpec};
use serde::Deserialize;
use serde_json::{json, Value};
use tower_http::catch_panic::CatchPanicLayer;

use super::api_agent;
use super::app::{as_seat, state_of, App, TokenBody, MAX_BODY};
use super::error::ApiError;
use super::extract::{JsonBody, QueryString};
use super::log::log_request;
use super::page;
use super::seat::Seat;
use super::session::{NewGame, Player, Session};
use super::store::Tokens;
use super::zoo::ZooAgent;

/// The longest position string, move text and agent string accepted.
const MAX_FEN: usize = 512;
const MAX_MOVE: usize = 256;
const MAX_AGENT: usize = 512;
const MAX_OPTIONS: usize = 16;

/// The routes; every request is logged on stderr unless `quiet`.
pub fn router(app: Arc<App>, quiet: bool) -> Router {
    let router = Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/info", get(info))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/agent", post(api_agent::agent))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/position", get(position))
        .route("/api/games/{id}/pgn", get(pgn))
        .fallback(|| async { ApiError::not_found("no such page or endpoint") })
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(CatchPanicLayer::custom(
            |panic: Box<dyn std::any::Any + Send>| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                ApiError::internal(format!("internal error: {what}")).into_response()
            },
        ))
        .with_state(app);
    if quiet {
        router
    } else {
        router.layer(middleware::from_fn(log_request))
    }
}

fn too_long(field: &str, text: &str, limit: usize) -> Result<(), ApiError> {
    if text.len() > limit {
        return Err(ApiError::bad_request(format!(
            "{field}: longer than {limit} bytes"
        )));
    }
    Ok(())
}

#[derive(Deserialize)]
struct SeatQuery {
    token: String,
    #[serde(default)]
    flip: bool,
}

#[derive(Deserialize)]
struct PositionQuery {
    token: String,
    ply: usize,
    #[serde(default)]
    flip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    token: String,
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    flip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGameBody {
    variant: String,
    #[serde(default)]
    options: BTreeMap<String, String>,
    fen: Option<String>,
    /// `human` or an agent string; White defaults to a human, Black to
    /// the server's agent.
    white: Option<String>,
    black: Option<String>,
    #[serde(default)]
    seed: u64,
}

/// The default rule settings of each variant, every key explicit.
struct DefaultOptions;

impl VariantVisitor for DefaultOptions {
    type Output = Value;

    fn visit<P: GameVariant>(self) -> Value {
        let options: BTreeMap<String, String> = P::parse_rules(&RuleOptions::new())
            .map(|rules| P::rule_options(&rules))
            .map(|options| {
                options
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        json!({
            "name": P::VARIANT.name(),
            "options": options,
            "hidden_information": !P::PERFECT_INFORMATION,
        })
    }
}

async fn info(State(app): State<Arc<App>>) -> Json<Value> {
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| v.visit(DefaultOptions))
        .collect();
    let agents: Vec<Value> = menu()
        .into_iter()
        .map(|choice| json!({"spec": choice.spec, "about": choice.about}))
        .collect();
    let zoo: Vec<Value> = app.zoo.iter().map(ZooAgent::to_json).collect();
    let limits = app.store.limits();
    Json(json!({
        "variants": variants,
        "agents": agents,
        "zoo": zoo,
        "default_agent": app.default_agent.to_string(),
        "games": app.store.len(),
        "searches": app.searches.running(),
        "limits": {
            "max_games": limits.max_games,
            "idle_seconds": limits.idle.as_secs(),
            "max_body_bytes": MAX_BODY,
            "max_searches": app.searches.max(),
            "agents": app.caps.to_json(),
        },
    }))
}

/// A seat's player as a client names it: `human`, or an agent string
/// within what the server allows
/// ([`AgentCaps`](super::caps::AgentCaps)), checked before anything is
/// loaded.
fn player(
    field: &str,
    text: Option<String>,
    default: Player,
    app: &App,
) -> Result<Player, ApiError> {
    let Some(text) = text else {
        return Ok(default);
    };
    too_long(field, &text, MAX_AGENT)?;
    if text == "human" {
        return Ok(Player::Human);
    }
    let spec = text
        .parse::<AgentSpec>()
        .map_err(|e| ApiError::bad_request(format!("{field}: {e}")))?;
    match app.caps.refusal(&spec, &app.default_agent) {
        Some(reason) => Err(ApiError::bad_request(format!(
            "{field}: agent '{spec}': {reason}"
        ))),
        None => Ok(Player::Agent(spec)),
    }
}

async fn create(
    State(app): State<Arc<App>>,
    JsonBody(body): JsonBody<NewGameBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let variant: Variant = body
        .variant
        .parse()
        .map_err(|e| ApiError::bad_request(format!("variant: {e}")))?;
    if body.options.len() > MAX_OPTIONS {
        return Err(ApiError::bad_request(format!(
            "options: more than {MAX_OPTIONS} settings"
        )));
    }
    let mut options = RuleOptions::new();
    for (key, value) in &body.options {
        too_long("options", key, MAX_AGENT)?;
        too_long("options", value, MAX_AGENT)?;
        options.set(key, value);
    }
    if let Some(fen) = &body.fen {
        too_long("fen", fen, MAX_FEN)?;
    }
    let players = [
        player("white", body.white, Player::Human, &app)?,
        player(
            "black",
            body.black,
            Player::Agent(app.default_agent.clone()),
            &app,
        )?,
    ];
    let names = players.clone().map(|p| p.name());
    let referee = players.iter().all(|p| p != &Player::Human);
    let new = NewGame {
        variant,
        options,
        fen: body.fen,
        players,
        seed: body.seed,
        device: app.device,
    };
    // Building may load a network from disk: not on the runtime's threads.
    let session = tokio::task::spawn_blocking(move || new.build())
        .await
        .map_err(|e| ApiError::internal(format!("setting up the game failed: {e}")))??;
    let tokens = Tokens::new(referee);
    let id = app.store.insert(session, tokens.clone());
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "variant": variant.name(),
            "players": {"white": names[0], "black": names[1]},
            "tokens": {"white": tokens.white, "black": tokens.black, "referee": tokens.referee},
        })),
    ))
}

/// Runs `act` on game `id` as the seat `token` holds there, then answers
/// the state that seat sees.
fn act_then_state(
    app: &App,
    id: &str,
    token: &str,
    flip: bool,
    act: impl FnOnce(&mut dyn Session, Seat) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    as_seat(app, id, token, |s, seat| {
        act(s, seat)?;
        Ok(Json(state_of(s, id, seat, flip)))
    })
}

async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    QueryString(q): QueryString<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    act_then_state(&app, &id, &q.token, q.flip, |_, _| Ok(()))
}

async fn legal(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    QueryString(q): QueryString<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    as_seat(&app, &id, &q.token, |s, seat| Ok(Json(s.legal(seat))))
}

async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<MoveBody>,
) -> Result<Json<Value>, ApiError> {
    too_long("move", &body.text, MAX_MOVE)?;
    act_then_state(&app, &id, &body.token, body.flip, |s, seat| {
        s.play(seat, &body.text)
    })
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    act_then_state(&app, &id, &body.token, body.flip, |s, seat| s.undo(seat))
}

async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    act_then_state(&app, &id, &body.token, body.flip, |s, seat| s.resign(seat))
}

async fn draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    act_then_state(&app, &id, &body.token, body.flip, |s, seat| {
        s.offer_draw(seat)
    })
}

async fn position(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    QueryString(q): QueryString<PositionQuery>,
) -> Result<Json<Value>, ApiError> {
    as_seat(&app, &id, &q.token, |s, seat| {
        s.position_at(seat, q.ply, q.flip).map(Json)
    })
}

async fn pgn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    QueryString(q): QueryString<SeatQuery>,
) -> Result<Response, ApiError> {
    let text = as_seat(&app, &id, &q.token, |s, seat| Ok(s.pgn(seat)))?;
    let short: String = id.chars().take(8).collect();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"heterodox-{short}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}
