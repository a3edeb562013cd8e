//! `heterodox play --agent SPEC` (served by `heterodox-net`): a game
//! against an agent in the terminal. The board is drawn from the person's
//! side with the variant's extras (countdowns, prisons and airfields,
//! hands, announced pieces); moves are typed in the variant's notation;
//! `undo` takes back the person's last move and the agent's reply; the
//! agent answers with its move and what it thinks of it (thoughts.rs).
//! Illegal input gets the reason and a new prompt. When the game ends or
//! the person stops, its PGN is written (record.rs). Under hidden
//! information (Traitor) the person sees only their own view: the
//! opponent's secret is never printed, nor written.
//!
//! ```text
//! heterodox play --variant hostage --agent net:runs/h1/last@64
//! heterodox play --variant poison --agent ab@200ms --top 3 --color black
//! ```

mod board;
mod record;
mod thoughts;

use std::io::BufRead;
use std::path::PathBuf;

use clap::Args;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Color, GameVariant, RuleOptions, VariantVisitor};
use heterodox_training::arena::agent::{AgentKind, AgentSpec};
use heterodox_training::arena::player::{knows_everything, load_player};

use crate::choice::Choices;
use crate::common::print_stdout;
use board::board;
use record::{Ending, Record};

#[derive(Args, Debug)]
#[command(after_help = include_str!("../cli/play_prompt.txt"))]
pub struct PlayArgs {
    #[command(flatten)]
    game: crate::args::GameArgs,
    /// The agent: random, greedy, ab@DEPTH, ab@MSms, ab@NODESn, uniform@SIMS,
    /// rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS.
    #[arg(long, required = true)]
    agent: String,
    /// Your colour: white or black.
    #[arg(long, default_value = "white")]
    color: String,
    /// Seed of the agent's search and of random set-ups.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The moves listed after each of the agent's moves: a tree search's
    /// most visited (5 unless told), the engine's best lines, each with
    /// its score (1 unless told: the engine searches every line it lists).
    #[arg(long)]
    top: Option<usize>,
    /// Stop after this many plies.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Where the game's PGN is written when it ends or you stop (default:
    /// play-VARIANT-YYYYMMDD-HHMMSS.pgn in the current directory).
    #[arg(long)]
    pgn: Option<PathBuf>,
    #[command(flatten)]
    device: crate::device::DeviceArgs,
}

/// The values of `--color`.
const COLOURS: Choices<Color> = Choices {
    kind: "colour",
    kinds: "colours",
    names: &[("white", Color::White), ("black", Color::Black)],
};

pub fn run(args: &PlayArgs) -> Result<(), String> {
    let variant = args.game.rules.variant()?;
    let options = args.game.rules.options()?;
    let agent: AgentSpec = args.agent.parse().map_err(|e| format!("{e}"))?;
    let human = COLOURS.parse(&args.color)?;
    variant.visit(Visit {
        args,
        options,
        agent,
        human,
    })
}

struct Visit<'a> {
    args: &'a PlayArgs,
    options: RuleOptions,
    agent: AgentSpec,
    human: Color,
}

/// What the person typed at the prompt.
enum Command<'a> {
    Move(&'a str),
    Moves,
    Undo,
    Resign,
    Quit,
    Nothing,
}

impl Command<'_> {
    fn read(line: &str) -> Command<'_> {
        match line.trim() {
            "" => Command::Nothing,
            "moves" => Command::Moves,
            "undo" => Command::Undo,
            "resign" => Command::Resign,
            "quit" => Command::Quit,
            text => Command::Move(text),
        }
    }
}

