//! The checkpoint directory: old checkpoints still load, a save replaces
//! only a checkpoint, and a missing or damaged spec is a typed error.

use crate::support;

use heterodox_env::{make_batch_env, EnvConfig, RuleOptions, Variant};
use heterodox_models::{
    EncodingSpec, ModelError, NetConfig, Network, CONFIG_FILE, SPEC_FILE, WEIGHTS_FILE,
};

use support::{entries, random_input, scratch_dir, tiny, CPU};

fn chess_spec() -> EncodingSpec {
    make_batch_env(Variant::Chess, &RuleOptions::new(), EnvConfig::new(1))
        .unwrap()
        .spec()
        .clone()
}

fn chess_net() -> Network {
    let spec = chess_spec();
    let config = NetConfig {
        blocks: 1,
        channels: 4,
        ..NetConfig::for_spec(&spec)
    };
    Network::for_spec(&spec, &config, CPU).unwrap()
}

#[test]
fn a_checkpoint_from_before_flat_heads_and_specs_loads() {
    let dir = scratch_dir("old-format").join("net");
    let net = Network::new(&tiny(), CPU).unwrap();
    net.save(&dir).unwrap();
    // config.json as it was written before `policy_flat` existed.
    let old = r#"{
  "input_channels": 2,
  "board_height": 3,
  "board_width": 3,
  "blocks": 1,
  "channels": 4,
  "policy_planes": 3,
  "value_hidden": 5
}
"#;
    std::fs::write(dir.join(CONFIG_FILE), old).unwrap();
    let loaded = Network::load(&dir, CPU).unwrap();
    assert_eq!(loaded.config(), &tiny());
    assert_eq!(loaded.spec(), None);
    let xs = random_input(&tiny(), 2);
    let (p0, v0) = net.forward_t(&xs, false);
    let (p1, v1) = loaded.forward_t(&xs, false);
    assert!(p0.equal(&p1) && v0.equal(&v1));

    // It says nothing of its encoding, so it cannot be loaded for one.
    let err = Network::load_for(&dir, &chess_spec(), CPU).unwrap_err();
    assert!(matches!(err, ModelError::MissingSpec { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "checkpoint {} records no encoding spec (no spec.json)",
            dir.display()
        )
    );
}

#[test]
fn saving_writes_the_spec_and_replaces_the_whole_directory() {
    let parent = scratch_dir("replace");
    let dir = parent.join("net");
    chess_net().save(&dir).unwrap();
    assert_eq!(entries(&dir), [CONFIG_FILE, WEIGHTS_FILE, SPEC_FILE]);
    let text = std::fs::read_to_string(dir.join(SPEC_FILE)).unwrap();
    assert!(text.starts_with("{\n  \"variant\": \"chess\",\n"), "{text}");

    // A bare network saved over it leaves no stale spec behind.
    Network::new(&tiny(), CPU).unwrap().save(&dir).unwrap();
    assert_eq!(entries(&dir), [CONFIG_FILE, WEIGHTS_FILE]);
    assert_eq!(Network::load(&dir, CPU).unwrap().spec(), None);
    // And no staging or replaced directory is left beside it.
    assert_eq!(entries(&parent), ["net"]);

    // Missing parents are created.
    let deep = parent.join("a").join("b");
    chess_net().save(&deep).unwrap();
    assert_eq!(entries(&deep).len(), 3);
}

#[test]
fn saving_never_replaces_anything_but_a_checkpoint() {
    let parent = scratch_dir("refuse");
    let dir = parent.join("notes");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("todo.txt"), "keep me").unwrap();
    let err = chess_net().save(&dir).unwrap_err();
    assert!(matches!(err, ModelError::ReplaceRefused { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it holds \"todo.txt\", which is not part of a checkpoint",
            dir.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("todo.txt")).unwrap(),
        "keep me"
    );

    let file = parent.join("file");
    std::fs::write(&file, "x").unwrap();
    let err = chess_net().save(&file).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "refusing to replace {}: it is not a directory",
            file.display()
        )
    );
    // Nothing was staged or left behind.
    assert_eq!(entries(&parent), ["file", "notes"]);
}

#[test]
fn a_damaged_spec_is_an_error() {
    let dir = scratch_dir("bad-spec").join("net");
    chess_net().save(&dir).unwrap();
    std::fs::write(dir.join(SPEC_FILE), "{\"variant\": \"chess\"").unwrap();
    for err in [
        Network::load(&dir, CPU).unwrap_err(),
        Network::load_for(&dir, &chess_spec(), CPU).unwrap_err(),
    ] {
        assert!(matches!(err, ModelError::SpecParse { .. }), "{err}");
    }
    // A spec that is itself inconsistent (fewer actions than its planes
    // cover) fits no config: an error, not a panic.
    let mut spec = chess_spec();
    spec.num_actions = 10;
    let config = NetConfig::for_spec(&spec);
    assert_eq!(config.policy_flat, 0);
    assert!(matches!(
        Network::for_spec(&spec, &config, CPU),
        Err(ModelError::ConfigSpecMismatch {
            field: "policy_size",
            config: 4672,
            needed: 10,
            ..
        })
    ));
}
