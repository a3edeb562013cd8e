//! Quiescence at the leaves (`SearchConfig::quiescence_weight`): each
//! leaf's value blends the evaluator's with the engine's quiescence
//! search, exactly as documented; the blend makes a uniform search take a
//! hanging Doctor it otherwise ignores; under hidden information the
//! quiescence reads only the sampled states of the searcher's view.

use heterodox_engine::{EvalWeights, LeafQuiescence};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{
    AnyGame, Game, GameVariant, PoisonChess, Position, RuleOptions, Traitor, Variant,
};
use heterodox_selfplay::{LeafBatch, RootPolicy, Search, SearchConfig, UniformEvaluator};

fn config(simulations: u32, quiescence_weight: f32) -> SearchConfig {
    SearchConfig {
        simulations,
        root_policy: RootPolicy::Gumbel,
        gumbel_actions: 256,
        gumbel_noise: false,
        dirichlet_epsilon: 0.0,
        immediate_wins: false,
        quiescence_weight,
        ..SearchConfig::default()
    }
}

/// The Knight on e3 can take the undefended Doctor on d5.
const HANGING_DOCTOR: &str = "4k3/8/8/3d4/8/4N3/8/4K3 w - - 0 1 -";

/// The move a uniform search of `fen` plays.
fn uniform_choice(fen: &str, config: SearchConfig) -> String {
    let pos = PoisonChess::from_position_string(fen, &()).unwrap();
    let spec = EncodingSpec::of(&pos, 1);
    let game = Game::new(pos);
    let mut search = Search::<PoisonChess>::new(config, &spec).unwrap();
    search.start(&game, &[], 7).unwrap();
    let result = search.run(&UniformEvaluator, &mut LeafBatch::new(&spec));
    game.position().notation(&result.actions[result.best])
}

#[test]
fn a_uniform_search_takes_the_hanging_doctor_only_with_quiescence() {
    assert_eq!(uniform_choice(HANGING_DOCTOR, config(64, 0.5)), "Nxd5");
    assert_eq!(uniform_choice(HANGING_DOCTOR, config(64, 1.0)), "Nxd5");
    // Without it every leaf is worth 0 and nothing tells the moves apart.
    assert_eq!(uniform_choice(HANGING_DOCTOR, config(64, 0.0)), "Kf1");
}

#[test]
fn a_leafs_value_is_the_documented_blend() {
    let pos = PoisonChess::from_position_string(HANGING_DOCTOR, &()).unwrap();
    let spec = EncodingSpec::of(&pos, 1);
    let game = Game::new(pos);
    let mut search = Search::<PoisonChess>::new(
        SearchConfig {
            determinizations: 1,
            ..config(1, 0.25)
        },
        &spec,
    )
    .unwrap();
    search.start(&game, &[], 7).unwrap();
    let mut batch = LeafBatch::new(&spec);
    let uniform = |batch: &LeafBatch<PoisonChess>| {
        let n = batch.legal_range(0).len();
        vec![1.0 / n as f32; n]
    };
    // The root, then the one simulation's leaf.
    assert_eq!(search.gather(&mut batch), 1);
    search.apply(&uniform(&batch), &[0.0]).unwrap();
    batch.clear();
    assert_eq!(search.gather(&mut batch), 1);
    let leaf = batch.position(0).clone();
    search.apply(&uniform(&batch), &[0.3]).unwrap();
    assert!(search.is_done());
    let q = LeafQuiescence::<PoisonChess>::new(EvalWeights::Tuned)
        .score(&leaf)
        .expected_result();
    // The leaf is Black's; the root value is White's.
    assert_eq!(search.result().value, -(0.75 * 0.3 + 0.25 * q));
    assert_ne!(q, 0.0);
}

/// The sample game of the Traitor text to Black's fifth turn, with White's
/// secret `white_secret` (Black's search must not read it).
fn traitor_position(white_secret: &str) -> Traitor {
    let start = format!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- {white_secret}/c1,g2,h1 open - -"
    );
    let mut options = RuleOptions::new();
    options.set("selection", "fixed");
    let mut game = AnyGame::with_options(Variant::Traitor, Some(&start), &options).unwrap();
    for turn in ["e4", "e5", "Nf3", "Nf6", "Bc4", "Ng4", "0-0", "Bc5", "Nc3"] {
        game.play(turn).unwrap();
    }
    heterodox_env::new_position(Some(&game.fen()), &options, 0).unwrap()
}

#[test]
fn hidden_information_quiescence_reads_only_the_searchers_view() {
    let search = |white_secret: &str| {
        let pos = traitor_position(white_secret);
        let spec = EncodingSpec::of(&pos, 1);
        let game = Game::new(pos);
        let mut search = Search::<Traitor>::new(config(200, 0.5), &spec).unwrap();
        search.start(&game, &[], 11).unwrap();
        let result = search.run(&UniformEvaluator, &mut LeafBatch::new(&spec));
        (result.visits, result.value, result.best)
    };
    let (d8, b8) = (search("d8"), search("b8"));
    assert_eq!(d8, b8);
    // The quiescence changed the search: not the uniform search's answer.
    assert_ne!(d8.1, 0.0);
}
