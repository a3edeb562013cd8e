//! Training runs end to end on tiny settings: what a run directory holds,
//! resuming, and the errors of bad runs and checkpoints.

use std::path::{Path, PathBuf};

use heterodox_data::shard::read_shard;
use heterodox_data::{GameRecord, GameResult};
use heterodox_models::tch::Device;
use heterodox_training::trainer::metrics::read_evaluations;
use heterodox_training::trainer::run::{read_state, RunDir};
use heterodox_training::{train, Event, TrainConfig, TrainError, TrainOptions};

/// A run small enough for a test: a few games of a few plies, a tiny net.
fn tiny(variant: &str, iterations: u32) -> TrainConfig {
    let mut config = TrainConfig::from_toml(
        r#"
        [run]
        iterations = 2
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
        steps_per_iteration = 3
        window_iterations = 2
        [evaluation]
        opponents = ["random", "uniform", "greedy", "ab@1/classical"]
        every = 2
        games = 2
        simulations = 0
        opening_plies = 2
        max_plies = 12
        [checkpoint]
        every = 1
        keep = 2
        [teacher]
        positions = 0
        "#,
    )
    .unwrap();
    config.variant = variant.to_owned();
    config.run.iterations = iterations;
    config
}

fn temp_run(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hdx-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(run: &Path, resume: bool) -> TrainOptions {
    TrainOptions {
        run: run.to_owned(),
        resume,
        device: Device::Cpu,
    }
}

fn metrics_iterations(run: &Path) -> Vec<(String, u64)> {
    std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                v["kind"].as_str().unwrap().to_owned(),
                v["iteration"].as_u64().unwrap(),
            )
        })
        .filter(|(kind, _)| kind != "step")
        .collect()
}

#[test]
fn a_run_writes_games_metrics_checkpoints_and_evaluations() {
    let run = temp_run("basic");
    let mut events = Vec::new();
    let summary = train(tiny("hostage", 3), &options(&run, false), &mut |e| {
        events.push(match e {
            Event::Started {
                iteration, resumed, ..
            } => format!("started {iteration} {resumed}"),
            Event::IterationDone(line) => format!("iteration {}", line.iteration),
            Event::Evaluated(line) => format!("evaluated {}", line.iteration),
            Event::CheckpointSaved(path) => {
                format!("checkpoint {}", path.file_name().unwrap().to_string_lossy())
            }
            _ => return,
        })
    })
    .unwrap();
    assert_eq!(
        events,
        [
            "started 0 false",
            "iteration 1",
            "checkpoint ckpt-00001",
            "evaluated 2",
            "iteration 2",
            "checkpoint ckpt-00002",
            "iteration 3",
            "checkpoint ckpt-00003",
            "evaluated 3",
        ]
    );
    assert_eq!(summary.iterations, 3);
    assert_eq!(summary.step, 9);
    assert_eq!(summary.checkpoint, run.join("checkpoints/ckpt-00003"));
    // keep = 2: the oldest checkpoint is gone; `last` is the newest.
    let dir = RunDir::new(&run);
    assert_eq!(dir.checkpoints().unwrap(), [2, 3]);
    assert_eq!(
        std::fs::read_link(run.join("last")).unwrap(),
        Path::new("checkpoints/ckpt-00003")
    );
    let state = read_state(&run.join("last")).unwrap();
    assert_eq!((state.iteration, state.step), (3, 9));
    assert_eq!(state.variant, "hostage");
    assert_eq!(state.encoding_version, 1);
    assert_eq!(state.project_version, env!("CARGO_PKG_VERSION"));
    assert_eq!(state.config, tiny("hostage", 3));
    for file in [
        "config.json",
        "model.safetensors",
        "spec.json",
        "optimizer.safetensors",
        "trainer.json",
    ] {
        assert!(run.join("last").join(file).is_file(), "{file}");
    }
    // Games: one shard and one PGN file per iteration, 4 games each.
    for i in 1..=3u32 {
        let shard = heterodox_data::shard::read_shard(&dir.shard_path(i)).unwrap();
        assert_eq!(shard.games.len(), 4);
        let pgn = std::fs::read_to_string(dir.pgn_path(i)).unwrap();
        assert_eq!(pgn.matches("[Variant \"hostage\"]").count(), 4, "{pgn}");
    }
    let expected: Vec<(String, u64)> = [
        ("iteration", 1),
        ("evaluation", 2),
        ("iteration", 2),
        ("iteration", 3),
        ("evaluation", 3),
    ]
    .iter()
    .map(|&(kind, i)| (kind.to_owned(), i))
    .collect();
    assert_eq!(metrics_iterations(&run), expected);
    // One line per SGD step, numbered through the run.
    let steps: Vec<(u64, u64)> = std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["kind"] == "step")
        .map(|v| {
            (
                v["iteration"].as_u64().unwrap(),
                v["step"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 4),
            (2, 5),
            (2, 6),
            (3, 7),
            (3, 8),
            (3, 9)
        ]
    );
    let evaluations = read_evaluations(&run.join("metrics.jsonl")).unwrap();
    assert_eq!(evaluations.len(), 2);
    for e in &evaluations {
        assert_eq!(e.simulations, 4);
        assert_eq!(e.vs_random.as_ref().unwrap().games, 2);
        assert_eq!(e.vs_uniform.as_ref().unwrap().games, 2);
        assert_eq!(e.vs_greedy.as_ref().unwrap().games, 2);
        assert_eq!(e.vs_engine.as_ref().unwrap().games, 2);
        assert_eq!(e.engine.as_deref(), Some("ab@1/classical"));
        assert!((0.0..=1.0).contains(&e.vs_random.as_ref().unwrap().score));
    }
    // Evaluation games as PGN, the players named.
    let pgn = std::fs::read_to_string(run.join("eval/iter-00003.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[White \"heterodox iteration 3\"]").count(),
        4,
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Black \"greedy\"]").count(), 1, "{pgn}");
    assert_eq!(
        pgn.matches("[Black \"ab@1/classical\"]").count(),
        1,
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Black \"random\"]").count(), 1, "{pgn}");
    assert_eq!(
        pgn.matches("[White \"uniform search 4\"]").count(),
        1,
        "{pgn}"
    );
    // The checkpoint loads as a network for the run's encoding.
    let spec = heterodox_models::Network::load(run.join("last"), Device::Cpu)
        .unwrap()
        .spec()
        .cloned()
        .unwrap();
    assert_eq!(spec.variant, "hostage");
    std::fs::remove_dir_all(&run).unwrap();
}

