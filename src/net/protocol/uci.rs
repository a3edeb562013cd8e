//! `heterodox uci`: the Universal Chess Interface over standard input and
//! output. Beyond FIDE chess, `setoption name UCI_Variant value hostage`
//! (poison, hostage, madscientist, traitor) chooses the variant and
//! `setoption name Rules value mode=defector,commitment=impromptu` its rule
//! settings; `MultiPV`, `Hash` and `Threads` set up the engine
//! (options.rs); moves are our long notation (docs/protocol.md). A command
//! that cannot be carried out is answered with `info string error: ...`
//! and changes nothing; a `go` that cannot start is also answered with
//! `bestmove 0000`, so that no GUI waits for a move that never comes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use heterodox_engine::{Limits, MAX_DEPTH};
use heterodox_env::{Color, RuleOptions, Variant};

use super::{send, EngineOptions, ProtocolGame, Setup, Thinking};

/// A search running on its own thread, so that `stop` can be read.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Box<dyn ProtocolGame>>,
}

/// The session: the game, the settings it was built with, and a search
/// when one runs.
struct Session {
    setup: Setup,
    /// MultiPV and Hash, given to the game's agent before each search.
    options: EngineOptions,
    game: Option<Box<dyn ProtocolGame>>,
    running: Option<Running>,
}

impl Session {
    /// Waits for a running search (after `stop`, or when a command needs the
    /// game) and takes the game back.
    fn settle(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(game) => self.game = Some(game),
                Err(_) => {
                    send("info string error: the search failed; the game starts again");
                    self.game = None;
                }
            }
        }
    }

    fn game(&mut self) -> Result<&mut Box<dyn ProtocolGame>, String> {
        self.settle();
        if self.game.is_none() {
            self.game = Some(self.setup.build()?);
        }
        Ok(self.game.as_mut().expect("just built"))
    }

    /// Rebuilds the game after a setting changed.
    fn rebuild(&mut self) -> Result<(), String> {
        self.settle();
        self.game = Some(self.setup.build()?);
        Ok(())
    }
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(setup: Setup) -> Result<(), String> {
    let mut session = Session {
        setup,
        options: EngineOptions::default(),
        game: None,
        running: None,
    };
    for line in super::commands() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        let outcome = match command {
            "uci" => {
                identify(&session.setup, &session.options);
                Ok(())
            }
            "isready" => {
                send("readyok");
                Ok(())
            }
            "setoption" => set_option(&mut session, args),
            "ucinewgame" => session.game().map(|game| game.new_game()),
            "position" => position(&mut session, args),
            // A GUI waits for a `bestmove` after every `go`: a `go` that
            // cannot start (a bad limit, a setting that does not build)
            // is answered with its error and the null move, the position
            // unchanged.
            "go" => go(&mut session, args).or_else(|message| {
                send(&format!("info string error: {message}"));
                send("bestmove 0000");
                Ok(())
            }),
            "stop" => {
                if let Some(running) = &session.running {
                    running.stop.store(true, Ordering::Relaxed);
                }
                session.settle();
                Ok(())
            }
            "d" => session.game().map(|game| {
                send(&format!("info string fen {}", game.fen()));
                send(&format!("info string legal {}", game.legal().join(" ")));
            }),
            "quit" => {
                if let Some(running) = &session.running {
                    running.stop.store(true, Ordering::Relaxed);
                }
                session.settle();
                return Ok(());
            }
            other => Err(format!("unknown command '{other}'")),
        };
        if let Err(message) = outcome {
            send(&format!("info string error: {message}"));
        }
    }
    session.settle();
    Ok(())
}

fn identify(setup: &Setup, options: &EngineOptions) {
    send(&format!("id name Heterodox {}", env!("CARGO_PKG_VERSION")));
    send("id author the Heterodox developers");
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    send(&format!(
        "option name UCI_Variant type combo default {} {}",
        setup.variant.name(),
        variants.join(" ")
    ));
    send("option name Rules type string default <empty>");
    send(&format!(
        "option name Agent type string default {}",
        setup.agent
    ));
    for declaration in options.declarations() {
        send(&declaration);
    }
    send("uciok");
}

fn set_option(session: &mut Session, args: &[&str]) -> Result<(), String> {
    // setoption name NAME [value VALUE]; names and values may hold spaces.
    let text = args.join(" ");
    let rest = text.strip_prefix("name ").ok_or("setoption needs 'name'")?;
    let (name, value) = match rest.split_once(" value ") {
        Some((name, value)) => (name.trim(), value.trim()),
        None => (rest.trim(), ""),
    };
    if let Some(options) = session.options.with(name, value) {
        // Given to the agent at once, so that a table that cannot be
        // allocated is refused here, not at the next `go`.
        let options = options?;
        session.game()?.configure(&options)?;
        session.options = options;
        return Ok(());
    }
    let mut setup = session.setup.clone();
    // Names are not case-sensitive (UCI); values are.
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => setup.variant = value.parse().map_err(|e| format!("{e}"))?,
        "rules" => {
            let value = if value == "<empty>" { "" } else { value };
            setup.options = RuleOptions::parse(value).map_err(|e| format!("{e}"))?;
        }
        "agent" => setup.agent = value.parse().map_err(|e| format!("{e}"))?,
        _ => return Err(format!("unknown option '{name}'")),
    }
    // Checked by building the game before the setting is kept.
    let previous = std::mem::replace(&mut session.setup, setup);
    if let Err(e) = session.rebuild() {
        session.setup = previous;
        session.game = None;
        return Err(e);
    }
    Ok(())
}

