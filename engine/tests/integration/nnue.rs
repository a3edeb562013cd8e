//! The learned evaluation: the net file, the accumulators the search
//! updates action by action, the quantized output against the float one,
//! and what Traitor's feature set may read.

use std::sync::Arc;

use heterodox_engine::nnue::accumulator::refresh;
use heterodox_engine::nnue::{
    feature_set, features, Accumulators, Base, FeatureList, FloatNetwork, Network, NetworkHeader,
    NnueError,
};
use heterodox_engine::{Engine, EngineConfig, Limits};
use heterodox_env::rng::SplitMix64;
use heterodox_env::traitor::{Commitment, Mode, TraitorRules};
use heterodox_env::{
    Chess, Color, Game, GameVariant, HiddenInformation, Hostage, Position, StateSampler, Traitor,
    Variant, VariantVisitor,
};

/// A net of seeded random numbers for `P` under `rules`, weights within
/// `±scale` (small enough that sums of a few dozen rows stay in the
/// clipped ReLU's range now and then).
fn random_net<P: GameVariant>(rules: &P::Rules, hidden: usize, seed: u64) -> FloatNetwork {
    let set = feature_set::<P>().expect("every known variant has a feature set");
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |scale: f32| {
        let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * unit - 1.0) * scale
    };
    FloatNetwork {
        header: NetworkHeader::for_variant::<P>(rules, set, hidden, "random test net"),
        ft_weight: (0..set.inputs * hidden).map(|_| uniform(0.12)).collect(),
        ft_bias: (0..hidden).map(|_| uniform(0.3) + 0.2).collect(),
        out_weight: (0..2 * hidden).map(|_| uniform(1.0)).collect(),
        out_bias: uniform(0.1),
    }
}

/// Both perspectives' features of `pos`, as `observer` may know them.
fn lists<P: GameVariant>(pos: &P, observer: Color) -> [FeatureList; 2] {
    let mut out = [FeatureList::default(), FeatureList::default()];
    for perspective in [Color::White, Color::Black] {
        features(pos, perspective, observer, &mut out[perspective.index()]);
    }
    out
}

/// Along seeded random games of `P`, every accumulator the frames hold
/// equals a recomputation from scratch, and the quantized output stays
/// within 8 cp + 1% of the float net's (random weights up to 1 on the
/// output: rounding of a few dozen rows, times 400 cp a unit).
struct IncrementalEqualsRefresh {
    positions: usize,
}

impl VariantVisitor for IncrementalEqualsRefresh {
    type Output = (u64, u64);

    fn visit<P: GameVariant>(self) -> (u64, u64) {
        let mut totals = (0, 0);
        for rule_set in P::rule_sets() {
            let rules = P::parse_rules(&rule_set.options).unwrap();
            let float = random_net::<P>(&rules, 32, 7);
            let net = Arc::new(Network::quantize(&float).unwrap());
            let hidden = net.hidden();
            let mut acc = Accumulators::new(Arc::clone(&net), 24);
            let mut rng = SplitMix64::new(11);
            let mut actions = Vec::new();
            let mut evaluated = 0;
            // Games until enough positions (random games of some rule
            // sets end in a few moves).
            for game in 0..50 {
                if evaluated >= self.positions {
                    break;
                }
                let mut pos = P::start(&rules, game as u64).unwrap();
                // Plies count up to the frame stack's end, then jump back
                // to 0 (a new root: a refresh), as the search moves.
                for step in 0..160 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let ply = step % 24;
                    let observer = pos.turn();
                    let cp = acc.evaluate(&pos, observer, ply);
                    let expected = lists(&pos, observer);
                    let mut sums = vec![0; 2 * hidden];
                    for p in 0..2 {
                        refresh(
                            &net,
                            expected[p].as_slice(),
                            &mut sums[p * hidden..][..hidden],
                        );
                    }
                    assert_eq!(
                        acc.sums(ply),
                        &sums[..],
                        "{} {}: game {game} step {step}: {}",
                        P::VARIANT.name(),
                        rule_set.label,
                        pos.fen()
                    );
                    let us = pos.turn().index();
                    let reference =
                        float.evaluate(expected[us].as_slice(), expected[1 - us].as_slice());
                    let tolerance = 8.0 + 0.01 * reference.abs();
                    assert!(
                        (cp as f32 - reference).abs() <= tolerance,
                        "{}: quantized {cp} against float {reference}",
                        P::VARIANT.name()
                    );
                    evaluated += 1;
                    actions.clear();
                    pos.legal_actions(&mut actions);
                    let action = actions[rng.below(actions.len())];
                    pos.play_unchecked(&action);
                }
            }
            assert!(
                evaluated >= self.positions,
                "{} {}",
                P::VARIANT.name(),
                rule_set.label
            );
            totals.0 += acc.updates;
            totals.1 += acc.refreshes;
        }
        totals
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_action_of_every_rule_set() {
    for variant in Variant::ALL {
        let (updates, refreshes) = variant.visit(IncrementalEqualsRefresh { positions: 300 });
        // Most positions are reached from their parent's frame.
        assert!(
            updates > 4 * refreshes,
            "{variant:?}: {updates} updates, {refreshes} refreshes"
        );
    }
}

#[test]
fn a_net_file_round_trips_and_is_refused_for_other_rules() {
    let dir = std::env::temp_dir().join(format!("heterodox-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chess.safetensors");
    let float = random_net::<Chess>(&(), 8, 3);
    float.save(&path).unwrap();
    assert_eq!(FloatNetwork::load(&path).unwrap(), float);
    let net = Network::load_for::<Chess>(&path, &()).unwrap();
    assert_eq!(net.header.feature_set, "chess-psq");
    assert_eq!(net.header.inputs, 768);
    assert_eq!(net, Network::quantize(&float).unwrap());

    let error = Network::load_for::<Hostage>(&path, &())
        .unwrap_err()
        .to_string();
    assert!(
        error.ends_with("the net is for variant chess, not hostage"),
        "{error}"
    );
    let standard = TraitorRules::new(Mode::Traitor, Commitment::Standard);
    let traitor = dir.join("traitor.safetensors");
    random_net::<Traitor>(&standard, 8, 3)
        .save(&traitor)
        .unwrap();
    let defector = TraitorRules::new(Mode::Defector, Commitment::Impromptu);
    let error = Network::load_for::<Traitor>(&traitor, &defector)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "the net is for rules 'announce_check=allowed,commitment=standard,mode=traitor,"
        ),
        "{error}"
    );

