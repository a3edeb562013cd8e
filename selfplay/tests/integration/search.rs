//! The search on positions with a known answer: a mate in one (one turn:
//! Traitor's announcement and move are one turn of two steps) in every
//! variant, found with the uniform evaluator and few simulations by both
//! root policies; the hidden-information search reads only the searcher's
//! view; determinism by seed.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{new_position, Game, GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::{LeafBatch, RootPolicy, Search, SearchConfig, UniformEvaluator};

fn config(root_policy: RootPolicy, simulations: u32) -> SearchConfig {
    SearchConfig {
        simulations,
        root_policy,
        gumbel_actions: 256,
        dirichlet_epsilon: 0.0,
        gumbel_noise: false,
        // With value-0 leaves, a first-play penalty only delays trying
        // the other children; the uniform search explores them first.
        fpu_reduction: 0.0,
        // The simulations must find the mate themselves here
        // (tests/immediate_wins.rs has the shortcut).
        immediate_wins: false,
        ..SearchConfig::default()
    }
}

/// Searches `fen` and returns the chosen step in the variant's notation,
/// then, when the turn goes on (Traitor's announcement), the next step too.
struct FindMate<'a> {
    fen: &'a str,
    options: &'a [(&'a str, &'a str)],
    config: SearchConfig,
}

impl VariantVisitor for FindMate<'_> {
    type Output = String;

    fn visit<P: GameVariant>(self) -> String {
        let mut options = RuleOptions::new();
        for (k, v) in self.options {
            options.set(k, v);
        }
        let start: P = new_position(Some(self.fen), &options, 0).expect("position");
        let spec = EncodingSpec::of(&start, 1);
        let mut game = Game::new(start);
        let mut search = Search::<P>::new(self.config.clone(), &spec).unwrap();
        let mut batch = LeafBatch::new(&spec);
        let mover = game.position().turn();
        let mut written = Vec::new();
        while game.outcome().is_none() && game.position().turn() == mover {
            search.start(&game, &[], 1).unwrap();
            let result = search.run(&UniformEvaluator, &mut batch);
            let action = result.actions[result.best];
            written.push(game.position().notation(&action));
            game.play(&action).unwrap();
        }
        written.join(" ")
    }
}

fn find(variant: Variant, fen: &str, options: &[(&str, &str)], config: SearchConfig) -> String {
    variant.visit(FindMate {
        fen,
        options,
        config,
    })
}

/// Traitor: the text's sample game to Black's fifth turn (Black's secret
/// c1, g2, h1; White's d8, which Black's search never reads).
fn traitor_mate_position() -> String {
    let start =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- d8/c1,g2,h1 open - -";
    let mut options = RuleOptions::new();
    options.set("selection", "fixed");
    let mut game =
        heterodox_env::AnyGame::with_options(Variant::Traitor, Some(start), &options).unwrap();
    for turn in ["e4", "e5", "Nf3", "Nf6", "Bc4", "Ng4", "0-0", "Bc5", "Nc3"] {
        game.play(turn).unwrap();
    }
    game.fen()
}

/// Variant, position, rule options, the mating turn.
type Case = (
    Variant,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

const CASES: [Case; 5] = [
    (
        Variant::Chess,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        &[],
        "Ra8#",
    ),
    (
        Variant::Poison,
        "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -",
        &[],
        "xHe5#[f5,5]",
    ),
    (
        Variant::Hostage,
        "7k/8/5K2/8/8/8/8/8[-/RRBBNNPPPPPPPP/Q/qrrbbnnpppppppp] w - - 0 1",
        &[],
        "Q*g7#",
    ),
    (
        Variant::MadScientist,
        "4k3/8/8/8/8/8/8/K3R3 w - - - 0 1",
        &[],
        "Rxe8",
    ),
    (
        Variant::Traitor,
        "traitor: see traitor_mate_position",
        &[("selection", "fixed")],
        "(T-Rh1) N:f2#",
    ),
];

/// Every case's mate is found by `root_policy` with `sims` simulations
/// (`traitor_sims` for Traitor, whose mate is two steps deep, announce then
/// move, searched over 4 determinizations of White's secret).
fn finds_every_mate(root_policy: RootPolicy, sims: u32, traitor_sims: u32) {
    let traitor = traitor_mate_position();
    for (variant, fen, options, mate) in CASES {
        let (fen, sims) = if variant == Variant::Traitor {
            (traitor.as_str(), traitor_sims)
        } else {
            (fen, sims)
        };
        assert_eq!(
            find(variant, fen, options, config(root_policy, sims)),
            mate,
            "{variant}"
        );
    }
}

#[test]
fn puct_finds_the_mate_in_one_in_every_variant() {
    finds_every_mate(RootPolicy::Puct, 200, 1000);
}

#[test]
fn gumbel_finds_the_mate_in_one_in_every_variant() {
    finds_every_mate(RootPolicy::Gumbel, 128, 800);
}
