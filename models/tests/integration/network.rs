//! Tests of the residual network, its parameter count and its checkpoints.
//! Everything runs on the CPU.

use std::collections::BTreeSet;

use heterodox_models::tch::{Kind, Tensor};
use heterodox_models::{ModelError, NetConfig, Network, ResNet, CONFIG_FILE, WEIGHTS_FILE};

use crate::support;

use support::{random_input, scratch_dir, tch_seed, tiny, tiny_flat, CPU};

/// Runs a few training-mode passes so that the batch-norm running statistics
/// move away from their initial 0 / 1 and a round trip has to carry them.
fn perturb_running_stats(net: &Network) {
    for _ in 0..3 {
        let _ = net.forward_t(&(random_input(net.config(), 8) * 3.0 + 1.0), true);
    }
}

#[test]
fn output_shapes() {
    let configs = [
        tiny(),
        NetConfig {
            blocks: 2,
            channels: 16,
            ..NetConfig::default()
        },
        NetConfig {
            input_channels: 7,
            board_height: 10,
            board_width: 9,
            blocks: 3,
            channels: 8,
            policy_planes: 11,
            policy_flat: 0,
            value_hidden: 16,
            auxiliary_heads: false,
        },
        tiny_flat(),
        NetConfig {
            input_channels: 7,
            board_height: 10,
            board_width: 9,
            blocks: 1,
            channels: 8,
            policy_planes: 2,
            policy_flat: 13,
            value_hidden: 16,
            auxiliary_heads: false,
        },
    ];
    let expected_policy = [27, 73 * 64, 11 * 90, 27 + 4, 2 * 90 + 13];
    for (config, policy) in configs.iter().zip(expected_policy) {
        assert_eq!(config.policy_size() as i64, policy);
        let net = Network::new(config, CPU).unwrap();
        for n in [1, 2, 5] {
            for train in [false, true] {
                let (p, v) = net.forward_t(&random_input(config, n), train);
                assert_eq!(p.size(), [n, policy], "{config:?} n={n} train={train}");
                assert_eq!(v.size(), [n], "{config:?} n={n} train={train}");
                assert_eq!(p.kind(), Kind::Float);
                assert_eq!(v.kind(), Kind::Float);
            }
        }
    }
}

#[test]
fn parameter_count_matches_hand_computation() {
    // Tiny: I=2, C=4, B=1, P=3, S=9, V=5.
    //   stem   3x3 conv 2->4 (no bias) + BN(4):     9*2*4 + 2*4      =  80
    //   tower  1 block, 2 x (3x3 conv 4->4 + BN):   2*(9*4*4 + 2*4)  = 304
    //   policy 1x1 conv 4->3 with bias:             4*3 + 3          =  15
    //   value  1x1 conv 4->1 + BN(1):               4 + 2            =   6
    //          fc 9->5, fc 5->1:                    9*5+5 + 5+1      =  56
    //   total                                                        = 461
    let net = Network::new(&tiny(), CPU).unwrap();
    assert_eq!(net.parameter_count(), 461);
    assert_eq!(tiny().parameter_count(), 461);

    // With a flat head of F=4 logits, on top of the 461:
    //   flat   1x1 conv 4->2 (no bias) + BN(2):     4*2 + 2*2        =  12
    //          fc 2*9->4:                           18*4 + 4         =  76
    //   total                                                        = 549
    let net = Network::new(&tiny_flat(), CPU).unwrap();
    assert_eq!(net.parameter_count(), 549);
    assert_eq!(tiny_flat().parameter_count(), 549);

    // Default (chess, T=1): I=22, C=64, B=4, P=73, S=64, V=128.
    //   stem   9*22*64 + 128            =  12_800
    //   tower  4 * 2 * (9*64*64 + 128)  = 295_936
    //   policy 64*73 + 73               =   4_745
    //   value  66 + (64*128+128) + 129  =   8_515
    //   total                           = 321_996
    let net = Network::new(&NetConfig::default(), CPU).unwrap();
    assert_eq!(net.parameter_count(), 321_996);
    assert_eq!(NetConfig::default().parameter_count(), 321_996);
}

