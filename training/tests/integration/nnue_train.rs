//! `heterodox_training::nnue` on a tiny teacher directory: the net file
//! the engine loads and what it computes, the losses, reproducibility,
//! resuming, and the settings refused.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use heterodox_engine::nnue::{read_teach_data, Base, FloatNetwork, Network, NnueData};
use heterodox_engine::{teach, TeachConfig};
use heterodox_env::Chess;
use heterodox_training::nnue::checkpoint::read_checkpoint;
use heterodox_training::nnue::{
    is_held_out, train_nnue, train_nnue_dir, Batch, NnueConfigError, NnueModel, NnueSummary,
    NnueTrainConfig, NnueTrainError, CHECKPOINT_FILE, CHECKPOINT_JSON, NET_FILE, TRAINING_FILE,
};

/// A fresh path under cargo's directory for test files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hdx-nnue-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// 300 chess positions labelled at depth 1, in games of at most 40 plies
/// (several games, so that some are held out and some are not), made once.
fn teacher_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("teacher");
        let config = TeachConfig {
            positions: 300,
            depth: 1,
            max_plies: 40,
            games_per_shard: 4,
            ..TeachConfig::default()
        };
        teach::<Chess>(&(), &config, &dir, &|_| {}).unwrap();
        dir
    })
}

fn data() -> &'static NnueData {
    static DATA: OnceLock<NnueData> = OnceLock::new();
    DATA.get_or_init(|| read_teach_data(teacher_dir(), None).unwrap())
}

fn tiny(epochs: u32) -> NnueTrainConfig {
    NnueTrainConfig {
        hidden: 16,
        epochs,
        batch: 32,
        lr: 1e-2,
        ..NnueTrainConfig::default()
    }
}

fn run(config: &NnueTrainConfig, out: &Path) -> NnueSummary {
    train_nnue(data(), config, out, &mut |_| {}).unwrap()
}

/// The tensor bytes of a safetensors file (after its JSON header).
fn tensor_bytes(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    bytes[8 + header..].to_vec()
}

