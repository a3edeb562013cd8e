//! The test-only variant (env feature `test-variant`, King of the Hill)
//! through the engine, as env's conformance suite takes it through the
//! rules: registered by its registry line and one line in the engine
//! (`engine/src/eval/kingofthehill.rs`: the generic knowledge), it is
//! evaluated, searched and benchmarked with no list of variants touched.
//! Run: `cargo test --release -p heterodox-engine --features test-variant
//! --lib --test test_variant king_of_the_hill`.

#![cfg(feature = "test-variant")]

use heterodox_engine::{bench, Engine, EngineConfig, Limits, Score};
use heterodox_env::kingofthehill::{reaches_hill, KingOfTheHill};
use heterodox_env::{Game, GameVariant, Position, Variant};

fn engine() -> Engine<KingOfTheHill> {
    Engine::new(EngineConfig {
        hash_mib: 4,
        threads: 1,
        ..EngineConfig::default()
    })
    .unwrap()
}

#[test]
fn king_of_the_hill_is_searched() {
    let game = Game::new(KingOfTheHill::new());
    let report = engine().search(&game, &Limits::depth(3), |_| {}).unwrap();
    assert!(game.position().is_legal(&report.best));
    // A King one step from the hill: the rules' win is the search's mate.
    let game = Game::new(KingOfTheHill::from_fen("4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap());
    let report = engine().search(&game, &Limits::depth(2), |_| {}).unwrap();
    assert!(reaches_hill(&report.best), "{}", report.best);
    assert_eq!(report.score, Score::Mate(1));
}

#[test]
fn king_of_the_hill_is_benchmarked_from_its_start_position() {
    let variant = KingOfTheHill::VARIANT;
    assert_eq!(bench::positions(variant), [None]);
    let results = bench::run(2).unwrap();
    let listed: Vec<(Variant, usize)> = results.iter().map(|r| (r.variant, r.positions)).collect();
    // Every registered variant, its start position and the positions its
    // evaluation module lists.
    assert_eq!(
        listed,
        [
            (Variant::Chess, 6),
            (Variant::Poison, 4),
            (Variant::Hostage, 3),
            (Variant::MadScientist, 3),
            (Variant::Traitor, 3),
            (variant, 1),
        ]
    );
    assert!(results.iter().all(|r| r.nodes > 0));
}
