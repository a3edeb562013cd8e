//! Helpers shared by the per-variant encoding tests: look up an action's
//! index from its notation, encode an observation (checking every float is
//! written), and read planes by channel name.

#![allow(dead_code)] // each test file uses a subset

use heterodox_env::encoding::Encoding;
use heterodox_env::{Color, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays one seeded random game per seed (the game of seed `s` starts from
/// `start(s)` and draws its actions with a ChaCha8 generator seeded with
/// `s`) for at most `ply_cap` plies, and checks in every position reached
/// that the legal actions have distinct indices inside the action space.
/// `tally(action, index)` sees every legal action (to count which parts of
/// the space were exercised). Returns the number of positions checked.
pub fn check_index_bijection<P: Encoding>(
    seeds: impl IntoIterator<Item = u64>,
    start: impl Fn(u64) -> P,
    ply_cap: u32,
    mut tally: impl FnMut(&P::Action, usize),
) -> usize {
    let mut actions = Vec::new();
    let mut owner: Vec<Option<P::Action>> = Vec::new();
    let mut positions = 0;
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(start(seed));
        while game.plies() < ply_cap {
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            let pos = game.position();
            owner.resize(pos.num_actions(), None);
            for action in &actions {
                let i = pos.action_index(action);
                assert!(i < pos.num_actions(), "{action} -> {i} in {}", pos.fen());
                if let Some(other) = owner[i] {
                    panic!("{action} and {other} share index {i} in {}", pos.fen());
                }
                owner[i] = Some(*action);
                tally(action, i);
            }
            for action in &actions {
                owner[pos.action_index(action)] = None;
            }
            positions += 1;
            let action = actions[rng.random_range(0..actions.len())];
            game.play(&action).unwrap();
        }
    }
    positions
}

/// [`check_index_bijection`], tallying the legal actions by `kind` (one of
/// `K` parts of the action space) and asserting that every part was
/// exercised. Returns the number of positions checked.
pub fn check_index_bijection_by_kind<P: Encoding, const K: usize>(
    seeds: impl IntoIterator<Item = u64>,
    start: impl Fn(u64) -> P,
    ply_cap: u32,
    kind: impl Fn(&P::Action) -> usize,
) -> usize {
    let mut kinds = [0usize; K];
    let positions = check_index_bijection(seeds, start, ply_cap, |action, _| {
        kinds[kind(action)] += 1;
    });
    println!("{positions} positions, kinds {kinds:?}");
    assert!(kinds.iter().all(|k| *k > 0), "{kinds:?}");
    positions
}

/// The index of the legal action written `text` in `pos`.
pub fn index<P: Encoding>(pos: &P, text: &str) -> usize {
    let action = pos
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
    assert!(pos.is_legal(&action), "{text} in {}", pos.fen());
    pos.action_index(&action)
}

/// The AlphaZero move planes at the start position `pos` (White to act):
/// e2e4 is queen-like north, distance 2 (plane 1) from e2 = 12; g1f3 the
/// knight jump (-1, +2), plane 56 + 7 from g1 = 6. After e2e4, Black's
/// e7e5 and g8f6, seen from its side, have the same indices.
pub fn check_fide_start_indices<P: Encoding>(mut pos: P) {
    assert_eq!(index(&pos, "e2e4"), 64 + 12);
    assert_eq!(index(&pos, "g1f3"), 63 * 64 + 6);
    pos.play(&pos.parse_action("e2e4").unwrap()).unwrap();
    assert_eq!(index(&pos, "e7e5"), 64 + 12);
    assert_eq!(index(&pos, "g8f6"), 63 * 64 + 6);
}

/// Castling on the AlphaZero move planes is the king's two-square step:
/// east 2 (plane 15) and west 2 (plane 43) from e1 = 4 in `white` (White
/// to act, both castlings legal); Black's the same from its side in
/// `black`.
pub fn check_fide_castling_indices<P: Encoding>(white: &P, black: &P) {
    assert_eq!(index(white, "e1g1"), 15 * 64 + 4);
    assert_eq!(index(white, "e1c1"), 43 * 64 + 4);
    assert_eq!(index(black, "e8g8"), 15 * 64 + 4);
    assert_eq!(index(black, "e8c8"), 43 * 64 + 4);
}

/// The observation of `pos` for `observer`. The buffer starts as NaN
/// everywhere, so a float `encode` forgot to write fails the check.
pub fn observation<P: Encoding>(pos: &P, observer: Color) -> Vec<f32> {
    let mut out = vec![f32::NAN; pos.num_channels() * 64];
    pos.encode(observer, &mut out);
    assert!(out.iter().all(|x| x.is_finite()), "{}", pos.fen());
    out
}

/// The plane of channel `name` in an observation of `pos`.
pub fn plane<'a, P: Encoding>(pos: &P, obs: &'a [f32], name: &str) -> &'a [f32] {
    let c = pos
        .channel_names()
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no channel {name}"));
    &obs[c * 64..(c + 1) * 64]
}

/// The squares (indices) where a plane is non-zero, with their values.
pub fn nonzero(plane: &[f32]) -> Vec<(usize, f32)> {
    plane
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0.0)
        .map(|(i, v)| (i, *v))
        .collect()
}

/// The value of a constant plane (asserting that it is constant).
pub fn constant(plane: &[f32]) -> f32 {
    assert!(plane.iter().all(|v| *v == plane[0]), "not constant");
    plane[0]
}

/// The squares (indices) where a plane is non-zero.
pub fn nonzero_squares(plane: &[f32]) -> Vec<usize> {
    nonzero(plane).into_iter().map(|(i, _)| i).collect()
}

/// The value of channel `name`, a constant plane, in an observation of `pos`.
pub fn constant_of<P: Encoding>(pos: &P, obs: &[f32], name: &str) -> f32 {
    constant(plane(pos, obs, name))
}

/// The two side planes of the Mad Scientist and Traitor observations:
/// `observer_to_act` is 1 exactly when `observer` is to act in `pos`, and
/// `observer_is_black` 1 exactly when `observer` is Black.
pub fn check_side_planes<P: Encoding>(pos: &P, obs: &[f32], observer: Color) {
    let one_if = |holds: bool| f32::from(u8::from(holds));
    assert_eq!(
        constant_of(pos, obs, "observer_to_act"),
        one_if(observer == pos.turn()),
        "{observer:?}"
    );
    assert_eq!(
        constant_of(pos, obs, "observer_is_black"),
        one_if(observer == Color::Black),
        "{observer:?}"
    );
}
