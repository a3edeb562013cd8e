//! Helpers shared by the engine's tests: an exhaustive mate search by the
//! rules alone (no engine code), and engine set-up.

#![allow(dead_code)]

use heterodox_engine::{Engine, EngineConfig, Limits, SearchReport};
use heterodox_env::traitor::{Commitment, Mode, TraitorRules};
use heterodox_env::{Color, Game, GameVariant, Position, Traitor};

/// True when `winner` can force a win within `plies` steps from `pos`
/// (both players' steps counted), by trying every legal action: the
/// definition of a forced mate, independent of the engine. Single-step
/// turns only (chess, Hostage, Poison).
pub fn forced_win<P: Position>(pos: &P, plies: u32, winner: Color) -> bool {
    if let Some(outcome) = pos.outcome() {
        return outcome.winner() == Some(winner);
    }
    if plies == 0 {
        return false;
    }
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    if pos.turn() == winner && plies > 1 {
        // Forcing actions (fewest replies) first: the proof is the same,
        // found sooner.
        actions.sort_by_cached_key(|a| {
            let mut child = pos.clone();
            child.play_unchecked(a);
            child.count_legal_actions()
        });
    }
    let next = |action: &P::Action| {
        let mut child = pos.clone();
        child.play_unchecked(action);
        forced_win(&child, plies - 1, winner)
    };
    if pos.turn() == winner {
        actions.iter().any(&next)
    } else {
        actions.iter().all(next)
    }
}

/// The shortest forced mate for the side to act, in moves, up to `max`
/// (`None` when there is none that short).
pub fn shortest_mate<P: Position>(pos: &P, max: u32) -> Option<u32> {
    let winner = pos.turn();
    (1..=max).find(|&moves| forced_win(pos, 2 * moves - 1, winner))
}

/// The actions that force a win in `moves` moves.
pub fn mating_actions<P: Position>(pos: &P, moves: u32) -> Vec<P::Action> {
    let winner = pos.turn();
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    actions
        .into_iter()
        .filter(|a| {
            let mut child = pos.clone();
            child.play_unchecked(a);
            forced_win(&child, 2 * moves - 2, winner)
        })
        .collect()
}

/// A fresh engine with `hash_mib` MiB of table, one thread.
pub fn engine<P: GameVariant>(hash_mib: u64) -> Engine<P> {
    Engine::new(EngineConfig {
        hash_mib,
        ..EngineConfig::default()
    })
    .unwrap()
}

/// A search of `pos` to `depth` by a fresh engine.
pub fn search<P: GameVariant>(pos: &P, depth: u32) -> SearchReport<P::Action> {
    engine::<P>(4)
        .search(&Game::new(pos.clone()), &Limits::depth(depth), |_| {})
        .unwrap()
}

/// Traitor (mode traitor) under `commitment` after `steps`, each in the
/// variant's notation (`S-d8` selects, `(T-Qd8)` announces).
pub fn traitor_after(commitment: Commitment, steps: &[&str]) -> Traitor {
    let mut pos = Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap();
    for step in steps {
        let action = pos.parse_step(step).unwrap();
        pos.play(&action).unwrap();
    }
    pos
}
