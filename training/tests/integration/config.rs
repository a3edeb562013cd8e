//! The training config: defaults, the files in configs/, and the errors of
//! bad ones.

use std::path::Path;

use heterodox_selfplay::RootPolicy;
use heterodox_training::trainer::config::{Schedule, TrainConfig};
use heterodox_training::TrainError;

fn configs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
}

fn message(error: TrainError) -> String {
    match error {
        TrainError::Config { message, .. } => message,
        other => panic!("expected a config error, got {other:?}"),
    }
}

#[test]
fn every_shipped_config_parses_and_names_its_variant() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(configs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let config = TrainConfig::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
        assert_eq!(config.variant, stem, "{}", path.display());
        names.push(stem);
    }
    names.sort();
    assert_eq!(
        names,
        ["chess", "hostage", "madscientist", "poison", "traitor"]
    );
}

#[test]
fn each_config_asks_for_the_teacher_its_shipped_agents_were_measured_with() {
    // The teacher sizes are measured choices (docs/training.md): Mad
    // Scientist's and Traitor's larger teacher made their one-hour agents
    // (zoo:madscientist, zoo:traitor-defector).
    let teacher = |name: &str| {
        let config = TrainConfig::from_file(&configs_dir().join(format!("{name}.toml"))).unwrap();
        (config.teacher.positions, config.teacher.steps)
    };
    for name in ["chess", "hostage", "poison"] {
        assert_eq!(teacher(name), (250_000, 4_000), "{name}");
    }
    assert_eq!(teacher("madscientist"), (300_000, 10_000));
    assert_eq!(teacher("traitor"), (300_000, 10_000));
}

#[test]
fn the_hostage_file_states_the_defaults() {
    // configs/hostage.toml documents every default: it must be them.
    let file = TrainConfig::from_file(&configs_dir().join("hostage.toml")).unwrap();
    let defaults = TrainConfig::default();
    assert_eq!(file, defaults);
}

#[test]
fn an_empty_file_is_the_defaults_and_toml_round_trips() {
    let empty = TrainConfig::from_toml("").unwrap();
    assert_eq!(empty, TrainConfig::default());
    assert_eq!(empty.variant, "hostage");
    assert_eq!(empty.search.root_policy, RootPolicy::Gumbel);
    assert_eq!(empty.search.simulations, 16);
    assert_eq!(empty.optimizer.schedule, Schedule::Constant);
    let mut config = TrainConfig {
        variant: "traitor".into(),
        ..TrainConfig::default()
    };
    config.options.insert("mode".into(), "defector".into());
    config.optimizer.schedule = Schedule::Cosine;
    config.run.iterations = 7;
    assert_eq!(TrainConfig::from_toml(&config.to_toml()).unwrap(), config);
}

#[test]
fn a_run_written_before_wins_in_one_replays_without_them() {
    // New runs probe for wins in one; a run directory's config.toml from
    // before the setting existed has a [search] section without it, and
    // reads the search's own default, off.
    assert!(TrainConfig::default().search.immediate_wins);
    let old =
        TrainConfig::from_toml("[search]\nsimulations = 16\nroot_policy = \"gumbel\"\n").unwrap();
    assert!(!old.search.immediate_wins);
    let config = TrainConfig::default();
    assert!(config.to_toml().contains("immediate_wins = true"));
}

