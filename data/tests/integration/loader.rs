//! The training loader: rows equal to the shared encoding of the replayed
//! positions, exact targets, deterministic sampling, typed errors for bad
//! records.

use crate::support;

use heterodox_data::loader::{AnyLoader, Batch, Loader, LoaderConfig, LoaderError};
use heterodox_data::replay::{ReplayError, ReplayErrorKind};
use heterodox_data::shard::{decode_shard, encode_shard, HeaderError, Shard, ShardHeader};
use heterodox_data::{GameRecord, GameResult};
use heterodox_env::encoding::{encode_stacked, ActionSet, EncodingSpec};
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Chess, Game, GameVariant, Hostage, RuleOptions, Traitor, Variant};

use support::{random_records, record_from_moves, root_value, test_policy, SCHOLARS_MATE};

fn scholars_mate() -> GameRecord {
    record_from_moves::<Chess>(&(), None, &SCHOLARS_MATE, test_policy)
}

/// Every position of `record` from its start, and the repetition count of
/// each (computed here with `Game`, independently of the loader).
fn positions<P: GameVariant>(record: &GameRecord, rules: &P::Rules) -> Vec<(P, usize)> {
    let start = match &record.start {
        Some(text) => P::from_position_string(text, rules).unwrap(),
        None => P::start(rules, record.seed).unwrap(),
    };
    let mut game = Game::new(start);
    let mut legal = ActionSet::new(game.position().num_actions());
    let mut out = vec![(game.position().clone(), game.repetitions())];
    for step in &record.steps {
        legal.generate(game.position());
        let action = legal.action_of(step.action as usize).unwrap();
        game.play(&action).unwrap();
        out.push((game.position().clone(), game.repetitions()));
    }
    out
}

/// The (game, step) of every training position, in the loader's numbering.
fn training_steps(records: &[GameRecord]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (g, record) in records.iter().enumerate() {
        for (s, step) in record.steps.iter().enumerate() {
            if !step.policy.is_empty() {
                out.push((g, s));
            }
        }
    }
    out
}

/// Checks every row of `batch` (filled with training positions `picks`)
/// against the encoding of the replayed positions and the records.
fn assert_rows<P: GameVariant>(
    records: &[GameRecord],
    rules: &P::Rules,
    config: &LoaderConfig,
    picks: &[usize],
    batch: &Batch,
) {
    let steps = training_steps(records);
    let replayed: Vec<Vec<(P, usize)>> = records.iter().map(|r| positions::<P>(r, rules)).collect();
    let (l, a, t) = (batch.observation_len, batch.num_actions, config.history);
    let mut expected = vec![0.0f32; l];
    for (row, &pick) in picks.iter().enumerate() {
        let (g, s) = steps[pick];
        let game = &replayed[g];
        let (position, repetitions) = &game[s];
        let observer = position.turn();
        let earlier = game[..s].iter().rev().map(|(p, _)| p);
        encode_stacked(position, earlier, *repetitions, t, observer, &mut expected);
        assert!(
            batch.observations[row * l..(row + 1) * l] == expected[..],
            "observation of game {g} step {s}"
        );
        let mut legal = ActionSet::new(a);
        legal.generate(position);
        let mut mask = vec![false; a];
        for &index in legal.indices() {
            mask[index as usize] = true;
        }
        assert_eq!(
            batch.masks[row * a..(row + 1) * a],
            mask[..],
            "mask at {g}/{s}"
        );
        let record_step = &records[g].steps[s];
        let sum: f32 = record_step.policy.iter().map(|e| e.1).sum();
        let mut policy = vec![0.0f32; a];
        for &(index, p) in &record_step.policy {
            policy[index as usize] = p / sum;
        }
        assert_eq!(
            batch.policies[row * a..(row + 1) * a],
            policy[..],
            "policy at {g}/{s}"
        );
        let z = config.z_weight;
        let value = z * records[g].result.value_for(observer) + (1.0 - z) * record_step.root_value;
        assert_eq!(batch.values[row], value, "value at {g}/{s}");
    }
}