/// Asserts that two net files hold the same net: the same header and
/// numbers, and the same bytes.
#[track_caller]
fn assert_same_net(a: &Path, b: &Path) {
    let same = FloatNetwork::load(a).unwrap() == FloatNetwork::load(b).unwrap();
    assert!(same, "the nets' headers or numbers differ");
    assert!(
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
        "the files' bytes differ"
    );
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_net_loads_for_chess_and_computes_what_the_model_does() {
    let out = scratch("net");
    let mut batches = 0;
    let summary = train_nnue_dir(teacher_dir(), &tiny(2), &out, &mut |event| {
        if let heterodox_training::nnue::NnueEvent::Batch { .. } = event {
            batches += 1;
        }
    })
    .unwrap();
    let data = data();
    assert_eq!(summary.net, out.join(NET_FILE));
    assert_eq!(
        summary.train_positions + summary.held_out_positions,
        data.len()
    );
    assert!(summary.held_out_positions > 0 && summary.train_positions > 0);
    assert_eq!(batches, 2 * summary.train_positions.div_ceil(32));
    Network::load_for::<Chess>(&summary.net, &()).unwrap();

    let net = FloatNetwork::load(&summary.net).unwrap();
    assert_eq!(net.header.variant, "chess");
    assert_eq!(net.header.hidden, 16);
    assert!(
        net.header
            .producer
            .contains("hidden 16, base none, epochs 2"),
        "{}",
        net.header.producer
    );
    // The model as trained (the checkpoint's) and the model of the file
    // compute what the engine's float reference does.
    let (_, trained, _) = read_checkpoint(&out).unwrap().unwrap();
    let positions = [0, 1, data.len() / 2, data.len() - 1];
    let batch = Batch::of(data, &positions, 0.25);
    for model in [trained, NnueModel::from_network(&net)] {
        let outputs = Vec::<f32>::try_from(&model.forward(&batch)).unwrap();
        for (&i, y) in positions.iter().zip(outputs) {
            let (us, them) = data.position(i);
            let reference = net.evaluate(us, them);
            let computed = 400.0 * y;
            assert!(
                (reference - computed).abs() <= 1e-3 * reference.abs().max(1.0),
                "position {i}: {reference} cp, the model {computed} cp"
            );
        }
    }

    let [first, second] = &summary.epochs[..] else {
        panic!("{:?}", summary.epochs);
    };
    for line in [first, second] {
        assert!(line.train_loss.is_finite() && line.held_out_loss.is_finite());
        assert!(line.train_loss > 0.0 && line.held_out_loss > 0.0);
    }
    assert!(
        second.train_loss < first.train_loss,
        "{} then {}",
        first.train_loss,
        second.train_loss
    );
    assert!(summary.teacher_held_out_loss.is_finite());

    let training = read_json(&out.join(TRAINING_FILE));
    assert_eq!(training["epochs"].as_array().unwrap().len(), 2);
    assert_eq!(training["data"]["variant"], "chess");
    let checkpoint = read_json(&out.join(CHECKPOINT_JSON));
    assert_eq!(checkpoint["epoch"], 2);
    assert_eq!(checkpoint["settings"]["hidden"], 16);
    assert!(out.join(CHECKPOINT_FILE).is_file());
}

/// `base: classical`: the untrained net is the classical evaluation
/// exactly (its output weights start at 0); the trained one's file says
/// `base = classical`, and the model computes the classical evaluation
/// plus what the engine's float reference computes of the net.
#[test]
fn a_net_on_the_classical_base_starts_as_the_classical_evaluation() {
    let data = data();
    let positions = [0, 1, data.len() / 2, data.len() - 1];
    let batch = Batch::of(data, &positions, 0.25);
    let untrained = NnueModel::new(data.feature_set.inputs, 16, Base::Classical, 1);
    let outputs = Vec::<f32>::try_from(&untrained.forward(&batch)).unwrap();
    let expected: Vec<f32> = positions
        .iter()
        .map(|&i| data.classical[i] / 400.0)
        .collect();
    assert_eq!(outputs, expected);

    let out = scratch("base");
    let config = NnueTrainConfig {
        base: Base::Classical,
        ..tiny(2)
    };
    let summary = run(&config, &out);
    let net = FloatNetwork::load(&summary.net).unwrap();
    assert_eq!(net.header.base, Base::Classical);
    assert!(
        net.header
            .producer
            .contains("hidden 16, base classical, epochs 2"),
        "{}",
        net.header.producer
    );
    Network::load_for::<Chess>(&summary.net, &()).unwrap();
    let model = NnueModel::from_network(&net);
    assert_eq!(model.base, Base::Classical);
    let outputs = Vec::<f32>::try_from(&model.forward(&batch)).unwrap();
    for (&i, y) in positions.iter().zip(outputs) {
        let (us, them) = data.position(i);
        let reference = data.classical[i] + net.evaluate(us, them);
        let computed = 400.0 * y;
        assert!(
            (reference - computed).abs() <= 1e-3 * reference.abs().max(1.0),
            "position {i}: {reference} cp, the model {computed} cp"
        );
    }
    // The checkpoint keeps the base: resumed, the model is still on it,
    // and a run on another base is refused by name.
    let (_, resumed, _) = read_checkpoint(&out).unwrap().unwrap();
    assert_eq!(resumed.base, Base::Classical);
    match train_nnue(data, &tiny(3), &out, &mut |_| {}) {
        Err(NnueTrainError::Settings {
            field,
            found,
            expected,
            ..
        }) => assert_eq!(
            (field.as_str(), found.as_str(), expected.as_str()),
            ("base", "classical", "none")
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_held_out_positions_are_those_of_every_twentieth_game() {
    let data = data();
    let held: Vec<u32> = (0..data.len())
        .filter(|&i| is_held_out(data.games[i]))
        .map(|i| data.games[i])
        .collect();
    assert!(held.iter().all(|g| g % 20 == 0));
    assert!(held.contains(&0));
    assert!(data.games.iter().any(|g| g % 20 != 0));
    // With the results not weighted, the teacher's value is its own target.
    let out = scratch("values-only");
    let config = NnueTrainConfig {
        result_weight: 0.0,
        ..tiny(1)
    };
    let summary = run(&config, &out);
    assert_eq!(summary.teacher_held_out_loss, 0.0);
    assert_eq!(summary.held_out_positions, held.len());
}

#[test]
fn the_same_seed_writes_the_same_net_and_another_seed_another() {
    let net = |name: &str, seed: u64| {
        let out = scratch(name);
        run(&NnueTrainConfig { seed, ..tiny(2) }, &out);
        out.join(NET_FILE)
    };
    let first = net("seed-a", 7);
    assert_same_net(&first, &net("seed-b", 7));
    assert!(tensor_bytes(&first) != tensor_bytes(&net("seed-c", 8)));
}

#[test]
fn a_run_continued_with_more_epochs_writes_the_net_of_one_run() {
    let out = scratch("resume");
    let first = run(&tiny(1), &out);
    assert_eq!((first.resumed_after, first.epochs.len()), (0, 1));
    let second = run(&tiny(2), &out);
    assert_eq!((second.resumed_after, second.epochs.len()), (1, 2));
    assert_eq!(second.epochs[0], first.epochs[0]);
    Network::load_for::<Chess>(&second.net, &()).unwrap();
    let training = read_json(&out.join(TRAINING_FILE));
    let epochs: Vec<u64> = training["epochs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["epoch"].as_u64().unwrap())
        .collect();
    assert_eq!(epochs, [1, 2]);
    // Both epochs at the full rate either way, and Adam's moments kept:
    // the net of two epochs in one run.
    let straight = scratch("resume-straight");
    run(&tiny(2), &straight);
    assert_same_net(&out.join(NET_FILE), &straight.join(NET_FILE));
    // Asked again, it has nothing left to train and writes the same net.
    let again = run(&tiny(2), &out);
    assert_eq!((again.resumed_after, again.epochs.len()), (2, 2));
    assert_same_net(&out.join(NET_FILE), &straight.join(NET_FILE));
}

#[test]
fn a_checkpoint_refuses_other_settings_naming_the_difference() {
    let out = scratch("refuse");
    run(&tiny(2), &out);
    let refused = |config: NnueTrainConfig| match train_nnue(data(), &config, &out, &mut |_| {}) {
        Err(NnueTrainError::Settings {
            field,
            found,
            expected,
            ..
        }) => (field, found, expected),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        refused(NnueTrainConfig {
            hidden: 32,
            ..tiny(2)
        }),
        ("hidden".to_owned(), "16".to_owned(), "32".to_owned())
    );
    assert_eq!(
        refused(NnueTrainConfig {
            result_weight: 0.5,
            ..tiny(3)
        }),
        (
            "result_weight".to_owned(),
            "0.25".to_owned(),
            "0.5".to_owned()
        )
    );
    assert_eq!(refused(tiny(1)).0, "epochs");
    // Other positions, though as many, are other data.
    let mut other = data().clone();
    other.results[0] = if other.results[0] == 1.0 { -1.0 } else { 1.0 };
    match train_nnue(&other, &tiny(2), &out, &mut |_| {}) {
        Err(NnueTrainError::Settings { field, .. }) => {
            assert_eq!(field, "data positions' fingerprint")
        }
        other => panic!("{other:?}"),
    }
    let message = train_nnue(
        data(),
        &NnueTrainConfig { seed: 3, ..tiny(2) },
        &out,
        &mut |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(message.contains("was made with seed 0, not 3"), "{message}");
}

#[test]
fn settings_out_of_range_are_refused_by_name() {
    let cases = [
        (
            NnueTrainConfig {
                hidden: 0,
                ..tiny(1)
            },
            "hidden",
            "0",
        ),
        (
            NnueTrainConfig {
                hidden: 513,
                ..tiny(1)
            },
            "hidden",
            "513",
        ),
        (
            NnueTrainConfig {
                result_weight: 1.5,
                ..tiny(1)
            },
            "result_weight",
            "1.5",
        ),
        (
            NnueTrainConfig {
                epochs: 0,
                ..tiny(1)
            },
            "epochs",
            "0",
        ),
        (
            NnueTrainConfig {
                batch: 0,
                ..tiny(1)
            },
            "batch",
            "0",
        ),
        (NnueTrainConfig { lr: 0.0, ..tiny(1) }, "lr", "0"),
        (
            NnueTrainConfig {
                max_positions: Some(0),
                ..tiny(1)
            },
            "max_positions",
            "0",
        ),
    ];
    let out = scratch("bad");
    for (config, name, value) in cases {
        match config.validate() {
            Err(NnueConfigError::OutOfRange {
                field, value: v, ..
            }) => {
                assert_eq!((field, v.as_str()), (name, value));
            }
            other => panic!("{name}: {other:?}"),
        }
        let message = train_nnue_dir(teacher_dir(), &config, &out, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(&format!("nnue setting {name} = {value} is out of range")),
            "{message}"
        );
    }
    assert!(!out.exists(), "nothing is written for bad settings");
    assert!(NnueTrainConfig::default().validate().is_ok());
}
