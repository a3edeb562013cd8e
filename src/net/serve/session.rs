//! One game on the server: the typed game of its variant (built through
//! `Variant::visit`), the steps played with what each seat may see of
//! them, the agents' players (`AgentPlayer`, the one agent code), the
//! agent's last reply, and an ending the rules do not know (a resignation,
//! a draw agreed). [`Session`] is its object-safe face; what a seat is sent
//! (state, legal moves, PGN, earlier positions) is written in view.rs, the
//! agent's turn in agent_turn.rs, resignations and draw offers in
//! session/ending.rs (a child module: this state holds its draw offer).

mod ending;

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::gesture::Target;
use heterodox_env::{
    Color, Game, GameVariant, MoveError, Outcome, RuleOptions, Variant, VariantVisitor,
};
use heterodox_models::tch::Device;
use heterodox_training::arena::agent::AgentSpec;
use heterodox_training::arena::player::{is_secret_step, load_player, AgentPlayer};
use serde_json::Value;

use super::error::ApiError;
use super::seat::Seat;
use ending::DrawOffer;

/// The work an agent's move needs, to run on a blocking thread; its
/// result goes back through [`Session::finish_agent`].
pub type AgentTask = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// What the API does with a game, whatever its variant.
pub trait Session: Send {
    /// Everything `seat` may see of the game, the board drawn turned over
    /// when `flipped`.
    fn state(&self, seat: Seat, flipped: bool) -> Value;
    /// The board after the first `ply` steps as `seat` may see it (the
    /// move list's earlier positions); 400 past the last step.
    fn position_at(&self, seat: Seat, ply: usize, flipped: bool) -> Result<Value, ApiError>;
    /// The legal moves, with notations and gestures, when `seat` is to
    /// move; none otherwise.
    fn legal(&self, seat: Seat) -> Value;
    /// Plays a turn typed in the variant's notation or long form.
    fn play(&mut self, seat: Seat, text: &str) -> Result<(), ApiError>;
    /// Takes back `seat`'s last turn and everything after it.
    fn undo(&mut self, seat: Seat) -> Result<(), ApiError>;
    /// `seat` resigns: its opponent wins.
    fn resign(&mut self, seat: Seat) -> Result<(), ApiError>;
    /// `seat` offers a draw: an agent answers at once, a person by
    /// offering too (session/ending.rs).
    fn offer_draw(&mut self, seat: Seat) -> Result<(), ApiError>;
    /// The game so far as PGN, as `seat` saw it.
    fn pgn(&self, seat: Seat) -> String;
    /// The agent to move, when an agent may be asked to move now.
    fn agent_to_move(&self) -> Result<AgentSpec, ApiError>;
    /// Hands out the agent to move's work (its player taken out
    /// meanwhile); the search ends early once `stop` is set.
    fn start_agent(&mut self, stop: Arc<AtomicBool>) -> Result<AgentTask, ApiError>;
    /// Plays what the agent chose, unless the game changed meanwhile or
    /// its search was stopped.
    fn finish_agent(&mut self, done: Box<dyn Any + Send>) -> Result<(), ApiError>;
    /// The agent's work died (a panic): no agent is thinking any more.
    fn abort_agent(&mut self);
    /// Stops the agent's search, if one is running: nobody will play its
    /// move (the game left the store, or ended).
    fn stop_agent(&mut self);
}

/// Who plays a colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Agent(AgentSpec),
}

impl Player {
    pub fn name(&self) -> String {
        match self {
            Player::Human => "human".to_owned(),
            Player::Agent(spec) => spec.to_string(),
        }
    }
}

/// How to set up a game.
pub struct NewGame {
    pub variant: Variant,
    pub options: RuleOptions,
    pub fen: Option<String>,
    /// White's and Black's players.
    pub players: [Player; 2],
    pub seed: u64,
    pub device: Device,
}

impl NewGame {
    /// Builds the game (loading any network: run it on a blocking thread).
    pub fn build(self) -> Result<Box<dyn Session>, ApiError> {
        self.variant.visit(self)
    }
}