    // A weight the i16 transformer cannot hold, a file that is not a net.
    let mut wide = float.clone();
    wide.ft_weight[5] = 200.0;
    let error = Network::quantize(&wide).unwrap_err();
    assert!(
        matches!(
            error,
            NnueError::Range {
                name: "ft.weight",
                ..
            }
        ),
        "{error}"
    );
    std::fs::write(dir.join("junk.safetensors"), b"not a net").unwrap();
    assert!(Network::load(&dir.join("junk.safetensors")).is_err());
    let mut bytes = float.to_bytes().unwrap();
    bytes.truncate(bytes.len() - 4);
    assert!(FloatNetwork::from_bytes(&bytes).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_engine_searches_with_a_net_and_without_one_as_before() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let game = Game::new(Chess::from_fen(fen).unwrap());
    let mut engine = Engine::<Chess>::new(EngineConfig::default()).unwrap();
    let classical = engine.search(&game, &Limits::depth(4), |_| {}).unwrap();
    let net = Arc::new(Network::quantize(&random_net::<Chess>(&(), 16, 5)).unwrap());
    engine.set_network(Some(net)).unwrap();
    engine.new_game();
    let learned = engine.search(&game, &Limits::depth(4), |_| {}).unwrap();
    // Mate needs no evaluation: found whatever the net says.
    assert_eq!(game.position().notation(&learned.best), "Qxf7#");
    assert_ne!(learned.nodes, 0);
    engine.set_network(None).unwrap();
    engine.new_game();
    assert_eq!(
        engine
            .search(&game, &Limits::depth(4), |_| {})
            .unwrap()
            .nodes,
        classical.nodes
    );
    // A net of another variant is refused.
    let hostage = Arc::new(Network::quantize(&random_net::<Hostage>(&(), 8, 5)).unwrap());
    let error = engine.set_network(Some(hostage)).unwrap_err().to_string();
    assert_eq!(error, "the net is for variant hostage, not chess");
}

/// A net on the classical base is added to the tuned classical
/// evaluation: with every output weight 0 (what `heterodox nnue train
/// --base classical` starts from) the engine evaluates and searches
/// exactly as without a net; with other weights it adds the net's
/// quantized output to the classical score.
#[test]
fn a_net_on_the_classical_base_adds_to_the_classical_evaluation() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let game = Game::new(Chess::from_fen(fen).unwrap());
    let pos = game.position();
    let mut engine = Engine::<Chess>::new(EngineConfig::default()).unwrap();
    let classical_eval = engine.evaluate(pos);
    let classical = engine.search(&game, &Limits::depth(5), |_| {}).unwrap();

    let mut zero = random_net::<Chess>(&(), 16, 3);
    zero.header.base = Base::Classical;
    zero.out_weight.iter_mut().for_each(|w| *w = 0.0);
    zero.out_bias = 0.0;
    engine
        .set_network(Some(Arc::new(Network::quantize(&zero).unwrap())))
        .unwrap();
    engine.new_game();
    assert_eq!(engine.evaluate(pos), classical_eval);
    let searched = engine.search(&game, &Limits::depth(5), |_| {}).unwrap();
    assert_eq!(
        (searched.best, searched.score, searched.nodes),
        (classical.best, classical.score, classical.nodes)
    );

    let mut float = random_net::<Chess>(&(), 16, 3);
    float.header.base = Base::Classical;
    let net = Arc::new(Network::quantize(&float).unwrap());
    let learned = Accumulators::new(Arc::clone(&net), 2).evaluate(pos, pos.turn(), 0);
    assert_ne!(learned, 0);
    engine.set_network(Some(net)).unwrap();
    assert_eq!(engine.evaluate(pos), classical_eval + learned);
}

/// Traitor's features read the observer's secret and never the
/// opponent's: every state consistent with the observer's view gives the
/// same feature lists, in every commitment with secrets.
#[test]
fn traitor_features_never_read_the_opponents_secret() {
    for (commitment, steps) in [
        (
            Commitment::Standard,
            &["S-d8", "S-a1,b1", "e2e4", "e7e5"][..],
        ),
        (Commitment::Simplified, &["S-NPP", "S-RB", "e2e4"][..]),
    ] {
        let mut state = Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap();
        for step in steps {
            let action = state.parse_step(step).unwrap();
            state.play(&action).unwrap();
        }
        let observer = state.turn();
        let view = state.view(observer);
        let sampler = Traitor::sampler(&view);
        assert!(sampler.len() > 1, "the opponent has a secret to hide");
        let expected = lists(&state, observer);
        let mut differ_for_opponent = false;
        for i in 0..sampler.len() {
            let other = sampler.state(i);
            assert_eq!(
                lists(&other, observer),
                expected,
                "{commitment:?} secret {i}"
            );
            // The same states seen by the opponent do differ: the secret
            // is a feature of the one who holds it.
            differ_for_opponent |= lists(&other, !observer) != lists(&state, !observer);
        }
        assert!(differ_for_opponent, "{commitment:?}");
    }
}