#[test]
fn resuming_continues_after_the_newest_checkpoint() {
    let run = temp_run("resume");
    let config = tiny("poison", 2);
    train(config.clone(), &options(&run, false), &mut |_| {}).unwrap();
    // Raise the limit in the saved settings, as a user editing them would.
    let mut longer = config.clone();
    longer.run.iterations = 4;
    std::fs::write(run.join("config.toml"), longer.to_toml()).unwrap();
    // Leftovers of a process killed after iteration 3's games and metrics
    // but before its checkpoint: they are rewritten.
    std::fs::copy(
        run.join("games/iter-00002.hdxshard"),
        run.join("games/iter-00003.hdxshard"),
    )
    .unwrap();
    let mut metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    metrics.push_str("{\"kind\":\"iteration\",\"iteration\":3}\n{\"kind\":\"itera");
    std::fs::write(run.join("metrics.jsonl"), metrics).unwrap();

    let mut started = None;
    let summary = train(TrainConfig::default(), &options(&run, true), &mut |e| {
        if let Event::Started {
            iteration, resumed, ..
        } = e
        {
            started = Some((iteration, resumed));
        }
    })
    .unwrap();
    assert_eq!(started, Some((2, true)));
    assert_eq!((summary.iterations, summary.step), (4, 12));
    let iterations: Vec<u64> = metrics_iterations(&run)
        .into_iter()
        .filter(|(kind, _)| kind == "iteration")
        .map(|(_, i)| i)
        .collect();
    assert_eq!(iterations, [1, 2, 3, 4]);
    assert_eq!(RunDir::new(&run).checkpoints().unwrap(), [3, 4]);
    let state = read_state(&run.join("last")).unwrap();
    assert_eq!((state.iteration, state.step), (4, 12));
    std::fs::remove_dir_all(&run).unwrap();
}