fn position(session: &mut Session, args: &[&str]) -> Result<(), String> {
    let (fen, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (None, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        _ => return Err("position needs 'startpos' or 'fen FEN'".to_owned()),
    };
    let steps: &[&str] = match rest.split_first() {
        None => &[],
        Some((&"moves", steps)) => steps,
        Some((other, _)) => return Err(format!("expected 'moves', found '{other}'")),
    };
    session.game()?.set_position(fen.as_deref(), steps)
}

/// The limits of `go ...`, for the side to act.
fn limits_of(args: &[&str], turn: Color) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut time, mut increment, mut moves_to_go) = (None, 0u64, None);
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let text = words.next().ok_or(format!("go {name} needs a number"))?;
            text.parse::<u64>()
                .map_err(|_| format!("go {name}: '{text}' is not a number"))
        };
        match word {
            "depth" => limits.depth = Some(number("depth")?.min(u64::from(MAX_DEPTH)) as u32),
            "nodes" => limits.nodes = Some(number("nodes")?),
            "movetime" => limits.movetime = Some(Duration::from_millis(number("movetime")?)),
            "wtime" | "btime" => {
                let value = number(word)?;
                if (word == "wtime") == (turn == Color::White) {
                    time = Some(value);
                }
            }
            "winc" | "binc" => {
                let value = number(word)?;
                if (word == "winc") == (turn == Color::White) {
                    increment = value;
                }
            }
            "movestogo" => moves_to_go = Some(number("movestogo")?.max(1)),
            "infinite" => limits.depth = Some(MAX_DEPTH),
            "ponder" | "mate" | "searchmoves" => {
                return Err(format!("go {word} is not supported"));
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
    }
    if let Some(time) = time {
        // A share of the clock: what is left over the moves to go (30 when
        // unsaid) plus most of the increment, never more than half of it.
        let share = time / moves_to_go.unwrap_or(30) + increment * 3 / 4;
        let millis = share.min(time / 2).max(10);
        limits.movetime = Some(Duration::from_millis(millis));
    }
    Ok(limits)
}

fn go(session: &mut Session, args: &[&str]) -> Result<(), String> {
    let options = session.options;
    let game = session.game()?;
    if let Some(outcome) = game.outcome() {
        send(&format!("info string the game is over: {outcome}"));
        send("bestmove 0000");
        return Ok(());
    }
    let mut limits = limits_of(args, game.turn())?;
    // A game rebuilt by another setting starts with the agent's defaults.
    game.configure(&options)?;
    let stop = Arc::new(AtomicBool::new(false));
    let set = limits.depth.is_some() || limits.nodes.is_some() || limits.movetime.is_some();
    if set {
        // Refused here whatever the agent (a tree search ignores limits).
        limits.validate().map_err(|e| e.to_string())?;
        limits.stop = Some(stop.clone());
    }
    let labelled = options.multipv > 1;
    let mut game = session.game.take().expect("built above");
    let handle = std::thread::spawn(move || {
        let result = game.think(set.then_some(limits), &mut |thinking| {
            for line in info_lines(thinking, labelled) {
                send(&line);
            }
        });
        match result {
            Ok(step) => send(&format!("bestmove {step}")),
            Err(e) => {
                send(&format!("info string error: {e}"));
                send("bestmove 0000");
            }
        }
        game
    });
    session.running = Some(Running { stop, handle });
    Ok(())
}

/// UCI's `info` lines for one completed depth: one, or one per line of
/// the engine's (`multipv K`, best first) when `labelled` (MultiPV above
/// 1; a tree search then still reports its one line, as `multipv 1`).
pub fn info_lines(thinking: &Thinking, labelled: bool) -> Vec<String> {
    let best = super::Line {
        score: thinking.score,
        pv: thinking.pv.clone(),
    };
    let lines = if thinking.lines.is_empty() {
        std::slice::from_ref(&best)
    } else {
        &thinking.lines[..]
    };
    lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let mut text = format!("info depth {}", thinking.depth.max(1));
            if labelled {
                text.push_str(&format!(" multipv {}", k + 1));
            }
            if let Some(score) = line.score {
                // Score's Display is UCI's form (`cp 35`, `mate -2`).
                text.push_str(&format!(" score {score}"));
            }
            let nps = thinking.nodes * 1000 / thinking.millis.max(1);
            text.push_str(&format!(
                " nodes {} nps {nps} time {}",
                thinking.nodes, thinking.millis
            ));
            if !line.pv.is_empty() {
                text.push_str(" pv ");
                text.push_str(&line.pv.join(" "));
            }
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_limits_take_a_share_of_the_time_left() {
        let limits = limits_of(
            &["wtime", "60000", "btime", "1000", "winc", "1000"],
            Color::White,
        )
        .unwrap();
        assert_eq!(limits.movetime, Some(Duration::from_millis(2000 + 750)));
        let limits = limits_of(&["wtime", "60000", "btime", "1000"], Color::Black).unwrap();
        assert_eq!(limits.movetime, Some(Duration::from_millis(33)));
        let limits = limits_of(&["btime", "10", "movestogo", "1"], Color::Black).unwrap();
        assert_eq!(limits.movetime, Some(Duration::from_millis(10)));
        let limits = limits_of(&["depth", "99"], Color::White).unwrap();
        assert_eq!(limits.depth, Some(MAX_DEPTH));
        assert_eq!(
            limits_of(&["depth"], Color::White).unwrap_err(),
            "go depth needs a number"
        );
        assert_eq!(
            limits_of(&["nodes", "x"], Color::White).unwrap_err(),
            "go nodes: 'x' is not a number"
        );
        assert_eq!(
            limits_of(&["fast"], Color::White).unwrap_err(),
            "unknown go parameter 'fast'"
        );
    }
}
