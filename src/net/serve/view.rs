//! What one seat of a game is sent: the state, the legal moves, the PGN
//! and the earlier positions. Under hidden information (Traitor) a
//! player's seat is sent only its view while the game goes on: the board
//! drawn from `view_diagram`, the view string, the other player's secret
//! steps as `(secret)` (never their notation, long form or squares), and
//! an agent's numbers only while that player's view holds no secret of the
//! agent's. The referee (a game of two agents) sees everything, and so
//! does every seat once the game is over: the secrets are shown at the
//! end, as players show them over the board (and such a game can then no
//! more be taken back, session/ending.rs).

use heterodox_env::pgn::{GameTags, Movetext, UNKNOWN_DATE};
use heterodox_env::render::{svg_with, Diagram, SvgOptions};
use heterodox_env::{Color, Game, GameVariant, Outcome};
use serde_json::{json, Value};

use super::check::checked_king;
use super::error::ApiError;
use super::seat::Seat;
use super::session::{Player, Step, TypedSession};

/// How many of an agent's likeliest secrets the page is sent.
const BELIEFS_SHOWN: usize = 10;

/// How a step the seat may not see is written.
pub const SECRET_STEP: &str = "(secret)";

/// Whose view a seat is sent: a player's colour, or `None` for everything
/// (the referee, or anyone once the game is over).
type Viewer = Option<Color>;

/// Whether `viewer` may see which step `step` was.
fn sees<A>(viewer: Viewer, step: &Step<A>) -> bool {
    match (viewer, step.hidden_from) {
        (Some(color), Some(hidden_from)) => color != hidden_from,
        _ => true,
    }
}

/// A board as one viewer sees it: the picture, the lines under it, the
/// position string and the king in check.
struct Drawn {
    svg: String,
    notes: Vec<String>,
    position: String,
    check: Option<String>,
}

fn kind(player: &Player) -> &'static str {
    match player {
        Player::Human => "human",
        Player::Agent(_) => "agent",
    }
}

impl<P: GameVariant> TypedSession<P> {
    /// Whose view `seat` is sent (module comment).
    fn viewer(&self, seat: Seat) -> Viewer {
        seat.color().filter(|_| self.outcome().is_none())
    }

    /// Whether `seat` is a human whose turn it is (and nothing blocks it).
    fn your_turn(&self, seat: Seat) -> bool {
        let turn = self.game.position().turn();
        seat.color() == Some(turn)
            && self.players[turn.index()] == Player::Human
            && self.thinking.is_none()
            && self.outcome().is_none()
    }

    /// `position` drawn for `viewer`, with the result line of `outcome`.
    fn board(
        &self,
        position: &P,
        viewer: Viewer,
        flipped: bool,
        outcome: Option<Outcome>,
    ) -> Drawn {
        let mut diagram: Diagram = match viewer {
            Some(color) => P::view_diagram(&position.view(color)),
            None => position.diagram(),
        };
        if let Some(outcome) = outcome {
            diagram.set_result(outcome);
        }
        Drawn {
            svg: svg_with(&diagram, SvgOptions { flipped }),
            notes: diagram.below,
            position: self.position_string(position, viewer),
            check: checked_king(position).map(|square| square.to_string()),
        }
    }