fn filled<P: GameVariant>(
    records: &[GameRecord],
    rules: &P::Rules,
    config: &LoaderConfig,
) -> (Batch, Vec<usize>) {
    let mut loader = Loader::<P>::new(rules.clone(), records.to_vec(), config).unwrap();
    let picks: Vec<usize> = (0..loader.num_positions()).collect();
    let mut batch = loader.new_batch(picks.len());
    loader.fill_batch_at(&mut batch, &picks).unwrap();
    (batch, picks)
}

#[test]
fn scholars_mate_rows_are_exact() {
    let records = [scholars_mate()];
    let config = LoaderConfig::default();
    let mut loader = Loader::<Chess>::new((), records.to_vec(), &config).unwrap();
    assert_eq!(loader.spec(), &EncodingSpec::of(&Chess::new(), 1));
    assert_eq!((loader.num_games(), loader.num_positions()), (1, 6));
    let mut batch = loader.new_batch(6);
    loader
        .fill_batch_at(&mut batch, &[0, 1, 2, 3, 4, 5])
        .unwrap();
    assert_rows::<Chess>(&records, &(), &config, &[0, 1, 2, 3, 4, 5], &batch);

    // By hand: rows are steps 0, 2, 3, 4, 5, 6 (step 1 has no policy).
    let (l, a) = (20 * 64 + 128, 4672);
    assert_eq!((batch.observation_len, batch.num_actions), (l, a));
    let plane =
        |row: usize, c: usize| &batch.observations[row * l + c * 64..row * l + (c + 1) * 64];
    let squares = |p: &[f32]| -> Vec<usize> { (0..64).filter(|&i| p[i] == 1.0).collect() };
    // Step 0, White: own pawns on the second rank.
    assert_eq!(squares(plane(0, 0)), (8..16).collect::<Vec<_>>());
    // Step 3 (2...Nc6), Black: own pawns on its second rank but e, and e5
    // (its fourth rank); the board is flipped for Black.
    assert_eq!(squares(plane(2, 0)), [8, 9, 10, 11, 13, 14, 15, 28]);
    // Their queen (White's, on h5) is on h4 from Black's side.
    assert_eq!(squares(plane(2, 10)), [31]);
    assert_eq!(batch.values, [1.0, 1.0, -1.0, 1.0, -1.0, 1.0]);
    // Policy: 1/2 on the move played (3...Nf6 at row 4: g8f6), 1/4 on two others.
    let step = &records[0].steps[5];
    let row = &batch.policies[4 * a..5 * a];
    assert_eq!(row[step.action as usize], 0.5);
    assert_eq!(row.iter().filter(|&&p| p == 0.25).count(), 2);
    assert_eq!(row.iter().sum::<f32>(), 1.0);
    // 20 legal moves at the start, all in the mask.
    assert_eq!(batch.masks[..a].iter().filter(|&&m| m).count(), 20);
}

#[test]
fn history_stacks_earlier_positions_from_the_movers_side() {
    let records = [scholars_mate()];
    for t in [2, 3, 8] {
        let config = LoaderConfig::default().with_history(t);
        let (batch, picks) = filled::<Chess>(&records, &(), &config);
        assert_rows::<Chess>(&records, &(), &config, &picks, &batch);
    }
    let config = LoaderConfig::default().with_history(2);
    let (batch, _) = filled::<Chess>(&records, &(), &config);
    let l = batch.observation_len;
    assert_eq!(l, (2 * 20 + 2) * 64);
    // Step 0 has no predecessor: its second block is zero.
    assert!(batch.observations[20 * 64..40 * 64]
        .iter()
        .all(|&x| x == 0.0));
    // Step 3 (before 2...Nc6) is seen by Black; its second block is the
    // position before 2.Qh5, also seen by Black: the same black pawns ...
    let row = &batch.observations[2 * l..3 * l];
    assert_eq!(row[20 * 64..21 * 64], row[..64]);
    // ... and White's queen on h5 now (h4 flipped), on d1 before (d8 flipped).
    let their_queen = |block: usize| -> Vec<usize> {
        let plane = &row[(20 * block + 10) * 64..(20 * block + 11) * 64];
        (0..64).filter(|&i| plane[i] == 1.0).collect()
    };
    assert_eq!((their_queen(0), their_queen(1)), (vec![31], vec![59]));
}