impl VariantVisitor for Visit<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let Visit {
            args,
            options,
            agent,
            human,
        } = self;
        let rules = P::parse_rules(&options).map_err(|e| format!("{e}"))?;
        // As every PGN the project writes names them: the rules in full.
        let rule_options = P::rule_options(&rules).to_string();
        let start = match &args.game.fen {
            Some(fen) => P::from_position_string(fen, &rules).map_err(|e| format!("{e}"))?,
            None => P::start(&rules, args.seed).map_err(|e| format!("{e}"))?,
        };
        let (date, stamp) = record::now();
        let pgn = record::pgn_path(args.pgn.as_deref(), P::VARIANT.name(), &stamp)?;
        let spec = EncodingSpec::of(&start, 1);
        let device = args.device.device()?;
        let mut player =
            load_player::<P>(&agent, &spec, args.seed, device).map_err(|e| e.to_string())?;
        let engine = matches!(agent.kind, AgentKind::Engine(..));
        let top = args.top.unwrap_or(if engine { 1 } else { 5 });
        // The engine lists the lines it searched: as many as are shown.
        player
            .configure_engine(top.max(1), None)
            .map_err(|e| e.to_string())?;
        let mut record = Record::new(start, human);
        let mut actions = Vec::new();
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        print_stdout(&format!(
            "{} against {agent}; you play {}. Type a move in the variant's notation, \
             'moves' for the legal moves, 'undo' to take back your last move, 'resign', \
             or 'quit' to stop.\n",
            P::VARIANT.name(),
            human.name()
        ));
        let ending = loop {
            let game = record.game();
            if game.outcome().is_some() {
                break Ending::Rules;
            }
            if game.plies() >= args.max_plies {
                break Ending::Stopped("ply cap");
            }
            if game.position().turn() != human {
                let chosen = player.choose(game).map_err(|e| e.to_string())?;
                let before = game.clone();
                record
                    .play_agent(chosen.action)
                    .map_err(|e| e.to_string())?;
                let mut text = match record.last_shown() {
                    Some(record::SECRET_STEP) => format!("{agent} makes its secret choice\n"),
                    shown => format!("{agent} plays {}\n", shown.unwrap_or_default()),
                };
                match thoughts::describe(&before, &chosen, top) {
                    // The search's numbers were computed knowing the
                    // agent's secret: they would tell the person what the
                    // rules hide from them.
                    Some(_) if !knows_everything(record.game().position(), human) => text.push_str(
                        "search: withheld while the agent holds a secret you cannot see\n",
                    ),
                    Some(line) => {
                        text.push_str(&line);
                        text.push('\n');
                    }
                    None => {}
                }
                print_stdout(&text);
                continue;
            }
            print_stdout(&format!(
                "\n{}\n{} to move> ",
                board(game.position(), human),
                human.name()
            ));
            let Some(line) = lines.next() else {
                print_stdout("\nend of input: the game stops unfinished\n");
                break Ending::Stopped("abandoned");
            };
            let line = line.map_err(|e| format!("cannot read a move: {e}"))?;
            match Command::read(&line) {
                Command::Nothing => {}
                Command::Quit => {
                    print_stdout("stopped\n");
                    break Ending::Stopped("abandoned");
                }
                Command::Resign => {
                    print_stdout("you resign\n");
                    break Ending::Resigned;
                }
                Command::Moves => {
                    game.legal_actions(&mut actions);
                    let moves: Vec<String> = actions
                        .iter()
                        .map(|a| game.position().notation(a))
                        .collect();
                    print_stdout(&format!("legal: {}\n", moves.join(" ")));
                }
                Command::Undo => match record.undo() {
                    Some(taken) => print_stdout(&format!("took back {}\n", taken.join(" "))),
                    None => print_stdout("nothing to undo\n"),
                },
                Command::Move(text) => match record.play_human(text) {
                    Ok(played) => print_stdout(&format!("you play {played}\n")),
                    // The error names the position: the person's view of
                    // it, never the agent's secret.
                    Err(e) => {
                        let position = record.game().position();
                        let view = P::view_string(&position.view(human));
                        print_stdout(&format!("illegal: {}\n", e.seen_as(view)));
                    }
                },
            }
        };
        let result = match ending {
            Ending::Rules => record
                .game()
                .outcome()
                .map_or_else(String::new, |o| o.to_string()),
            Ending::Resigned => format!("{} wins by resignation", (!human).name()),
            Ending::Stopped(why) => format!("unfinished ({why})"),
        };
        let text = record.pgn(&agent.to_string(), &rule_options, ending, &date);
        heterodox_data::atomic::write_file(&pgn, text.as_bytes())
            .map_err(|e| format!("cannot write the game to {}: {e}", pgn.display()))?;
        print_stdout(&format!(
            "\n{}\nresult: {result}\ngame saved to {}\n",
            board(record.game().position(), human),
            pgn.display()
        ));
        Ok(())
    }
}
