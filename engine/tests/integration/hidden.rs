//! Hidden information (Traitor): the engine reads only the searching
//! player's view. Every state consistent with that view (each secret the
//! opponent may hold) gives the same choice, score, line and node count.

use crate::support;

use std::time::Duration;

use heterodox_engine::{Engine, EngineConfig, Limits, SearchReport};
use heterodox_env::traitor::{Commitment, Mode, TraitorRules};
use heterodox_env::{
    Color, Game, HiddenInformation, Position, StateSampler, Traitor, TraitorAction,
};

use support::traitor_after;

fn search(state: &Traitor) -> SearchReport<TraitorAction> {
    let config = EngineConfig {
        hash_mib: 4,
        threads: 1,
        determinizations: 4,
        seed: 17,
        ..EngineConfig::default()
    };
    let mut report = Engine::<Traitor>::new(config)
        .unwrap()
        .search(&Game::new(state.clone()), &Limits::depth(3), |_| {})
        .unwrap();
    report.elapsed = Duration::ZERO;
    report
}

/// The searcher's report is the same whatever secret the opponent holds.
fn same_for_every_secret(state: &Traitor) {
    let searcher = state.turn();
    let view = state.view(searcher);
    let sampler = Traitor::sampler(&view);
    assert!(sampler.len() > 1, "the opponent has a secret to hide");
    let expected = search(state);
    assert!(state.is_legal(&expected.best));
    let mut checked = 0;
    for i in (0..sampler.len()).step_by((sampler.len() / 12).max(1)) {
        let other = sampler.state(i);
        assert_eq!(other.view(searcher), view);
        assert_eq!(search(&other), expected, "secret {i} of {}", sampler.len());
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn standard_white_searches_without_blacks_secret() {
    same_for_every_secret(&traitor_after(
        Commitment::Standard,
        &["S-d8", "S-a1,b1", "e2e4", "e7e5"],
    ));
}

#[test]
fn simplified_black_searches_without_whites_secret() {
    let state = traitor_after(Commitment::Simplified, &["S-NPP", "S-RB", "e2e4"]);
    assert_eq!(state.turn(), Color::Black);
    same_for_every_secret(&state);
}

/// The engine's choice and what its threat guard did, from `state`.
fn guarded_search(state: &Traitor, threat_guard: bool) -> (String, heterodox_engine::ThreatCounts) {
    let config = EngineConfig {
        hash_mib: 4,
        threads: 1,
        determinizations: 4,
        seed: 3,
        threat_guard,
        ..EngineConfig::default()
    };
    let mut engine = Engine::<Traitor>::new(config).unwrap();
    let report = engine
        .search(&Game::new(state.clone()), &Limits::depth(3), |_| {})
        .unwrap();
    (state.notation(&report.best), engine.threat_counts())
}

#[test]
fn the_threat_guard_sets_aside_the_moves_a_possible_traitor_knight_mates_after() {
    // Black announced its a2 traitor (1 point): 8 left, so no queen, but
    // the g1 knight may be Black's, and (T-Ng1)Nf3 mates a King hemmed in
    // by its own men. White has announced its a7 traitor and moves: N:b5
    // wins a pawn and leaves that mate. The four secrets drawn with seed 3
    // hold no g1 and the plain search takes the pawn; the guard checks
    // every secret Black may hold and sets aside the 18 moves that leave
    // a mate, whatever Black holds.
    let state = traitor_after(
        Commitment::Standard,
        &["S-a7", "S-a2,g1", "b1c3", "T-a2", "b7b5", "T-a7"],
    );
    assert_eq!(state.turn(), Color::White);
    let (naive, off) = guarded_search(&state, false);
    assert_eq!(off, heterodox_engine::ThreatCounts::default());
    let (guarded, counts) = guarded_search(&state, true);
    assert_eq!((naive.as_str(), guarded.as_str()), ("N:b5", "e3"));
    assert_eq!(
        (
            counts.checks,
            counts.fired,
            counts.set_aside,
            counts.unavoidable
        ),
        (1, 1, 18, 0)
    );
    // The same choice whatever Black holds.
    let sampler = Traitor::sampler(&state.view(Color::White));
    for k in (0..sampler.len()).step_by(97) {
        assert_eq!(
            guarded_search(&sampler.state(k), true),
            (guarded.clone(), counts)
        );
    }
}

fn selection_search(
    state: &Traitor,
    seed: u64,
    selection_strategy: bool,
) -> SearchReport<TraitorAction> {
    let config = EngineConfig {
        hash_mib: 4,
        seed,
        selection_strategy,
        ..EngineConfig::default()
    };
    Engine::<Traitor>::new(config)
        .unwrap()
        .search(&Game::new(state.clone()), &Limits::depth(2), |_| {})
        .unwrap()
}

#[test]
fn the_secret_is_drawn_from_the_shipped_equilibrium_without_a_search() {
    // Standard Traitor: White's queen traitor mates at once, so White holds
    // it; Black, against a White who did not, holds White's queen.
    let start = traitor_after(Commitment::Standard, &[]);
    let white = selection_search(&start, 0, true);
    assert_eq!(
        (white.best.to_string(), white.nodes, white.depth),
        ("S-d8".to_owned(), 0, 1)
    );
    let searched = selection_search(&start, 0, false);
    assert!(searched.nodes > 0);
    let after = traitor_after(Commitment::Standard, &["S-c8,g8"]);
    let sampler = Traitor::sampler(&after.view(Color::Black));
    for k in (0..sampler.len()).step_by(151) {
        let black = selection_search(&sampler.state(k), 5, true);
        assert_eq!(black.best.to_string(), "S-d1");
    }
    // Past the selections the engine searches.
    let play = traitor_after(Commitment::Standard, &["S-d8", "S-d1"]);
    assert!(selection_search(&play, 0, true).nodes > 0);
}

#[test]
fn a_mixed_equilibrium_is_drawn_by_the_engine_s_seed() {
    // Simplified Defector: White mixes two selections.
    let rules = TraitorRules::new(Mode::Defector, Commitment::Simplified);
    let start = Traitor::new(rules).unwrap();
    let draws: Vec<String> = (0..8)
        .map(|seed| selection_search(&start, seed, true).best.to_string())
        .collect();
    assert_eq!(
        draws,
        [
            "S-BPPPPPP",
            "S-RPPPP",
            "S-RPPPP",
            "S-RPPPP",
            "S-BPPPPPP",
            "S-BPPPPPP",
            "S-BPPPPPP",
            "S-BPPPPPP"
        ]
    );
    assert_eq!(
        draws,
        (0..8)
            .map(|seed| selection_search(&start, seed, true).best.to_string())
            .collect::<Vec<_>>()
    );
}

/// Black's first steps in each state White's view of `position` allows,
/// by Black's secret (the move model's denominators).
fn first_steps_by_secret(position: &Traitor) -> std::collections::HashMap<String, usize> {
    let sampler = Traitor::sampler(&position.view(Color::White));
    let mut steps = Vec::new();
    (0..sampler.len())
        .map(|i| {
            let state = sampler.state(i);
            state.legal_actions(&mut steps);
            (state.secret_text(Color::Black), steps.len())
        })
        .collect()
}

#[test]
fn a_posterior_weighs_each_secret_by_the_steps_it_allowed() {
    use heterodox_engine::hidden::beliefs::Beliefs;
    // Every step scored alike: the move model gives each of the n first
    // steps a secret allows the probability (1 - ε)/n + ε/N (N: the steps
    // any secret allows), so after Black's first step a secret's
    // posterior is that over its sum for all secrets, exactly.
    let noise = heterodox_engine::hidden::beliefs::BELIEF_NOISE;
    let even = |state: &Traitor| {
        let mut steps = Vec::new();
        state.legal_actions(&mut steps);
        steps.into_iter().map(|a| (a, 0)).collect::<Vec<_>>()
    };
    let white_to_move = traitor_after(Commitment::Simplified, &["S-N", "S-RP"]);
    let mut beliefs = Beliefs::<Traitor>::default();
    beliefs.update(&white_to_move, even);
    let uniform = beliefs.report().unwrap();
    assert_eq!(uniform.secrets.len(), 46);
    assert!((uniform.entropy_bits - 46f64.log2()).abs() < 1e-12);
    beliefs.played(white_to_move.parse_step("e2e4").unwrap());
    let black_to_move = traitor_after(Commitment::Simplified, &["S-N", "S-RP", "e2e4"]);
    let counts = first_steps_by_secret(&black_to_move);
    // The queen alone allows T-d1 besides 20 moves; a pawn, any of 8
    // pawns; some secret, any of White's 15 men.
    assert_eq!((counts["Q"], counts["P"], counts["NP"]), (21, 28, 30));
    let union = 20.0 + 15.0;
    let likelihood = |n: usize| (1.0 - noise) / n as f64 + noise / union;

    // A quiet move: every secret stays, weighed by 1/n.
    let quiet = traitor_after(Commitment::Simplified, &["S-N", "S-RP", "e2e4", "e7e5"]);
    beliefs.update(&quiet, even);
    let report = beliefs.report().unwrap();
    assert_eq!((report.turns, report.secrets.len()), (1, 46));
    let total: f64 = counts.values().map(|&n| likelihood(n)).sum();
    for belief in &report.secrets {
        let expected = likelihood(counts[&belief.secret]) / total;
        assert!((belief.probability - expected).abs() < 1e-12, "{belief:?}");
    }
    assert_eq!(
        report.secrets[0].secret, "Q",
        "the fewest steps, the likeliest"
    );

    // An announcement of a knight: only the secrets that held a knight
    // remain, as what is left of them (a knight fewer), each weighed by
    // the steps the whole secret allowed.
    let mut beliefs = Beliefs::<Traitor>::default();
    beliefs.update(&white_to_move, even);
    beliefs.played(white_to_move.parse_step("e2e4").unwrap());
    let announced = traitor_after(
        Commitment::Simplified,
        &["S-N", "S-NP", "e2e4", "T-g1", "g1f3"],
    );
    beliefs.update(&announced, even);
    let report = beliefs.report().unwrap();
    let with_knight: Vec<(&String, &usize)> =
        counts.iter().filter(|(s, _)| s.contains('N')).collect();
    let total: f64 = with_knight.iter().map(|(_, &n)| likelihood(n)).sum();
    let mut weighed = 0;
    for belief in &report.secrets {
        let whole = match belief.secret.as_str() {
            "-" => "N".to_owned(),
            rest => {
                let mut letters: Vec<char> = format!("N{rest}").chars().collect();
                letters.sort_by_key(|c| "QRBNP".find(*c));
                letters.into_iter().collect()
            }
        };
        match counts.get(&whole).filter(|_| whole.contains('N')) {
            Some(&n) => {
                let expected = likelihood(n) / total;
                assert!((belief.probability - expected).abs() < 1e-12, "{belief:?}");
                weighed += 1;
            }
            None => assert_eq!(belief.probability, 0.0, "{belief:?}"),
        }
    }
    assert_eq!(weighed, with_knight.len());
}

/// White's engine's posterior after 1.e4 e5, its own step recorded.
fn beliefs_after_e4_e5(truth: &Traitor) -> heterodox_engine::BeliefReport {
    let config = EngineConfig {
        hash_mib: 4,
        seed: 3,
        ..EngineConfig::default()
    };
    let mut engine = Engine::<Traitor>::new(config).unwrap();
    engine.update_beliefs(truth);
    engine.played(truth.parse_step("e2e4").unwrap());
    let mut after = truth.clone();
    for step in ["e2e4", "e7e5"] {
        after.play(&after.parse_step(step).unwrap()).unwrap();
    }
    let game = Game::new(after);
    let report = engine.search(&game, &Limits::depth(2), |_| {}).unwrap();
    assert!(game.position().is_legal(&report.best));
    engine.beliefs().unwrap()
}

#[test]
fn the_posterior_never_reads_the_true_secret() {
    // Simplified: every one of Black's 46 secrets as the truth, the same
    // public history: the same posterior, to the bit.
    let white_to_move = traitor_after(Commitment::Simplified, &["S-N", "S-RP"]);
    let sampler = Traitor::sampler(&white_to_move.view(Color::White));
    let expected = beliefs_after_e4_e5(&white_to_move);
    assert_eq!(expected.turns, 1);
    for i in 0..sampler.len() {
        assert_eq!(
            beliefs_after_e4_e5(&sampler.state(i)),
            expected,
            "secret {i}"
        );
    }
}

#[test]
fn a_declined_mate_leaves_the_secret_that_had_it_at_the_floor() {
    // Standard: a Black secret holding White's queen mates at once by
    // T-d1 after any White first move; Black played 1...e5 instead. That
    // secret ({d1}: the queen costs the whole budget) keeps only the move
    // model's noise, the floor no secret falls below, against nine times
    // as much for a lone pawn.
    let truth = traitor_after(Commitment::Standard, &["S-d8", "S-a1,b1"]);
    let report = beliefs_after_e4_e5(&truth);
    assert_eq!(report.secrets.len(), 2204);
    let queen = report.secrets.iter().find(|b| b.secret == "d1").unwrap();
    let pawn = report.secrets.iter().find(|b| b.secret == "h2").unwrap();
    let least = report.secrets.last().unwrap();
    assert!(
        queen.probability <= least.probability * (1.0 + 1e-9),
        "{queen:?} {least:?}"
    );
    assert!(queen.probability < 0.8 / 2204.0, "{queen:?}");
    assert!(
        queen.probability * 9.0 < pawn.probability,
        "{queen:?} {pawn:?}"
    );
    assert!(
        report.entropy_bits < 2204f64.log2(),
        "{}",
        report.entropy_bits
    );
}