#[test]
fn checkpoint_interval_does_not_change_rows() {
    let rules = ();
    let records = random_records::<Chess>(&rules, 4, 120);
    let base = LoaderConfig::default().with_history(4);
    let (reference, picks) = filled::<Chess>(&records, &rules, &base);
    assert_rows::<Chess>(&records, &rules, &base, &picks, &reference);
    for interval in [1, 2, 3, 7, 1000] {
        let config = base.clone().with_checkpoint_interval(interval);
        assert_eq!(
            filled::<Chess>(&records, &rules, &config).0,
            reference,
            "interval {interval}"
        );
    }
}

#[test]
fn z_weight_mixes_in_the_root_value() {
    let records = [scholars_mate()];
    let config = LoaderConfig::default().with_z_weight(0.25);
    let (batch, picks) = filled::<Chess>(&records, &(), &config);
    assert_rows::<Chess>(&records, &(), &config, &picks, &batch);
    // Step 0: 0.25 * 1 + 0.75 * root_value(0) (-0.5).
    assert_eq!(root_value(0), -0.5);
    assert_eq!(batch.values[0], -0.125);
}

#[test]
fn repetition_planes_come_from_the_game() {
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let record = record_from_moves::<Chess>(&(), None, &moves, |_, legal, played| {
        let other = legal.indices()[0];
        if other == played {
            vec![(played, 1.0)]
        } else {
            vec![(played, 0.75), (other, 0.25)]
        }
    });
    assert_eq!(record.result, GameResult::Draw);
    assert_eq!(record.termination, "threefold repetition");
    let records = [record];
    let config = LoaderConfig::default();
    let (batch, picks) = filled::<Chess>(&records, &(), &config);
    assert_rows::<Chess>(&records, &(), &config, &picks, &batch);
    let l = batch.observation_len;
    let repetition = |row: usize, k: usize| batch.observations[row * l + (20 + k) * 64];
    // Steps 0..3 are first occurrences; 4..7 second ones.
    for row in 0..8 {
        let expected = if row >= 4 { 1.0 } else { 0.0 };
        assert_eq!(
            (repetition(row, 0), repetition(row, 1)),
            (expected, 0.0),
            "step {row}"
        );
    }
}

fn traitor_rules(options: &str) -> <Traitor as GameVariant>::Rules {
    Traitor::parse_rules(&RuleOptions::parse(options).unwrap()).unwrap()
}

/// The rules text's sample game (T4), ending in a traitor rook's mate.
pub fn traitor_sample() -> (GameRecord, <Traitor as GameVariant>::Rules) {
    let rules = traitor_rules("selection=fixed");
    let fen =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- d8/c1,g2,h1 open - -";
    let moves = [
        "e4", "e5", "Nf3", "Nf6", "Bc4", "Ng4", "O-O", "Bc5", "Nc3", "T-h1", "g4f2",
    ];
    let record = record_from_moves::<Traitor>(&rules, Some(fen), &moves, |_, legal, played| {
        support::uniform_policy(legal)
            .into_iter()
            .map(|(i, p)| (i, if i == played { 2.0 * p } else { p }))
            .collect()
    });
    (record, rules)
}