impl VariantVisitor for NewGame {
    type Output = Result<Box<dyn Session>, ApiError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        // Each refusal names the request's field it is about.
        let bad =
            |field: &str, e: &dyn std::fmt::Display| ApiError::bad_request(format!("{field}: {e}"));
        let rules = P::parse_rules(&self.options).map_err(|e| bad("options", &e))?;
        let start = match &self.fen {
            Some(fen) => P::from_position_string(fen, &rules).map_err(|e| bad("fen", &e))?,
            None => P::start(&rules, self.seed).map_err(|e| bad("options", &e))?,
        };
        let encoding = EncodingSpec::of(&start, 1);
        let mut agents: [Option<Agent<P>>; 2] = [None, None];
        for color in Color::ALL {
            if let Player::Agent(spec) = &self.players[color.index()] {
                // Each colour's agent gets its own stream of the seed.
                let seed = self.seed ^ color.fold(0, 0x9e37_79b9_7f4a_7c15);
                let player = load_player(spec, &encoding, seed, self.device)
                    .map_err(|e| bad(color.name(), &format!("agent '{spec}': {e}")))?;
                agents[color.index()] = Some(Agent {
                    spec: spec.clone(),
                    seed,
                    player: Some(player),
                });
            }
        }
        Ok(Box::new(TypedSession {
            options: P::rule_options(&rules),
            game: Game::new(start.clone()),
            start,
            encoding,
            device: self.device,
            players: self.players,
            agents,
            steps: Vec::new(),
            reply: None,
            thinking: None,
            ended: None,
            draw_offer: None,
            version: 0,
        }))
    }
}

/// An agent seat: its spec and its player (out on a blocking thread while
/// it thinks; rebuilt from the spec if its thread died).
pub(super) struct Agent<P: GameVariant> {
    pub spec: AgentSpec,
    pub seed: u64,
    pub player: Option<AgentPlayer<P>>,
}

/// One step played, with what the other player may see of it.
pub(super) struct Step<A> {
    pub action: A,
    pub mover: Color,
    /// The variant's notation, from the position before the step.
    pub notation: String,
    pub long: String,
    /// What was clicked, for highlighting the last move.
    pub targets: Vec<Target>,
    /// The colour that cannot tell this step from another (a Traitor
    /// selection): it sees that a step was taken, never which.
    pub hidden_from: Option<Color>,
    /// An agent's value of the position when it chose this step (the
    /// expected result for the mover, -1 to +1): what it answers a draw
    /// offer by.
    pub value: Option<f32>,
}

/// What an agent said of its last step.
pub(super) struct Reply {
    pub mover: Color,
    pub agent: String,
    /// Index of the step in `steps`.
    pub step: usize,
    pub value: Option<f32>,
    /// (notation, visits, policy), the move played first.
    pub top: Vec<(String, u32, f32)>,
    /// Per colour: may it see the numbers? They were computed from the
    /// agent's secret, so only while that colour's view holds no secret.
    pub numbers_for: [bool; 2],
}

pub(super) struct TypedSession<P: GameVariant> {
    pub options: RuleOptions,
    pub start: P,
    pub game: Game<P>,
    pub encoding: EncodingSpec,
    pub device: Device,
    pub players: [Player; 2],
    pub agents: [Option<Agent<P>>; 2],
    pub steps: Vec<Step<P::Action>>,
    pub reply: Option<Reply>,
    /// The stop flag of the agent's search while an agent thinks.
    pub thinking: Option<Arc<AtomicBool>>,
    /// How the game ended when the rules did not end it: a resignation or
    /// a draw agreed (session/ending.rs).
    pub ended: Option<Outcome>,
    pub draw_offer: Option<DrawOffer>,
    /// Bumped by every change, so an agent's answer to an older game is
    /// refused.
    pub version: u64,
}

