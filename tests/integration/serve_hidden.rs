//! Hidden information on the wire: in a Traitor game served by
//! `heterodox serve`, nothing a player's token is answered (state, legal
//! moves, moves, an agent's reply, undo, PGN, error messages) holds the
//! opponent's secret.

use crate::support;

use serde_json::{json, Value};
use support::server::{NewGame, Server};

/// Every body one seat was answered, to search for a secret.
#[derive(Default)]
struct Wire(Vec<String>);

impl Wire {
    fn get(&mut self, server: &Server, path: &str) -> (u16, Value) {
        let (status, body) = server.get_text(path);
        self.0.push(body.clone());
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    fn post(&mut self, server: &Server, path: &str, body: Value) -> (u16, Value) {
        let (status, answer) = server.post(path, &body);
        self.0.push(answer.to_string());
        (status, answer)
    }

    /// Asserts that no body holds any of `secrets`.
    fn never_holds(&self, secrets: &[&str]) {
        assert!(self.0.len() >= 8, "too little traffic: {}", self.0.len());
        for body in &self.0 {
            for secret in secrets {
                assert!(!body.contains(secret), "'{secret}' leaked in {body}");
            }
        }
    }
}

#[test]
fn a_players_answers_never_hold_the_opponents_selection() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id,
        white,
        black,
        referee,
    } = server.create_game(&json!({"variant": "traitor", "white": "human", "black": "human"}));
    assert_eq!(referee, None);
    let mut seen_by_white = Wire::default();
    let game_path = format!("/api/games/{id}");
    let play = |wire: &mut Wire, token: &str, text: &str| {
        wire.post(
            &server,
            &format!("{game_path}/move"),
            json!({"token": token, "move": text}),
        )
    };
    let (status, _) = play(&mut seen_by_white, &white, "S-d7,e7");
    assert_eq!(status, 200);
    // Black's secret: three of White's men.
    let (status, state) = server.post(
        &format!("{game_path}/move"),
        &json!({"token": black, "move": "(S-Rh1,c2,f2)"}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["notes"][3], "secrets: white hidden, black h1,c2,f2");

    let (_, state) = seen_by_white.get(&server, &format!("{game_path}?token={white}"));
    assert_eq!(
        state["position"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- d7,e7/? open - -"
    );
    assert_eq!(state["notes"][3], "secrets: white d7,e7, black hidden");
    assert_eq!(
        state["moves"][1],
        json!({"ply": 2, "player": "black", "notation": "(secret)", "long": null,
               "targets": [], "secret": true})
    );
    assert_eq!(state["movetext"], "1. (S-d7,e7) (secret)");
    assert_eq!(state["last"], json!([]));
    seen_by_white.get(&server, &format!("{game_path}/legal?token={white}"));
    // An illegal move's message names the position as White sees it.
    let (status, answer) = play(&mut seen_by_white, &white, "Ke3");
    assert_eq!(status, 422);
    assert_eq!(
        answer["error"]["message"],
        "illegal move 'Ke3' in position \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- d7,e7/? open - -"
    );
    play(&mut seen_by_white, &white, "e4");
    server.post(
        &format!("{game_path}/move"),
        &json!({"token": black, "move": "e5"}),
    );
    // White announces its traitor on d7 and moves.
    let (status, state) = play(&mut seen_by_white, &white, "(T-d7)Nf3");
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["movetext"],
        "1. (S-d7,e7) (secret) 2. e4 e5 3. (T-d7)Nf3"
    );
    seen_by_white.get(&server, &format!("{game_path}/pgn?token={white}"));
    let (status, _) = seen_by_white.post(
        &server,
        &format!("{game_path}/undo"),
        json!({"token": white}),
    );
    assert_eq!(status, 200);
    seen_by_white.get(&server, &format!("{game_path}?token={white}&flip=true"));
    let (_, pgn) = server.get_text(&format!("{game_path}/pgn?token={white}"));
    assert!(
        pgn.ends_with("\n1. (S-d7,e7) (secret) 2. e4 e5 *\n"),
        "{pgn}"
    );
    seen_by_white.never_holds(&["h1,c2,f2", "S-h1", "S-Rh1", "Rh1,c2", "black h1"]);

    // Black's side of the same game hides White's remaining secret (e7).
    let (_, state) = server.get(&format!("{game_path}?token={black}"));
    assert_eq!(state["notes"][3], "secrets: white hidden, black h1,c2,f2");
    assert_eq!(state["moves"][0]["notation"], "(secret)");
}

