//! Self-play workers: records replay through the rules, targets are
//! distributions over the legal actions, results match the rules, the same
//! seed gives the same games, and the hidden-information search reads only
//! the searcher's view.

use heterodox_data::{GameRecord, GameResult, RESIGNATION};
use heterodox_env::encoding::{ActionSet, EncodingSpec};
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{
    Chess, Color, Game, GameVariant, HiddenInformation, Position, StateSampler, Variant,
    VariantVisitor,
};
use heterodox_selfplay::{
    LeafBatch, ResignConfig, RolloutEvaluator, RootPolicy, Search, SearchConfig, SelfPlay,
    SelfPlayConfig, UniformEvaluator,
};

fn small(root_policy: RootPolicy) -> SelfPlayConfig {
    SelfPlayConfig {
        games: 6,
        concurrent: 4,
        pipeline: 1,
        max_plies: 60,
        temperature_plies: 10,
        opening_plies: 0,
        full_search_share: 1.0,
        cheap_simulations: 0,
        seed: 3,
        history: 1,
        search: SearchConfig {
            simulations: 16,
            root_policy,
            determinizations: 2,
            ..SearchConfig::default()
        },
        resign: ResignConfig::default(),
    }
}

/// Replays a record through the rules and checks every step.
fn replay<P: GameVariant>(rules: &P::Rules, record: &GameRecord) {
    let mut game = Game::new(P::start(rules, record.seed).unwrap());
    let mut set = ActionSet::<P>::new(game.position().num_actions());
    for (ply, step) in record.steps.iter().enumerate() {
        assert!(set.generate(game.position()).is_none(), "ply {ply}");
        let total: f32 = step.policy.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-4, "ply {ply}: {total}");
        assert_eq!(step.policy.len(), set.len(), "ply {ply}");
        for (index, _) in &step.policy {
            assert!(set.action_of(*index as usize).is_some());
        }
        assert!((-1.0..=1.0).contains(&step.root_value));
        let action = set.action_of(step.action as usize).expect("a legal action");
        game.play(&action).unwrap();
    }
    match game.outcome() {
        Some(outcome) => {
            assert_eq!(record.result, GameResult::from_outcome(outcome));
            assert_eq!(record.termination, outcome.termination().name());
        }
        None => {
            assert_eq!(record.result, GameResult::Truncated);
            assert_eq!(game.plies(), 60);
        }
    }
}

struct Run(RootPolicy);

impl VariantVisitor for Run {
    type Output = Vec<GameRecord>;

    fn visit<P: GameVariant>(self) -> Vec<GameRecord> {
        let rules = P::parse_rules(&Default::default()).unwrap();
        let run = SelfPlay::<P>::new(rules.clone(), small(self.0)).unwrap();
        let mut records = Vec::new();
        let stats = run.run(&UniformEvaluator, |record, _| records.push(record));
        assert_eq!(stats.games, 6);
        // Every move's search ran its 16 simulations: leaves evaluated and
        // descents that ended in a finished game.
        assert_eq!(stats.simulations, stats.positions * 16);
        assert_eq!(
            stats.positions,
            records.iter().map(|r| r.steps.len() as u64).sum::<u64>()
        );
        for record in &records {
            replay::<P>(&rules, record);
        }
        records
    }
}

#[test]
fn every_variant_plays_recordable_games_with_both_root_policies() {
    for variant in Variant::ALL {
        for policy in [RootPolicy::Puct, RootPolicy::Gumbel] {
            let records = variant.visit(Run(policy));
            assert_eq!(records.len(), 6, "{variant}");
        }
    }
}

#[test]
fn same_seed_same_games() {
    let first = Variant::Hostage.visit(Run(RootPolicy::Puct));
    let again = Variant::Hostage.visit(Run(RootPolicy::Puct));
    assert_eq!(first, again);
    let mut seeds: Vec<u64> = first.iter().map(|r| r.seed).collect();
    seeds.sort();
    seeds.dedup();
    assert_eq!(seeds.len(), 6);
}

/// Plays a chess record's steps from its start, each one checked legal.
fn replay_chess(record: &GameRecord) -> Game<Chess> {
    let mut game = Game::new(Chess::start(&(), record.seed).unwrap());
    let mut set = ActionSet::<Chess>::new(heterodox_env::encoding::Encoding::num_actions(
        game.position(),
    ));
    for step in &record.steps {
        set.generate(game.position());
        game.play(&set.action_of(step.action as usize).unwrap())
            .unwrap();
    }
    game
}