#[test]
fn traitor_rows_are_the_movers_view() {
    let (record, rules) = traitor_sample();
    assert_eq!(record.result, GameResult::BlackWins);
    let records = [record];
    let config = LoaderConfig::default();
    let (batch, picks) = filled::<Traitor>(&records, &rules, &config);
    assert_rows::<Traitor>(&records, &rules, &config, &picks, &batch);
    // The observation is what the mover's view encodes, without the
    // opponent's secret.
    let l = batch.observation_len;
    let c = l - 128;
    let mut expected = vec![0.0f32; c];
    for (row, (position, _)) in positions::<Traitor>(&records[0], &rules)[..11]
        .iter()
        .enumerate()
    {
        let view = position.view(position.turn());
        view.encode(&mut expected);
        assert_eq!(
            batch.observations[row * l..row * l + c],
            expected[..],
            "step {row}"
        );
    }
    // Black won: the announcement (step 9) and the move after it are
    // Black's (+1), 5.Nc3 (step 8) White's (-1).
    assert_eq!(batch.values[9], 1.0);
    assert_eq!(batch.values[10], 1.0);
    assert_eq!(batch.values[8], -1.0);
    // Selection phase with hidden choices: random games, T = 3.
    let rules = traitor_rules("");
    let records = random_records::<Traitor>(&rules, 3, 60);
    let config = LoaderConfig::default().with_history(3);
    let (batch, picks) = filled::<Traitor>(&records, &rules, &config);
    assert_rows::<Traitor>(&records, &rules, &config, &picks, &batch);
}

#[test]
fn sampling_is_seeded_uniform_and_thread_independent() {
    let records = random_records::<Hostage>(&(), 8, 80);
    let config = LoaderConfig::default().with_history(2).with_seed(99);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut loader = Loader::<Hostage>::new((), records.clone(), &config).unwrap();
            let mut batches = Vec::new();
            for _ in 0..3 {
                let mut batch = loader.new_batch(37);
                loader.fill_batch(&mut batch).unwrap();
                batches.push(batch);
            }
            (batches, loader.num_positions())
        })
    };
    let (one, count) = run(1);
    let (three, _) = run(3);
    assert_eq!(one, three);
    // The rows are the positions SplitMix64(seed).below(count) draws.
    let mut rng = SplitMix64::new(99);
    let picks: Vec<usize> = (0..37).map(|_| rng.below(count)).collect();
    assert_rows::<Hostage>(&records, &(), &config, &picks, &one[0]);
    assert_ne!(one[0], one[1]);
}

#[test]
fn shards_load_through_the_runtime_entry() {
    let rules = traitor_rules("mode=defector,commitment=simplified");
    let games = random_records::<Traitor>(&rules, 4, 50);
    let header = ShardHeader::new::<Traitor>(&rules, "test");
    let shard = decode_shard(&encode_shard(&header, &games).unwrap()).unwrap();
    let config = LoaderConfig::default().with_history(2).with_seed(5);
    let mut any = AnyLoader::from_shards(vec![shard.clone(), shard.clone()], &config).unwrap();
    let mut typed =
        Loader::<Traitor>::from_shards(vec![shard.clone(), shard.clone()], &config).unwrap();
    assert_eq!(any.variant(), Variant::Traitor);
    assert_eq!(any.spec(), typed.spec());
    assert_eq!(any.num_games(), 8);
    let mut a = any.new_batch(16);
    let mut b = typed.new_batch(16);
    any.fill_batch(&mut a).unwrap();
    typed.fill_batch(&mut b).unwrap();
    assert_eq!(a, b);
    // Quantized probabilities still give distributions.
    for row in a.policies.chunks(a.num_actions) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
    // Games of another rule set in the same loader are refused.
    let other = ShardHeader::new::<Traitor>(&traitor_rules("mode=defector"), "test");
    let mixed = vec![
        shard.clone(),
        Shard {
            header: other,
            games: Vec::new(),
        },
    ];
    let error = AnyLoader::from_shards(mixed, &config).unwrap_err();
    assert_eq!(
        error.to_string(),
        "shard 1 holds traitor (announce_check=allowed,commitment=standard,mode=defector,no_immediate_undo=on,selection=phase) v1, the first shard traitor (announce_check=allowed,commitment=simplified,mode=defector,no_immediate_undo=on,selection=phase) v1: one loader reads one variant under one rule set"
    );
    // A typed loader of another variant names both.
    let error = Loader::<Hostage>::from_shards(vec![shard.clone()], &config).unwrap_err();
    assert!(
        matches!(&error, LoaderError::Header(HeaderError::Mismatch(m)) if m.reason == "variant hostage vs traitor"),
        "{error}"
    );
    let mut unknown = shard;
    unknown.header.variant = "xiangqi".into();
    let error = AnyLoader::from_shards(vec![unknown], &config).unwrap_err();
    assert!(matches!(
        error,
        LoaderError::Header(HeaderError::UnknownVariant(_))
    ));
}

