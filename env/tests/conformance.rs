//! One conformance suite for every registered variant (`Variant::ALL`, so
//! a variant joins by its registry line alone): the action codec, the
//! observation encoder and the batched environment built on them, on each
//! variant's default rule set.

use std::collections::HashSet;

use heterodox_env::vecenv::{GameEnd, SplitMix64};
use heterodox_env::{
    Color, EnvConfig, Game, GameVariant, Outcome, RuleOptions, RuleSet, StepError, Variant,
    VariantVisitor, VecEnv,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random playouts through `Game<P>`: every legal action of every position
/// reached gets a distinct index in range, the observation fills exactly
/// `num_channels * 64` finite floats, and a cloned game is independent.
/// Returns the number of positions checked.
fn codec_playouts<P: GameVariant>(make: &dyn Fn(u64) -> P, games: usize, max_plies: u32) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut actions = Vec::new();
    let mut seen = HashSet::new();
    let mut positions = 0;
    for g in 0..games {
        let mut game = Game::new(make(g as u64));
        let num_actions = game.position().num_actions();
        let channels = game.position().num_channels();
        assert_eq!(game.position().channel_names().len(), channels);
        let mut observation = vec![f32::NAN; channels * 64 + 1];
        while game.outcome().is_none() && game.plies() < max_plies {
            let position = game.position();
            assert_eq!(position.num_actions(), num_actions, "fixed action space");
            position.legal_actions(&mut actions);
            assert!(
                !actions.is_empty(),
                "no legal action but no outcome: {}",
                position.fen()
            );
            seen.clear();
            for action in &actions {
                let index = position.action_index(action);
                assert!(
                    index < num_actions,
                    "{action} -> {index} in {}",
                    position.fen()
                );
                assert!(
                    seen.insert(index),
                    "two legal actions share index {index} in {}",
                    position.fen()
                );
            }
            for observer in [position.turn(), !position.turn()] {
                observation.fill(f32::NAN);
                position.encode(observer, &mut observation);
                assert!(
                    observation[..channels * 64].iter().all(|x| x.is_finite()),
                    "{}",
                    position.fen()
                );
                assert!(
                    observation[channels * 64].is_nan(),
                    "wrote past num_channels * 64"
                );
            }
            positions += 1;
            let action = actions[rng.random_range(0..actions.len())];
            if game.plies() == 10 {
                let original_fen = game.position().fen();
                let original_key = game.position().repetition_key();
                let mut copy = game.clone();
                copy.play(&action).unwrap();
                assert_eq!(game.position().fen(), original_fen);
                assert_eq!(game.position().repetition_key(), original_key);
                assert_eq!(game.plies(), 10);
                assert_ne!(copy.position().fen(), original_fen);
            }
            game.play(&action).unwrap();
        }
    }
    positions
}

fn expected_reward(outcome: Outcome, actor: Color) -> f32 {
    match outcome {
        Outcome::Decisive { winner, .. } if winner == actor => 1.0,
        Outcome::Decisive { .. } => -1.0,
        Outcome::Draw { .. } => 0.0,
    }
}

/// Steps a batch with random legal actions; checks masks against the
/// legal actions, rewards and flags against the results, and returns the
/// action sequence and the final FEN of every finished game.
fn vecenv_random_run<P: GameVariant>(
    make: impl Fn(u64) -> P + Send + Sync + 'static,
    config: EnvConfig,
    steps: usize,
    policy_seed: u64,
) -> (Vec<i64>, Vec<String>, usize) {
    let mut env = VecEnv::new(config, make).unwrap();
    let n = env.num_envs();
    let a = env.num_actions();
    let c = env.observation_shape()[0];
    assert_eq!(env.observation_shape(), [c, 8, 8]);
    assert_eq!(env.channel_names().len(), c);
    assert_eq!(env.observations().len(), n * c * 64);
    assert_eq!(env.action_masks().len(), n * a);
    assert_eq!((env.rewards().len(), env.terminated().len()), (n, n));
    assert_eq!((env.truncated().len(), env.current_players().len()), (n, n));
    let mut rng = SplitMix64::new(policy_seed);
    let mut actions = vec![0i64; n];
    let mut history = Vec::new();
    let mut finals = Vec::new();
    let mut finished = 0;
    for _ in 0..steps {
        for i in 0..n {
            let (legal, indices) = env.legal_actions(i).unwrap();
            assert_eq!(legal.len(), indices.len());
            let position = env.game(i).unwrap().position();
            assert_eq!(env.current_players()[i], position.turn().index() as u8);
            let mask = &env.action_masks()[i * a..(i + 1) * a];
            assert_eq!(
                mask.iter().filter(|m| **m).count(),
                legal.len(),
                "mask size"
            );
            for (action, index) in legal.iter().zip(indices) {
                assert_eq!(position.action_index(action), *index as usize);
                assert!(mask[*index as usize]);
            }
        }
        let actors: Vec<u8> = env.current_players().to_vec();
        env.random_legal_actions(&mut rng, &mut actions);
        history.extend_from_slice(&actions);
        env.step(&actions).unwrap();
        for (i, &acted) in actors.iter().enumerate() {
            let reward = env.rewards()[i];
            let actor = if acted == 0 {
                Color::White
            } else {
                Color::Black
            };
            match (env.terminated()[i], env.truncated()[i]) {
                (true, false) => {
                    let Some(GameEnd::Terminated(outcome)) = env.last_end(i) else {
                        panic!("terminated without an outcome");
                    };
                    assert_eq!(reward, expected_reward(outcome, actor));
                    // Zero-sum: the opponent's return is the negation.
                    assert_eq!(reward + expected_reward(outcome, !actor), 0.0);
                    assert_eq!(env.game(i).unwrap().plies(), 0, "auto-reset");
                    finals.push(env.last_game(i).unwrap().position().fen());
                    finished += 1;
                }
                (false, true) => {
                    assert_eq!(reward, 0.0);
                    assert_eq!(env.last_end(i), Some(GameEnd::Truncated));
                    assert_eq!(env.last_game(i).unwrap().plies(), env.max_plies());
                    finals.push(env.last_game(i).unwrap().position().fen());
                    finished += 1;
                }
                (false, false) => assert_eq!(reward, 0.0),
                (true, true) => panic!("terminated and truncated at once"),
            }
        }
    }
    finals.push(env.observations().iter().map(|x| x.to_string()).collect());
    (history, finals, finished)
}

