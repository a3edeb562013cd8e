//! `heterodox serve` for tests: the server on a free loopback port, and a
//! small HTTP/1.1 client (one request per connection) to talk to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running server, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// `heterodox serve --port 0 ARGS`, once it listens.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_heterodox"))
            .args(["serve", "--port", "0", "--device", "cpu"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, address }
    }

    /// One request; the status and the body as text.
    pub fn raw(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .expect("the request is sent");
        stream.write_all(body).expect("the body is sent");
        let mut response = Vec::new();
        stream
            .read_to_end(&mut response)
            .expect("the response is read");
        let text = String::from_utf8(response).expect("UTF-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head}"));
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, body)
    }

    /// A GET; the status and the body as text.
    pub fn get_text(&self, path: &str) -> (u16, String) {
        self.raw("GET", path, "text/plain", b"")
    }

    /// A GET of JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get_text(path);
        (status, parse(&body))
    }

    /// A POST of JSON; the status and the JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.raw(
            "POST",
            path,
            "application/json",
            body.to_string().as_bytes(),
        );
        (status, parse(&text))
    }

    /// Creates a game with `settings` (`POST /api/games`), which must be
    /// answered 201 Created: the new game's id and tokens.
    pub fn create_game(&self, settings: &Value) -> NewGame {
        let (status, game) = self.post("/api/games", settings);
        assert_eq!(status, 201, "{settings}: {game}");
        NewGame::read(&game)
    }
}

/// What creating a game answers: its id and the token of each seat.
#[derive(Debug)]
pub struct NewGame {
    pub id: String,
    pub white: String,
    pub black: String,
    /// Only a game of two agents has a referee, who watches it.
    pub referee: Option<String>,
}

impl NewGame {
    fn read(game: &Value) -> NewGame {
        // A string at `pointer`; `None` where the answer has nothing, or null.
        let text = |pointer: &str| match game.pointer(pointer) {
            None | Some(Value::Null) => None,
            Some(value) => Some(
                value
                    .as_str()
                    .unwrap_or_else(|| panic!("{pointer} is not a string in {game}"))
                    .to_owned(),
            ),
        };
        let required =
            |pointer: &str| text(pointer).unwrap_or_else(|| panic!("no {pointer} in {game}"));
        NewGame {
            id: required("/id"),
            white: required("/tokens/white"),
            black: required("/tokens/black"),
            referee: text("/tokens/referee"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The body of a chunked response.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// The error code and message of an error answer.
pub fn error(body: &Value) -> (&str, &str) {
    (
        body["error"]["code"].as_str().expect("an error code"),
        body["error"]["message"].as_str().expect("an error message"),
    )
}