#[test]
fn a_teacher_run_learns_the_engine_first_then_mixes_its_games_in() {
    let run = temp_run("teacher");
    let mut config = tiny("hostage", 2);
    config.evaluation.every = 0;
    config.evaluation.at_end = false;
    config.teacher.positions = 40;
    config.teacher.depth = 1;
    config.teacher.max_plies = 10;
    config.teacher.steps = 4;
    config.teacher.share = 0.5;
    let mut events = Vec::new();
    let summary = train(config.clone(), &options(&run, false), &mut |e| {
        events.push(match e {
            Event::Supervised(line) => format!(
                "supervised {} steps, {} positions",
                line.training.as_ref().unwrap().steps,
                line.positions
            ),
            Event::IterationDone(line) => format!("iteration {}", line.iteration),
            Event::CheckpointSaved(path) => {
                format!("checkpoint {}", path.file_name().unwrap().to_string_lossy())
            }
            _ => return,
        })
    })
    .unwrap();
    // The teacher's data: 64 games (one shard) of at most 10 labelled steps.
    let teacher =
        heterodox_data::shard::read_shard(&run.join("teacher/teach-00000.hdxshard")).unwrap();
    assert_eq!(teacher.games.len(), 64);
    let positions: u64 = teacher
        .games
        .iter()
        .map(heterodox_engine::teach::labelled_positions)
        .sum();
    assert!(run.join("teacher/teach.json").is_file());
    assert_eq!(
        events,
        [
            format!("supervised 4 steps, {positions} positions"),
            "checkpoint ckpt-00000".to_owned(),
            "iteration 1".to_owned(),
            "checkpoint ckpt-00001".to_owned(),
            "iteration 2".to_owned(),
            "checkpoint ckpt-00002".to_owned(),
        ]
    );
    assert_eq!(summary.step, 4 + 2 * 3);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let teacher_line = lines.iter().find(|v| v["kind"] == "teacher").unwrap();
    assert_eq!(teacher_line["iteration"], 0);
    assert_eq!(teacher_line["positions"], positions);
    assert_eq!(teacher_line["training"]["steps"], 4);
    // The curve's first point: the teacher's network, as iteration 0,
    // right after the supervised phase.
    let kinds: Vec<(&str, u64)> = lines
        .iter()
        .filter(|v| v["kind"] != "step")
        .map(|v| {
            (
                v["kind"].as_str().unwrap(),
                v["iteration"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds[..3],
        [("teacher", 0), ("evaluation", 0), ("iteration", 1)]
    );
    // Supervised steps are iteration 0's, numbered from 1.
    let steps: Vec<(u64, u64)> = lines
        .iter()
        .filter(|v| v["kind"] == "step")
        .map(|v| {
            (
                v["iteration"].as_u64().unwrap(),
                v["step"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(&steps[..5], [(0, 1), (0, 2), (0, 3), (0, 4), (1, 5)]);
    // Half the window's positions are the teacher's: its games are added
    // to the 4 self-play games.
    let first = lines
        .iter()
        .find(|v| v["kind"] == "iteration" && v["iteration"] == 1)
        .unwrap();
    let window_games = first["training"]["window_games"].as_u64().unwrap();
    assert!(window_games > 4, "{first}");
    // Resuming does not repeat the supervised phase.
    let mut longer = config;
    longer.run.iterations = 3;
    std::fs::write(run.join("config.toml"), longer.to_toml()).unwrap();
    let summary = train(TrainConfig::default(), &options(&run, true), &mut |_| {}).unwrap();
    assert_eq!((summary.iterations, summary.step), (3, 4 + 3 * 3));
    let text = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    assert_eq!(text.matches("\"kind\":\"teacher\"").count(), 1);
    std::fs::remove_dir_all(&run).unwrap();
}

fn train_error(config: TrainConfig, run: &Path, resume: bool) -> TrainError {
    train(config, &options(run, resume), &mut |_| {}).unwrap_err()
}

#[test]
fn bad_runs_are_refused_with_the_reason() {
    let run = temp_run("bad");
    // Nothing to resume.
    let e = train_error(tiny("hostage", 1), &run, true).to_string();
    assert_eq!(
        e,
        format!(
            "run directory {}: holds no run to resume (no config.toml)",
            run.display()
        )
    );
    train(tiny("hostage", 1), &options(&run, false), &mut |_| {}).unwrap();
    // A second new run into the same directory.
    let e = train_error(tiny("hostage", 1), &run, false).to_string();
    assert!(
        e.contains("already holds a run (config.toml); continue it with --resume"),
        "{e}"
    );
    // An unwritable directory: below a regular file.
    let file = run.join("config.toml");
    let e = train_error(tiny("hostage", 1), &file.join("sub"), false);
    assert!(matches!(e, TrainError::RunDir { .. }), "{e:?}");
    assert!(e.to_string().contains("cannot create"), "{e}");
    // An unknown variant or option.
    let e = train_error(tiny("shogi", 1), &temp_run("shogi"), false).to_string();
    assert!(e.contains("unknown variant 'shogi'"), "{e}");
    let mut config = tiny("hostage", 1);
    config.options.insert("colour".into(), "red".into());
    let e = train_error(config, &temp_run("option"), false).to_string();
    assert!(e.contains("options:") && e.contains("colour"), "{e}");
    std::fs::remove_dir_all(&run).unwrap();
}

#[test]
fn corrupted_and_foreign_checkpoints_are_refused() {
    let run = temp_run("corrupt");
    train(tiny("hostage", 1), &options(&run, false), &mut |_| {}).unwrap();
    let ckpt = run.join("checkpoints/ckpt-00001");
    let trainer = std::fs::read(ckpt.join("trainer.json")).unwrap();

    std::fs::write(ckpt.join("trainer.json"), b"{\"format\": 1, \"iter").unwrap();
    let e = train_error(TrainConfig::default(), &run, true);
    assert!(
        matches!(&e, TrainError::Checkpoint { path, .. } if path == &ckpt),
        "{e:?}"
    );
    assert!(e.to_string().contains("corrupted trainer.json"), "{e}");
    std::fs::write(ckpt.join("trainer.json"), &trainer).unwrap();

    let weights = std::fs::read(ckpt.join("model.safetensors")).unwrap();
    std::fs::write(
        ckpt.join("model.safetensors"),
        &weights[..weights.len() / 2],
    )
    .unwrap();
    let e = train_error(TrainConfig::default(), &run, true);
    assert!(
        matches!(&e, TrainError::Checkpoint { path, .. } if path == &ckpt),
        "{e:?}"
    );
    std::fs::write(ckpt.join("model.safetensors"), &weights).unwrap();

    std::fs::write(ckpt.join("optimizer.safetensors"), b"garbage").unwrap();
    let e = train_error(TrainConfig::default(), &run, true).to_string();
    assert!(e.contains("cannot read optimizer state"), "{e}");

    // A checkpoint of another variant in this run's place.
    let other = temp_run("other");
    train(tiny("chess", 1), &options(&other, false), &mut |_| {}).unwrap();
    std::fs::remove_dir_all(&ckpt).unwrap();
    copy_dir(&other.join("checkpoints/ckpt-00001"), &ckpt);
    let e = train_error(TrainConfig::default(), &run, true).to_string();
    assert!(
        e.contains("made for chess encoding version 1, this run is hostage encoding version 1"),
        "{e}"
    );
    std::fs::remove_dir_all(&run).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn trains_on_cuda_when_present() {
    // Skipped (passes without running) where libtorch finds no GPU, as on
    // CI; on a GPU machine one tiny iteration trains and checkpoints there.
    if !heterodox_models::tch::Cuda::is_available() {
        eprintln!("skipped: no CUDA device");
        return;
    }
    let run = temp_run("cuda");
    let options = TrainOptions {
        run: run.clone(),
        resume: false,
        device: Device::Cuda(0),
    };
    let summary = train(tiny("hostage", 1), &options, &mut |_| {}).unwrap();
    assert_eq!((summary.iterations, summary.step), (1, 3));
    let state = read_state(&run.join("last")).unwrap();
    assert_eq!(state.iteration, 1);
    std::fs::remove_dir_all(&run).unwrap();
}

/// The games of iteration 1 of a one-iteration Hostage run, with
/// `adjudicate_cp` set, and that iteration's metrics line.
fn adjudicated_run(name: &str, adjudicate_cp: i32) -> (Vec<GameRecord>, serde_json::Value) {
    let mut config = tiny("hostage", 1);
    config.selfplay.adjudicate_cp = adjudicate_cp;
    config.evaluation.at_end = false;
    let run = temp_run(name);
    train(config, &options(&run, false), &mut |_| {}).unwrap();
    let shard = read_shard(&run.join("games").join("iter-00001.hdxshard")).unwrap();
    let line = std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["kind"] == "iteration")
        .unwrap();
    let _ = std::fs::remove_dir_all(&run);
    (shard.games, line)
}

#[test]
fn games_cut_at_the_ply_cap_are_judged_by_the_engine() {
    let (plain, plain_line) = adjudicated_run("no-adjudication", 0);
    let (judged, line) = adjudicated_run("adjudication", 300);
    // The same games (self-play is seeded); only the cut ones' results differ.
    assert_eq!(plain.len(), judged.len());
    let mut cut = 0;
    for (a, b) in plain.iter().zip(&judged) {
        assert_eq!(a.steps, b.steps);
        if a.result == GameResult::Truncated {
            cut += 1;
            assert_eq!(a.termination, "ply cap");
            assert_eq!(a.steps.len(), 16);
            assert_ne!(b.result, GameResult::Truncated);
            assert!(
                b.termination
                    .starts_with("adjudicated at the ply cap (engine "),
                "{}",
                b.termination
            );
        } else {
            assert_eq!(a, b);
        }
    }
    assert!(cut > 0, "16-ply games of a fresh network reach the cap");
    let selfplay = &line["selfplay"];
    let count = |key: &str| selfplay[key].as_u64().unwrap();
    assert_eq!(count("adjudicated_wins") + count("adjudicated_draws"), cut);
    assert_eq!(count("truncated"), 0);
    assert_eq!(plain_line["selfplay"]["truncated"].as_u64().unwrap(), cut);
    assert_eq!(
        plain_line["selfplay"]["adjudicated_wins"].as_u64().unwrap(),
        0
    );
}

#[test]
fn playout_caps_surprise_and_the_reuse_bound_shape_an_iteration() {
    let run = temp_run("levers");
    let mut config = tiny("chess", 1);
    config.evaluation.games = 0;
    config.selfplay.full_search_share = 0.5;
    config.selfplay.cheap_simulations = 2;
    config.training.surprise_weight = 0.5;
    config.training.max_sample_reuse = 1.0;
    config.training.steps_per_iteration = 50;
    let summary = train(config, &options(&run, false), &mut |_| {}).unwrap();
    let shard = read_shard(&run.join("games/iter-00001.hdxshard")).unwrap();
    let steps: Vec<_> = shard.games.iter().flat_map(|g| &g.steps).collect();
    let positions = steps.iter().filter(|s| !s.policy.is_empty()).count();
    // About half the moves are training positions, each with a surprise;
    // the cheap ones have neither.
    assert!(
        positions > 0 && positions < steps.len(),
        "{positions} of {}",
        steps.len()
    );
    for step in steps.iter().filter(|s| s.policy.is_empty()) {
        assert_eq!(step.surprise, 0.0);
    }
    assert!(steps.iter().any(|s| s.surprise > 0.0));
    // At most one row per new position: floor(positions / 16) steps.
    let expected = (positions / 16) as u64;
    assert!(expected < 50);
    assert_eq!(summary.step, expected);
    assert_eq!(
        heterodox_training::trainer::reuse_bounded(50, 1.0, positions, 16),
        expected as u32
    );
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn the_reuse_bound_caps_the_steps() {
    use heterodox_training::trainer::reuse_bounded;
    assert_eq!(reuse_bounded(30, 0.0, 10, 256), 30);
    assert_eq!(reuse_bounded(30, 2.0, 3200, 256), 25);
    assert_eq!(reuse_bounded(30, 4.0, 3200, 256), 30);
    assert_eq!(reuse_bounded(30, 1.0, 100, 256), 0);
}