/// What a step may change: observations, masks, rewards and positions.
type Snapshot = (Vec<f32>, Vec<bool>, Vec<f32>, Vec<String>);

fn snapshot<P: GameVariant>(env: &VecEnv<P>) -> Snapshot {
    (
        env.observations().to_vec(),
        env.action_masks().to_vec(),
        env.rewards().to_vec(),
        (0..env.num_envs())
            .map(|i| env.game(i).unwrap().position().fen())
            .collect(),
    )
}

/// An illegal or out-of-range action, or a wrong count, is refused with a
/// typed error naming the action and position, and changes nothing.
fn illegal_actions_change_nothing<P: GameVariant>(make: impl Fn(u64) -> P + Send + Sync + 'static) {
    let mut env = VecEnv::new(EnvConfig::new(3).with_seed(5), make).unwrap();
    let mut rng = SplitMix64::new(1);
    let mut actions = vec![0i64; 3];
    for _ in 0..3 {
        env.random_legal_actions(&mut rng, &mut actions);
        env.step(&actions).unwrap();
    }
    let snapshot = snapshot(&env);
    let a = env.num_actions();
    let illegal = env.action_masks()[a..2 * a]
        .iter()
        .position(|m| !m)
        .unwrap() as i64;
    env.random_legal_actions(&mut rng, &mut actions);
    for bad in [illegal, -1, a as i64, i64::MAX] {
        let mut attempt = actions.clone();
        attempt[1] = bad;
        let error = env.step(&attempt).unwrap_err();
        let fen = env.game(1).unwrap().position().fen();
        assert_eq!(
            error,
            StepError::IllegalAction {
                env: 1,
                action: bad,
                num_actions: a,
                fen: fen.clone()
            }
        );
        let message = error.to_string();
        assert!(
            message.contains(&bad.to_string()) && message.contains(&fen),
            "{message}"
        );
    }
    assert_eq!(
        env.step(&actions[..2]).unwrap_err(),
        StepError::ActionCount {
            expected: 3,
            found: 2
        }
    );
    assert!(
        snapshot == self::snapshot(&env),
        "a refused step changed the environment"
    );
    env.step(&actions).unwrap();
}

/// History T = 3: slot 0 is the current position, slot 1 the previous one,
/// both from the current player's view; slots before the start are zero.
fn history_stacking<P: GameVariant>(make: impl Fn(u64) -> P + Send + Sync + 'static) {
    let mut env = VecEnv::new(EnvConfig::new(1).with_history(3), make).unwrap();
    let start = env.game(0).unwrap().position().clone();
    let c = start.num_channels();
    assert_eq!(env.observation_shape(), [3 * c + 2, 8, 8]);
    assert!(env.channel_names()[c].starts_with("t-1:"));
    assert_eq!(env.channel_names()[3 * c], "repetition_1");
    let block =
        |env: &VecEnv<P>, k: usize| env.observations()[k * c * 64..(k + 1) * c * 64].to_vec();
    assert!(block(&env, 1)
        .iter()
        .chain(&block(&env, 2))
        .all(|x| *x == 0.0));
    let mut actions = [0i64];
    env.random_legal_actions(&mut SplitMix64::new(3), &mut actions);
    env.step(&actions).unwrap();
    let now = env.game(0).unwrap().position().clone();
    let mut expected = vec![0.0; c * 64];
    now.encode(now.turn(), &mut expected);
    assert_eq!(block(&env, 0), expected);
    start.encode(now.turn(), &mut expected);
    assert_eq!(block(&env, 1), expected);
    assert!(block(&env, 2).iter().all(|x| *x == 0.0));
}