/// Chess self-play whose games open with up to 6 random plies.
fn opening_run() -> (Vec<GameRecord>, heterodox_selfplay::SelfPlayStats) {
    let config = SelfPlayConfig {
        games: 8,
        opening_plies: 6,
        ..small(RootPolicy::Gumbel)
    };
    let run = SelfPlay::<Chess>::new((), config).unwrap();
    let mut records = Vec::new();
    let stats = run.run(&UniformEvaluator, |record, _| records.push(record));
    records.sort_by_key(|r| r.seed);
    (records, stats)
}

#[test]
fn games_open_with_random_plies_that_are_not_training_positions() {
    let (records, stats) = opening_run();
    let mut openings = Vec::new();
    for record in &records {
        // The opening is a prefix of steps without a policy; every later
        // step was searched.
        let opening = record
            .steps
            .iter()
            .take_while(|s| s.policy.is_empty())
            .count();
        assert!(record.steps[opening..].iter().all(|s| !s.policy.is_empty()));
        openings.push(opening);
        // Every step, opening included, is a legal action in turn.
        replay_chess(record);
    }
    // 0 to 6 plies each, drawn per game from its seed.
    assert_eq!(openings, [4, 6, 5, 5, 6, 1, 1, 5]);
    let searched: usize = records
        .iter()
        .map(|r| r.steps.iter().filter(|s| !s.policy.is_empty()).count())
        .sum();
    assert_eq!(stats.positions, searched as u64);
    let plies: usize = records.iter().map(|r| r.steps.len()).sum();
    assert_eq!(stats.plies, plies as u64);
    assert_eq!(stats.average_length(), plies as f64 / 8.0);
    assert_eq!(stats.simulations, stats.positions * 16);
    // Same seed, same openings and games.
    assert_eq!(opening_run().0, records);
}

#[test]
fn opening_plies_are_bounded() {
    let config = SelfPlayConfig {
        opening_plies: 1001,
        ..small(RootPolicy::Gumbel)
    };
    let error = SelfPlay::<Chess>::new((), config).err().unwrap();
    assert_eq!(
        error.to_string(),
        "setting opening_plies = 1001 is out of range (0 to 1000)"
    );
}

/// Chess self-play with the rollout evaluator under `resign`.
fn resigning_run(resign: ResignConfig) -> (Vec<GameRecord>, heterodox_selfplay::SelfPlayStats) {
    let config = SelfPlayConfig {
        games: 8,
        resign,
        ..small(RootPolicy::Gumbel)
    };
    let run = SelfPlay::<Chess>::new((), config).unwrap();
    let mut records = Vec::new();
    let stats = run.run(
        &RolloutEvaluator {
            rollouts: 1,
            max_plies: 40,
            seed: 5,
        },
        |record, _| records.push(record),
    );
    (records, stats)
}

#[test]
fn a_side_resigns_instead_of_moving_and_loses() {
    let resign = ResignConfig {
        threshold: 0.1,
        moves: 2,
        no_resign_fraction: 0.0,
    };
    let (records, stats) = resigning_run(resign.clone());
    let resigned: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.termination == RESIGNATION)
        .collect();
    assert!(!resigned.is_empty());
    assert_eq!(stats.resigned as usize, resigned.len());
    assert_eq!(stats.resign_checks, 0);
    for record in resigned {
        // The record stops before the step the loser would have played:
        // the side to move at its end is the one that resigned.
        let game = replay_chess(record);
        assert!(game.outcome().is_none());
        let loser = game.position().turn();
        assert_eq!(record.result.value_for(loser), -1.0);
        // Its own last searched step valued it at -0.1 or worse.
        let own: Vec<f32> = record
            .steps
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .take(1)
            .map(|s| s.root_value)
            .collect();
        assert!(own.iter().all(|&v| v <= -0.1), "{own:?}");
    }
    // Same seed, same games.
    assert_eq!(resigning_run(resign).0, records);
}

