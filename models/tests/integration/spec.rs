//! Every variant's encoding spec builds a network whose shapes match its
//! encoder, runs on the batched environment's real observations, and saves
//! and loads with its spec; a checkpoint for another encoding is refused.
//! Tiny networks on the CPU, so the whole file runs in a few seconds.

use crate::support;

use heterodox_env::rng::SplitMix64;
use heterodox_env::{make_batch_env, BatchEnv, EnvConfig, RuleOptions, Variant};
use heterodox_models::tch::Tensor;
use heterodox_models::{EncodingSpec, ModelError, NetConfig, Network, CONFIG_FILE, SPEC_FILE};

use support::{save_tiny_for, scratch_dir, tch_seed, tiny_for, CPU};

/// A variant under one rule setting and the shapes its encoding has with
/// T = 1: observation planes (the variant's own + 2 repetition planes),
/// square-indexed action planes and flat actions.
struct Case {
    name: &'static str,
    variant: Variant,
    options: &'static str,
    channels: usize,
    planes: usize,
    flat: usize,
}

const CASES: [Case; 7] = [
    Case {
        name: "chess",
        variant: Variant::Chess,
        options: "",
        channels: 20 + 2,
        planes: 73,
        flat: 0,
    },
    Case {
        name: "poison",
        variant: Variant::Poison,
        options: "",
        channels: 28 + 2,
        planes: 90,
        flat: 0,
    },
    Case {
        name: "hostage",
        variant: Variant::Hostage,
        options: "",
        channels: 42 + 2,
        planes: 97,
        flat: 0,
    },
    Case {
        name: "madscientist",
        variant: Variant::MadScientist,
        options: "",
        channels: 29 + 2,
        planes: 88,
        flat: 4,
    },
    Case {
        name: "traitor-standard",
        variant: Variant::Traitor,
        options: "commitment=standard",
        channels: 32 + 2,
        planes: 74,
        flat: 2204,
    },
    Case {
        name: "traitor-simplified",
        variant: Variant::Traitor,
        options: "commitment=simplified",
        channels: 36 + 2,
        planes: 74,
        flat: 49,
    },
    Case {
        name: "traitor-impromptu",
        variant: Variant::Traitor,
        options: "commitment=impromptu",
        channels: 31 + 2,
        planes: 74,
        flat: 0,
    },
];

const BATCH: usize = 4;

fn env(case: &Case, history: usize) -> Box<dyn BatchEnv> {
    let options = RuleOptions::parse(case.options).unwrap();
    let config = EnvConfig::new(BATCH).with_seed(5).with_history(history);
    make_batch_env(case.variant, &options, config).unwrap()
}

fn spec(case: &Case, history: usize) -> EncodingSpec {
    env(case, history).spec().clone()
}

/// The env's observations as a `[N, C, 8, 8]` tensor.
fn observations(env: &dyn BatchEnv) -> Tensor {
    let [c, h, w] = env.observation_shape().map(|x| x as i64);
    Tensor::from_slice(env.observations()).view([env.num_envs() as i64, c, h, w])
}

/// A few random steps, so that the batch holds varied positions (and, with
/// T = 2, non-zero history planes).
fn play_a_little(env: &mut dyn BatchEnv) {
    let mut rng = SplitMix64::new(11);
    let mut actions = vec![0_i64; env.num_envs()];
    for _ in 0..3 {
        env.random_legal_actions(&mut rng, &mut actions);
        env.step(&actions).unwrap();
    }
}

#[test]
fn every_spec_gives_a_config_of_its_shapes() {
    for case in &CASES {
        for history in [1, 2] {
            let spec = spec(case, history);
            let config = NetConfig::for_spec(&spec);
            // T stacked encodings (own planes without the 2 repetition
            // planes), then the repetition planes.
            let channels = history * (case.channels - 2) + 2;
            let expected = NetConfig {
                input_channels: channels,
                board_height: 8,
                board_width: 8,
                blocks: 4,
                channels: 64,
                policy_planes: case.planes,
                policy_flat: case.flat,
                value_hidden: 128,
                auxiliary_heads: false,
            };
            assert_eq!(config, expected, "{} T={history}", case.name);
            assert_eq!(config.policy_size(), spec.num_actions, "{}", case.name);
            config.check_spec(&spec).unwrap();
        }
    }
}

