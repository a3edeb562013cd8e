//! Hidden information (Traitor): the engine reads only the searching
//! player's view. Every state consistent with that view (each secret the
//! opponent may hold) gives the same choice, score, line and node count.

mod support;

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
