//! `heterodox play --agent SPEC` (served by `heterodox-net`): a game
//! against an agent in the terminal. The board is drawn with the variant's
//! extras (countdowns, prisons and airfields, hands, announced pieces);
//! moves are typed in the variant's notation; the agent answers with its
//! move and its search's top moves. Illegal input gets the reason and a new
//! prompt. Under hidden information (Traitor) the human sees only their own
//! view: the opponent's secret is never printed.
//!
//! ```text
//! heterodox play --variant hostage --agent net:runs/h1/last@64
//! heterodox play --variant poison --agent uniform@200 --color black
//! ```

use std::io::BufRead;

use clap::Args;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Color, Game, GameVariant, RuleOptions, VariantVisitor};
use heterodox_training::arena::agent::AgentSpec;
use heterodox_training::arena::player::{is_secret_step, knows_everything, AgentPlayer};

use crate::choice::Choices;
use crate::common::print_stdout;

#[derive(Args, Debug)]
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
    /// The search's top moves shown after each of its moves.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Stop after this many plies.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
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
        let start = match &args.game.fen {
            Some(fen) => P::from_position_string(fen, &rules).map_err(|e| format!("{e}"))?,
            None => P::start(&rules, args.seed).map_err(|e| format!("{e}"))?,
        };
        let spec = EncodingSpec::of(&start, 1);
        let device = args.device.device()?;
        let mut player =
            AgentPlayer::<P>::new(&agent, &spec, args.seed, device).map_err(|e| e.to_string())?;
        let mut game = Game::new(start);
        let mut actions = Vec::new();
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        print_stdout(&format!(
            "{} against {agent}; you play {}. Type a move in the variant's notation, \
             'moves' for the legal moves, 'quit' to stop.\n",
            P::VARIANT.name(),
            human.name()
        ));
        while game.outcome().is_none() && game.plies() < args.max_plies {
            if game.position().turn() == human {
                print_stdout(&format!(
                    "\n{}\n{} to move> ",
                    board(game.position(), human),
                    human.name()
                ));
                let Some(line) = lines.next() else {
                    print_stdout("\nend of input: the game stops unfinished\n");
                    return Ok(());
                };
                let line = line.map_err(|e| format!("cannot read a move: {e}"))?;
                let text = line.trim();
                match text {
                    "" => continue,
                    "quit" | "resign" => {
                        print_stdout("stopped\n");
                        return Ok(());
                    }
                    "moves" => {
                        game.legal_actions(&mut actions);
                        let moves: Vec<String> = actions
                            .iter()
                            .map(|a| game.position().notation(a))
                            .collect();
                        print_stdout(&format!("legal: {}\n", moves.join(" ")));
                        continue;
                    }
                    _ => {}
                }
                match P::play_text(&mut game, text) {
                    Ok((_, played)) => print_stdout(&format!("you play {played}\n")),
                    // The error names the position: the human's view of
                    // it, never the agent's secret.
                    Err(e) => {
                        let view = P::view_string(&game.position().view(human));
                        print_stdout(&format!("illegal: {}\n", e.seen_as(view)));
                    }
                }
                continue;
            }
            let chosen = player.choose(&game).map_err(|e| e.to_string())?;
            let action = chosen.action;
            let top = chosen.value.map(|value| {
                let top: Vec<String> = chosen
                    .top
                    .iter()
                    .take(args.top)
                    .map(|m| {
                        format!(
                            "{} ({} visits, policy {:.2})",
                            game.position().notation(&m.action),
                            m.visits,
                            m.policy
                        )
                    })
                    .collect();
                format!("search: value {value:+.2}; top moves: {}", top.join(", "))
            });
            let secret_step = is_secret_step(&game, &action, human);
            let notation = game.position().notation(&action);
            game.play(&action).map_err(|e| e.to_string())?;
            let mut text = if secret_step {
                format!("{agent} makes its secret choice\n")
            } else {
                format!("{agent} plays {notation}\n")
            };
            match top {
                // The search's values and visits were computed knowing the
                // agent's secret: they would tell the human what the rules
                // hide from them.
                Some(_) if !knows_everything(game.position(), human) => text
                    .push_str("search: withheld while the agent holds a secret you cannot see\n"),
                Some(top) => {
                    text.push_str(&top);
                    text.push('\n');
                }
                None => {}
            }
            print_stdout(&text);
        }
        let result = game
            .outcome()
            .map_or("unfinished (ply cap)".to_owned(), |o| o.to_string());
        print_stdout(&format!(
            "\n{}\nresult: {result}\n",
            board(game.position(), human)
        ));
        Ok(())
    }
}

/// The board as `human` may see it: the full diagram in a game of perfect
/// information; under hidden information the secrets line is replaced by
/// the human's own view.
fn board<P: GameVariant>(position: &P, human: Color) -> String {
    let mut diagram = position.diagram();
    let view = P::view_string(&position.view(human));
    if view != position.fen() {
        diagram.below.retain(|line| !line.starts_with("secrets:"));
        diagram.below.push(format!("your view: {view}"));
    }
    heterodox_env::render::text(&diagram)
}
