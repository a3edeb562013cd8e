//! `cargo run --release -p heterodox-engine --example versus_greedy -- [GAMES] [NODES]`:
//! the engine (a node limit per move) against the greedy player in every
//! variant, colours alternating, games from each variant's start with a
//! few random opening moves (seeded). Prints the engine's score per
//! variant: a quick check of strength and of long games, not a rating.

use heterodox_engine::{Engine, EngineConfig, Greedy, Limits};
use heterodox_env::rng::SplitMix64;
use heterodox_env::{new_position, Game, GameVariant, RuleOptions, Variant, VariantVisitor};

struct Match {
    games: usize,
    nodes: u64,
}

impl VariantVisitor for Match {
    type Output = (f64, usize, usize);

    fn visit<P: GameVariant>(self) -> (f64, usize, usize) {
        let mut score = 0.0;
        let mut plies_total = 0;
        let mut unfinished = 0;
        for game_index in 0..self.games {
            let position: P = new_position(None, &RuleOptions::new(), game_index as u64).unwrap();
            let mut game = Game::new(position);
            let mut rng = SplitMix64::new(game_index as u64 / 2);
            let mut actions = Vec::new();
            for _ in 0..4 {
                game.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                let a = actions[rng.below(actions.len())];
                game.play(&a).unwrap();
            }
            let engine_color = if game_index % 2 == 0 {
                game.position().turn()
            } else {
                !game.position().turn()
            };
            let mut engine = Engine::<P>::new(EngineConfig::default()).unwrap();
            let mut greedy = Greedy::new(game_index as u64);
            while game.outcome().is_none() && game.plies() < P::DEFAULT_MAX_PLIES {
                let action = if game.position().turn() == engine_color {
                    engine
                        .search(&game, &Limits::nodes(self.nodes), |_| {})
                        .unwrap()
                        .best
                } else {
                    greedy.choose(&game).unwrap()
                };
                game.play(&action).unwrap();
            }
            plies_total += game.plies() as usize;
            match game.outcome() {
                Some(outcome) => score += f64::from(outcome.reward(engine_color) + 1.0) / 2.0,
                None => {
                    unfinished += 1;
                    score += 0.5;
                }
            }
        }
        (
            score / self.games as f64,
            plies_total / self.games,
            unfinished,
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = args.get(1).map_or(10, |a| a.parse().unwrap());
    let nodes = args.get(2).map_or(20_000, |a| a.parse().unwrap());
    for variant in Variant::ALL {
        let (score, plies, unfinished) = variant.visit(Match { games, nodes });
        println!("{:<14} engine score {:.2} over {games} games, {plies} plies a game, {unfinished} unfinished", variant.name(), score);
    }
}
