//! `heterodox xboard`: the Chess Engine Communication Protocol (CECP,
//! protocol version 2) over standard input and output. `feature
//! variants=...` lists our variants (FIDE chess is CECP's `normal`), and
//! after `variant NAME` the engine sends `setup` with the variant's start
//! position (our position-string dialect, docs/protocol.md). Moves are our
//! long notation; an illegal one is answered `Illegal move (reason): MOVE`
//! and changes nothing. Thinking is synchronous: the engine reads the next
//! command when its move is sent. With `post`, thinking output is one line
//! per completed depth of each search (`ply score time nodes pv`, the best
//! line), depths strictly increasing.

use std::time::Duration;

use heterodox_engine::{Limits, Score, MAX_DEPTH};
use heterodox_env::{Color, Outcome, Variant};

use super::{send, ProtocolGame, Setup, Thinking};

/// CECP's name of a variant (`normal` is FIDE chess).
fn cecp_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "normal",
        other => other.name(),
    }
}

fn variant_of(name: &str) -> Result<Variant, String> {
    match name {
        "normal" => Ok(Variant::Chess),
        other => other.parse().map_err(|e| format!("{e}")),
    }
}

/// The clock as CECP tells it.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// `sd N`: iterations.
    depth: Option<u32>,
    /// `st N`: seconds a move.
    seconds_per_move: Option<u64>,
    /// `time N`: the engine's clock, centiseconds.
    centis: Option<u64>,
    /// `level MPS BASE INC`: moves per control and increment (seconds).
    moves_per_control: u64,
    increment: u64,
}

impl Clock {
    /// The limits of the engine's next move; `None`: the agent's own.
    fn limits(&self) -> Option<Limits> {
        let mut limits = Limits {
            depth: self.depth.map(|d| d.min(MAX_DEPTH)),
            ..Limits::default()
        };
        if let Some(seconds) = self.seconds_per_move {
            limits.movetime = Some(Duration::from_secs(seconds.max(1)));
        } else if let Some(centis) = self.centis {
            let millis = centis * 10;
            let moves = if self.moves_per_control > 0 {
                self.moves_per_control
            } else {
                30
            };
            let share = millis / moves + self.increment * 750;
            limits.movetime = Some(Duration::from_millis(share.min(millis / 2).max(10)));
        }
        let set = limits.depth.is_some() || limits.movetime.is_some();
        set.then_some(limits)
    }
}

struct Session {
    setup: Setup,
    game: Box<dyn ProtocolGame>,
    /// The colour the engine plays; none in force mode.
    engine: Option<Color>,
    clock: Clock,
    post: bool,
}

impl Session {
    /// The engine moves while it is its turn and the game goes on.
    fn reply(&mut self) {
        while self.game.outcome().is_none() && self.engine == Some(self.game.turn()) {
            let post = self.post;
            // The deepest depth posted in this search: a report that is
            // not deeper (a second report of a depth) is not posted again.
            let mut posted = 0;
            let result = self.game.think(self.clock.limits(), &mut |thinking| {
                let depth = thinking.depth.max(1);
                if post && depth > posted {
                    posted = depth;
                    send(&thinking_line(thinking));
                }
            });
            match result.and_then(|step| self.game.play(&step).map(|_| step)) {
                Ok(step) => send(&format!("move {step}")),
                Err(e) => {
                    send(&format!("Error (cannot move): {e}"));
                    self.engine = None;
                    return;
                }
            }
        }
        self.announce_result();
    }

    fn announce_result(&self) {
        if let Some(outcome) = self.game.outcome() {
            send(&format!("{} {{{}}}", outcome.result(), describe(outcome)));
        }
    }
}

/// CECP's thinking output for one completed depth: `ply score time nodes
/// pv`, the score in centipawns (a mate in `n` as 100000 + n, being mated
/// as -100000 + n, XBoard's convention), the time in centiseconds.
fn thinking_line(thinking: &Thinking) -> String {
    let score = match thinking.score {
        Some(Score::Cp(cp)) => cp,
        Some(Score::Mate(n)) if n > 0 => 100_000 + n,
        Some(Score::Mate(n)) => -100_000 + n,
        None => 0,
    };
    format!(
        "{} {score} {} {} {}",
        thinking.depth.max(1),
        thinking.millis / 10,
        thinking.nodes,
        thinking.pv.join(" ")
    )
}

