//! Texel tuning: the error falls pass by pass, the run repeats exactly,
//! games are split by number, and untunable variants and bad data are
//! refused by name.

use std::path::{Path, PathBuf};

use heterodox_engine::teach::shard_path;
use heterodox_engine::tune::Pass;
use heterodox_engine::{teach, tune, TeachConfig, TuneConfig, TuneError, TuneReport};
use heterodox_env::{Chess, GameVariant, Hostage, MadScientist};

/// A directory of `games` short teacher games (depth 1, 40 steps).
fn teacher_games<P: GameVariant>(rules: &P::Rules, name: &str, games: u32) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hdx-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = TeachConfig {
        positions: 1,
        depth: 1,
        max_plies: 40,
        games_per_shard: games,
        hash_mib: 1,
        seed: 5,
        ..TeachConfig::default()
    };
    teach::<P>(rules, &config, &dir, &|_| {}).unwrap();
    dir
}

fn quick() -> TuneConfig {
    TuneConfig {
        steps: vec![8, 2],
        max_passes: 3,
        validation_every: 4,
        prior: 0.0,
    }
}

fn run<P: GameVariant>(rules: &P::Rules, dir: &Path) -> Result<TuneReport, TuneError> {
    tune::<P>(rules, &[shard_path(dir, 0)], &quick(), &|_: &Pass| {})
}

#[test]
fn hostage_tuning_lowers_the_error_and_repeats_exactly() {
    let dir = teacher_games::<Hostage>(&Default::default(), "hostage", 16);
    let report = run::<Hostage>(&Default::default(), &dir).unwrap();
    assert_eq!(report.variant, "hostage");
    assert_eq!(report.games, 16);
    assert!(report.train_positions > 0 && report.validation_positions > 0);
    assert_eq!(report.names.len(), 25);
    assert_eq!(report.names[18], "airfield_percent");
    // The run starts from the numbers set by hand.
    assert_eq!(&report.start[..4], [90, 110, 310, 300]);
    assert_eq!(&report.start[18..], [90, 30, 4, 70, 110, -20, -30]);
    assert!(report.k > 0.05 && report.k < 5.0, "{}", report.k);
    // Every pass keeps or lowers the training error; the run ends where the
    // last pass left it, below where it started.
    let mut previous = report.start_errors.train;
    for pass in &report.passes {
        assert!(pass.errors.train <= previous, "{pass:?}");
        previous = pass.errors.train;
    }
    let last = report.passes.last().unwrap();
    assert_eq!(last.errors, report.tuned_errors);
    assert!(report.tuned_errors.train < report.start_errors.train);
    assert_ne!(report.tuned, report.start);
    // Each step ends with a pass that moved nothing, or at the pass limit.
    for step in [8, 2] {
        let passes: Vec<&Pass> = report.passes.iter().filter(|p| p.step == step).collect();
        assert!(!passes.is_empty());
        let end = passes.last().unwrap();
        assert!(end.changed == 0 || end.pass == 3, "{end:?}");
    }
    let again = run::<Hostage>(&Default::default(), &dir).unwrap();
    assert_eq!(
        TuneReport {
            seconds: 0.0,
            ..again
        },
        TuneReport {
            seconds: 0.0,
            ..report
        }
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn chess_tunes_its_role_table_and_holds_out_every_fourth_game() {
    let dir = teacher_games::<Chess>(&(), "chess", 8);
    let report = run::<Chess>(&(), &dir).unwrap();
    assert_eq!(report.names.len(), 18);
    assert_eq!(report.names[0], "value.pawn.mg");
    assert_eq!(report.names[17], "mobility.queen.eg");
    assert_eq!(report.start[..6], [85, 110, 320, 300, 4, 4]);
    // Games 0 and 4 of 8 are held out: about a quarter of the positions.
    let all = report.train_positions + report.validation_positions;
    assert!(report.validation_positions * 8 < all * 5, "{report:?}");
    assert!(report.validation_positions > 0);
    let none_held_out = tune::<Chess>(
        &(),
        &[shard_path(&dir, 0)],
        &TuneConfig {
            validation_every: 0,
            ..quick()
        },
        &|_: &Pass| {},
    )
    .unwrap();
    assert_eq!(none_held_out.validation_positions, 0);
    assert_eq!(none_held_out.train_positions, all);
    assert_eq!(none_held_out.tuned_errors.validation, None);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn untunable_variants_and_bad_data_are_refused() {
    let dir = teacher_games::<MadScientist>(&Default::default(), "madscientist", 2);
    assert_eq!(
        run::<MadScientist>(&Default::default(), &dir)
            .unwrap_err()
            .to_string(),
        "madscientist's evaluation has no tunable numbers (tunable: chess, poison, hostage)"
    );
    // Mad Scientist games read as chess: the shard's header names another
    // variant.
    let error = run::<Chess>(&(), &dir).unwrap_err();
    assert!(matches!(error, TuneError::Shard(_)), "{error}");
    assert!(
        error.to_string().contains("teach-00000.hdxshard"),
        "{error}"
    );
    let none = tune::<Chess>(&(), &[], &quick(), &|_: &Pass| {}).unwrap_err();
    assert_eq!(none.to_string(), "no data: name at least one shard");
    let bad = TuneConfig {
        steps: vec![],
        ..quick()
    };
    let error = tune::<Chess>(&(), &[shard_path(&dir, 0)], &bad, &|_: &Pass| {}).unwrap_err();
    assert!(matches!(
        error,
        TuneError::OutOfRange { field: "steps", .. }
    ));
    std::fs::remove_dir_all(dir).unwrap();
}