/// Each `(text, name)`: the config `text` is refused with a message that
/// contains `name`.
fn assert_refusals_name(cases: &[(&str, &str)]) {
    for (text, name) in cases {
        let e = message(TrainConfig::from_toml(text).unwrap_err());
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn unknown_fields_are_named() {
    assert_refusals_name(&[
        ("[training]\nbatch = 64\n", "unknown field `batch`"),
        ("colour = \"white\"\n", "unknown field `colour`"),
        ("[search]\nsimulation = 8\n", "unknown field `simulation`"),
    ]);
}

#[test]
fn ill_typed_fields_are_named() {
    assert_refusals_name(&[
        ("[training]\nbatch_size = \"big\"\n", "batch_size"),
        ("[search]\nroot_policy = \"alphabeta\"\n", "alphabeta"),
        ("seed = -1\n", "seed"),
    ]);
}

#[test]
fn out_of_range_values_are_named() {
    let cases = [
        ("[training]\nbatch_size = 0\n", "setting training.batch_size = 0 is out of range (1 to 65536)"),
        ("[training]\nbatch_size = 100000000\n", "setting training.batch_size = 100000000 is out of range (1 to 65536)"),
        ("[optimizer]\nmomentum = 1.0\n", "setting optimizer.momentum = 1 is out of range (0 to less than 1)"),
        ("[optimizer]\nlearning_rate = nan\n", "setting optimizer.learning_rate = NaN is out of range (a finite number >= 0)"),
        ("[search]\nsimulations = 0\n", "setting search.simulations = 0 is out of range (1 to 1048576)"),
        ("[selfplay]\nconcurrent = 100000\n", "setting selfplay.concurrent = 100000 is out of range (1 to 4096)"),
        ("[selfplay]\npipeline = 0\n", "setting selfplay.pipeline = 0 is out of range (1 to 8)"),
        ("[selfplay]\nconcurrent = 4\npipeline = 5\n", "setting selfplay.pipeline = 5 is out of range (at most concurrent)"),
        ("[evaluation]\nopponents = [\"greedy\", \"greedy\"]\n", "setting evaluation.opponents = greedy is out of range (each opponent once)"),
        ("[evaluation]\nopponents = [\"ab@1\"]\n", "setting evaluation.opponents: evaluation opponent 'ab@1' is none of random, uniform, greedy, ab@DEPTH/classical (DEPTH 1 to 64)"),
        ("[evaluation]\nopponents = [\"rollout@64\"]\n", "setting evaluation.opponents: evaluation opponent 'rollout@64' is none of random, uniform, greedy, ab@DEPTH/classical (DEPTH 1 to 64)"),
        ("[search]\nquiescence_weight = 1.5\n", "setting search.quiescence_weight = 1.5 is out of range (0 to 1)"),
        ("[selfplay]\nopening_plies = 1001\n", "setting selfplay.opening_plies = 1001 is out of range (0 to 1000)"),
        ("history = 0\n", "setting history = 0 is out of range (1 to 64)"),
        ("[run]\nminutes = 0.0\niterations = 0\n", "setting run.iterations = 0 is out of range (at least 1 when run.minutes is 0: the run must end)"),
        ("[checkpoint]\nkeep = 0\n", "setting checkpoint.keep = 0 is out of range (at least 1)"),
        ("[network]\nchannels = 4096\n", "setting network.channels = 4096 is out of range (1 to 1024)"),
        ("[teacher]\nshare = 1.0\n", "setting teacher.share = 1 is out of range (0 to less than 1)"),
        ("[teacher]\nz_weight = 2.0\n", "setting teacher.z_weight = 2 is out of range (0 to 1)"),
        ("[teacher]\npositions = 10\ndepth = 0\n", "setting teacher.depth = 0 is out of range (1 to 64)"),
        ("[teacher]\npolicy_temperature = -1.0\n", "setting teacher.policy_temperature = -1 is out of range (a finite number > 0)"),
        ("[selfplay]\nadjudicate_cp = -5\n", "setting selfplay.adjudicate_cp = -5 is out of range (0 (off) to 10000)"),
        ("[selfplay]\nadjudicate_depth = 0\n", "setting selfplay.adjudicate_depth = 0 is out of range (1 to 64)"),
        ("[selfplay.resign]\nthreshold = 1.5\n", "setting selfplay.resign.threshold = 1.5 is out of range (0 (off) to 1)"),
        ("[selfplay.resign]\nmoves = 0\n", "setting selfplay.resign.moves = 0 is out of range (1 to 1000)"),
        ("[training]\nmaterial_loss_weight = -1.0\n", "setting training.material_loss_weight = -1 is out of range (a finite number >= 0)"),
        ("[training]\nsurprise_weight = 1.5\n", "setting training.surprise_weight = 1.5 is out of range (0 to 1)"),
        ("[training]\nmax_sample_reuse = -1.0\n", "setting training.max_sample_reuse = -1 is out of range (0 to 1000)"),
        ("[selfplay]\nfull_search_share = 2.0\n", "setting selfplay.full_search_share = 2 is out of range (0 to 1)"),
        ("[search]\nsimulations = 16\n[selfplay]\nfull_search_share = 0.25\ncheap_simulations = 32\n", "setting selfplay.cheap_simulations = 32 is out of range (0 to search.simulations)"),
    ];
    for (text, expected) in cases {
        assert_eq!(
            message(TrainConfig::from_toml(text).unwrap_err()),
            expected,
            "{text}"
        );
    }
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let path = Path::new("/nonexistent/heterodox.toml");
    match TrainConfig::from_file(path).unwrap_err() {
        TrainError::Io { path: p, .. } => assert_eq!(p, path),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_file_error_names_the_file() {
    let dir = std::env::temp_dir().join(format!("hdx-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.toml");
    std::fs::write(&path, "[training]\nbatch = 1\n").unwrap();
    let text = TrainConfig::from_file(&path).unwrap_err().to_string();
    assert!(
        text.starts_with(&format!("config {}: ", path.display())),
        "{text}"
    );
    assert!(text.contains("unknown field `batch`"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