#[test]
fn variable_names_are_the_documented_layout() {
    let net = Network::new(&tiny(), CPU).unwrap();
    let names: BTreeSet<String> = net.var_store().variables().into_keys().collect();
    let bn =
        |p: &str| ["weight", "bias", "running_mean", "running_var"].map(|s| format!("{p}.bn.{s}"));
    let mut expected = BTreeSet::new();
    for prefix in ["stem", "tower.0.conv1", "tower.0.conv2", "value"] {
        expected.insert(format!("{prefix}.conv.weight"));
        expected.extend(bn(prefix));
    }
    for name in [
        "policy.conv.weight",
        "policy.conv.bias",
        "value.fc1.weight",
        "value.fc1.bias",
        "value.fc2.weight",
        "value.fc2.bias",
    ] {
        expected.insert(name.to_string());
    }
    assert_eq!(names, expected);
    // Running statistics are buffers, not trainable parameters.
    assert_eq!(
        net.var_store().trainable_variables().len(),
        expected.len() - 8
    );

    // The flat head adds `policy.flat.*` and nothing else.
    let net = Network::new(&tiny_flat(), CPU).unwrap();
    let with_flat: BTreeSet<String> = net.var_store().variables().into_keys().collect();
    let added: BTreeSet<String> = with_flat.difference(&names).cloned().collect();
    let mut flat = BTreeSet::from([
        "policy.flat.conv.weight".to_string(),
        "policy.flat.fc.weight".to_string(),
        "policy.flat.fc.bias".to_string(),
    ]);
    flat.extend(bn("policy.flat"));
    assert_eq!(added, flat);
    assert!(names.is_subset(&with_flat));
}

#[test]
fn auxiliary_heads_add_two_value_shaped_heads_used_only_in_training() {
    tch_seed(3);
    let plain = Network::new(&tiny(), CPU).unwrap();
    let config = NetConfig {
        auxiliary_heads: true,
        ..tiny()
    };
    let net = Network::new(&config, CPU).unwrap();
    // Each head is the value head's 62 parameters (see above).
    assert_eq!(config.parameter_count(), 461 + 2 * 62);
    assert_eq!(net.parameter_count(), 461 + 2 * 62);
    let names: BTreeSet<String> = net.var_store().variables().into_keys().collect();
    let base: BTreeSet<String> = plain.var_store().variables().into_keys().collect();
    let added: BTreeSet<String> = names.difference(&base).cloned().collect();
    let mut expected = BTreeSet::new();
    for head in ["moves_left", "material"] {
        expected.insert(format!("{head}.conv.weight"));
        for s in ["weight", "bias", "running_mean", "running_var"] {
            expected.insert(format!("{head}.bn.{s}"));
        }
        for s in ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"] {
            expected.insert(format!("{head}.{s}"));
        }
    }
    assert_eq!(added, expected);
    // Play's forward is policy and value; training's adds the heads.
    let xs = random_input(&config, 4);
    let (policy, value) = net.forward_t(&xs, false);
    let all = net.try_forward_all(&xs, false).unwrap();
    assert!(all.policy.equal(&policy) && all.value.equal(&value));
    let material = all.material.unwrap();
    assert_eq!(all.moves_left.unwrap().size(), [4]);
    assert_eq!(material.size(), [4]);
    assert!(f64::try_from(material.abs().max()).unwrap() < 1.0);
    let none = plain.try_forward_all(&xs, false).unwrap();
    assert!(none.moves_left.is_none() && none.material.is_none());
    // The flag is written only when set (so older files stay as they were).
    let parent = scratch_dir("auxiliary");
    let dir = parent.join("net");
    net.save(&dir).unwrap();
    let text = std::fs::read_to_string(dir.join(CONFIG_FILE)).unwrap();
    assert!(text.contains("\"auxiliary_heads\": true"), "{text}");
    plain.save(parent.join("plain")).unwrap();
    let text = std::fs::read_to_string(parent.join("plain").join(CONFIG_FILE)).unwrap();
    assert!(!text.contains("auxiliary_heads"), "{text}");
    let loaded = Network::load(&dir, CPU).unwrap();
    assert_eq!(loaded.config(), &config);
    let again = loaded.try_forward_all(&xs, false).unwrap();
    assert!(again.material.unwrap().equal(&material));
}

