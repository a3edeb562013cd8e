//! One game on the server: the typed game of its variant (built through
//! `Variant::visit`), the steps played with what each seat may see of
//! them, the agents' players (`AgentPlayer`, the one agent code), and the
//! agent's last reply. [`Session`] is its object-safe face; what a seat is
//! sent (state, legal moves, PGN) is written in view.rs.

use std::any::Any;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::gesture::Target;
use heterodox_env::{Color, Game, GameVariant, MoveError, RuleOptions, Variant, VariantVisitor};
use heterodox_models::tch::Device;
use heterodox_training::arena::agent::AgentSpec;
use heterodox_training::arena::player::{is_secret_step, knows_everything, AgentMove, AgentPlayer};
use heterodox_training::TrainError;
use serde_json::Value;

use super::error::ApiError;
use super::store::Seat;

/// The work an agent's move needs, to run on a blocking thread; its
/// result goes back through [`Session::finish_agent`].
pub type AgentTask = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// What the API does with a game, whatever its variant.
pub trait Session: Send {
    /// Everything `seat` may see of the game, the board drawn turned over
    /// when `flipped`.
    fn state(&self, seat: Seat, flipped: bool) -> Value;
    /// The legal moves, with notations and gestures, when `seat` is to
    /// move; none otherwise.
    fn legal(&self, seat: Seat) -> Value;
    /// Plays a turn typed in the variant's notation or long form.
    fn play(&mut self, seat: Seat, text: &str) -> Result<(), ApiError>;
    /// Takes back `seat`'s last turn and everything after it.
    fn undo(&mut self, seat: Seat) -> Result<(), ApiError>;
    /// The game so far as PGN, as `seat` saw it.
    fn pgn(&self, seat: Seat) -> String;
    /// Hands out the agent to move's work (its player taken out meanwhile).
    fn start_agent(&mut self) -> Result<AgentTask, ApiError>;
    /// Plays what the agent chose, unless the game changed meanwhile.
    fn finish_agent(&mut self, done: Box<dyn Any + Send>) -> Result<(), ApiError>;
    /// The agent's work died (a panic): no agent is thinking any more.
    fn abort_agent(&mut self);
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
                let player = AgentPlayer::new(spec, &encoding, seed, self.device)
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
            thinking: false,
            version: 0,
        }))
    }
}

/// An agent seat: its spec and its player (out on a blocking thread while
/// it thinks; rebuilt from the spec if its thread died).
pub(super) struct Agent<P: GameVariant> {
    pub spec: AgentSpec,
    seed: u64,
    player: Option<AgentPlayer<P>>,
}

/// How many of an agent's top moves a reply keeps.
const TOP_MOVES: usize = 8;

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
    encoding: EncodingSpec,
    device: Device,
    pub players: [Player; 2],
    agents: [Option<Agent<P>>; 2],
    pub steps: Vec<Step<P::Action>>,
    pub reply: Option<Reply>,
    pub thinking: bool,
    /// Bumped by every change, so an agent's answer to an older game is
    /// refused.
    pub version: u64,
}

/// An agent's finished work.
struct AgentDone<P: GameVariant> {
    color: Color,
    player: Option<AgentPlayer<P>>,
    chosen: Result<AgentMove<P::Action>, TrainError>,
    version: u64,
}

impl<P: GameVariant> TypedSession<P> {
    /// Plays `action` (legal) and records it.
    fn record(&mut self, action: P::Action) {
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
        };
        self.game.play_unchecked(&action);
        self.steps.push(step);
        self.version += 1;
    }

    /// The colour of `seat` when it is a human's and no agent is thinking:
    /// who may change the game.
    fn check_human(&self, seat: Seat) -> Result<Color, ApiError> {
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
        if self.thinking {
            return Err(ApiError::conflict(
                "an agent is thinking; wait for its move",
            ));
        }
        Ok(color)
    }

    /// [`Self::check_human`], and it is that human's turn in a game not over.
    fn check_human_to_move(&self, seat: Seat) -> Result<Color, ApiError> {
        let color = self.check_human(seat)?;
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::conflict(format!("the game is over: {outcome}")));
        }
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
            self.record(action);
        }
        self.reply = None;
        Ok(())
    }

    fn undo(&mut self, seat: Seat) -> Result<(), ApiError> {
        let color = self.check_human(seat)?;
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
        self.version += 1;
        Ok(())
    }

    fn pgn(&self, seat: Seat) -> String {
        self.pgn_text(seat)
    }

    fn start_agent(&mut self) -> Result<AgentTask, ApiError> {
        if self.thinking {
            return Err(ApiError::conflict("an agent is already thinking"));
        }
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::conflict(format!("the game is over: {outcome}")));
        }
        let color = self.game.position().turn();
        let Some(agent) = self.agents[color.index()].as_mut() else {
            return Err(ApiError::conflict(format!(
                "{} to move is a human, not an agent",
                color.name()
            )));
        };
        let player = agent.player.take();
        let (spec, seed) = (agent.spec.clone(), agent.seed);
        let (encoding, device) = (self.encoding.clone(), self.device);
        let game = self.game.clone();
        let version = self.version;
        self.thinking = true;
        Ok(Box::new(move || {
            let built = match player {
                Some(player) => Ok(player),
                None => AgentPlayer::<P>::new(&spec, &encoding, seed, device),
            };
            let (player, chosen) = match built {
                Ok(mut player) => {
                    let chosen = player.choose(&game);
                    (Some(player), chosen)
                }
                Err(e) => (None, Err(e)),
            };
            Box::new(AgentDone::<P> {
                color,
                player,
                chosen,
                version,
            }) as Box<dyn Any + Send>
        }))
    }

    fn finish_agent(&mut self, done: Box<dyn Any + Send>) -> Result<(), ApiError> {
        let done = done
            .downcast::<AgentDone<P>>()
            .map_err(|_| ApiError::internal("an agent's answer of another variant"))?;
        self.thinking = false;
        if let Some(agent) = self.agents[done.color.index()].as_mut() {
            agent.player = done.player;
        }
        let chosen = done
            .chosen
            .map_err(|e| ApiError::internal(format!("the agent failed: {e}")))?;
        if done.version != self.version {
            return Err(ApiError::conflict(
                "the game changed while the agent thought (undo or a new move); ask again",
            ));
        }
        if !self.game.position().is_legal(&chosen.action) {
            return Err(ApiError::internal("the agent chose an illegal action"));
        }
        let position = self.game.position();
        let top = chosen
            .top
            .iter()
            .take(TOP_MOVES)
            .map(|m| (position.notation(&m.action), m.visits, m.policy))
            .collect();
        let agent = self.players[done.color.index()].name();
        self.record(chosen.action);
        let after = self.game.position();
        self.reply = Some(Reply {
            mover: done.color,
            agent,
            step: self.steps.len() - 1,
            value: chosen.value,
            top,
            numbers_for: Color::ALL.map(|c| c == done.color || knows_everything(after, c)),
        });
        Ok(())
    }

    fn abort_agent(&mut self) {
        self.thinking = false;
    }
}