#[test]
fn an_agents_secret_steps_and_numbers_are_withheld() {
    let server = Server::start(&["--quiet"]);
    // An agent's seat has a token too: it reads the agent's own view.
    let NewGame {
        id, white, black, ..
    } = server.create_game(
        &json!({"variant": "traitor", "white": "human", "black": "rollout@8", "seed": 5}),
    );
    let game_path = format!("/api/games/{id}");
    let mut seen_by_white = Wire::default();
    seen_by_white.post(
        &server,
        &format!("{game_path}/move"),
        json!({"token": white, "move": "S-d7"}),
    );
    let (status, state) = seen_by_white.post(
        &server,
        &format!("{game_path}/agent"),
        json!({"token": white}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["agent"],
        json!({"player": "black", "agent": "rollout@8", "move": null, "secret": true,
               "value": null, "top": [], "withheld": true})
    );
    assert_eq!(state["notes"][3], "secrets: white d7, black hidden");
    // What the agent chose, read from its own seat.
    let (_, agent_view) = server.get(&format!("{game_path}?token={black}"));
    let line = agent_view["notes"][3].as_str().unwrap();
    let secret = line
        .strip_prefix("secrets: white hidden, black ")
        .unwrap_or_else(|| panic!("{line}"));
    // The agent's own seat sees its choice and its numbers.
    assert_eq!(agent_view["agent"]["secret"], false);
    assert!(agent_view["agent"]["move"]
        .as_str()
        .unwrap()
        .starts_with("(S-"));
    assert_eq!(agent_view["agent"]["withheld"], false);
    for _ in 0..3 {
        let (_, legal) = seen_by_white.get(&server, &format!("{game_path}/legal?token={white}"));
        let first = legal["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["kind"] == "move")
            .map(|m| m["long"].as_str().unwrap().to_owned())
            .unwrap();
        let (_, mut state) = seen_by_white.post(
            &server,
            &format!("{game_path}/move"),
            json!({"token": white, "move": first}),
        );
        // The agent's turn may be an announcement and a move.
        while state["to_move"] == "agent" {
            let (status, answer) = seen_by_white.post(
                &server,
                &format!("{game_path}/agent"),
                json!({"token": white}),
            );
            assert_eq!(status, 200, "{answer}");
            // The agent still holds a secret: its search stays withheld.
            assert_eq!(answer["agent"]["withheld"], true);
            assert_eq!(answer["agent"]["top"], json!([]));
            state = answer;
        }
    }
    seen_by_white.get(&server, &format!("{game_path}/pgn?token={white}"));
    seen_by_white.never_holds(&[&format!("black {secret}"), &format!("/{secret} ")]);
}

/// Two agents: the referee's token watches with everything in view; a
/// player's token of the same game still sees only its own view.
#[test]
fn the_referee_of_two_agents_sees_both_secrets() {
    let server = Server::start(&["--quiet"]);
    let NewGame {
        id, white, referee, ..
    } = server.create_game(
        &json!({"variant": "traitor", "white": "random", "black": "random", "seed": 2}),
    );
    let referee = referee.expect("a game of two agents has a referee");
    for _ in 0..2 {
        let (status, state) = server.post(
            &format!("/api/games/{id}/agent"),
            &json!({"token": referee}),
        );
        assert_eq!(status, 200, "{state}");
    }
    let (_, seen) = server.get(&format!("/api/games/{id}?token={referee}"));
    assert_eq!(seen["seat"], "referee");
    let secrets = seen["notes"][3].as_str().unwrap();
    assert!(!secrets.contains("hidden"), "{secrets}");
    assert_eq!(seen["moves"][1]["secret"], false);
    let (_, white_view) = server.get(&format!("/api/games/{id}?token={white}"));
    assert!(white_view["notes"][3]
        .as_str()
        .unwrap()
        .ends_with("black hidden"));
    assert_eq!(white_view["moves"][1]["notation"], "(secret)");
    // The referee watches: it cannot move.
    let (status, answer) = server.post(
        &format!("/api/games/{id}/move"),
        &json!({"token": referee, "move": "e4"}),
    );
    assert_eq!(status, 403, "{answer}");
}

/// After a game, the page is sent what the engine agent believed of its
/// opponent's secret; never while the game goes on.
#[test]
fn after_the_game_the_page_shows_what_the_engine_believed() {
    let server = Server::start(&["--quiet"]);
    let NewGame { id, white, .. } = server
        .create_game(&json!({"variant": "traitor", "white": "human", "black": "ab@2", "seed": 5}));
    let path = format!("/api/games/{id}");
    let mv = |text: &str| {
        server.post(
            &format!("{path}/move"),
            &json!({"token": white, "move": text}),
        )
    };
    let agent = || server.post(&format!("{path}/agent"), &json!({"token": white}));
    // White holds Black's queen, which would mate at once (T-Qd8), and
    // plays 1.e4 instead.
    mv("S-d8");
    let (_, state) = agent();
    assert_eq!(state["beliefs"], Value::Null);
    let (status, mut state) = mv("e2e4");
    assert_eq!(status, 200, "{state}");
    while state["to_move"] == "agent" {
        assert_eq!(state["beliefs"], Value::Null);
        state = agent().1;
    }
    assert_eq!(
        state["over"], true,
        "the equilibrium Black holds White's queen: {state}"
    );
    let beliefs = &state["beliefs"];
    assert_eq!(beliefs.as_array().unwrap().len(), 1, "{beliefs}");
    let black = &beliefs[0];
    assert_eq!(
        (&black["player"], &black["consistent"], &black["turns"]),
        (&json!("black"), &json!(2204), &json!(1))
    );
    let secrets = black["secrets"].as_array().unwrap();
    assert_eq!(secrets.len(), 10);
    // White's queen-holding secret, the true one, is not among the
    // likeliest: a player holding it would have mated.
    assert!(secrets.iter().all(|s| s["secret"] != "d8"), "{black}");
}
