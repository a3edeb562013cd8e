//! Hidden information (Traitor): the engine reads only the searching
//! player's view. Every state consistent with that view (each secret the
//! opponent may hold) gives the same choice, score, line and node count.

mod support;

use std::time::Duration;

use heterodox_engine::{Engine, EngineConfig, Limits, SearchReport};
use heterodox_env::traitor::Commitment;
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
