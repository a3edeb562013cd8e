//! `heterodox serve`'s HTTP/JSON API on a loopback port: a game against an
//! agent from creation to PGN, the typed errors (each changing nothing),
//! and the bounds on live games. Hidden information on the wire is
//! tests/serve_hidden.rs.

mod support;

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
    let server = Server::start(&["--agent", "random"]);
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
    let server = Server::start(&[]);
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
    let server = Server::start(&["--max-depth", "6", "--max-simulations", "512"]);
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
    let server = Server::start(&["--max-games", "2", "--idle-seconds", "1"]);
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
