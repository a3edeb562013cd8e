//! The API's own extractors: a JSON body and a query string like axum's
//! `Json` and `Query`, whose refusal is an [`ApiError`] in the API's form
//! (with serde's reason, which names the field: "missing field `token`"),
//! so that no handler maps a rejection itself.

use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use super::app::MAX_BODY;
use super::error::ApiError;

/// A request body read as JSON into `T`.
pub struct JsonBody<T>(pub T);

/// A query string read into `T`.
pub struct QueryString<T>(pub T);

/// An extractor's refusal as the API's error.
fn refused(status: StatusCode, text: String) -> ApiError {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::too_large(format!("the request body is over {MAX_BODY} bytes"))
        }
        _ => ApiError::bad_request(text),
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(e) => Err(refused(e.status(), e.body_text())),
        }
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryString<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(QueryString(value)),
            Err(e) => Err(refused(e.status(), e.body_text())),
        }
    }
}