/// Without auto-reset a finished env stays finished: empty mask, any action
/// accepted and ignored, reward 0, until `reset`.
fn finished_env_without_auto_reset<P: GameVariant>(
    make: impl Fn(u64) -> P + Send + Sync + 'static,
) {
    let config = EnvConfig::new(2).with_max_plies(4).with_auto_reset(false);
    let mut env = VecEnv::new(config, make).unwrap();
    let mut rng = SplitMix64::new(9);
    let mut actions = vec![0i64; 2];
    for _ in 0..4 {
        env.random_legal_actions(&mut rng, &mut actions);
        env.step(&actions).unwrap();
    }
    for i in 0..2 {
        assert!(env.terminated()[i] || env.truncated()[i]);
        assert!(env.last_end(i).is_some());
    }
    assert!(env.action_masks().iter().all(|m| !m));
    let fens: Vec<String> = (0..2)
        .map(|i| env.game(i).unwrap().position().fen())
        .collect();
    env.random_legal_actions(&mut rng, &mut actions);
    assert_eq!(actions, [-1, -1]);
    env.step(&actions).unwrap();
    assert_eq!(env.rewards(), [0.0, 0.0]);
    assert_eq!(
        fens,
        (0..2)
            .map(|i| env.game(i).unwrap().position().fen())
            .collect::<Vec<_>>()
    );
    env.reset(None);
    assert_eq!(env.game(0).unwrap().plies(), 0);
    assert_eq!(env.terminated(), [false, false]);
    assert_eq!(env.truncated(), [false, false]);
    assert!(env.action_masks().iter().any(|m| *m));
}

/// An env rebuilt from its records (start, game number, indices played)
/// steps exactly as the original; start positions, final observations
/// and per-env resets do what their docs say.
fn records_starts_and_resets<P: GameVariant>(
    make: impl Fn(u64) -> P + Send + Sync + Clone + 'static,
) {
    let config = EnvConfig::new(3)
        .with_seed(4)
        .with_max_plies(9)
        .with_history(2);
    let mut env = VecEnv::new(config.clone(), make.clone()).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut actions = vec![0i64; 3];
    let mut finals = 0;
    for _ in 0..13 {
        env.random_legal_actions(&mut rng, &mut actions);
        env.step(&actions).unwrap();
        for i in 0..3 {
            let ended = env.terminated()[i] || env.truncated()[i];
            assert_eq!(env.final_observation(i).is_some(), ended);
            if let Some(observation) = env.final_observation(i) {
                assert_eq!(observation.len(), env.observations().len() / 3);
                finals += 1;
            }
        }
    }
    assert!(finals >= 3, "every env hit the ply cap");
    let mut copy = VecEnv::new(config, make.clone()).unwrap();
    for i in 0..3 {
        let (start, resets, played) = env.env_record(i).unwrap();
        let played = played.to_vec();
        assert!(copy.restore_env(i, start, resets, &played));
    }
    assert!(!copy.restore_env(3, make(0), 1, &[]));
    for _ in 0..20 {
        env.random_legal_actions(&mut rng, &mut actions);
        env.step(&actions).unwrap();
        copy.step(&actions).unwrap();
        assert_eq!(env.observations(), copy.observations());
        assert_eq!(env.action_masks(), copy.action_masks());
        assert_eq!(env.rewards(), copy.rewards());
        assert_eq!(env.terminated(), copy.terminated());
    }
    // Start positions: every later game of env i starts from starts[i].
    let start = env.game(1).unwrap().position().clone();
    assert!(!env.set_starts(vec![start.clone()]), "one per env");
    assert!(env.set_starts(vec![start.clone(), start.clone(), start.clone()]));
    env.reset_envs(&[false, true, false]);
    assert_eq!(env.game(1).unwrap().plies(), 0);
    assert_eq!(env.game(1).unwrap().position().fen(), start.fen());
    env.reset(None);
    for i in 0..3 {
        assert_eq!(env.game(i).unwrap().position().fen(), start.fen());
    }
}