#[test]
fn flat_logits_come_after_the_planes() {
    tch_seed(3);
    let net = Network::new(&tiny_flat(), CPU).unwrap();
    let plain_vars = Network::new(&tiny(), CPU).unwrap();
    // Copy every shared variable into the plain network: its logits must be
    // the first 27 of the flat network's, the flat head's 4 follow.
    let dir = scratch_dir("flat-prefix");
    let path = dir.join(WEIGHTS_FILE);
    net.save_weights(&path).unwrap();
    let mut plain = plain_vars;
    let err = plain.load_weights(&path).unwrap_err();
    assert!(
        matches!(&err, ModelError::UnexpectedTensor { name, .. } if name.starts_with("policy.flat.")),
        "{err}"
    );
    heterodox_models::tch::no_grad(|| {
        let source = net.var_store().variables();
        for (name, mut var) in plain.var_store().variables() {
            var.copy_(&source[&name]);
        }
    });
    let xs = random_input(&tiny(), 3);
    let (p_flat, v_flat) = net.forward_t(&xs, false);
    let (p_plain, v_plain) = plain.forward_t(&xs, false);
    assert_eq!(p_flat.size(), [3, 31]);
    assert!(p_flat.narrow(1, 0, 27).equal(&p_plain));
    assert!(v_flat.equal(&v_plain));
}

#[test]
fn value_is_strictly_between_minus_one_and_one() {
    tch_seed(7);
    let config = NetConfig {
        blocks: 2,
        channels: 16,
        ..NetConfig::default()
    };
    let net = Network::new(&config, CPU).unwrap();
    for train in [false, true] {
        let (_, v) = net.forward_t(&random_input(&config, 64), train);
        let max_abs = v.abs().max().double_value(&[]);
        assert!(max_abs < 1.0, "max |value| = {max_abs}");
        assert!(max_abs > 0.0);
    }
}

#[test]
fn save_load_round_trip_is_exact() {
    tch_seed(1);
    let config = NetConfig {
        blocks: 2,
        channels: 8,
        ..tiny()
    };
    let net = Network::new(&config, CPU).unwrap();
    perturb_running_stats(&net);
    let parent = scratch_dir("round-trip");
    let dir = parent.join("net");
    net.save(&dir).unwrap();
    assert!(dir.join(CONFIG_FILE).is_file());
    assert!(dir.join(WEIGHTS_FILE).is_file());
    // No spec: a bare network saves two files, and nothing is left beside.
    assert_eq!(support::entries(&dir), [CONFIG_FILE, WEIGHTS_FILE]);
    assert_eq!(support::entries(&parent), ["net"]);

    let loaded = Network::load(&dir, CPU).unwrap();
    assert_eq!(loaded.config(), &config);

    let xs = random_input(&config, 6);
    let (p0, v0) = net.forward_t(&xs, false);
    let (p1, v1) = loaded.forward_t(&xs, false);
    assert!(p0.equal(&p1), "policy differs after round trip");
    assert!(v0.equal(&v1), "value differs after round trip");

    // The comparison has teeth: a fresh network disagrees.
    let fresh = Network::new(&config, CPU).unwrap();
    let (p2, _) = fresh.forward_t(&xs, false);
    assert!(!p0.equal(&p2));

    // Saving again over an existing checkpoint works and is byte-identical.
    let first = std::fs::read(dir.join(WEIGHTS_FILE)).unwrap();
    loaded.save(&dir).unwrap();
    assert_eq!(first, std::fs::read(dir.join(WEIGHTS_FILE)).unwrap());
    assert_eq!(support::entries(&parent), ["net"]);
}

