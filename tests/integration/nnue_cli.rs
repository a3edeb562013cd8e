//! `heterodox nnue train` as a user runs it: a net from a teacher
//! directory, the summary line and the files, a run continued with more
//! epochs, and settings refused.

use crate::support;

use std::path::Path;

use heterodox_engine::nnue::Network;
use heterodox_engine::{teach, TeachConfig};
use heterodox_env::Chess;
use support::{heterodox, one_line_error, read_json, scratch, text};

/// `heterodox nnue train --data TEACH --out OUT --hidden 16 --batch 32
/// --quiet ARGS`: its stdout and stderr, which must be a success.
fn train_ok(teach: &Path, out: &Path, args: &[&str]) -> (String, String) {
    let output = run(teach, out, args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    (text(&output.stdout), text(&output.stderr))
}

fn run(teach: &Path, out: &Path, args: &[&str]) -> std::process::Output {
    let (teach, out) = (teach.to_str().unwrap(), out.to_str().unwrap());
    let mut all = vec![
        "nnue", "train", "--data", teach, "--out", out, "--hidden", "16", "--batch", "32",
        "--quiet",
    ];
    all.extend_from_slice(args);
    heterodox(&all)
}

#[test]
fn nnue_train_writes_a_net_the_engine_loads_and_continues_with_more_epochs() {
    let teach_dir = scratch("nnue-teach");
    let config = TeachConfig {
        positions: 300,
        depth: 1,
        max_plies: 40,
        games_per_shard: 4,
        ..TeachConfig::default()
    };
    teach::<Chess>(&(), &config, &teach_dir, &|_| {}).unwrap();
    let out = scratch("nnue-out");

    let (stdout, stderr) = train_ok(&teach_dir, &out, &["--epochs", "2", "--lr", "0.01"]);
    let net = out.join("nnue.safetensors");
    Network::load_for::<Chess>(&net, &()).unwrap();
    for file in ["checkpoint.safetensors", "checkpoint.json", "training.json"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let training = read_json(&out.join("training.json"));
    let epochs = training["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 2);
    let (train, held_out) = (
        training["data"]["train_positions"].as_u64().unwrap(),
        training["data"]["held_out_positions"].as_u64().unwrap(),
    );
    // One summary line, its seconds aside exact.
    let (head, tail) = stdout.split_once(" in ").expect("a summary line");
    assert_eq!(
        head,
        format!(
            "trained {} positions ({train} training, {held_out} held out) for 2 epochs: \
             held-out loss {:.6} (the teacher's value {:.6})",
            train + held_out,
            epochs[1]["held_out_loss"].as_f64().unwrap(),
            training["teacher_held_out_loss"].as_f64().unwrap()
        )
    );
    let (seconds, path) = tail.split_once("s; net ").expect("seconds and the net");
    assert!(seconds.parse::<f64>().is_ok(), "{stdout}");
    assert_eq!(path, format!("{}\n", net.display()));
    // Quiet: no bar, but a line for the start and one per epoch.
    assert!(stderr.contains("chess (chess-psq): "), "{stderr}");
    assert!(stderr.contains("epoch   1/2: train loss "), "{stderr}");
    assert!(stderr.contains("epoch   2/2: train loss "), "{stderr}");

    // The same settings with more epochs go on after epoch 2.
    let (stdout, stderr) = train_ok(&teach_dir, &out, &["--epochs", "3", "--lr", "0.01"]);
    assert!(stderr.contains("resuming after epoch 2 of 3"), "{stderr}");
    assert!(!stderr.contains("epoch   2/3"), "{stderr}");
    assert!(stdout.contains(" for 3 epochs: "), "{stdout}");
    let training = read_json(&out.join("training.json"));
    assert_eq!(training["epochs"].as_array().unwrap().len(), 3);
    Network::load_for::<Chess>(&net, &()).unwrap();

    // Other settings are refused, naming the one that differs.
    let error = one_line_error(
        &run(&teach_dir, &out, &["--epochs", "3", "--lr", "0.02"]),
        "another lr",
    );
    assert!(
        error.starts_with("error: checkpoint ")
            && error.contains("was made with lr 0.01, not 0.02"),
        "{error}"
    );
    let error = one_line_error(
        &run(
            &teach_dir,
            &out,
            &["--epochs", "3", "--lr", "0.01", "--base", "classical"],
        ),
        "another base",
    );
    assert!(
        error.contains("was made with base none, not classical"),
        "{error}"
    );
    let error = one_line_error(
        &run(&teach_dir, &out, &["--base", "material"]),
        "an unknown base",
    );
    assert!(
        error.contains("'base' is 'material', not 'none' or 'classical'"),
        "{error}"
    );
    let error = one_line_error(
        &run(&teach_dir, &out, &["--result-weight", "1.5"]),
        "result weight out of range",
    );
    assert_eq!(
        error,
        "error: nnue setting result_weight = 1.5 is out of range (0 to 1)\n"
    );
    let error = one_line_error(
        &run(&out.join("nowhere"), &scratch("nnue-none"), &[]),
        "no teacher data",
    );
    assert!(error.starts_with("error: "), "{error}");
    let _ = std::fs::remove_dir_all(&teach_dir);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn nnue_train_help_lists_its_options() {
    let output = heterodox(&["nnue", "train", "--help"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let help = text(&output.stdout);
    for option in [
        "--data",
        "--out",
        "--hidden",
        "--epochs",
        "--batch",
        "--lr",
        "--result-weight",
        "--max-positions",
        "--seed",
        "--base",
        "--quiet",
    ] {
        assert!(help.contains(option), "{option} not in:\n{help}");
    }
}
