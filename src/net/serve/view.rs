//! What one seat of a game is sent: the state, the legal moves and the
//! PGN. Under hidden information (Traitor) a player's seat is sent only
//! its view: the board drawn from `view_diagram`, the view string, the
//! other player's secret steps as `(secret)` (never their notation, long
//! form or squares), and an agent's numbers only while that player's view
//! holds no secret of the agent's. The referee (a game of two agents)
//! sees everything.

use heterodox_env::pgn::{pgn_game, Movetext};
use heterodox_env::render::{svg_with, SvgOptions};
use heterodox_env::{Color, GameVariant};
use serde_json::{json, Value};

use super::session::{Player, Step, TypedSession};
use super::store::Seat;

/// How a step the seat may not see is written.
pub const SECRET_STEP: &str = "(secret)";

/// Whether `seat` may see which step `step` was.
fn sees<A>(seat: Seat, step: &Step<A>) -> bool {
    match (seat.color(), step.hidden_from) {
        (Some(color), Some(hidden_from)) => color != hidden_from,
        _ => true,
    }
}

fn kind(player: &Player) -> &'static str {
    match player {
        Player::Human => "human",
        Player::Agent(_) => "agent",
    }
}

impl<P: GameVariant> TypedSession<P> {
    /// Whether `seat` is a human whose turn it is (and nothing blocks it).
    fn your_turn(&self, seat: Seat) -> bool {
        let turn = self.game.position().turn();
        seat.color() == Some(turn)
            && self.players[turn.index()] == Player::Human
            && !self.thinking
            && self.game.outcome().is_none()
    }

    fn step_json(&self, index: usize, step: &Step<P::Action>, seat: Seat) -> Value {
        if !sees(seat, step) {
            return json!({
                "ply": index + 1, "player": step.mover.name(), "notation": SECRET_STEP,
                "long": null, "targets": [], "secret": true,
            });
        }
        let targets: Vec<String> = step.targets.iter().map(|t| t.id()).collect();
        json!({
            "ply": index + 1, "player": step.mover.name(), "notation": step.notation,
            "long": step.long, "targets": targets, "secret": false,
        })
    }

    fn reply_json(&self, seat: Seat) -> Value {
        let Some(reply) = &self.reply else {
            return Value::Null;
        };
        let step = &self.steps[reply.step];
        let visible = sees(seat, step);
        let numbers = seat
            .color()
            .is_none_or(|color| reply.numbers_for[color.index()]);
        let top: Vec<Value> = if numbers {
            reply
                .top
                .iter()
                .map(|(notation, visits, policy)| {
                    json!({"notation": notation, "visits": visits, "policy": policy})
                })
                .collect()
        } else {
            Vec::new()
        };
        json!({
            "player": reply.mover.name(),
            "agent": reply.agent,
            "move": if visible { Value::from(step.notation.as_str()) } else { Value::Null },
            "secret": !visible,
            "value": if numbers { reply.value.map_or(Value::Null, Value::from) } else { Value::Null },
            "top": top,
            // Nothing is withheld from random play, which has no numbers.
            "withheld": !numbers && (reply.value.is_some() || !reply.top.is_empty()),
        })
    }

    /// The movetext as `seat` saw it.
    fn movetext(&self, seat: Seat) -> Movetext {
        let mut movetext = Movetext::new();
        for step in &self.steps {
            let shown = if sees(seat, step) {
                step.notation.as_str()
            } else {
                SECRET_STEP
            };
            movetext.push(step.mover, shown);
        }
        movetext
    }

    /// A position string as `seat` may read it.
    fn position_string(&self, position: &P, seat: Seat) -> String {
        match seat.color() {
            Some(color) => P::view_string(&position.view(color)),
            None => position.fen(),
        }
    }

    pub(super) fn state_json(&self, seat: Seat, flipped: bool) -> Value {
        let position = self.game.position();
        let outcome = self.game.outcome();
        let mut diagram = match seat.color() {
            Some(color) => P::view_diagram(&position.view(color)),
            None => position.diagram(),
        };
        if let Some(outcome) = outcome {
            diagram.set_result(outcome);
        }
        let turn = position.turn();
        let moves: Vec<Value> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| self.step_json(i, step, seat))
            .collect();
        let last = self
            .steps
            .last()
            .filter(|step| sees(seat, step))
            .map_or(Vec::new(), |step| {
                step.targets.iter().map(|t| t.id()).collect()
            });
        json!({
            "variant": P::VARIANT.name(),
            "options": self.options.to_string(),
            "seat": seat.name(),
            "players": {
                "white": self.players[0].name(),
                "black": self.players[1].name(),
            },
            "turn": turn.name(),
            "to_move": if outcome.is_some() { Value::Null } else { Value::from(kind(&self.players[turn.index()])) },
            "your_turn": self.your_turn(seat),
            "thinking": self.thinking,
            "over": outcome.is_some(),
            "result": outcome.map_or("*", |o| o.result()),
            "outcome": outcome.map(|o| o.to_string()),
            "version": self.version,
            "position": self.position_string(position, seat),
            "svg": svg_with(&diagram, SvgOptions { flipped }),
            "notes": diagram.below,
            "moves": moves,
            "movetext": self.movetext(seat).as_str(),
            "last": last,
            "agent": self.reply_json(seat),
        })
    }

    pub(super) fn legal_json(&self, seat: Seat) -> Value {
        if !self.your_turn(seat) {
            return json!({"your_turn": false, "version": self.version, "moves": []});
        }
        let position = self.game.position();
        let mut actions = Vec::new();
        self.game.legal_actions(&mut actions);
        let moves: Vec<Value> = actions
            .iter()
            .map(|action| {
                let gesture = position.gesture(action);
                let targets: Vec<String> = gesture.targets.iter().map(|t| t.id()).collect();
                json!({
                    "long": action.to_string(),
                    "notation": position.notation(action),
                    "kind": gesture.kind,
                    "targets": targets,
                    "ordered": gesture.ordered,
                })
            })
            .collect();
        json!({"your_turn": true, "version": self.version, "moves": moves})
    }

    pub(super) fn pgn_text(&self, seat: Seat) -> String {
        let outcome = self.game.outcome();
        let result = outcome.map_or("*", |o| o.result());
        let white = self.players[Color::White.index()].name();
        let black = self.players[Color::Black.index()].name();
        let options = self.options.to_string();
        let fen = self.position_string(&self.start, seat);
        let termination = outcome.map(|o| o.termination().name().to_owned());
        let mut tags = vec![
            ("Event", "heterodox serve"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", white.as_str()),
            ("Black", black.as_str()),
            ("Result", result),
            ("Variant", P::VARIANT.name()),
        ];
        if !options.is_empty() {
            tags.push(("VariantOptions", &options));
        }
        tags.extend([("SetUp", "1"), ("FEN", &fen)]);
        if let Some(termination) = &termination {
            tags.push(("Termination", termination));
        }
        pgn_game(&tags, self.movetext(seat).as_str(), result)
    }
}
