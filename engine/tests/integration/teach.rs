//! Teacher data: targets are the softmax of the engine's root scores, the
//! narrowed scoring agrees with the exact one where it matters, and a
//! directory is deterministic, resumable and refuses other settings.

use std::path::Path;

use heterodox_data::shard::read_shard;
use heterodox_data::GameResult;
use heterodox_engine::teach::{labelled_positions, play_game, shard_path};
use heterodox_engine::{teach, Engine, EngineConfig, Score, TeachConfig, TeachError};
use heterodox_env::encoding::Encoding;
use heterodox_env::{Chess, Game, GameVariant, Hostage};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn small(positions: u64) -> TeachConfig {
    TeachConfig {
        positions,
        depth: 1,
        max_plies: 20,
        games_per_shard: 2,
        hash_mib: 1,
        ..TeachConfig::default()
    }
}

fn engine<P: GameVariant>() -> Engine<P> {
    Engine::new(EngineConfig {
        hash_mib: 1,
        ..EngineConfig::default()
    })
    .unwrap()
}

#[test]
fn the_first_target_is_the_softmax_of_the_engine_scores() {
    let config = TeachConfig {
        random_plies: 0,
        sample_plies: 0,
        depth: 2,
        max_plies: 4,
        ..small(0)
    };
    let record = play_game::<Chess>(&(), &config, &mut engine(), 7).unwrap();
    assert_eq!(record.steps.len(), 4);
    let game = Game::new(Chess::new());
    let scores = engine::<Chess>()
        .score_root_moves_within(&game, 2, config.margin_cp())
        .unwrap();
    assert_eq!(scores.len(), 20);
    let best = scores[0].value as f32;
    let weights: Vec<f32> = scores
        .iter()
        .map(|s| ((s.value as f32 - best) / config.policy_temperature).exp())
        .collect();
    let total: f32 = weights.iter().sum();
    let step = &record.steps[0];
    // Every opening move of chess is within 6 temperatures of the best.
    assert_eq!(step.policy.len(), 20);
    for (score, weight) in scores.iter().zip(&weights) {
        let index = game.position().action_index(&score.action) as u32;
        let (_, p) = step.policy.iter().find(|(a, _)| *a == index).unwrap();
        assert!(
            (p - weight / total).abs() < 1e-6,
            "{p} vs {}",
            weight / total
        );
    }
    // No sampling: the best move is played, its score is the root value.
    assert_eq!(
        step.action,
        game.position().action_index(&scores[0].action) as u32
    );
    assert_eq!(step.root_value, scores[0].score.expected_result());
    assert_eq!(Score::Cp(400).expected_result(), 1f32.tanh());
    // Four labelled steps and no result: adjudicated, never truncated.
    assert_eq!(labelled_positions(&record), 4);
    assert_ne!(record.result, GameResult::Truncated);
    assert!(record.termination.starts_with("adjudicated at the ply cap"));
}

#[test]
fn narrowed_root_scores_give_the_targets_of_exact_ones() {
    let chess = Game::new(Chess::from_fen(KIWIPETE).unwrap());
    let mut hostage = Game::new(Hostage::new());
    for text in ["e4", "d5", "exd5", "Qxd5", "Nc3"] {
        hostage.play_text(text).unwrap();
    }
    let config = TeachConfig::default();
    let mut distances = Vec::new();
    for depth in [1, 2, 3] {
        let exact = engine::<Chess>().score_root_moves(&chess, depth).unwrap();
        let near = engine::<Chess>()
            .score_root_moves_within(&chess, depth, config.margin_cp())
            .unwrap();
        distances.push(compare(&exact, &near, &config));
        let exact = engine::<Hostage>()
            .score_root_moves(&hostage, depth)
            .unwrap();
        let near = engine::<Hostage>()
            .score_root_moves_within(&hostage, depth, config.margin_cp())
            .unwrap();
        distances.push(compare(&exact, &near, &config));
    }
    // Total variation between the two targets, per position and depth.
    // Measured: 0.15% at most but for Hostage at depth 3, 7.5% (the tuned
    // evaluation; 0.31% with the hand-set one): the two searches' windows
    // differ, and with them alpha-beta's reductions of a few moves near
    // the best.
    let mut sorted = distances.clone();
    sorted.sort_by(f32::total_cmp);
    assert!(sorted[sorted.len() - 2] < 0.005, "{distances:?}");
    assert!(sorted[sorted.len() - 1] < 0.08, "{distances:?}");
}