#[test]
fn no_resign_games_count_the_resignations_that_would_have_been_wrong() {
    let (records, stats) = resigning_run(ResignConfig {
        threshold: 0.1,
        moves: 2,
        no_resign_fraction: 1.0,
    });
    assert!(records.iter().all(|r| r.termination != RESIGNATION));
    assert_eq!(stats.resigned, 0);
    assert!(stats.resign_checks > 0);
    assert!(stats.false_resignations <= stats.resign_checks);
}

/// The searcher's visits, target and choice, for one true state.
/// One search from `state` with the rollout evaluator: visits, policy,
/// best action and value, for comparing whole searches.
type SearchSummary = (Vec<u32>, Vec<f32>, usize, f32);

fn rollout_search<P: GameVariant>(
    state: &P,
    config: SearchConfig,
    seed: u64,
    evaluator: &RolloutEvaluator,
) -> SearchSummary {
    let spec = EncodingSpec::of(state, 1);
    let mut search = Search::<P>::new(config, &spec).unwrap();
    let mut batch = LeafBatch::new(&spec);
    search.start(&Game::new(state.clone()), &[], seed).unwrap();
    let result = search.run(evaluator, &mut batch);
    (result.visits, result.policy, result.best, result.value)
}

fn search_traitor(state: &Traitor, root_policy: RootPolicy, probes: bool) -> SearchSummary {
    let config = SearchConfig {
        simulations: 64,
        root_policy,
        determinizations: 4,
        immediate_wins: probes,
        avoid_losses_in_one: probes,
        ..SearchConfig::default()
    };
    let evaluator = RolloutEvaluator {
        rollouts: 1,
        max_plies: 40,
        seed: 5,
    };
    rollout_search(state, config, 99, &evaluator)
}

#[test]
fn hidden_information_search_reads_only_the_view() {
    for (commitment, white, black) in [
        (Commitment::Simplified, "S-NPP", "S-RB"),
        (Commitment::Standard, "S-d8", "S-a1,b1"),
    ] {
        let mut p = Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap();
        for step in [white, black, "e2e4", "e7e5"] {
            let action = p.parse_step(step).unwrap();
            p.play(&action).unwrap();
        }
        // White searches; Black's secret is hidden from it. Every secret
        // consistent with White's view must give the same search.
        let view = p.view(Color::White);
        let sampler = Traitor::sampler(&view);
        assert!(sampler.len() > 1);
        // The probes for wins and losses in one play the sampled states
        // too, never the true one.
        for policy in [RootPolicy::Puct, RootPolicy::Gumbel] {
            for probes in [false, true] {
                let expected = search_traitor(&p, policy, probes);
                for i in (0..sampler.len()).step_by((sampler.len() / 25).max(1)) {
                    let other = sampler.state(i);
                    assert_eq!(other.view(Color::White), view);
                    assert_eq!(
                        search_traitor(&other, policy, probes),
                        expected,
                        "secret {i}"
                    );
                }
            }
        }
    }
}

/// The rollout evaluator plays a batch's playouts in parallel; each leaf's
/// value depends only on its position and the seed, so one thread and
/// four give the same search, visit for visit.
#[test]
fn rollout_search_is_the_same_on_any_number_of_threads() {
    let state = heterodox_env::Chess::start(&(), 0).unwrap();
    let config = SearchConfig {
        simulations: 96,
        leaves_per_round: 32,
        root_policy: RootPolicy::Puct,
        ..SearchConfig::default()
    };
    let evaluator = RolloutEvaluator {
        rollouts: 2,
        max_plies: 60,
        seed: 11,
    };
    let search_on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| rollout_search(&state, config.clone(), 7, &evaluator))
    };
    let one = search_on(1);
    assert_eq!(one.0.iter().sum::<u32>(), 96);
    assert_eq!(search_on(4), one);
}

/// 12 games, 6 at once, split into `pipeline` groups: the records sorted
/// by seed (the order in which games finish may differ) and the totals.
fn pipelined_run<P: GameVariant>(
    rules: &P::Rules,
    root_policy: RootPolicy,
    pipeline: u32,
    evaluator: &dyn heterodox_selfplay::Evaluator<P>,
) -> (Vec<GameRecord>, heterodox_selfplay::SelfPlayStats) {
    let config = SelfPlayConfig {
        games: 12,
        concurrent: 6,
        pipeline,
        opening_plies: 4,
        ..small(root_policy)
    };
    let run = SelfPlay::<P>::new(rules.clone(), config).unwrap();
    let mut records = Vec::new();
    let stats = run.run(evaluator, |record, so_far| {
        // The totals handed out with each game count it.
        assert_eq!(so_far.games as usize, records.len() + 1);
        records.push(record);
    });
    records.sort_by_key(|r| r.seed);
    (records, stats)
}

