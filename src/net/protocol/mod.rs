//! `heterodox uci` and `heterodox xboard`: our engine and agents behind the
//! two protocols that chess programs speak, so that existing tools
//! (python-chess, XBoard, cutechess, match runners) drive them.
//! docs/protocol.md lists the commands and every variant's move tokens.
//!
//! Both protocols keep one [`ProtocolGame`]: the game of the variant
//! chosen (`UCI_Variant`, `variant`), the agent that plays it
//! ([`AgentPlayer`]) and the steps since the start position. A step is a
//! token in our long notation, the form `Display` writes and
//! `Position::parse_action` reads (drops `P@e4`, and our own tokens for
//! Hostage exchanges, Poison poisons and cures, Mad Scientist part
//! operations and Traitor selections and announcements). A turn of several
//! steps (a Traitor announcement and its move, Mad Scientist discards) is
//! several tokens, each answered as a move of its own.
//!
//! Bad input never changes the position: a position command with an
//! illegal step is refused whole.

pub mod options;
pub mod uci;
pub mod xboard;

use std::time::Instant;

use clap::Args;

use heterodox_engine::{Limits, Score};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Color, Game, GameVariant, Outcome, RuleOptions, Variant, VariantVisitor};
use heterodox_models::tch::Device;
use heterodox_training::arena::agent::AgentSpec;
use heterodox_training::arena::player::{load_player, AgentMove, AgentPlayer, MoveBudget};

pub use options::EngineOptions;

/// The arguments of `heterodox uci` and `heterodox xboard`.
#[derive(Args, Debug)]
pub struct ProtocolArgs {
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// The agent that plays (random, greedy, ab@..., uniform@N, rollout@N,
    /// net:DIR@N); the engine's budget is replaced by the protocol's limits.
    #[arg(long, default_value = "ab@1000ms")]
    agent: String,
    /// Seed of the agent's search and of random set-ups.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    device: crate::device::DeviceArgs,
}

impl ProtocolArgs {
    /// The session's first settings, checked by building its game.
    pub fn setup(&self) -> Result<Setup, String> {
        let setup = Setup {
            variant: self.rules.variant()?,
            options: self.rules.options()?,
            agent: self.agent.parse().map_err(|e| format!("{e}"))?,
            seed: self.seed,
            device: self.device.device()?,
        };
        setup.build()?;
        Ok(setup)
    }
}

/// What a thinking agent reports (UCI's `info`, XBoard's thinking output).
#[derive(Clone, Debug, PartialEq)]
pub struct Thinking {
    pub depth: u32,
    pub score: Option<Score>,
    pub nodes: u64,
    pub millis: u64,
    /// The expected line, in long notation.
    pub pv: Vec<String>,
    /// The engine's best lines, best first, when more than one was asked
    /// for (`MultiPV`); empty otherwise (`score` and `pv` are the line).
    pub lines: Vec<Line>,
}

/// One of the engine's lines: a root move's score and the line it
/// starts, in long notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub score: Option<Score>,
    pub pv: Vec<String>,
}

/// The game a protocol session plays, whatever its variant.
pub trait ProtocolGame: Send {
    /// Sets the position: `fen` (the variant's position string) or the
    /// start position, then `steps` in long or standard notation. All or
    /// nothing: on error the position is as it was.
    fn set_position(&mut self, fen: Option<&str>, steps: &[&str]) -> Result<(), String>;
    /// Plays one step; its long notation back.
    fn play(&mut self, step: &str) -> Result<String, String>;
    /// Takes back the last step; false when there is none.
    fn undo(&mut self) -> bool;
    /// Gives the agent's engine the session's options (MultiPV, Hash);
    /// other agents ignore them. Refused whole: on error the agent keeps
    /// its settings.
    fn configure(&mut self, options: &EngineOptions) -> Result<(), String>;
    /// The agent's step for the player to act, in long notation, within
    /// `limits` (`None`: the agent's own budget).
    fn think(
        &mut self,
        limits: Option<Limits>,
        on_info: &mut dyn FnMut(&Thinking),
    ) -> Result<String, String>;
    /// Forgets what the agent learnt of the last game.
    fn new_game(&mut self);
    fn fen(&self) -> String;
    fn turn(&self) -> Color;
    fn outcome(&self) -> Option<Outcome>;
    /// The legal steps, in long notation.
    fn legal(&self) -> Vec<String>;
}

/// How a session builds its game.
#[derive(Clone, Debug)]
pub struct Setup {
    pub variant: Variant,
    pub options: RuleOptions,
    pub agent: AgentSpec,
    pub seed: u64,
    pub device: Device,
}

impl Setup {
    /// The game at the variant's start position.
    pub fn build(&self) -> Result<Box<dyn ProtocolGame>, String> {
        self.variant.visit(Build(self))
    }
}

struct Build<'a>(&'a Setup);