fn describe(outcome: Outcome) -> String {
    match outcome.winner() {
        Some(winner) => format!("{} wins by {}", winner.name(), outcome.termination().name()),
        None => format!("draw by {}", outcome.termination().name()),
    }
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(setup: Setup) -> Result<(), String> {
    let game = setup.build()?;
    let mut session = Session {
        setup,
        game,
        engine: Some(Color::Black),
        clock: Clock::default(),
        post: false,
    };
    for line in super::commands() {
        let line = line?;
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "otim" | "name" | "rating" | "ics" | "result" => {}
            "protover" => {
                let variants: Vec<&str> = Variant::ALL.iter().map(|&v| cecp_name(v)).collect();
                send(&format!(
                    "feature myname=\"Heterodox {}\" variants=\"{}\" setboard=1 usermove=1 \
                     ping=1 playother=1 san=0 sigint=0 sigterm=0 colors=0 analyze=0 reuse=1 \
                     done=1",
                    env!("CARGO_PKG_VERSION"),
                    variants.join(",")
                ));
            }
            "ping" => send(&format!("pong {rest}")),
            "new" => {
                session.setup.variant = Variant::Chess;
                match session.setup.build() {
                    Ok(game) => session.game = game,
                    Err(e) => send(&format!("Error (new): {e}")),
                }
                session.engine = Some(Color::Black);
                session.clock.depth = None;
            }
            "variant" => match variant_of(rest) {
                Ok(variant) => {
                    let mut setup = session.setup.clone();
                    setup.variant = variant;
                    match setup.build() {
                        Ok(game) => {
                            send(&format!(
                                "setup (PNBRQKpnbrqk) 8x8+0_{} {}",
                                cecp_name(variant),
                                game.fen()
                            ));
                            session.setup = setup;
                            session.game = game;
                        }
                        Err(e) => send(&format!("Error (variant): {e}")),
                    }
                }
                Err(e) => send(&format!("Error (variant): {e}")),
            },
            "setboard" => match session.game.set_position(Some(rest), &[]) {
                Ok(()) => {}
                Err(e) => send(&format!("tellusererror Illegal position: {e}")),
            },
            "force" => session.engine = None,
            "go" => {
                session.engine = Some(session.game.turn());
                session.reply();
            }
            "playother" => session.engine = Some(!session.game.turn()),
            "usermove" => match session.game.play(rest) {
                Ok(_) => session.reply(),
                Err(e) => send(&format!("Illegal move ({e}): {rest}")),
            },
            "undo" => {
                session.game.undo();
            }
            "remove" => {
                session.game.undo();
                session.game.undo();
            }
            "sd" => match rest.parse::<u32>() {
                Ok(depth) if depth > 0 => session.clock.depth = Some(depth),
                _ => send(&format!("Error (bad depth): sd {rest}")),
            },
            "st" => match rest.parse::<u64>() {
                Ok(seconds) => session.clock.seconds_per_move = Some(seconds),
                Err(_) => send(&format!("Error (bad time): st {rest}")),
            },
            "time" => match rest.parse::<u64>() {
                Ok(centis) => session.clock.centis = Some(centis),
                Err(_) => send(&format!("Error (bad time): time {rest}")),
            },
            "level" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                match (words.first(), words.get(2)) {
                    (Some(mps), Some(inc)) => {
                        session.clock.moves_per_control = mps.parse().unwrap_or(0);
                        session.clock.increment = inc.parse().unwrap_or(0);
                        session.clock.seconds_per_move = None;
                    }
                    _ => send(&format!("Error (bad level): level {rest}")),
                }
            }
            "post" => session.post = true,
            "nopost" => session.post = false,
            "quit" => return Ok(()),
            _ => {
                // Protocol 1 style: a bare move.
                match session.game.play(line) {
                    Ok(_) => session.reply(),
                    Err(_) => send(&format!("Error (unknown command): {line}")),
                }
            }
        }
    }
    Ok(())
}
