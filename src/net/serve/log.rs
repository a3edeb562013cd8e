//! The request log: one line per request on stderr, as common HTTP servers
//! write them, so whoever runs `heterodox serve` sees what it is asked and
//! how long each answer took (`serve --quiet` turns it off):
//!
//! ```text
//! POST /api/games 201 3.2 ms
//! GET /api/games/8e57.../legal 200 0.4 ms
//! POST /api/games/8e57.../agent 499 812.0 ms
//! ```
//!
//! Only the path is written, never the query string: it holds the seat's
//! token. A request whose client went away before the answer is written
//! with 499 (nginx's "client closed request"), when the server dropped it.

use std::io::Write;
use std::time::Instant;

use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

/// Status written for a request dropped before it was answered.
const CLIENT_CLOSED: u16 = 499;

/// Writes its line when dropped: when the answer is ready, or when the
/// server drops the request unanswered.
struct Line {
    method: Method,
    path: String,
    start: Instant,
    status: u16,
}

impl Drop for Line {
    fn drop(&mut self) {
        let ms = self.start.elapsed().as_secs_f64() * 1000.0;
        // A closed stderr must not take the server down with it.
        let _ = writeln!(
            std::io::stderr().lock(),
            "{} {} {} {ms:.1} ms",
            self.method,
            self.path,
            self.status
        );
    }
}

/// The logging middleware (`axum::middleware::from_fn`).
pub async fn log_request(request: Request, next: Next) -> Response {
    let mut line = Line {
        method: request.method().clone(),
        path: request.uri().path().to_owned(),
        start: Instant::now(),
        status: CLIENT_CLOSED,
    };
    let response = next.run(request).await;
    line.status = response.status().as_u16();
    response
}
