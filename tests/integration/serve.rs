//! `heterodox serve`'s HTTP/JSON API on a loopback port: a game against an
//! agent from creation to PGN, the typed errors (each changing nothing),
//! the bounds on live games, the shipped networks, check, earlier
//! positions, resignations and draw offers, the secrets shown at the end,
//! the request log, and the server's budget of searches (a full server
//! answers 503; an abandoned, resigned or evicted game's search stops).
//! Hidden information during the game is tests/integration/serve_hidden.rs.

use crate::support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::server::{error, NewGame, Server};
use support::{assert_starts_with, heterodox, string_fields, text};

fn notations(state: &Value) -> Vec<&str> {
    string_fields(&state["moves"], "notation")
}

#[test]
fn serve_is_reached_through_heterodox_and_checks_its_arguments() {
    let help = heterodox(&["serve", "--help"]);
    assert!(help.status.success());
    let out = text(&help.stdout);
    assert_starts_with(
        &out,
        "A local web server: play any variant in the browser against an agent or a \
         person, or watch two agents\n\nUsage: heterodox serve [OPTIONS]\n",
    );
    for flag in [
        "--port",
        "--agent",
        "--max-games",
        "--idle-seconds",
        "--max-searches",
        "--quiet",
        "--device",
    ] {
        assert!(out.contains(flag), "{flag}: {out}");
    }
    let bad = heterodox(&["serve", "--agent", "alphabeta"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_starts_with(
        &text(&bad.stderr),
        "error: --agent: bad agent 'alphabeta': unknown kind of agent (agents: random",
    );
}

#[test]
fn a_game_against_an_agent_from_start_to_pgn() {
    let server = Server::start(&["--agent", "random", "--quiet"]);
    let (status, info) = server.get("/api/info");
    assert_eq!(status, 200);
    assert_eq!(
        string_fields(&info["variants"], "name"),
        ["chess", "poison", "hostage", "madscientist", "traitor"]
    );
    assert_eq!(info["default_agent"], "random");
    assert_eq!(info["agents"][0]["spec"], "ab@300ms");
    assert_eq!(info["variants"][4]["hidden_information"], true);
    assert_eq!(info["variants"][4]["options"]["mode"], "traitor");

    // Black defaults to the server's agent.
    let NewGame { id, white, .. } = server.create_game(&json!({"variant": "hostage", "seed": 3}));
    let (status, state) = server.get(&format!("/api/games/{id}?token={white}"));
    assert_eq!(status, 200);
    assert_eq!(
        state["players"],
        json!({"white": "human", "black": "random"})
    );
    assert_eq!(
        (&state["seat"], &state["turn"], &state["your_turn"]),
        (&json!("white"), &json!("white"), &json!(true))
    );
    assert_eq!(
        state["position"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1"
    );
    let svg = state["svg"].as_str().unwrap();
    assert!(svg.contains(r#"<g class="cell" data-target="e2">"#));

    let (_, legal) = server.get(&format!("/api/games/{id}/legal?token={white}"));
    let moves = legal["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let e4 = moves.iter().find(|m| m["long"] == "e2e4").unwrap();
    assert_eq!(
        e4,
        &json!({"long": "e2e4", "notation": "e4", "kind": "move",
                "targets": ["e2", "e4"], "ordered": true})
    );

    let (status, state) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"token": white, "move": "e4"}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(notations(&state), ["e4"]);
    assert_eq!(
        (&state["to_move"], &state["your_turn"], &state["last"]),
        (&json!("agent"), &json!(false), &json!(["e2", "e4"]))
    );
    let (_, legal) = server.get(&format!("/api/games/{id}/legal?token={white}"));
    assert_eq!(legal["moves"], json!([]));

    let (status, state) = server.post(
        &format!("/api/games/{id}/agent"),
        &json!({"token": white, "flip": true}),
    );
    assert_eq!(status, 200, "{state}");
    let played = notations(&state);
    assert_eq!(played.len(), 2);
    let reply = &state["agent"];
    assert_eq!(
        (
            &reply["agent"],
            &reply["player"],
            &reply["move"],
            &reply["secret"]
        ),
        (
            &json!("random"),
            &json!("black"),
            &json!(played[1]),
            &json!(false)
        )
    );
    // Random play has no search to report.
    assert_eq!((&reply["value"], &reply["top"]), (&Value::Null, &json!([])));
    // Flipped: a1 is drawn top right.
    assert!(state["svg"]
        .as_str()
        .unwrap()
        .contains(r#"<rect class="square dark" id="a1" x="335" y="20""#));

    let (status, pgn) = server.get_text(&format!("/api/games/{id}/pgn?token={white}"));
    assert_eq!(status, 200);
    assert_eq!(
        pgn,
        format!(
            "[Event \"heterodox serve\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
             [White \"human\"]\n[Black \"random\"]\n[Result \"*\"]\n[Variant \"hostage\"]\n\
             [SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1\"]\n\
             \n1. e4 {} *\n",
            played[1]
        )
    );

    // Undo takes back White's turn and the agent's answer.
    let (status, state) = server.post(&format!("/api/games/{id}/undo"), &json!({"token": white}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(notations(&state), Vec::<&str>::new());
    assert_eq!(
        (&state["version"], &state["agent"]),
        (&json!(3), &Value::Null)
    );
}

#[test]
fn bad_requests_get_typed_errors_and_change_nothing() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id, white, black, ..
    } = server.create_game(&json!({"variant": "chess", "white": "human", "black": "human"}));
    let state = |token: &str| server.get(&format!("/api/games/{id}?token={token}")).1;
    let before = state(&white);
    let moved = format!("/api/games/{id}/move");
    let cases: Vec<(u16, Value, &str, &str)> = vec![
        (
            422,
            json!({"token": white, "move": "e5"}),
            "illegal_move",
            "illegal move 'e5' in position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            400,
            json!({"token": white, "move": "Zz9"}),
            "bad_request",
            "cannot read move 'Zz9': ",
        ),
        (
            409,
            json!({"token": black, "move": "e5"}),
            "conflict",
            "it is white's turn, not black's",
        ),
        (
            403,
            json!({"token": "0123", "move": "e4"}),
            "forbidden",
            "the token is not a seat of game ",
        ),
        (
            400,
            json!({"token": white}),
            "bad_request",
            "Failed to deserialize the JSON body into the target type: missing field `move`",
        ),
        (
            400,
            json!({"token": white, "move": "e4", "promote": "q"}),
            "bad_request",
            "Failed to deserialize the JSON body into the target type: promote: unknown field `promote`, expected one of `token`, `move`, `flip`",
        ),
        (
            400,
            json!({"token": white, "move": "e".repeat(300)}),
            "bad_request",
            "move: longer than 256 bytes",
        ),
    ];
    for (status, body, code, message) in cases {
        let (got, answer) = server.post(&moved, &body);
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(error(&answer).0, code, "{answer}");
        assert!(error(&answer).1.starts_with(message), "{answer}");
    }
    // Not JSON, too large, the wrong content type.
    let (status, body) = server.raw("POST", &moved, "application/json", b"{\"token\": ");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("\"code\":\"bad_request\""), "{body}");
    let big = json!({"token": white, "move": "x".repeat(20_000)}).to_string();
    let (status, body) = server.raw("POST", &moved, "application/json", big.as_bytes());
    assert_eq!(
        (status, body.as_str()),
        (
            413,
            r#"{"error":{"code":"too_large","message":"the request body is over 16384 bytes"}}"#
        )
    );
    let (status, _) = server.raw("POST", &moved, "text/plain", b"{}");
    assert_eq!(status, 400);
    // Nothing changed.
    assert_eq!(state(&white), before);

    let (status, answer) = server.get(&format!("/api/games/{}?token={white}", "f".repeat(32)));
    assert_eq!(
        (status, error(&answer)),
        (
            404,
            ("not_found", format!("no game {}", "f".repeat(32)).as_str())
        )
    );
    let (status, answer) = server.get(&format!("/api/games/{id}"));
    assert_eq!(status, 400);
    assert_eq!(
        error(&answer).1,
        "Failed to deserialize query string: missing field `token`"
    );
    let (status, answer) = server.post(&format!("/api/games/{id}/agent"), &json!({"token": white}));
    assert_eq!(
        (status, error(&answer)),
        (409, ("conflict", "white to move is a human, not an agent"))
    );
    let (status, answer) = server.post(&format!("/api/games/{id}/undo"), &json!({"token": white}));
    assert_eq!(
        (status, error(&answer)),
        (409, ("conflict", "white has no move to take back"))
    );
    let (status, answer) = server.get("/api/nothing");
    assert_eq!((status, error(&answer).0), (404, "not_found"));
    let (status, answer) = server.get(&moved);
    assert_eq!((status, error(&answer).0), (405, "method_not_allowed"));

    // New games: each field named.
    let refusals = [
        (json!({"variant": "shogi"}), "variant: unknown variant 'shogi' (valid variants: chess, poison, hostage, madscientist, traitor)"),
        (json!({"variant": "chess", "black": "alphabeta"}), "black: bad agent 'alphabeta': unknown kind of agent"),
        (json!({"variant": "traitor", "options": {"mode": "spy"}}), "options: invalid value 'spy' for traitor option 'mode' (valid values: traitor, defector, double-agent, defector-double-agent, mercenary)"),
        (json!({"variant": "chess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}), "fen: illegal position: "),
        (json!({"variant": "chess", "seed": -1}), "Failed to deserialize the JSON body into the target type: seed: invalid value"),
        (json!({"variant": "chess", "black": "net:/nonexistent@8"}), "black: agent 'net:/nonexistent@8': "),
    ];
    for (body, message) in refusals {
        let (status, answer) = server.post("/api/games", &body);
        assert_eq!(
            (status, error(&answer).0),
            (400, "bad_request"),
            "{body}: {answer}"
        );
        assert!(error(&answer).1.starts_with(message), "{body}: {answer}");
    }
    let (_, info) = server.get("/api/info");
    assert_eq!(info["games"], 1, "no refused game was kept");
}

#[test]
fn clients_choose_agents_within_the_server_s_caps_and_name_no_paths() {
    let server = Server::start(&["--max-depth", "6", "--max-simulations", "512", "--quiet"]);
    let (_, info) = server.get("/api/info");
    assert_eq!(
        info["limits"]["agents"],
        json!({"max_depth": 6, "max_movetime_ms": 10000, "max_nodes": 10000000, "max_simulations": 512})
    );
    let net = "a network directory (net:) is named on the server's command line (serve --agent), \
               not by a client; shipped networks are zoo:NAME@SIMS";
    let existing = format!("net:{}@8", env!("CARGO_MANIFEST_DIR"));
    let refusals = [
        ("ab@64", "searches to depth 64, above this server's cap of 6 (serve --max-depth)".to_owned()),
        ("ab@3600000ms", "thinks 3600000 ms a move, above this server's cap of 10000 ms (serve --max-movetime-ms)".to_owned()),
        ("ab@20000000n", "searches 20000000 nodes a move, above this server's cap of 10000000 (serve --max-nodes)".to_owned()),
        ("rollout@513", "searches 513 simulations a move, above this server's cap of 512 (serve --max-simulations)".to_owned()),
        // The same words whether the path exists or not.
        ("net:/nonexistent@8", net.to_owned()),
        (existing.as_str(), net.to_owned()),
    ];
    for (agent, reason) in refusals {
        let (status, answer) =
            server.post("/api/games", &json!({"variant": "chess", "white": agent}));
        assert_eq!(
            (status, error(&answer)),
            (
                400,
                (
                    "bad_request",
                    format!("white: agent '{agent}': {reason}").as_str()
                )
            ),
            "{agent}"
        );
    }
    let (_, info) = server.get("/api/info");
    assert_eq!(info["games"], 0, "no refused game was kept");
    // At the caps, and the server's own agent, are allowed.
    for agent in [
        "ab@6",
        "ab@10000ms",
        "ab@10000000n",
        "rollout@512",
        "ab@300ms",
    ] {
        let (status, answer) = server.post(
            "/api/games",
            &json!({"variant": "chess", "white": "human", "black": agent}),
        );
        assert_eq!(status, 201, "{agent}: {answer}");
    }
}

#[test]
fn evicted_and_expired_games_say_so() {
    let server = Server::start(&["--max-games", "2", "--idle-seconds", "1", "--quiet"]);
    let new = || server.create_game(&json!({"variant": "poison", "black": "human"}));
    let NewGame {
        id: first,
        white: first_token,
        ..
    } = new();
    let NewGame {
        id: second,
        white: second_token,
        ..
    } = new();
    // Using the first makes the second the least recently used.
    assert_eq!(
        server
            .get(&format!("/api/games/{first}?token={first_token}"))
            .0,
        200
    );
    let NewGame {
        id: third,
        white: third_token,
        ..
    } = new();
    let (status, answer) = server.get(&format!("/api/games/{second}?token={second_token}"));
    assert_eq!(status, 410);
    assert_eq!(
        error(&answer),
        (
            "gone",
            format!(
                "game {second} was evicted: the server keeps at most 2 games and this one \
                 was the least recently used"
            )
            .as_str()
        )
    );
    assert_eq!(
        server
            .get(&format!("/api/games/{third}?token={third_token}"))
            .0,
        200
    );
    // Idle for over a second: expired (the expiry is what is tested, so
    // the test waits it out).
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (status, answer) = server.get(&format!("/api/games/{third}?token={third_token}"));
    assert_eq!(status, 410);
    assert_eq!(
        error(&answer).1,
        format!("game {third} expired: it had no request for 1 s")
    );
}

// ---- helpers for what support::server does not do: a connection kept
// open (to abandon a request), response headers, the server's stderr ----

/// Sends a request on a connection of its own and returns the connection
/// unread: reading it waits for the answer, dropping it abandons the
/// request.
fn send(address: &str, method: &str, path: &str, body: &Value) -> TcpStream {
    let body = body.to_string();
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .expect("the request is sent");
    stream
}

/// The status, the head and the body of the answer on `stream`.
fn answer(mut stream: TcpStream) -> (u16, String, Value) {
    let mut text = String::new();
    stream
        .read_to_string(&mut text)
        .expect("the answer is read");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = serde_json::from_str(body).unwrap_or(Value::Null);
    (status, head.to_owned(), body)
}

/// Waits until `/api/info` says `searches` agent searches run; how long
/// that took. Panics after 5 s.
/// Asks `game`'s agent (White) to move, without reading the answer, and
/// waits until its search runs: the open request, to drop or read.
fn start_thinking(server: &Server, game: &NewGame) -> TcpStream {
    let thinking = send(
        &server.address,
        "POST",
        &format!("/api/games/{}/agent", game.id),
        &json!({"token": game.white}),
    );
    wait_for_searches(&server.address, 1);
    thinking
}

fn wait_for_searches(address: &str, searches: u64) -> Duration {
    let start = Instant::now();
    loop {
        let (_, _, info) = answer(send(address, "GET", "/api/info", &Value::Null));
        if info["searches"] == searches {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still {} searches running, not {searches}",
            info["searches"]
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A human-against-agent chess game after White's `e4`, the agent to move.
fn agent_to_move(server: &Server, agent: &str) -> NewGame {
    let game = server.create_game(&json!({"variant": "chess", "black": agent}));
    let (status, state) = server.post(
        &format!("/api/games/{}/move", game.id),
        &json!({"token": game.white, "move": "e4"}),
    );
    assert_eq!(status, 200, "{state}");
    game
}

/// `heterodox serve` with its stderr (the request log) read by the test.
struct LoggedServer {
    child: Child,
    address: String,
}

impl LoggedServer {
    fn start(args: &[&str]) -> LoggedServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_heterodox"))
            .args(["serve", "--port", "0", "--device", "cpu"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .unwrap()
            .trim_end_matches("/ (Ctrl-C stops)\n");
        LoggedServer {
            address: address.to_owned(),
            child,
        }
    }

    /// Stops the server; its stderr, line by line.
    fn stop(mut self) -> Vec<String> {
        let _ = self.child.kill();
        let mut log = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut log)
            .unwrap();
        let _ = self.child.wait();
        log.lines().map(str::to_owned).collect()
    }
}

/// `METHOD PATH STATUS`, the milliseconds dropped after checking their form.
fn logged(line: &str) -> String {
    let (rest, ms) = line
        .strip_suffix(" ms")
        .and_then(|rest| rest.rsplit_once(' '))
        .unwrap_or_else(|| panic!("not a log line: {line}"));
    let (whole, tenths) = ms.split_once('.').expect("milliseconds with one decimal");
    assert!(whole.parse::<u64>().is_ok() && tenths.len() == 1, "{line}");
    rest.to_owned()
}

// ---- the page's game: shipped networks, check, earlier positions ----

#[test]
fn shipped_networks_are_listed_with_the_rules_they_play_and_play() {
    let server = Server::start(&["--quiet"]);
    let (_, info) = server.get("/api/info");
    let zoo = info["zoo"].as_array().unwrap();
    assert_eq!(
        string_fields(&info["zoo"], "spec"),
        [
            "zoo:chess@64/quiescence=1",
            "zoo:hostage@64/quiescence",
            "zoo:madscientist@64/quiescence=1",
            "zoo:poison@64/quiescence",
            "zoo:traitor-defector@64/quiescence",
            "zoo:traitor-defector-double-agent@64",
            "zoo:traitor-double-agent@64/quiescence",
            "zoo:traitor-mercenary@64/quiescence",
            "zoo:traitor-traitor@64/quiescence",
        ]
    );
    assert_eq!(
        zoo[1],
        json!({"spec": "zoo:hostage@64/quiescence", "variant": "hostage", "options": {},
               "about": "shipped network, 64 simulations: Hostage Chess, one hour on a CPU with the quiescence at the leaves (58.8% against ab@1)"})
    );
    // Every rule setting, as /api/info gives the variant's defaults.
    assert_eq!(
        zoo[4]["options"],
        json!({"announce_check": "allowed", "commitment": "impromptu", "mode": "defector",
               "no_immediate_undo": "on", "selection": "phase"})
    );
    let defaults = &info["variants"][4]["options"];
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&zoo[4]["options"]), keys(defaults));

    let NewGame { id, white, .. } = agent_to_move(&server, "zoo:chess@64");
    let (status, state) = server.post(&format!("/api/games/{id}/agent"), &json!({"token": white}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["agent"]["agent"], "zoo:chess@64");
    assert!(state["agent"]["value"].is_f64(), "{state}");
    assert_eq!(
        state["agent"]["top"][0]["notation"],
        state["moves"][1]["notation"]
    );
    // A network of other rules is refused, naming the seat.
    let (status, answer) = server.post(
        "/api/games",
        &json!({"variant": "chess", "black": "zoo:hostage@64"}),
    );
    assert_eq!((status, error(&answer).0), (400, "bad_request"));
    assert_starts_with(error(&answer).1, "black: agent 'zoo:hostage@64': ");

    // Under a lower cap they are listed within it.
    let capped = Server::start(&["--max-simulations", "16", "--quiet"]);
    let (_, info) = capped.get("/api/info");
    assert_eq!(info["zoo"][1]["spec"], "zoo:hostage@16/quiescence");
    assert_starts_with(
        info["zoo"][1]["about"].as_str().unwrap(),
        "shipped network, 16 simulations: ",
    );
}

#[test]
fn the_king_in_check_is_named_in_the_view() {
    let server = Server::start(&["--quiet"]);
    let human = |variant: &str, fen: &str| {
        server.create_game(&json!({"variant": variant, "fen": fen, "black": "human"}))
    };
    let NewGame { id, white, .. } = human("chess", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    let (_, state) = server.get(&format!("/api/games/{id}?token={white}"));
    assert_eq!(state["check"], "e1");
    let (_, state) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"token": white, "move": "Kxe2"}),
    );
    assert_eq!(state["check"], Value::Null);
    // Black to move in check, in Hostage and Poison too.
    for variant in ["hostage", "poison"] {
        let NewGame { id, black, .. } = human(variant, "4k3/8/8/8/8/8/8/4RK2 b - - 0 1");
        let (_, state) = server.get(&format!("/api/games/{id}?token={black}"));
        assert_eq!(state["check"], "e8", "{variant}: {state}");
    }
    // Traitor: check by a public piece, shown to both seats.
    let NewGame {
        id, white, black, ..
    } = server.create_game(&json!({"variant": "traitor", "black": "human"}));
    for (token, text) in [
        (&white, "S-d7,e7"),
        (&black, "(S-Rh1,c2,f2)"),
        (&white, "e4"),
        (&black, "f5"),
        (&white, "Qh5"),
    ] {
        let (status, state) = server.post(
            &format!("/api/games/{id}/move"),
            &json!({"token": token, "move": text}),
        );
        assert_eq!(status, 200, "{text}: {state}");
    }
    for token in [&white, &black] {
        let (_, state) = server.get(&format!("/api/games/{id}?token={token}"));
        assert_eq!(state["check"], "e8");
    }
    // The Scientist is never in check (M1), even attacked.
    let NewGame { id, white, .. } = human("madscientist", "4k3/8/8/8/8/8/4r3/4K3 w - - - 0 1");
    let (status, state) = server.get(&format!("/api/games/{id}?token={white}"));
    assert_eq!((status, &state["check"]), (200, &Value::Null), "{state}");
}

#[test]
fn earlier_positions_are_served_by_ply() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id, white, black, ..
    } = server.create_game(&json!({"variant": "chess", "black": "human"}));
    for (token, text) in [(&white, "e4"), (&black, "e5"), (&white, "Qh5")] {
        let (status, _) = server.post(
            &format!("/api/games/{id}/move"),
            &json!({"token": token, "move": text}),
        );
        assert_eq!(status, 200);
    }
    let at = |ply: &str| server.get(&format!("/api/games/{id}/position?token={black}&ply={ply}"));
    let (status, start) = at("0");
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        (
            &start["ply"],
            &start["plies"],
            &start["last"],
            &start["check"]
        ),
        (&json!(0), &json!(3), &json!([]), &Value::Null)
    );
    assert_eq!(
        start["position"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let (_, first) = at("1");
    assert_eq!(
        (&first["position"], &first["last"]),
        (
            &json!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            &json!(["e2", "e4"])
        )
    );
    assert!(first["svg"]
        .as_str()
        .unwrap()
        .contains(r#"data-target="e4""#));
    // The last ply is the game as it stands.
    let (_, last) = at("3");
    let (_, state) = server.get(&format!("/api/games/{id}?token={black}"));
    for field in ["position", "svg", "notes", "last", "check"] {
        assert_eq!(last[field], state[field], "{field}");
    }
    for (ply, message) in [
        ("4", "ply: 4 is past the game's last ply, 3"),
        (
            "-1",
            "Failed to deserialize query string: ply: invalid digit found in string",
        ),
    ] {
        let (status, answer) = at(ply);
        assert_eq!((status, error(&answer)), (400, ("bad_request", message)));
    }
}

// ---- endings: resignation, draw offers, the secrets shown ----

#[test]
fn a_resignation_ends_the_game_for_the_opponent() {
    let server = Server::start(&["--agent", "random", "--quiet"]);
    let NewGame {
        id, white, black, ..
    } = agent_to_move(&server, "random");
    // The agent's seat and a stranger may not resign for White.
    let resign =
        |token: &str| server.post(&format!("/api/games/{id}/resign"), &json!({"token": token}));
    let (status, answer) = resign(&black);
    assert_eq!(
        (status, error(&answer)),
        (403, ("forbidden", "black is played by the agent random"))
    );
    let (status, state) = resign(&white);
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        (
            &state["over"],
            &state["result"],
            &state["outcome"],
            &state["termination"],
            &state["to_move"],
            &state["your_turn"]
        ),
        (
            &json!(true),
            &json!("0-1"),
            &json!("0-1 (resignation)"),
            &json!("resignation"),
            &Value::Null,
            &json!(false)
        )
    );
    assert!(
        state["notes"]
            .as_array()
            .unwrap()
            .contains(&json!("result 0-1: black wins by resignation")),
        "{state}"
    );
    // Over: nothing more changes it.
    let over = "the game is over: 0-1 (resignation)";
    for (path, message) in [
        ("resign", over.to_owned()),
        ("draw", over.to_owned()),
        ("agent", over.to_owned()),
        (
            "undo",
            format!("{over}; a game resigned or agreed drawn cannot be taken back"),
        ),
    ] {
        let (status, answer) =
            server.post(&format!("/api/games/{id}/{path}"), &json!({"token": white}));
        assert_eq!(
            (status, error(&answer)),
            (409, ("conflict", message.as_str())),
            "{path}"
        );
    }
    let (status, answer) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"token": white, "move": "d4"}),
    );
    assert_eq!((status, error(&answer).1), (409, over));
    let (_, after) = server.get(&format!("/api/games/{id}?token={white}"));
    assert_eq!(after, state, "the refusals changed nothing");
    let (_, pgn) = server.get_text(&format!("/api/games/{id}/pgn?token={white}"));
    assert!(pgn.contains("[Result \"0-1\"]\n"), "{pgn}");
    assert!(pgn.contains("[Termination \"resignation\"]\n"), "{pgn}");

    // The referee of a game between agents watches; it cannot resign.
    let NewGame { id, referee, .. } =
        server.create_game(&json!({"variant": "chess", "white": "random", "black": "random"}));
    let (status, answer) = server.post(
        &format!("/api/games/{id}/resign"),
        &json!({"token": referee.unwrap()}),
    );
    assert_eq!((status, error(&answer).0), (403, "forbidden"));
}

#[test]
fn an_agent_accepts_a_draw_only_when_it_expects_to_lose() {
    let server = Server::start(&["--quiet"]);
    let offer = |game: &NewGame| {
        server.post(
            &format!("/api/games/{}/draw", game.id),
            &json!({"token": game.white}),
        )
    };
    let agent_moves = |game: &NewGame| {
        let (status, state) = server.post(
            &format!("/api/games/{}/agent", game.id),
            &json!({"token": game.white}),
        );
        assert_eq!(status, 200, "{state}");
        state
    };
    // Black (the engine) a queen up: it declines, before and after moving.
    let winning = server.create_game(
        &json!({"variant": "chess", "fen": "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "black": "ab@2"}),
    );
    let (status, state) = offer(&winning);
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["draw_offer"],
        json!({"by": "white", "answer": "declined",
               "reason": "ab@2 has made no move yet to judge the game by"})
    );
    assert_eq!(
        (&state["over"], &state["version"]),
        (&json!(false), &json!(1))
    );
    server.post(
        &format!("/api/games/{}/move", winning.id),
        &json!({"token": winning.white, "move": "Ke2"}),
    );
    agent_moves(&winning);
    let (_, state) = offer(&winning);
    assert_eq!(
        state["draw_offer"],
        json!({"by": "white", "answer": "declined",
               "reason": "ab@2 does not expect to lose (its value is -0.25 or more)"})
    );
    // A queen down, it accepts.
    let losing = server.create_game(
        &json!({"variant": "chess", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "black": "ab@2"}),
    );
    server.post(
        &format!("/api/games/{}/move", losing.id),
        &json!({"token": losing.white, "move": "Qd2"}),
    );
    let state = agent_moves(&losing);
    assert!(state["agent"]["value"].as_f64().unwrap() < -0.25, "{state}");
    let (_, state) = offer(&losing);
    assert_eq!(
        (&state["over"], &state["result"], &state["termination"]),
        (&json!(true), &json!("1/2-1/2"), &json!("agreement"))
    );
    assert_eq!(
        state["draw_offer"],
        json!({"by": "white", "answer": "accepted",
               "reason": "ab@2 expects to lose (its value is below -0.25)"})
    );
    // Random play has no value: it declines every offer.
    let random = agent_to_move(&server, "random");
    agent_moves(&random);
    let (_, state) = offer(&random);
    assert_eq!(
        state["draw_offer"]["reason"],
        "random has no evaluation to judge a draw by"
    );
}

#[test]
fn a_draw_offer_between_people_stands_until_answered_or_played_past() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id, white, black, ..
    } = server.create_game(&json!({"variant": "chess", "black": "human"}));
    let post = |path: &str, body: Value| server.post(&format!("/api/games/{id}/{path}"), &body);
    let (_, state) = post("draw", json!({"token": white}));
    let pending = json!({"by": "white", "answer": "pending", "reason": null});
    assert_eq!(
        (&state["draw_offer"], &state["over"]),
        (&pending, &json!(false))
    );
    // Offered with a move: it stands; Black playing on declines it.
    let (_, state) = post("move", json!({"token": white, "move": "e4"}));
    assert_eq!(state["draw_offer"], pending);
    let (_, state) = post("move", json!({"token": black, "move": "e5"}));
    assert_eq!(state["draw_offer"], Value::Null);
    // An offer while the opponent's stands agrees the draw.
    post("draw", json!({"token": white}));
    let (status, state) = post("draw", json!({"token": black}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        (&state["outcome"], &state["draw_offer"]),
        (
            &json!("1/2-1/2 (agreement)"),
            &json!({"by": "black", "answer": "accepted", "reason": "white had offered a draw too"})
        )
    );
}

#[test]
fn a_traitor_game_shows_both_secrets_once_over_and_not_before() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id, white, black, ..
    } = server.create_game(&json!({"variant": "traitor", "black": "human"}));
    let post = |token: &str, path: &str, more: Value| {
        let mut body = json!({"token": token});
        body.as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        server.post(&format!("/api/games/{id}/{path}"), &body)
    };
    post(&white, "move", json!({"move": "S-d7,e7"}));
    let (status, _) = post(&black, "move", json!({"move": "(S-Rh1,c2,f2)"}));
    assert_eq!(status, 200);
    let secret = ["h1,c2,f2", "Rh1"];
    let mut seen = Vec::new();
    for path in ["", "/position?ply=2&", "/position?ply=1&", "/pgn?"] {
        let path = if path.is_empty() {
            "?".to_owned()
        } else {
            path.to_owned()
        };
        seen.push(
            server
                .get_text(&format!("/api/games/{id}{path}token={white}"))
                .1,
        );
    }
    seen.push(post(&white, "draw", json!({})).1.to_string());
    for body in &seen {
        for s in secret {
            assert!(!body.contains(s), "'{s}' leaked before the end: {body}");
        }
    }
    let before: Value = serde_json::from_str(&seen[1]).unwrap();
    assert_eq!(before["notes"][3], "secrets: white d7,e7, black hidden");

    let (status, state) = post(&white, "resign", json!({}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["notes"][3], "secrets: white d7,e7, black h1,c2,f2");
    assert_eq!(
        (&state["moves"][1]["notation"], &state["moves"][1]["secret"]),
        (&json!("(S-Rh1,c2,f2)"), &json!(false))
    );
    assert_eq!(state["movetext"], "1. (S-d7,e7) (S-Rh1,c2,f2)");
    let (_, earlier) = server.get(&format!("/api/games/{id}/position?token={white}&ply=2"));
    assert_eq!(earlier["notes"][3], "secrets: white d7,e7, black h1,c2,f2");
    let (_, pgn) = server.get_text(&format!("/api/games/{id}/pgn?token={white}"));
    assert!(pgn.ends_with("\n1. (S-d7,e7) (S-Rh1,c2,f2) 0-1\n"), "{pgn}");
    let (status, answer) = post(&white, "undo", json!({}));
    assert_eq!((status, error(&answer).0), (409, "conflict"));
}

#[test]
fn a_mad_scientist_part_in_hand_is_drawn_as_its_letter() {
    let server = Server::start(&["--quiet"]);
    let fen = "rn1qk[wff]nr/ppp1pppp/8/3p4/6b1/2N1P3/PPPP1PPP/R1B1KBNR w KQkq - wffcb 0 4";
    let NewGame { id, white, .. } =
        server.create_game(&json!({"variant": "madscientist", "fen": fen, "black": "human"}));
    let (_, state) = server.get(&format!("/api/games/{id}?token={white}"));
    let svg = state["svg"].as_str().unwrap();
    let group = |target: &str| {
        let from = svg.find(&format!("data-target=\"{target}\"")).unwrap();
        let to = from + svg[from..].find("</g>").unwrap();
        svg[from..to].to_owned()
    };
    assert!(
        group("black-hand-B").contains(">B</text>"),
        "{}",
        group("black-hand-B")
    );
    assert!(!group("black-hand-B").contains('\u{265D}'));
    // The bishop on g4 keeps its glyph; f8's three parts fit on two lines,
    // in capitals as in the hand.
    assert!(group("g4").contains(">\u{265D}</text>"));
    assert!(
        group("f8").contains(">WF</tspan>") && group("f8").contains(">F</tspan>"),
        "{}",
        group("f8")
    );
}

// ---- the request log ----

#[test]
fn each_request_is_logged_on_stderr_without_its_token() {
    let server = LoggedServer::start(&[]);
    let address = server.address.clone();
    let (_, _, game) = answer(send(
        &address,
        "POST",
        "/api/games",
        &json!({"variant": "chess"}),
    ));
    let token = game["tokens"]["white"].as_str().unwrap();
    let id = game["id"].as_str().unwrap();
    answer(send(
        &address,
        "GET",
        &format!("/api/games/{id}?token={token}"),
        &Value::Null,
    ));
    answer(send(&address, "GET", "/nothing", &Value::Null));
    answer(send(
        &address,
        "POST",
        "/api/games",
        &json!({"variant": "shogi"}),
    ));
    let log = server.stop();
    assert_eq!(
        log.iter().map(|line| logged(line)).collect::<Vec<_>>(),
        [
            "POST /api/games 201".to_owned(),
            format!("GET /api/games/{id} 200"),
            "GET /nothing 404".to_owned(),
            "POST /api/games 400".to_owned(),
        ]
    );
    assert!(!log.iter().any(|line| line.contains(token)));

    let quiet = LoggedServer::start(&["--quiet"]);
    answer(send(&quiet.address, "GET", "/api/info", &Value::Null));
    assert_eq!(quiet.stop(), Vec::<String>::new());
}

// ---- the budget of searches ----

#[test]
fn a_full_server_answers_busy_and_changes_nothing() {
    let server = Server::start(&["--max-searches", "1", "--quiet"]);
    let (_, info) = server.get("/api/info");
    assert_eq!(
        (&info["limits"]["max_searches"], &info["searches"]),
        (&json!(1), &json!(0))
    );
    let long = agent_to_move(&server, "ab@10000ms");
    let thinking = start_thinking(&server, &long);
    let other = agent_to_move(&server, "ab@100ms");
    let state = |game: &NewGame| {
        server
            .get(&format!("/api/games/{}?token={}", game.id, game.white))
            .1
    };
    let before = state(&other);
    let (status, head, body) = answer(send(
        &server.address,
        "POST",
        &format!("/api/games/{}/agent", other.id),
        &json!({"token": other.white}),
    ));
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        error(&body),
        (
            "busy",
            "the server is busy: it runs at most 1 agent searches at once (serve --max-searches) \
             and all are running; try again in 1 s"
        )
    );
    assert!(
        head.to_ascii_lowercase().contains("\r\nretry-after: 1\r\n"),
        "{head}"
    );
    assert_eq!(state(&other), before, "a busy answer changes nothing");
    // Random play needs no search: it still moves.
    let random = agent_to_move(&server, "random");
    let (status, _) = server.post(
        &format!("/api/games/{}/agent", random.id),
        &json!({"token": random.white}),
    );
    assert_eq!(status, 200);
    drop(thinking);
    wait_for_searches(&server.address, 0);
    let (status, state) = server.post(
        &format!("/api/games/{}/agent", other.id),
        &json!({"token": other.white}),
    );
    assert_eq!(status, 200, "{state}");
}

#[test]
fn an_abandoned_request_stops_its_search_at_once() {
    let server = LoggedServer::start(&["--max-movetime-ms", "20000"]);
    let address = server.address.clone();
    let (_, _, game) = answer(send(
        &address,
        "POST",
        "/api/games",
        &json!({"variant": "chess", "black": "ab@20000ms"}),
    ));
    let (id, white) = (
        game["id"].as_str().unwrap(),
        game["tokens"]["white"].as_str().unwrap(),
    );
    answer(send(
        &address,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({"token": white, "move": "e4"}),
    ));
    let thinking = send(
        &address,
        "POST",
        &format!("/api/games/{id}/agent"),
        &json!({"token": white}),
    );
    wait_for_searches(&address, 1);
    drop(thinking);
    let stopped = wait_for_searches(&address, 0);
    assert!(
        stopped < Duration::from_secs(1),
        "the search ran on for {stopped:?}"
    );
    // The game is as it was, and may be asked again.
    let (_, _, state) = answer(send(
        &address,
        "GET",
        &format!("/api/games/{id}?token={white}"),
        &Value::Null,
    ));
    assert_eq!(
        (
            &state["thinking"],
            &state["moves"].as_array().unwrap().len(),
            &state["agent"]
        ),
        (&json!(false), &1, &Value::Null)
    );
    let log = server.stop();
    let agent = format!("POST /api/games/{id}/agent 499");
    assert!(log.iter().any(|line| logged(line) == agent), "{log:?}");
}

#[test]
fn a_resigned_or_evicted_game_s_search_stops() {
    let server = Server::start(&["--max-games", "2", "--max-movetime-ms", "20000", "--quiet"]);
    // Resigned while the agent thinks: the waiting request is told why.
    let game = agent_to_move(&server, "ab@20000ms");
    let thinking = start_thinking(&server, &game);
    let (status, state) = server.post(
        &format!("/api/games/{}/resign", game.id),
        &json!({"token": game.white}),
    );
    assert_eq!((status, &state["result"]), (200, &json!("0-1")));
    assert!(wait_for_searches(&server.address, 0) < Duration::from_secs(1));
    let (status, _, body) = answer(thinking);
    assert_eq!(
        (status, error(&body).1),
        (
            409,
            "the game changed while the agent thought (undo, a new move or a resignation); ask again"
        )
    );
    // Evicted while the agent thinks (two newer games fill the store).
    let game = agent_to_move(&server, "ab@20000ms");
    let thinking = start_thinking(&server, &game);
    server.create_game(&json!({"variant": "chess"}));
    server.create_game(&json!({"variant": "chess"}));
    assert!(wait_for_searches(&server.address, 0) < Duration::from_secs(1));
    let (status, _, body) = answer(thinking);
    assert_eq!((status, error(&body).0), (410, "gone"), "{body}");
}