fn replay_error(records: Vec<GameRecord>) -> ReplayError {
    match Loader::<Chess>::new((), records, &LoaderConfig::default()).unwrap_err() {
        LoaderError::Replay(error) => error,
        other => panic!("{other}"),
    }
}

#[test]
fn bad_records_name_game_and_step() {
    let good = scholars_mate();
    let mut bad = good.clone();
    bad.steps[3].action = 0;
    let error = replay_error(vec![good.clone(), bad]);
    assert_eq!(
        error.to_string(),
        "game 1, step 3: action index 0 is not a legal action of the replayed position rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 (corrupted record, or the wrong variant or rule settings)"
    );
    let mut bad = good.clone();
    bad.steps[2].policy[1].0 = 0;
    let error = replay_error(vec![bad]);
    assert_eq!((error.game, error.step), (0, Some(2)));
    assert!(matches!(
        error.kind,
        ReplayErrorKind::PolicyIllegal { index: 0, .. }
    ));
    let mut bad = good.clone();
    bad.steps[2].policy[1].0 = bad.steps[2].policy[0].0;
    let error = replay_error(vec![bad]);
    assert!(matches!(
        error.kind,
        ReplayErrorKind::PolicyDuplicate { .. }
    ));
    let mut bad = good.clone();
    bad.steps[4].policy[1].1 = -0.25;
    assert_eq!(
        replay_error(vec![bad]).kind,
        ReplayErrorKind::PolicyValue { value: -0.25 }
    );
    let mut bad = good.clone();
    for entry in &mut bad.steps[4].policy {
        entry.1 = 0.0;
    }
    assert_eq!(
        replay_error(vec![bad]).kind,
        ReplayErrorKind::PolicySum { sum: 0.0 }
    );
    let mut bad = good.clone();
    bad.steps[0].root_value = f32::NAN;
    assert!(matches!(
        replay_error(vec![bad]).kind,
        ReplayErrorKind::RootValue { .. }
    ));
    let mut bad = good.clone();
    bad.result = GameResult::BlackWins;
    assert_eq!(
        replay_error(vec![bad]).to_string(),
        "game 0: recorded result BlackWins but the replayed game ended 1-0 (checkmate) (corrupted record, or the wrong variant or rule settings)"
    );
    let mut bad = good.clone();
    bad.steps.push(bad.steps[0].clone());
    let error = replay_error(vec![bad]);
    assert_eq!(error.step, Some(7));
    assert_eq!(
        error.kind,
        ReplayErrorKind::GameOver {
            outcome: "1-0 (checkmate)".into()
        }
    );
    let mut bad = good.clone();
    bad.start = Some("not a fen".into());
    assert!(matches!(
        replay_error(vec![bad]).kind,
        ReplayErrorKind::Start(_)
    ));
    // Chess records read as Traitor games: the first index is no selection.
    let error = Loader::<Traitor>::new(traitor_rules(""), vec![good], &LoaderConfig::default())
        .unwrap_err();
    assert!(
        matches!(
            &error,
            LoaderError::Replay(ReplayError {
                game: 0,
                step: Some(0),
                kind: ReplayErrorKind::IllegalAction { index: 76, .. }
            })
        ),
        "{error}"
    );
}