/// The same best action and value; returns the total variation distance
/// between the softmax targets of the two score lists.
fn compare<A: PartialEq + std::fmt::Debug>(
    exact: &[heterodox_engine::RootScore<A>],
    near: &[heterodox_engine::RootScore<A>],
    config: &TeachConfig,
) -> f32 {
    assert_eq!(exact.len(), near.len());
    assert_eq!(exact[0].action, near[0].action);
    assert_eq!(exact[0].value, near[0].value);
    let best = exact[0].value;
    let softmax = |scores: &[heterodox_engine::RootScore<A>]| -> Vec<f32> {
        let w: Vec<f32> = exact
            .iter()
            .map(|e| {
                let s = scores.iter().find(|s| s.action == e.action).unwrap();
                ((s.value.clamp(-3000, 3000) - best) as f32 / config.policy_temperature).exp()
            })
            .collect();
        let total: f32 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    };
    let (p, q) = (softmax(exact), softmax(near));
    assert!(near.iter().all(|s| s.value <= best));
    p.iter().zip(&q).map(|(a, b)| (a - b).abs()).sum::<f32>() / 2.0
}

fn shard_bytes(dir: &Path) -> Vec<Vec<u8>> {
    (0..)
        .map(|k| shard_path(dir, k))
        .take_while(|p| p.is_file())
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

#[test]
fn a_directory_is_deterministic_resumable_and_keeps_its_settings() {
    let root = std::env::temp_dir().join(format!("hdx-teach-{}", std::process::id()));
    let (whole, parts) = (root.join("whole"), root.join("parts"));
    let _ = std::fs::remove_dir_all(&root);
    let quiet = |_| {};
    let done = teach::<Chess>(&(), &small(100), &whole, &quiet).unwrap();
    assert!(done.positions >= 100);
    assert_eq!(done.new_positions, done.positions);
    assert_eq!(done.white_wins + done.draws + done.black_wins, done.games);
    let first = teach::<Chess>(&(), &small(30), &parts, &quiet).unwrap();
    assert!(first.positions >= 30 && first.positions < done.positions);
    let rest = teach::<Chess>(&(), &small(100), &parts, &quiet).unwrap();
    assert_eq!(rest.positions, done.positions);
    assert_eq!(rest.new_positions, done.positions - first.positions);
    assert_eq!(shard_bytes(&whole), shard_bytes(&parts));
    // Every shard reads back with its games' labelled positions.
    let counted: u64 = (0..done.shards.len())
        .map(|k| {
            let shard = read_shard(&shard_path(&whole, k)).unwrap();
            shard.games.iter().map(labelled_positions).sum::<u64>()
        })
        .sum();
    assert_eq!(counted, done.positions);
    // A full directory is only read.
    let again = teach::<Chess>(&(), &small(50), &whole, &quiet).unwrap();
    assert_eq!((again.positions, again.new_positions), (done.positions, 0));
    // Other settings are refused, the directory left as it was.
    let other = TeachConfig {
        depth: 2,
        ..small(200)
    };
    let error = teach::<Chess>(&(), &other, &whole, &quiet).unwrap_err();
    assert!(matches!(error, TeachError::Directory { .. }));
    assert!(
        error
            .to_string()
            .contains("holds teacher data made with other settings"),
        "{error}"
    );
    assert_eq!(shard_bytes(&whole).len(), done.shards.len());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bad_settings_are_typed_errors_naming_the_field() {
    let check = |config: TeachConfig, message: &str| {
        assert_eq!(config.validate().unwrap_err().to_string(), message);
    };
    check(
        TeachConfig {
            depth: 0,
            ..small(1)
        },
        "teacher setting depth = 0 is out of range (1 to 64)",
    );
    check(
        TeachConfig {
            policy_temperature: 0.0,
            ..small(1)
        },
        "teacher setting policy_temperature = 0 is out of range (a finite number > 0)",
    );
    check(
        TeachConfig {
            games_per_shard: 0,
            ..small(1)
        },
        "teacher setting games_per_shard = 0 is out of range (1 to 65536)",
    );
    check(
        TeachConfig {
            hash_mib: 0,
            ..small(1)
        },
        "teacher setting hash_mib = 0 is out of range (1 to 65536)",
    );
}
