//! The API's typed errors: every failure is a status, a stable code and a
//! sentence saying what is wrong, sent as
//! `{"error": {"code": "...", "message": "..."}}`. A request that fails
//! changes nothing.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// One failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A word a program can match: `bad_request`, `forbidden`, `not_found`,
    /// `gone`, `conflict`, `illegal_move`, `too_large`, `method_not_allowed`,
    /// `internal`.
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400: malformed JSON, a missing or invalid field (named).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 403: the token is no seat of this game, or the seat may not do this.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404: no game ever had this id (or no such endpoint).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 410: the game existed and was evicted, expired or lost.
    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::GONE, "gone", message)
    }

    /// 409: the request is well formed but not now (another's turn, an
    /// agent thinking, nothing to undo).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// 422: the rules refuse the move; the message is theirs.
    pub fn illegal_move(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", message)
    }

    /// 413: a request body over the limit.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
    }

    /// 405: a known endpoint asked with another method.
    pub fn method_not_allowed() -> ApiError {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "this endpoint does not take that method",
        )
    }

    /// 500: a bug; the server goes on.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}
