//! Playout cap randomization and the policy surprise: a share of moves is
//! searched in full and recorded as training positions, the rest cheaply
//! and recorded without a policy; every searched step carries the
//! divergence of its target from the evaluator's prior.

use heterodox_data::GameRecord;
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{Chess, Game, GameVariant};
use heterodox_selfplay::{
    RootPolicy, Search, SearchConfig, SearchError, SelfPlay, SelfPlayConfig, UniformEvaluator,
};

fn config(root_policy: RootPolicy, share: f32, cheap: u32) -> SelfPlayConfig {
    SelfPlayConfig {
        games: 4,
        concurrent: 4,
        max_plies: 40,
        full_search_share: share,
        cheap_simulations: cheap,
        seed: 11,
        search: SearchConfig {
            simulations: 16,
            root_policy,
            determinizations: 2,
            ..SearchConfig::default()
        },
        ..SelfPlayConfig::default()
    }
}

fn play<P: GameVariant>(rules: P::Rules, config: SelfPlayConfig) -> (Vec<GameRecord>, u64) {
    let mut records = Vec::new();
    let stats = SelfPlay::<P>::new(rules, config)
        .unwrap()
        .run(&UniformEvaluator, |record, _| records.push(record));
    records.sort_by_key(|r| r.seed);
    (records, stats.simulations)
}

fn counts(records: &[GameRecord]) -> (u64, u64) {
    let plies = records.iter().map(|r| r.steps.len() as u64).sum();
    let full = records
        .iter()
        .flat_map(|r| &r.steps)
        .filter(|s| !s.policy.is_empty())
        .count() as u64;
    (plies, full)
}

#[test]
fn full_moves_are_trained_on_and_cheap_ones_are_not() {
    for root_policy in [RootPolicy::Puct, RootPolicy::Gumbel] {
        // Every move full: 16 simulations each, every step a position.
        let (records, simulations) = play::<Chess>((), config(root_policy, 1.0, 4));
        let (plies, full) = counts(&records);
        assert_eq!(full, plies);
        assert_eq!(simulations, 16 * plies);
        // None full: 4 simulations each, no position.
        let (records, simulations) = play::<Chess>((), config(root_policy, 0.0, 4));
        let (plies, full) = counts(&records);
        assert_eq!(full, 0);
        assert_eq!(simulations, 4 * plies);
        assert!(records
            .iter()
            .flat_map(|r| &r.steps)
            .all(|s| s.surprise == 0.0));
        // Half: the simulations add up move by move, and about half the
        // moves are positions.
        let (records, simulations) = play::<Chess>((), config(root_policy, 0.5, 4));
        let (plies, full) = counts(&records);
        assert_eq!(simulations, 16 * full + 4 * (plies - full));
        assert!(
            (plies * 3 / 10..=plies * 7 / 10).contains(&full),
            "{full} of {plies}"
        );
        // The same seed, the same games.
        assert_eq!(play::<Chess>((), config(root_policy, 0.5, 4)).0, records);
        // Cheap 0 takes a quarter of the 16.
        let (records, simulations) = play::<Chess>((), config(root_policy, 0.0, 0));
        assert_eq!(simulations, 4 * counts(&records).0);
    }
}

#[test]
fn hidden_information_cheap_moves_keep_one_simulation_per_sampled_state() {
    let rules = TraitorRules::new(Mode::Traitor, Commitment::Impromptu);
    // A cheap budget of 1 is raised to the 2 determinizations.
    let mut cfg = config(RootPolicy::Gumbel, 0.0, 1);
    cfg.max_plies = 12;
    let (records, simulations) = play::<Traitor>(rules, cfg);
    assert_eq!(simulations, 2 * counts(&records).0);
    // A search asked directly for fewer is refused.
    let spec = heterodox_env::encoding::EncodingSpec::of(&Traitor::new(rules).unwrap(), 1);
    let mut search =
        Search::<Traitor>::new(config(RootPolicy::Gumbel, 1.0, 0).search, &spec).unwrap();
    let game = Game::new(Traitor::new(rules).unwrap());
    let error = search.start_cheap(&game, &[], 1, 1).unwrap_err();
    assert!(matches!(error, SearchError::Config(_)));
    assert_eq!(
        error.to_string(),
        "setting cheap_simulations = 1 is out of range (determinizations (1 with perfect information) to 1048576)"
    );
    search.start_cheap(&game, &[], 1, 2).unwrap();
    assert_eq!(search.budget(), 2);
    search.start(&game, &[], 1).unwrap();
    assert_eq!(search.budget(), 16);
}

#[test]
fn a_searched_step_records_its_surprise_from_the_prior() {
    // The uniform evaluator's prior is 1/n over the n legal actions, so the
    // surprise is sum pi ln(pi n).
    let (records, _) = play::<Chess>((), config(RootPolicy::Gumbel, 1.0, 0));
    let mut positive = 0;
    for step in records.iter().flat_map(|r| &r.steps) {
        let n = step.policy.len() as f32;
        let expected: f32 = step
            .policy
            .iter()
            .filter(|(_, p)| *p > 0.0)
            .map(|(_, p)| p * (p * n).ln())
            .sum::<f32>()
            .max(0.0);
        assert!(
            (step.surprise - expected).abs() < 1e-4,
            "{} vs {expected}",
            step.surprise
        );
        positive += usize::from(step.surprise > 0.0);
    }
    assert!(positive > 0);
}

#[test]
fn bad_playout_cap_settings_are_refused() {
    let error = |cfg: SelfPlayConfig| SelfPlay::<Chess>::new((), cfg).err().unwrap().to_string();
    assert_eq!(
        error(config(RootPolicy::Puct, 1.5, 4)),
        "setting full_search_share = 1.5 is out of range (0 to 1)"
    );
    assert_eq!(
        error(config(RootPolicy::Puct, 0.5, 17)),
        "setting cheap_simulations = 17 is out of range (0 to search.simulations)"
    );
}
