//! `heterodox train` as a user runs it: a run that is killed (SIGKILL)
//! while training and resumed loses nothing already checkpointed and goes
//! on; a full disk while writing a checkpoint is an error that leaves no
//! partial checkpoint; bad arguments are refused with one line.

use crate::support;

use support::{
    assert_contains, assert_refused_with, heterodox, heterodox_ok, read_json,
    scratch_dir as scratch, text,
};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Small settings; `iterations` bounds the run, `steps` SGD steps per
/// iteration (each writes a metrics line).
fn write_config(dir: &Path, iterations: u32, steps: u32) -> PathBuf {
    let path = dir.join("tiny.toml");
    std::fs::write(
        &path,
        format!(
            r#"
variant = "hostage"
[run]
iterations = {iterations}
minutes = 0.0
[selfplay]
games = 4
concurrent = 4
max_plies = 16
[search]
simulations = 4
gumbel_actions = 4
[network]
blocks = 1
channels = 8
value_hidden = 8
[training]
batch_size = 16
steps_per_iteration = {steps}
[evaluation]
every = 0
games = 2
simulations = 0
max_plies = 12
[checkpoint]
every = 1
keep = 100
[teacher]
positions = 0
"#
        ),
    )
    .unwrap();
    path
}

fn checkpoints(run: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(run.join("checkpoints"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn iteration_lines(run: &Path) -> Vec<u64> {
    std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["kind"] == "iteration")
        .map(|v| v["iteration"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_run_killed_while_training_resumes_without_loss() {
    let dir = scratch("kill");
    let config = write_config(&dir, 4, 120);
    let run = dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_heterodox"))
        .args(["train", "--quiet", "--device", "cpu", "--config"])
        .arg(&config)
        .arg("--run")
        .arg(&run)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the second checkpoint, then kill the process while it
    // trains iteration 3 (120 SGD steps take far longer than the wait).
    let started = Instant::now();
    while !run.join("checkpoints/ckpt-00002/trainer.json").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no second checkpoint"
        );
        if let Some(status) = child.try_wait().unwrap() {
            panic!("train ended early: {status}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = checkpoints(&run);
    assert!(
        before.starts_with(&["ckpt-00001".to_owned(), "ckpt-00002".to_owned()]),
        "{before:?}"
    );
    let killed_at = before
        .iter()
        .filter_map(|n| n.strip_prefix("ckpt-").and_then(|n| n.parse::<u32>().ok()))
        .max()
        .unwrap();
    let weights =
        std::fs::read(run.join(format!("checkpoints/ckpt-{killed_at:05}/model.safetensors")))
            .unwrap();

    let out = heterodox_ok(&[
        "train",
        "--quiet",
        "--resume",
        "--run",
        run.to_str().unwrap(),
    ]);
    assert_contains(
        &text(&out.stderr),
        &format!("resuming after iteration {killed_at}"),
    );
    // Every checkpoint of the killed process is still there, unchanged;
    // the run went on to its end.
    let after = checkpoints(&run);
    let complete: Vec<String> = (1..=4).map(|i| format!("ckpt-{i:05}")).collect();
    assert_eq!(after, complete);
    assert_eq!(
        std::fs::read(run.join(format!("checkpoints/ckpt-{killed_at:05}/model.safetensors")))
            .unwrap(),
        weights
    );
    assert_eq!(iteration_lines(&run), [1, 2, 3, 4]);
    let state = read_json(&run.join("last/trainer.json"));
    assert_eq!(state["iteration"], 4);
    assert_eq!(state["step"], 480);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_while_checkpointing_leaves_no_partial_checkpoint() {
    let dir = scratch("full");
    let config = write_config(&dir, 1, 3);
    let run = dir.join("run");
    // RLIMIT_FSIZE makes writes past 16 KiB fail with EFBIG, as a full
    // disk fails them with ENOSPC (SIGXFSZ ignored, so the write returns
    // the error instead of killing the process). The games fit, the
    // network's weights do not.
    let script = format!(
        "trap '' XFSZ; ulimit -f 16; exec '{}' train --quiet --device cpu --config '{}' --run '{}'",
        env!("CARGO_BIN_EXE_heterodox"),
        config.display(),
        run.display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!(
            "error: checkpoint {}",
            run.join("checkpoints/ckpt-00001").display()
        )) && last.contains("cannot write"),
        "{stderr}"
    );
    // No checkpoint and no staging directory is left, nor a `last` link.
    assert_eq!(checkpoints(&run), Vec::<String>::new());
    assert!(std::fs::symlink_metadata(run.join("last")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let dir = scratch("args");
    let cases: [(&[&str], &str); 4] = [
        (&["train", "--resume"], "error: --resume needs --run DIR: the run to continue"),
        (
            &["train", "--resume", "--run", "x", "--variant", "poison"],
            "error: --resume continues a run with its saved settings (RUN/config.toml): do not give --config, --variant, --option, --seed, --iterations or --minutes",
        ),
        (&["train", "--device", "tpu", "--run", "x"], "error: unknown device 'tpu' (valid devices: auto, cpu, cuda)"),
        (&["train", "--minutes=-1", "--run", "x"], "error: config: setting run.minutes = -1 is out of range (a finite number >= 0)"),
    ];
    assert_refused_with(&cases);
    let missing = dir.join("missing.toml");
    let out = heterodox(&["train", "--config", missing.to_str().unwrap(), "--run", "x"]);
    assert!(text(&out.stderr).starts_with(&format!("error: I/O error on {}", missing.display())));
    assert!(!Path::new("x").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