#[test]
fn bad_configs_are_rejected() {
    let vs = heterodox_models::tch::nn::VarStore::new(CPU);
    for config in [
        NetConfig {
            blocks: 0,
            ..tiny()
        },
        NetConfig {
            channels: 0,
            ..tiny()
        },
        NetConfig {
            input_channels: 0,
            ..tiny()
        },
        NetConfig {
            board_height: 0,
            ..tiny()
        },
        NetConfig {
            policy_planes: 0,
            ..tiny()
        },
        NetConfig {
            value_hidden: 0,
            ..tiny()
        },
        NetConfig {
            channels: 1 << 40,
            ..tiny()
        },
        NetConfig {
            policy_flat: usize::MAX,
            ..tiny()
        },
    ] {
        let err = ResNet::new(&vs.root(), &config).unwrap_err();
        assert!(
            matches!(err, ModelError::InvalidConfig(_)),
            "{config:?}: {err}"
        );
        assert!(matches!(
            Network::new(&config, CPU),
            Err(ModelError::InvalidConfig(_))
        ));
    }
    assert!(vs.is_empty(), "a rejected config must not create variables");

    let dir = scratch_dir("bad-config");
    let file = dir.join(CONFIG_FILE);
    // Invalid network in a well-formed file, and refusing to write one.
    std::fs::write(
        &file,
        serde_json_text(&NetConfig {
            blocks: 0,
            ..tiny()
        }),
    )
    .unwrap();
    assert!(matches!(
        NetConfig::from_json_file(&file),
        Err(ModelError::InvalidConfig(_))
    ));
    assert!(matches!(
        Network::load(&dir, CPU),
        Err(ModelError::InvalidConfig(_))
    ));
    assert!(matches!(
        NetConfig {
            blocks: 0,
            ..tiny()
        }
        .to_json_file(dir.join("x.json")),
        Err(ModelError::InvalidConfig(_))
    ));
    // Malformed files.
    for text in ["", "{", "[1, 2]", "{\"blocks\": \"four\"}"] {
        std::fs::write(&file, text).unwrap();
        let err = NetConfig::from_json_file(&file).unwrap_err();
        assert!(
            matches!(err, ModelError::ConfigParse { .. }),
            "{text:?}: {err}"
        );
    }
    // Missing file.
    assert!(matches!(
        NetConfig::from_json_file(dir.join("absent.json")),
        Err(ModelError::Io { .. })
    ));
    // A valid config round-trips through its file.
    tiny().to_json_file(&file).unwrap();
    assert_eq!(NetConfig::from_json_file(&file).unwrap(), tiny());
}

#[test]
fn corrupted_or_missing_weights_are_errors() {
    let config = tiny();
    let dir = scratch_dir("corrupt");
    let net = Network::new(&config, CPU).unwrap();
    net.save(&dir).unwrap();
    let weights = dir.join(WEIGHTS_FILE);
    let good = std::fs::read(&weights).unwrap();

    let mut target = Network::new(&config, CPU).unwrap();
    let xs = random_input(&config, 2);
    let (before, _) = target.forward_t(&xs, false);

    let mut garbage = good.clone();
    garbage[..8].copy_from_slice(&u64::MAX.to_le_bytes()); // absurd header length
    let mut bad_json = good.clone();
    bad_json[8] = b'#'; // header is no longer JSON
    let cases: [(&str, Vec<u8>); 5] = [
        ("empty", Vec::new()),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("header-length", garbage),
        ("header-json", bad_json),
        ("text", b"this is not a safetensors file".to_vec()),
    ];
    for (what, bytes) in cases {
        std::fs::write(&weights, &bytes).unwrap();
        let err = target.load_weights(&weights).unwrap_err();
        assert!(matches!(err, ModelError::Weights { .. }), "{what}: {err}");
        let err = Network::load(&dir, CPU).unwrap_err();
        assert!(matches!(err, ModelError::Weights { .. }), "{what}: {err}");
    }

    // Missing weights file, missing directory.
    std::fs::remove_file(&weights).unwrap();
    assert!(matches!(
        target.load_weights(&weights),
        Err(ModelError::Io { .. })
    ));
    assert!(matches!(
        Network::load(&dir, CPU),
        Err(ModelError::Io { .. })
    ));
    assert!(matches!(
        Network::load(dir.join("nowhere"), CPU),
        Err(ModelError::Io { .. })
    ));

    // Failed loads left the network untouched.
    let (after, _) = target.forward_t(&xs, false);
    assert!(before.equal(&after));
}