#[test]
fn bad_settings_and_buffers_are_errors() {
    let records = vec![scholars_mate()];
    let new = |config: LoaderConfig| {
        Loader::<Chess>::new((), records.clone(), &config)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        new(LoaderConfig::default().with_history(0)),
        "invalid loader settings: history must be at least 1"
    );
    assert_eq!(
        new(LoaderConfig::default().with_z_weight(1.5)),
        "invalid loader settings: z_weight 1.5 is not in [0, 1]"
    );
    assert_eq!(
        new(LoaderConfig::default().with_checkpoint_interval(0)),
        "invalid loader settings: checkpoint_interval must be at least 1"
    );
    assert_eq!(
        Loader::<Chess>::new((), Vec::new(), &LoaderConfig::default()).unwrap_err(),
        LoaderError::NoGames
    );
    let mut loader = Loader::<Chess>::new((), records, &LoaderConfig::default()).unwrap();
    let mut wrong = Batch::new(4, &EncodingSpec::of(&Chess::new(), 2));
    assert!(matches!(
        loader.fill_batch(&mut wrong),
        Err(LoaderError::BatchShape(_))
    ));
    let mut batch = loader.new_batch(2);
    assert_eq!(
        loader.fill_batch_at(&mut batch, &[0, 6]).unwrap_err(),
        LoaderError::PositionOutOfRange { index: 6, count: 6 }
    );
    assert!(matches!(
        loader.fill_batch_at(&mut batch, &[0]),
        Err(LoaderError::BatchShape(_))
    ));
    batch.values.pop();
    assert!(matches!(
        loader.fill_batch(&mut batch),
        Err(LoaderError::BatchShape(_))
    ));
    // A game with no training positions loads, but cannot be sampled.
    let mut quiet = scholars_mate();
    for step in &mut quiet.steps {
        step.policy.clear();
    }
    let mut loader = Loader::<Chess>::new((), vec![quiet], &LoaderConfig::default()).unwrap();
    assert_eq!(loader.num_positions(), 0);
    let mut batch = loader.new_batch(1);
    assert_eq!(
        loader.fill_batch(&mut batch).unwrap_err(),
        LoaderError::NoPositions
    );
}

/// Point values (x100) of the men on a chess board: White's lead, for
/// `side`. A stand-in for the engine's measure, which this crate cannot
/// name.
fn board_lead(position: &dyn std::any::Any, side: heterodox_env::Color) -> i32 {
    use heterodox_env::Role;
    let points = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        _ => 0,
    };
    let board = position
        .downcast_ref::<Chess>()
        .expect("a chess position")
        .board();
    let lead: i32 = board
        .pieces()
        .map(|(_, piece)| {
            if piece.color == side {
                points(piece.role)
            } else {
                -points(piece.role)
            }
        })
        .sum();
    100 * lead
}

#[test]
fn auxiliary_targets_count_the_steps_left_and_the_final_material() {
    // Scholar's mate: 7 steps, White ends a pawn up (Qxf7#).
    let record = scholars_mate();
    assert_eq!(record.steps.len(), 7);
    let config = LoaderConfig::default().with_material(board_lead);
    let mut loader = Loader::<Chess>::new((), vec![record.clone()], &config).unwrap();
    // Step 1 has no policy (test_policy): the six training positions are
    // steps 0, 2, 3, 4, 5 and 6.
    let steps = [0usize, 2, 3, 4, 5, 6];
    assert_eq!(
        training_steps(std::slice::from_ref(&record)),
        steps.map(|s| (0, s))
    );
    let mut batch = loader.new_batch(6);
    loader
        .fill_batch_at(&mut batch, &[0, 1, 2, 3, 4, 5])
        .unwrap();
    for (k, s) in steps.into_iter().enumerate() {
        assert_eq!(batch.moves_left[k], (7 - s) as f32 / 100.0, "step {s}");
        // The player to act: White at even steps, a pawn ahead at the end.
        let lead = if s % 2 == 0 { 0.1f32 } else { -0.1 };
        assert_eq!(batch.material[k], lead.tanh(), "step {s}");
    }
    // Without a measure the material target is 0.
    let mut plain = Loader::<Chess>::new((), vec![record], &LoaderConfig::default()).unwrap();
    plain
        .fill_batch_at(&mut batch, &[0, 1, 2, 3, 4, 5])
        .unwrap();
    assert!(batch.material.iter().all(|&m| m == 0.0));
    assert_eq!(batch.moves_left[5], 0.01);
}