/// The totals that do not depend on timing.
fn totals(stats: &heterodox_selfplay::SelfPlayStats) -> [u64; 11] {
    [
        u64::from(stats.games),
        stats.positions,
        stats.plies,
        stats.simulations,
        stats.evaluations,
        u64::from(stats.white_wins),
        u64::from(stats.black_wins),
        u64::from(stats.draws),
        u64::from(stats.truncated),
        u64::from(stats.resigned),
        u64::from(stats.resign_checks),
    ]
}

struct PipelineMatches;

impl VariantVisitor for PipelineMatches {
    type Output = ();

    fn visit<P: GameVariant>(self) {
        let rules = P::parse_rules(&Default::default()).unwrap();
        let rollout = RolloutEvaluator {
            rollouts: 1,
            max_plies: 30,
            seed: 5,
        };
        let evaluators: [(&str, &dyn heterodox_selfplay::Evaluator<P>); 2] =
            [("uniform", &UniformEvaluator), ("rollout", &rollout)];
        for (name, evaluator) in evaluators {
            for policy in [RootPolicy::Puct, RootPolicy::Gumbel] {
                let (one, one_stats) = pipelined_run::<P>(&rules, policy, 1, evaluator);
                assert_eq!(one.len(), 12);
                assert_eq!(one_stats.simulations, one_stats.positions * 16);
                for pipeline in [2, 3, 6] {
                    let (many, stats) = pipelined_run::<P>(&rules, policy, pipeline, evaluator);
                    let what = format!("{} {name} {policy:?} pipeline {pipeline}", P::VARIANT);
                    // Every step: action, policy target, root value.
                    assert_eq!(many, one, "{what}");
                    assert_eq!(totals(&stats), totals(&one_stats), "{what}");
                }
            }
        }
    }
}

#[test]
fn pipelined_self_play_plays_the_same_games() {
    // Traitor's search is determinized: its samples too are seeded by the
    // game alone.
    for variant in Variant::ALL {
        variant.visit(PipelineMatches);
    }
}

#[test]
fn pipeline_is_between_one_and_concurrent() {
    for (pipeline, concurrent, expected) in [
        (0, 4, "setting pipeline = 0 is out of range (1 to 8)"),
        (9, 16, "setting pipeline = 9 is out of range (1 to 8)"),
        (
            5,
            4,
            "setting pipeline = 5 is out of range (at most concurrent)",
        ),
    ] {
        let config = SelfPlayConfig {
            pipeline,
            concurrent,
            ..small(RootPolicy::Gumbel)
        };
        let error = SelfPlay::<Chess>::new((), config).err().unwrap();
        assert_eq!(error.to_string(), expected);
    }
    // More groups than games at once is refused; more than games is not
    // (the run has at most `games` slots and as many groups as slots).
    let config = SelfPlayConfig {
        games: 2,
        concurrent: 4,
        pipeline: 4,
        ..small(RootPolicy::Gumbel)
    };
    let run = SelfPlay::<Chess>::new((), config).unwrap();
    let stats = run.run(&UniformEvaluator, |_, _| {});
    assert_eq!(stats.games, 2);
}

/// Panics on its third batch.
struct FailingEvaluator(std::sync::atomic::AtomicU32);

impl<P: GameVariant> heterodox_selfplay::Evaluator<P> for FailingEvaluator {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        if self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 2 {
            panic!("the device is gone");
        }
        UniformEvaluator.evaluate(batch, priors, values);
    }
}

#[test]
#[should_panic(expected = "the device is gone")]
fn a_panic_on_the_evaluating_thread_reaches_the_caller() {
    let config = SelfPlayConfig {
        pipeline: 2,
        ..small(RootPolicy::Gumbel)
    };
    let run = SelfPlay::<Chess>::new((), config).unwrap();
    run.run(&FailingEvaluator(Default::default()), |_, _| {});
}