#[test]
fn weights_of_another_architecture_are_errors() {
    let dir = scratch_dir("arch");
    let path = dir.join(WEIGHTS_FILE);
    let small = Network::new(&tiny(), CPU).unwrap();
    small.save_weights(&path).unwrap();

    let mut wider = Network::new(
        &NetConfig {
            channels: 8,
            ..tiny()
        },
        CPU,
    )
    .unwrap();
    assert!(matches!(
        wider.load_weights(&path),
        Err(ModelError::ShapeMismatch { .. })
    ));

    let mut deeper = Network::new(
        &NetConfig {
            blocks: 2,
            ..tiny()
        },
        CPU,
    )
    .unwrap();
    let err = deeper.load_weights(&path).unwrap_err();
    assert!(
        matches!(&err, ModelError::MissingTensor { name, .. } if name.starts_with("tower.1.")),
        "{err}"
    );

    deeper.save_weights(&path).unwrap();
    let mut shallower = Network::new(&tiny(), CPU).unwrap();
    let err = shallower.load_weights(&path).unwrap_err();
    assert!(
        matches!(&err, ModelError::UnexpectedTensor { name, .. } if name.starts_with("tower.1.")),
        "{err}"
    );
}

#[test]
fn input_is_checked_and_converted() {
    let config = tiny();
    let net = Network::new(&config, CPU).unwrap();
    for shape in [
        vec![2, 2, 3],
        vec![0, 2, 3, 3],
        vec![1, 3, 3, 3],
        vec![1, 2, 3, 4],
        vec![1, 2, 4, 3],
    ] {
        let xs = Tensor::zeros(shape.as_slice(), (Kind::Float, CPU));
        let err = net.try_forward_t(&xs, false).unwrap_err();
        assert!(
            matches!(err, ModelError::InputShape { .. }),
            "{shape:?}: {err}"
        );
    }
    // Byte planes, as an encoder may produce, give the same result as floats.
    let bytes = Tensor::randint(2, [3, 2, 3, 3], (Kind::Uint8, CPU));
    let (p_u8, v_u8) = net.try_forward_t(&bytes, false).unwrap();
    let (p_f, v_f) = net
        .try_forward_t(&bytes.to_kind(Kind::Float), false)
        .unwrap();
    assert!(p_u8.equal(&p_f) && v_u8.equal(&v_f));
}

#[test]
#[should_panic(expected = "input shape")]
fn forward_panics_with_a_clear_message_on_bad_input() {
    let net = Network::new(&tiny(), CPU).unwrap();
    let _ = net.forward_t(&Tensor::zeros([1, 5, 3, 3], (Kind::Float, CPU)), false);
}

/// The config as JSON in the format written before `policy_flat` existed
/// (which has no such field); written by hand so that the test does not
/// need serde_json itself.
fn serde_json_text(config: &NetConfig) -> String {
    assert_eq!(config.policy_flat, 0, "the old format has no flat head");
    format!(
        "{{\"input_channels\":{},\"board_height\":{},\"board_width\":{},\"blocks\":{},\
         \"channels\":{},\"policy_planes\":{},\"value_hidden\":{}}}",
        config.input_channels,
        config.board_height,
        config.board_width,
        config.blocks,
        config.channels,
        config.policy_planes,
        config.value_hidden
    )
}
