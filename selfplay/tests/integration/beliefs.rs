//! Beliefs at the root of the tree search (`SearchConfig::beliefs`,
//! agents' `/beliefs`): under hidden information the roots are drawn from
//! the engine's posterior over the opponent's secret instead of
//! uniformly. The posterior is the engine's to the bit, it never reads
//! the true secret, and the roots follow it.

use heterodox_engine::{BeliefReport, Engine, EngineConfig};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{Color, Game, HiddenInformation, Position, StateSampler};
use heterodox_selfplay::agent::AgentSpec;
use heterodox_selfplay::{LeafBatch, Search, SearchConfig, UniformEvaluator};

fn traitor_after(commitment: Commitment, steps: &[&str]) -> Traitor {
    let mut position = Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap();
    for step in steps {
        position.play(&position.parse_step(step).unwrap()).unwrap();
    }
    position
}

fn config(beliefs: bool) -> SearchConfig {
    SearchConfig {
        simulations: 64,
        determinizations: 64,
        beliefs,
        ..SearchConfig::default()
    }
}

/// White searches the position `truth` (both secrets chosen), plays 1.e4,
/// Black answers 1...e5 and White searches again: the search after it.
fn search_after_e4_e5(truth: &Traitor, beliefs: bool) -> (Search<Traitor>, Traitor) {
    let spec = EncodingSpec::of(truth, 1);
    let mut search = Search::<Traitor>::new(config(beliefs), &spec).unwrap();
    let mut batch = LeafBatch::new(&spec);
    search.start(&Game::new(truth.clone()), &[], 7).unwrap();
    search.run(&UniformEvaluator, &mut batch);
    // White plays 1.e4 whatever its search chose.
    search.played(truth.parse_step("e2e4").unwrap());
    let mut after = truth.clone();
    for step in ["e2e4", "e7e5"] {
        after.play(&after.parse_step(step).unwrap()).unwrap();
    }
    search.start(&Game::new(after.clone()), &[], 8).unwrap();
    search.run(&UniformEvaluator, &mut batch);
    (search, after)
}

/// The engine's posterior over the same history, from an engine set up as
/// the search's believer is.
fn engine_beliefs(truth: &Traitor, after: &Traitor) -> BeliefReport {
    let mut engine = Engine::<Traitor>::new(EngineConfig {
        hash_mib: 1,
        threads: 1,
        ..EngineConfig::default()
    })
    .unwrap();
    engine.update_beliefs(truth);
    engine.played(truth.parse_step("e2e4").unwrap());
    engine.update_beliefs(after);
    engine.beliefs().unwrap()
}

#[test]
fn the_search_keeps_the_engines_posterior() {
    // Standard: Black's secret holding White's queen (d1) would have mated
    // at once by T-d1; Black played 1...e5. The search's posterior is the
    // engine's, and that secret sits at the floor.
    let truth = traitor_after(Commitment::Standard, &["S-d8", "S-a1,b1"]);
    let (search, after) = search_after_e4_e5(&truth, true);
    let report = search.beliefs().unwrap();
    assert_eq!(report, engine_beliefs(&truth, &after));
    assert_eq!(report.observer, Color::White);
    assert_eq!(report.turns, 1);
    assert_eq!(report.secrets.len(), 2204);
    let least = report.secrets.last().unwrap().probability;
    let queen = report.secrets.iter().find(|b| b.secret == "d1").unwrap();
    assert!(queen.probability <= least * (1.0 + 1e-9), "{queen:?}");
    // Without beliefs the search keeps none.
    assert_eq!(search_after_e4_e5(&truth, false).0.beliefs(), None);
}

#[test]
fn the_roots_are_drawn_from_the_posterior() {
    // 64 roots after 1.e4 e5: none holds the declined queen, and the
    // secrets drawn are on average likelier than uniform; without beliefs
    // they are drawn uniformly (and the queen is as likely as any other).
    let truth = traitor_after(Commitment::Standard, &["S-d8", "S-a1,b1"]);
    let (search, _) = search_after_e4_e5(&truth, true);
    let report = search.beliefs().unwrap();
    let probability = |secret: &str| {
        report
            .secrets
            .iter()
            .find(|b| b.secret == secret)
            .unwrap()
            .probability
    };
    let drawn: Vec<String> = search
        .roots()
        .map(|root| root.secret_text(Color::Black))
        .collect();
    assert_eq!(drawn.len(), 64);
    assert!(!drawn.iter().any(|s| s == "d1"), "{drawn:?}");
    let mean = drawn.iter().map(|s| probability(s)).sum::<f64>() / 64.0;
    assert!(mean > 1.5 / 2204.0, "mean posterior of the roots {mean}");
    // The roots are consistent with White's view, and the same seed
    // draws the same roots.
    let view = search.roots().next().unwrap().view(Color::White);
    assert!(search.roots().all(|root| root.view(Color::White) == view));
    let (again, _) = search_after_e4_e5(&truth, true);
    let secrets = |s: &Search<Traitor>| -> Vec<String> {
        s.roots().map(|r| r.secret_text(Color::Black)).collect()
    };
    assert_eq!(secrets(&again), drawn);
    let (uniform, _) = search_after_e4_e5(&truth, false);
    let uniform_mean = secrets(&uniform)
        .iter()
        .map(|s| probability(s))
        .sum::<f64>()
        / 64.0;
    assert!(uniform_mean < mean, "{uniform_mean} {mean}");
}

#[test]
fn the_posterior_and_the_search_never_read_the_true_secret() {
    // Simplified: each of Black's 46 secrets as the truth, the same public
    // history: the same posterior, the same roots, the same visits.
    let truth = traitor_after(Commitment::Simplified, &["S-N", "S-RP"]);
    let sampler = Traitor::sampler(&truth.view(Color::White));
    assert_eq!(sampler.len(), 46);
    let outcome = |state: &Traitor| {
        let (mut search, _) = search_after_e4_e5(state, true);
        let roots: Vec<Traitor> = search.roots().cloned().collect();
        let visits = search.result().visits;
        (search.beliefs().unwrap(), roots, visits)
    };
    let expected = outcome(&truth);
    assert_eq!(expected.0.turns, 1);
    for i in 0..sampler.len() {
        assert_eq!(outcome(&sampler.state(i)), expected, "secret {i}");
    }
}

#[test]
fn agents_ask_for_beliefs_last() {
    let spec: AgentSpec = "rollout@64/puct/beliefs".parse().unwrap();
    assert!(spec.beliefs);
    assert_eq!(spec.to_string(), "rollout@64/puct/beliefs");
    assert!(
        spec.search_config(&SearchConfig::default())
            .unwrap()
            .beliefs
    );
    let plain: AgentSpec = "rollout@64".parse().unwrap();
    assert!(
        !plain
            .search_config(&SearchConfig::default())
            .unwrap()
            .beliefs
    );
    let spec: AgentSpec = "zoo:traitor@32/quiescence/beliefs".parse().unwrap();
    assert_eq!(spec.to_string(), "zoo:traitor@32/quiescence/beliefs");
    for (text, reason) in [
        ("ab@3/beliefs", "/beliefs is for searches"),
        ("greedy/beliefs", "/beliefs is for searches"),
        ("rollout@64/beliefs/puct", "what follows the simulations"),
    ] {
        let error = text.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(error.contains(reason), "{text}: {error}");
    }
}