fn conformance<P: GameVariant>(make: impl Fn(u64) -> P + Send + Sync + Clone + 'static) {
    let positions = codec_playouts(&make, 100, 400);
    assert!(positions >= 10_000, "only {positions} positions checked");

    let config = EnvConfig::new(8).with_seed(11).with_max_plies(150);
    let (actions_a, finals_a, finished) = vecenv_random_run(make.clone(), config.clone(), 600, 4);
    assert!(finished >= 20, "only {finished} games finished");
    let (actions_b, finals_b, _) = vecenv_random_run(make.clone(), config.clone(), 600, 4);
    assert_eq!(actions_a, actions_b, "same seed, same games");
    assert_eq!(finals_a, finals_b, "same seed, same final positions");

    illegal_actions_change_nothing(make.clone());
    history_stacking(make.clone());
    records_starts_and_resets(make.clone());
    finished_env_without_auto_reset(make);
}

/// Runs the suite on the default rule set of one variant, its games
/// started as `GameVariant::start` starts them.
struct Conformance;

impl VariantVisitor for Conformance {
    type Output = ();

    fn visit<P: GameVariant>(self) {
        let rules = P::parse_rules(&RuleOptions::new()).expect("the defaults parse");
        conformance(move |seed| P::start(&rules, seed).expect("a default start position"));
    }
}

#[test]
fn every_registered_variant_conforms() {
    // One thread per variant, named after it, so a failure names its
    // variant and the variants run side by side as separate tests would.
    std::thread::scope(|scope| {
        for variant in Variant::ALL {
            std::thread::Builder::new()
                .name(variant.name().to_owned())
                .spawn_scoped(scope, move || variant.visit(Conformance))
                .expect("a test thread");
        }
    });
}

#[test]
fn every_rule_set_of_every_variant_parses_and_differs() {
    for variant in Variant::ALL {
        struct Distinct(Vec<RuleSet>);
        impl VariantVisitor for Distinct {
            type Output = ();
            fn visit<P: GameVariant>(self) {
                let mut seen = Vec::new();
                for set in self.0 {
                    let rules = P::parse_rules(&set.options)
                        .unwrap_or_else(|e| panic!("{} {}: {e}", P::VARIANT, set.label));
                    assert!(!seen.contains(&rules), "{} {} twice", P::VARIANT, set.label);
                    seen.push(rules);
                }
            }
        }
        let sets = variant.rule_sets();
        assert!(!sets.is_empty(), "{variant}");
        variant.visit(Distinct(sets));
    }
    let traitor = Variant::Traitor.rule_sets();
    assert_eq!(traitor.len(), 15);
    assert_eq!(traitor[0].label, "traitor/standard");
    assert_eq!(
        traitor[0].options.to_string(),
        "commitment=standard,mode=traitor"
    );
    assert_eq!(traitor[14].label, "mercenary/impromptu");
    assert_eq!(Variant::Chess.rule_sets()[0].label, "");
}

/// The test-only variant (King of the Hill) is in the registry of a
/// `test-variant` build, so the suite above ran on it: adding a variant
/// takes its folder and its registry line, nothing in this file.
#[cfg(feature = "test-variant")]
#[test]
fn the_test_variant_is_registered_in_a_test_variant_build() {
    let variant: Variant = "kingofthehill".parse().unwrap();
    assert!(Variant::ALL.contains(&variant));
    assert_eq!(variant.rule_sets().len(), 1);
}

/// ... and never in a normal build, whose registry the claims and the
/// benchmarks iterate.
#[cfg(not(feature = "test-variant"))]
#[test]
fn the_test_variant_stays_out_of_a_normal_build() {
    let error = "kingofthehill".parse::<Variant>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant 'kingofthehill' (valid variants: chess, poison, hostage, madscientist, traitor)"
    );
}

/// What `for_each_variant!` hands a callback: here, each line's position
/// type's `VARIANT`, in order.
macro_rules! registered_types {
    ($($(#[$meta:meta])* $arm:ident => $position:ty;)*) => {
        [$(
            $(#[$meta])*
            (Variant::$arm, <$position as GameVariant>::VARIANT),
        )*]
    };
}

/// `for_each_variant!` with arguments: they come first, in parentheses.
macro_rules! count_with_offset {
    (($offset:expr) $($(#[$meta:meta])* $arm:ident => $position:ty;)*) => {{
        let mut count = $offset;
        $(
            $(#[$meta])*
            {
                count += 1;
            }
        )*
        count
    }};
}

#[test]
fn for_each_variant_hands_downstream_code_the_registry_in_order() {
    // The lines come from the registry itself (the test variant's cfg
    // included), so this holds in a normal and a `test-variant` build.
    let found = heterodox_env::for_each_variant!(registered_types);
    let arms: Vec<Variant> = found.iter().map(|&(arm, _)| arm).collect();
    assert_eq!(arms, Variant::ALL);
    assert!(found.iter().all(|(arm, of_type)| arm == of_type));
    assert_eq!(
        heterodox_env::for_each_variant!(count_with_offset, 10),
        10 + Variant::ALL.len()
    );
}
