//! The API's typed errors: every failure is a status, a stable code and a
//! sentence saying what is wrong, sent as
//! `{"error": {"code": "...", "message": "..."}}`. A request that fails
//! changes nothing.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// One failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A word a program can match: `bad_request`, `forbidden`, `not_found`,
    /// `gone`, `conflict`, `illegal_move`, `too_large`, `method_not_allowed`,
    /// `busy`, `internal`.
    pub code: &'static str,
    pub message: String,
    /// Seconds after which the request may succeed (`Retry-After`), for a
    /// server too busy now.
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503: every agent search the server allows at once is running; the
    /// answer says when to try again (`Retry-After`).
    pub fn busy(message: impl Into<String>, retry_after_seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after_seconds),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message)
        }
    }

    /// 405: a known endpoint asked with another method.
    pub fn method_not_allowed() -> ApiError {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "this endpoint does not take that method",
        )
    }
}

/// One constructor per failure with a message of its own, named by its
/// code: the code a program matches is the constructor's name, so the two
/// cannot drift apart.
macro_rules! failures {
    ($($(#[$doc:meta])* $code:ident => $status:ident;)*) => {
        impl ApiError {
            $(
                $(#[$doc])*
                pub fn $code(message: impl Into<String>) -> ApiError {
                    ApiError::new(StatusCode::$status, stringify!($code), message)
                }
            )*
        }
    };
}

failures! {
    /// 400: malformed JSON, a missing or invalid field (named).
    bad_request => BAD_REQUEST;
    /// 403: the token is no seat of this game, or the seat may not do this.
    forbidden => FORBIDDEN;
    /// 404: no game ever had this id (or no such endpoint).
    not_found => NOT_FOUND;
    /// 410: the game existed and was evicted, expired or lost.
    gone => GONE;
    /// 409: the request is well formed but not now (another's turn, an
    /// agent thinking, nothing to undo).
    conflict => CONFLICT;
    /// 422: the rules refuse the move; the message is theirs.
    illegal_move => UNPROCESSABLE_ENTITY;
    /// 413: a request body over the limit.
    too_large => PAYLOAD_TOO_LARGE;
    /// 500: a bug; the server goes on.
    internal => INTERNAL_SERVER_ERROR;
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