impl VariantVisitor for Build<'_> {
    type Output = Result<Box<dyn ProtocolGame>, String>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let setup = self.0;
        let rules = P::parse_rules(&setup.options).map_err(|e| e.to_string())?;
        let start = P::start(&rules, setup.seed).map_err(|e| e.to_string())?;
        let encoding = EncodingSpec::of(&start, 1);
        let agent = load_player::<P>(&setup.agent, &encoding, setup.seed, setup.device)
            .map_err(|e| e.to_string())?;
        Ok(Box::new(Typed {
            rules,
            seed: setup.seed,
            start: start.clone(),
            game: Game::new(start),
            steps: Vec::new(),
            agent,
        }))
    }
}

struct Typed<P: GameVariant> {
    rules: P::Rules,
    /// The seed of the start position (random set-ups), so that
    /// `position startpos` is the position the session started from.
    seed: u64,
    /// The position the steps start from.
    start: P,
    game: Game<P>,
    steps: Vec<P::Action>,
    agent: AgentPlayer<P>,
}

impl<P: GameVariant> Typed<P> {
    /// The game from `start` after `steps`, or the first step refused.
    fn replay(start: &P, steps: &[&str]) -> Result<(Game<P>, Vec<P::Action>), String> {
        let mut game = Game::new(start.clone());
        let mut played = Vec::with_capacity(steps.len());
        for (k, text) in steps.iter().enumerate() {
            let action = game
                .position()
                .parse_action(text)
                .and_then(|action| game.play(&action).map(|()| action))
                .map_err(|e| format!("step {} '{text}': {e}", k + 1))?;
            played.push(action);
        }
        Ok((game, played))
    }
}

impl<P: GameVariant> ProtocolGame for Typed<P> {
    fn set_position(&mut self, fen: Option<&str>, steps: &[&str]) -> Result<(), String> {
        let start = match fen {
            Some(text) => P::from_position_string(text, &self.rules)
                .map_err(|e| format!("position '{text}': {e}"))?,
            None => P::start(&self.rules, self.seed).map_err(|e| e.to_string())?,
        };
        let (game, played) = Self::replay(&start, steps)?;
        self.start = start;
        self.game = game;
        self.steps = played;
        Ok(())
    }

    fn play(&mut self, step: &str) -> Result<String, String> {
        let action = self
            .game
            .position()
            .parse_action(step)
            .map_err(|e| e.to_string())?;
        self.game.play(&action).map_err(|e| e.to_string())?;
        self.steps.push(action);
        Ok(action.to_string())
    }

    fn undo(&mut self) -> bool {
        if self.steps.pop().is_none() {
            return false;
        }
        let mut game = Game::new(self.start.clone());
        for action in &self.steps {
            game.play_unchecked(action);
        }
        self.game = game;
        true
    }

    fn configure(&mut self, options: &EngineOptions) -> Result<(), String> {
        self.agent
            .configure_engine(options.multipv, Some(options.hash_mib))
            .map_err(|e| e.to_string())
    }

    fn think(
        &mut self,
        limits: Option<Limits>,
        on_info: &mut dyn FnMut(&Thinking),
    ) -> Result<String, String> {
        let started = Instant::now();
        let long = |line: &[P::Action]| line.iter().map(ToString::to_string).collect();
        let thinking = |m: &AgentMove<P::Action>| Thinking {
            depth: m.depth,
            score: m.score,
            nodes: m.nodes,
            millis: started.elapsed().as_millis() as u64,
            pv: long(&m.pv),
            // A tree search's top moves have no line of their own.
            lines: m
                .top
                .iter()
                .filter(|top| top.score.is_some())
                .map(|top| Line {
                    score: top.score,
                    pv: long(&top.pv),
                })
                .collect(),
        };
        let budget = MoveBudget { limits };
        let chosen = self
            .agent
            .choose_with(&self.game, &budget, &mut |m| on_info(&thinking(m)))
            .map_err(|e| e.to_string())?;
        Ok(chosen.action.to_string())
    }

    fn new_game(&mut self) {
        self.agent.new_game();
    }

    fn fen(&self) -> String {
        self.game.position().fen()
    }

    fn turn(&self) -> Color {
        self.game.position().turn()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn legal(&self) -> Vec<String> {
        let mut actions = Vec::new();
        self.game.legal_actions(&mut actions);
        actions.iter().map(ToString::to_string).collect()
    }
}

/// The commands on standard input, one a line, until its end. A line that
/// is not UTF-8 is read with U+FFFD in place of its bad bytes (an unknown
/// command, refused like any other) instead of ending the session, and a
/// Windows line end loses its `\r`. Only a failed read is an error.
pub fn commands() -> impl Iterator<Item = Result<String, String>> {
    use std::io::BufRead;
    std::io::stdin().lock().split(b'\n').map(|line| {
        let bytes = line.map_err(|e| format!("cannot read a command: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(text.strip_suffix('\r').unwrap_or(&text).to_owned())
    })
}

/// Prints one line of the protocol and flushes it (the other side waits
/// for whole lines).
pub fn send(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}