/// Scholar's mate with a surprise on each training position (0 for two of
/// them: no surprise known).
fn surprised_mate() -> GameRecord {
    let mut record = scholars_mate();
    let surprises = [0.0, 1.0, 3.0, 0.0, 2.0, 6.0];
    let mut k = 0;
    for step in &mut record.steps {
        if !step.policy.is_empty() {
            step.surprise = surprises[k];
            k += 1;
        }
    }
    assert_eq!(k, 6);
    record
}

#[test]
fn surprise_weights_follow_the_formula() {
    let records = vec![surprised_mate()];
    let weights = |lambda: f32| {
        let config = LoaderConfig::default().with_surprise_weight(lambda);
        Loader::<Chess>::new((), records.clone(), &config)
            .unwrap()
            .weights()
    };
    // The known surprises 1, 3, 2, 6 average 3; unknown ones keep 1.
    let expected = [1.0, 0.5 + 0.5 / 3.0, 1.0, 1.0, 0.5 + 0.5 * 2.0 / 3.0, 1.5];
    for (w, e) in weights(0.5).iter().zip(expected) {
        assert!((w - e).abs() < 1e-12, "{w} vs {e}");
    }
    assert_eq!(weights(0.0), [1.0; 6]);
    let full = weights(1.0);
    for (w, e) in full.iter().zip([1.0, 1.0 / 3.0, 1.0, 1.0, 2.0 / 3.0, 2.0]) {
        assert!((w - e).abs() < 1e-12, "{w} vs {e}");
    }
    // The known positions' weights average exactly 1.
    assert!(((full[1] + full[2] + full[4] + full[5]) / 4.0 - 1.0).abs() < 1e-12);
    assert_eq!(
        Loader::<Chess>::new(
            (),
            records,
            &LoaderConfig::default().with_surprise_weight(1.5)
        )
        .unwrap_err()
        .to_string(),
        "invalid loader settings: surprise_weight 1.5 is not in [0, 1]"
    );
}

#[test]
fn surprise_weighted_draws_follow_the_weights() {
    let records = vec![surprised_mate()];
    let config = LoaderConfig::default()
        .with_surprise_weight(1.0)
        .with_seed(5);
    let mut loader = Loader::<Chess>::new((), records.clone(), &config).unwrap();
    // Each position's own row, to recognise the drawn ones.
    let mut each = loader.new_batch(6);
    loader
        .fill_batch_at(&mut each, &[0, 1, 2, 3, 4, 5])
        .unwrap();
    let len = each.observation_len;
    let rows = 6000;
    let mut batch = loader.new_batch(rows);
    loader.fill_batch(&mut batch).unwrap();
    let mut counts = [0usize; 6];
    for r in 0..rows {
        let row = &batch.observations[r * len..(r + 1) * len];
        let k = (0..6)
            .find(|&k| &each.observations[k * len..(k + 1) * len] == row)
            .expect("a drawn row is one of the positions");
        counts[k] += 1;
    }
    // Weights 1, 1/3, 1, 1, 2/3, 2 of 6.
    for (count, weight) in counts
        .iter()
        .zip([1.0, 1.0 / 3.0, 1.0, 1.0, 2.0 / 3.0, 2.0])
    {
        let share = *count as f64 / rows as f64;
        assert!((share - weight / 6.0).abs() < 0.015, "{counts:?}");
    }
    // Uniform draws are unchanged by the setting's existence: λ = 0 gives
    // the rows `below(count)` picks.
    let plain = LoaderConfig::default().with_seed(5);
    let mut uniform = Loader::<Chess>::new((), records.clone(), &plain).unwrap();
    let mut batch = uniform.new_batch(9);
    uniform.fill_batch(&mut batch).unwrap();
    let mut rng = SplitMix64::new(5);
    let picks: Vec<usize> = (0..9).map(|_| rng.below(6)).collect();
    assert_rows::<Chess>(&records, &(), &plain, &picks, &batch);
}