#[test]
fn every_variant_runs_saves_and_loads_with_its_spec() {
    tch_seed(2);
    for case in &CASES {
        for history in [1, 2] {
            let what = format!("{} T={history}", case.name);
            let mut env = env(case, history);
            play_a_little(env.as_mut());
            let spec = env.spec().clone();
            let config = tiny_for(&spec);
            let net = Network::for_spec(&spec, &config, CPU).unwrap();
            assert_eq!(net.spec(), Some(&spec));

            let xs = observations(env.as_ref());
            let (policy, value) = net.try_forward_t(&xs, false).unwrap();
            let n = BATCH as i64;
            assert_eq!(policy.size(), [n, spec.num_actions as i64], "{what}");
            assert_eq!(value.size(), [n], "{what}");
            // Every legal action has its logit.
            for i in 0..BATCH {
                let legal = env.legal_indices(i).unwrap();
                let legal: Vec<i64> = legal.iter().map(|&a| i64::from(a)).collect();
                let index = Tensor::from_slice(&legal);
                let logits = policy.get(i as i64).index_select(0, &index);
                assert_eq!(logits.size(), [legal.len() as i64], "{what}");
                assert!(logits.isfinite().all().int64_value(&[]) == 1, "{what}");
            }

            let dir = scratch_dir(&format!("spec-{}-t{history}", case.name)).join("net");
            net.save(&dir).unwrap();
            assert!(dir.join(SPEC_FILE).is_file(), "{what}");
            let loaded = Network::load_for(&dir, &spec, CPU).unwrap();
            assert_eq!(loaded.spec(), Some(&spec), "{what}");
            assert_eq!(loaded.config(), &config, "{what}");
            let (p1, v1) = loaded.forward_t(&xs, false);
            assert!(policy.equal(&p1) && value.equal(&v1), "{what}");
            // Plain `load` reads the spec too.
            assert_eq!(Network::load(&dir, CPU).unwrap().spec(), Some(&spec));

            // Another encoding version of the same variant is refused,
            // naming both versions.
            let mut newer = spec.clone();
            newer.version += 1;
            let err = Network::load_for(&dir, &newer, CPU).unwrap_err();
            let message = err.to_string();
            assert!(
                matches!(&err, ModelError::EncodingMismatch(m)
                    if m.reason == format!("encoding version {} vs {}", newer.version, spec.version)),
                "{what}: {err}"
            );
            assert!(
                message.contains(&format!(" v{} ", newer.version)),
                "{message}"
            );
            assert!(
                message.contains(&format!(" v{} ", spec.version)),
                "{message}"
            );

            // So is another history length.
            let other = self::spec(case, 3 - history);
            let err = Network::load_for(&dir, &other, CPU).unwrap_err();
            assert!(
                matches!(&err, ModelError::EncodingMismatch(m)
                    if m.reason == format!("history {} vs {history}", 3 - history)),
                "{what}: {err}"
            );
        }
    }
}

#[test]
fn mismatches_name_both_specs() {
    let chess = spec(&CASES[0], 1);
    let dir = scratch_dir("spec-mismatch").join("net");
    save_tiny_for(&chess, &dir);

    let mut v2 = chess.clone();
    v2.version = 2;
    assert_eq!(
        Network::load_for(&dir, &v2, CPU).unwrap_err().to_string(),
        "encoding mismatch: expected chess v2 T=1 [22x8x8] 4672 actions, \
         found chess v1 T=1 [22x8x8] 4672 actions (encoding version 2 vs 1)"
    );

    let poison = spec(&CASES[1], 1);
    assert_eq!(
        Network::load_for(&dir, &poison, CPU)
            .unwrap_err()
            .to_string(),
        "encoding mismatch: expected poison v1 T=1 [30x8x8] 5760 actions, \
         found chess v1 T=1 [22x8x8] 4672 actions (variant poison vs chess)"
    );

    let simplified = spec(&CASES[5], 1);
    let standard = spec(&CASES[4], 1);
    let dir = scratch_dir("spec-mismatch-traitor").join("net");
    save_tiny_for(&standard, &dir);
    let err = Network::load_for(&dir, &simplified, CPU).unwrap_err();
    assert!(
        matches!(&err, ModelError::EncodingMismatch(m) if m.reason == "rule settings differ"),
        "{err}"
    );
}

#[test]
fn a_config_of_other_shapes_does_not_fit_a_spec() {
    let traitor = spec(&CASES[4], 1);
    let chess_config = NetConfig::default();
    let err = Network::for_spec(&traitor, &chess_config, CPU).unwrap_err();
    assert_eq!(
        err.to_string(),
        "network config does not fit the encoding \
         traitor (announce_check=allowed,commitment=standard,mode=traitor,no_immediate_undo=on,selection=phase) v1 T=1 [34x8x8] 6940 actions: \
         input_channels is 22, the encoding needs 34"
    );

    // The same channels but no flat head: the flat head is what is missing.
    let no_flat = NetConfig {
        policy_flat: 0,
        ..NetConfig::for_spec(&traitor)
    };
    assert!(matches!(
        no_flat.check_spec(&traitor),
        Err(ModelError::ConfigSpecMismatch {
            field: "policy_flat",
            config: 0,
            needed: 2204,
            ..
        })
    ));
    // More planes than the action space holds.
    let too_many_planes = NetConfig {
        policy_planes: 200,
        ..NetConfig::for_spec(&traitor)
    };
    let mut spec = traitor.clone();
    spec.board_action_planes = 200;
    assert!(matches!(
        too_many_planes.check_spec(&spec),
        Err(ModelError::ConfigSpecMismatch {
            field: "policy_size",
            needed: 6940,
            ..
        })
    ));

    // A checkpoint whose config was edited to other shapes than its spec.
    let dir = scratch_dir("spec-edited-config").join("net");
    save_tiny_for(&traitor, &dir);
    NetConfig {
        policy_flat: 49,
        ..tiny_for(&traitor)
    }
    .to_json_file(dir.join(CONFIG_FILE))
    .unwrap();
    for err in [
        Network::load(&dir, CPU).unwrap_err(),
        Network::load_for(&dir, &traitor, CPU).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                ModelError::ConfigSpecMismatch {
                    field: "policy_flat",
                    config: 49,
                    needed: 2204,
                    ..
                }
            ),
            "{err}"
        );
    }
}