impl<P: GameVariant> TypedSession<P> {
    /// How the game ended: by its rules, or by a resignation or a draw
    /// agreed; `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.game.outcome())
    }

    /// Plays `action` (legal) and records it, with the value the agent
    /// that chose it gave (none for a person's step).
    pub(super) fn record(&mut self, action: P::Action, value: Option<f32>) {
        let position = self.game.position();
        let mover = position.turn();
        let hidden_from = is_secret_step(&self.game, &action, !mover).then_some(!mover);
        let step = Step {
            action,
            mover,
            notation: position.notation(&action),
            long: action.to_string(),
            targets: position.gesture(&action).targets,
            hidden_from,
            value,
        };
        self.game.play_unchecked(&action);
        self.steps.push(step);
        self.lapse_draw_offer(mover);
        self.version += 1;
    }

    /// The colour of `seat` when it is a human's (a player, not the
    /// referee, not an agent's seat).
    pub(super) fn human_seat(&self, seat: Seat) -> Result<Color, ApiError> {
        let Some(color) = seat.color() else {
            return Err(ApiError::forbidden(
                "the referee watches: only a player's seat can change the game",
            ));
        };
        if let Player::Agent(spec) = &self.players[color.index()] {
            return Err(ApiError::forbidden(format!(
                "{} is played by the agent {spec}",
                color.name()
            )));
        }
        Ok(color)
    }

    /// [`Self::human_seat`] while no agent is thinking: who may change the
    /// game.
    pub(super) fn check_human(&self, seat: Seat) -> Result<Color, ApiError> {
        let color = self.human_seat(seat)?;
        if self.thinking.is_some() {
            return Err(ApiError::conflict(
                "an agent is thinking; wait for its move",
            ));
        }
        Ok(color)
    }

    /// 409 once the game is over.
    pub(super) fn check_not_over(&self) -> Result<(), ApiError> {
        match self.outcome() {
            Some(outcome) => Err(ApiError::conflict(format!("the game is over: {outcome}"))),
            None => Ok(()),
        }
    }

    /// [`Self::check_human`], and it is that human's turn in a game not over.
    fn check_human_to_move(&self, seat: Seat) -> Result<Color, ApiError> {
        let color = self.check_human(seat)?;
        self.check_not_over()?;
        let turn = self.game.position().turn();
        if turn != color {
            return Err(ApiError::conflict(format!(
                "it is {}'s turn, not {}'s",
                turn.name(),
                color.name()
            )));
        }
        Ok(color)
    }

    /// The legal action written `long`, if any.
    fn legal_long(&self, long: &str) -> Option<P::Action> {
        let mut actions = Vec::new();
        self.game.legal_actions(&mut actions);
        actions.into_iter().find(|a| a.to_string() == long)
    }
}

impl<P: GameVariant> Session for TypedSession<P> {
    fn state(&self, seat: Seat, flipped: bool) -> Value {
        self.state_json(seat, flipped)
    }

    fn position_at(&self, seat: Seat, ply: usize, flipped: bool) -> Result<Value, ApiError> {
        self.position_json(seat, ply, flipped)
    }

    fn legal(&self, seat: Seat) -> Value {
        self.legal_json(seat)
    }

    fn play(&mut self, seat: Seat, text: &str) -> Result<(), ApiError> {
        let color = self.check_human_to_move(seat)?;
        // Read the turn on a copy: on error nothing changes, and the
        // message names the position only as this player sees it.
        let mut trial = self.game.clone();
        let (long, _) = P::play_text(&mut trial, text).map_err(|e| {
            // A text that cannot be read as a move is a bad request; the
            // rules refusing a move that reads is an illegal move.
            let unreadable = matches!(e, MoveError::Syntax { .. });
            let view = P::view_string(&self.game.position().view(color));
            let message = e.seen_as(view).to_string();
            if unreadable {
                ApiError::bad_request(message)
            } else {
                ApiError::illegal_move(message)
            }
        })?;
        // A turn is its steps' long forms, space-separated: play them one
        // by one so each is recorded.
        for step in long.split_whitespace() {
            let action = self.legal_long(step).ok_or_else(|| {
                ApiError::internal(format!("the turn '{long}' does not replay step '{step}'"))
            })?;
            self.record(action, None);
        }
        self.reply = None;
        Ok(())
    }

    fn undo(&mut self, seat: Seat) -> Result<(), ApiError> {
        let color = self.check_human(seat)?;
        self.check_undoable()?;
        // Back to the start of this player's last turn (its steps are
        // consecutive: an announcement and its move, a move and discards).
        let Some(mut keep) = self.steps.iter().rposition(|s| s.mover == color) else {
            return Err(ApiError::conflict(format!(
                "{} has no move to take back",
                color.name()
            )));
        };
        while keep > 0 && self.steps[keep - 1].mover == color {
            keep -= 1;
        }
        self.steps.truncate(keep);
        let mut game = Game::new(self.start.clone());
        for step in &self.steps {
            game.play_unchecked(&step.action);
        }
        self.game = game;
        self.reply = None;
        self.draw_offer = None;
        self.version += 1;
        Ok(())
    }

    fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.resign_as(seat)
    }

    fn offer_draw(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.offer_draw_as(seat)
    }

    fn pgn(&self, seat: Seat) -> String {
        self.pgn_text(seat)
    }

    fn agent_to_move(&self) -> Result<AgentSpec, ApiError> {
        self.agent_to_move_now()
            .map(|(_, agent)| agent.spec.clone())
    }

    fn start_agent(&mut self, stop: Arc<AtomicBool>) -> Result<AgentTask, ApiError> {
        self.start_agent_task(stop)
    }

    fn finish_agent(&mut self, done: Box<dyn Any + Send>) -> Result<(), ApiError> {
        self.finish_agent_task(done)
    }

    fn abort_agent(&mut self) {
        self.thinking = None;
    }

    fn stop_agent(&mut self) {
        self.stop_search();
    }
}