    fn step_json(&self, index: usize, step: &Step<P::Action>, viewer: Viewer) -> Value {
        if !sees(viewer, step) {
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

    fn reply_json(&self, viewer: Viewer) -> Value {
        let Some(reply) = &self.reply else {
            return Value::Null;
        };
        let step = &self.steps[reply.step];
        let visible = sees(viewer, step);
        let numbers = viewer.is_none_or(|color| reply.numbers_for[color.index()]);
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

    /// The movetext as `viewer` sees it.
    fn movetext(&self, viewer: Viewer) -> Movetext {
        let mut movetext = Movetext::new();
        for step in &self.steps {
            let shown = if sees(viewer, step) {
                step.notation.as_str()
            } else {
                SECRET_STEP
            };
            movetext.push(step.mover, shown);
        }
        movetext
    }

    /// A position string as `viewer` may read it.
    fn position_string(&self, position: &P, viewer: Viewer) -> String {
        match viewer {
            Some(color) => P::view_string(&position.view(color)),
            None => position.fen(),
        }
    }

    /// The targets of step `index` (the last move's highlight), none when
    /// `viewer` may not see which step it was.
    fn targets(&self, index: Option<usize>, viewer: Viewer) -> Vec<String> {
        index
            .map(|i| &self.steps[i])
            .filter(|step| sees(viewer, step))
            .map_or(Vec::new(), |step| {
                step.targets.iter().map(|t| t.id()).collect()
            })
    }

    pub(super) fn state_json(&self, seat: Seat, flipped: bool) -> Value {
        let position = self.game.position();
        let outcome = self.outcome();
        let viewer = self.viewer(seat);
        let board = self.board(position, viewer, flipped, outcome);
        let turn = position.turn();
        let moves: Vec<Value> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| self.step_json(i, step, viewer))
            .collect();
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
            "thinking": self.thinking.is_some(),
            "over": outcome.is_some(),
            "result": outcome.map_or("*", |o| o.result()),
            "outcome": outcome.map(|o| o.to_string()),
            "termination": outcome.map(|o| o.termination().name()),
            "draw_offer": self.draw_offer.as_ref().map(|offer| offer.to_json()),
            "version": self.version,
            "position": board.position,
            "check": board.check,
            "svg": board.svg,
            "notes": board.notes,
            "moves": moves,
            "movetext": self.movetext(viewer).as_str(),
            "last": self.targets(self.steps.len().checked_sub(1), viewer),
            "agent": self.reply_json(viewer),
            "beliefs": self.beliefs_json(outcome.is_some()),
        })
    }

    /// After the game, each engine agent's posterior over its opponent's
    /// secret at its last move, the likeliest secrets first (while the
    /// game goes on it would tell what the agent's own secret made of the
    /// opponent's steps).
    fn beliefs_json(&self, over: bool) -> Value {
        if !over {
            return Value::Null;
        }
        let shown: Vec<Value> = Color::ALL
            .iter()
            .filter_map(|&color| {
                let agent = self.agents[color.index()].as_ref()?;
                let report = agent.player.as_ref()?.beliefs()?;
                let secrets: Vec<Value> = report
                    .secrets
                    .iter()
                    .take(BELIEFS_SHOWN)
                    .map(|b| json!({"secret": b.secret, "probability": b.probability}))
                    .collect();
                Some(json!({
                    "player": color.name(),
                    "consistent": report.secrets.len(),
                    "entropy_bits": report.entropy_bits,
                    "turns": report.turns,
                    "secrets": secrets,
                }))
            })
            .collect();
        Value::from(shown)
    }

    /// The board after the first `ply` steps, replayed from the start: what
    /// the move list shows of an earlier position. A player is sent the
    /// view it had then (its own secret, not the opponent's) while the game
    /// goes on.
    pub(super) fn position_json(
        &self,
        seat: Seat,
        ply: usize,
        flipped: bool,
    ) -> Result<Value, ApiError> {
        let plies = self.steps.len();
        if ply > plies {
            return Err(ApiError::bad_request(format!(
                "ply: {ply} is past the game's last ply, {plies}"
            )));
        }
        let mut game = Game::new(self.start.clone());
        for step in &self.steps[..ply] {
            game.play_unchecked(&step.action);
        }
        let viewer = self.viewer(seat);
        let outcome = if ply == plies { self.outcome() } else { None };
        let board = self.board(game.position(), viewer, flipped, outcome);
        Ok(json!({
            "ply": ply,
            "plies": plies,
            "version": self.version,
            "position": board.position,
            "check": board.check,
            "svg": board.svg,
            "notes": board.notes,
            "last": self.targets(ply.checked_sub(1), viewer),
        }))
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
        let outcome = self.outcome();
        let viewer = self.viewer(seat);
        let result = outcome.map_or("*", |o| o.result());
        let white = self.players[Color::White.index()].name();
        let black = self.players[Color::Black.index()].name();
        let options = self.options.to_string();
        let fen = self.position_string(&self.start, viewer);
        let tags = GameTags {
            event: "heterodox serve",
            date: UNKNOWN_DATE,
            round: "-",
            white: &white,
            black: &black,
            result,
            variant: P::VARIANT.name(),
            options: &options,
            fen: &fen,
            termination: outcome.map(|o| o.termination().name()),
        };
        tags.game(self.movetext(viewer).as_str())
    }
}
