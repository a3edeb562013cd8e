//! Game records for tests and benchmarks: from move texts, or random legal
//! games, each step with a uniform policy over the legal actions.

#![allow(dead_code)]

use heterodox_data::{GameRecord, StepRecord};
use heterodox_env::encoding::ActionSet;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Game, GameVariant, Outcome, Termination};

/// The uniform distribution over the legal actions.
pub fn uniform_policy<P: GameVariant>(legal: &ActionSet<P>) -> Vec<(u32, f32)> {
    let p = 1.0 / legal.len() as f32;
    legal.indices().iter().map(|&index| (index, p)).collect()
}

/// The outcome of `game` judged as `Game::outcome` does, from `legal`'s pass.
fn outcome<P: GameVariant>(game: &Game<P>, legal: &mut ActionSet<P>) -> Option<Outcome> {
    legal.generate(game.position()).or_else(|| {
        (game.repetitions() >= 3).then_some(Outcome::Draw {
            termination: Termination::ThreefoldRepetition,
        })
    })
}

fn finish<P: GameVariant>(
    game: &Game<P>,
    legal: &mut ActionSet<P>,
    seed: u64,
    start: Option<String>,
    steps: Vec<StepRecord>,
) -> GameRecord {
    GameRecord::ended(seed, start, steps, outcome(game, legal))
}

/// `count` random games ([`random_record`]), seeded 0, 1, ...
pub fn random_records<P: GameVariant>(
    rules: &P::Rules,
    count: u64,
    max_plies: usize,
) -> Vec<GameRecord> {
    (0..count)
        .map(|seed| random_record::<P>(rules, seed, max_plies))
        .collect()
}

/// A game of uniformly random legal actions from `P::start(rules, seed)`,
/// cut at `max_plies`. Root values are a fixed function of the step, so
/// they can be checked.
pub fn random_record<P: GameVariant>(rules: &P::Rules, seed: u64, max_plies: usize) -> GameRecord {
    let mut game = Game::new(P::start(rules, seed).expect("a seeded start"));
    let mut legal = ActionSet::new(game.position().num_actions());
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut steps = Vec::new();
    while steps.len() < max_plies && outcome(&game, &mut legal).is_none() {
        let k = rng.below(legal.len());
        let action = legal.actions()[k];
        steps.push(StepRecord {
            action: legal.indices()[k],
            root_value: root_value(steps.len()),
            policy: uniform_policy(&legal),
            surprise: 0.0,
        });
        game.play_unchecked(&action);
    }
    finish(&game, &mut legal, seed, None, steps)
}

/// The root value recorded at step `k` of test games.
pub fn root_value(k: usize) -> f32 {
    (k % 5) as f32 * 0.25 - 0.5
}

/// A game from `start` (a position string, or the seeded start when
/// `None`) playing `moves`, one step each, in any notation
/// `parse_action` reads; `policy(k, legal, played)` gives step k's policy.
pub fn record_from_moves<P: GameVariant>(
    rules: &P::Rules,
    start: Option<&str>,
    moves: &[&str],
    mut policy: impl FnMut(usize, &ActionSet<P>, u32) -> Vec<(u32, f32)>,
) -> GameRecord {
    let position = match start {
        Some(text) => P::from_position_string(text, rules).expect("a valid position string"),
        None => P::start(rules, 0).expect("a seeded start"),
    };
    let mut game = Game::new(position);
    let mut legal = ActionSet::new(game.position().num_actions());
    let mut steps = Vec::new();
    for (k, text) in moves.iter().enumerate() {
        assert!(
            outcome(&game, &mut legal).is_none(),
            "game over before {text}"
        );
        let action = game.position().parse_action(text).expect("a legal move");
        let index = game.position().action_index(&action) as u32;
        steps.push(StepRecord {
            action: index,
            root_value: root_value(k),
            policy: policy(k, &legal, index),
            surprise: 0.0,
        });
        game.play_unchecked(&action);
    }
    finish(&game, &mut legal, 0, start.map(str::to_owned), steps)
}

/// The scholar's mate, 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#.
pub const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];

/// The test policy: 1/2 on the move played, 1/4 on each of the first two
/// other legal actions (generator order); step 1 has none (a move played
/// without search), to check such steps are skipped.
pub fn test_policy<P: GameVariant>(k: usize, legal: &ActionSet<P>, played: u32) -> Vec<(u32, f32)> {
    if k == 1 {
        return Vec::new();
    }
    let others: Vec<u32> = legal
        .indices()
        .iter()
        .copied()
        .filter(|&i| i != played)
        .take(2)
        .collect();
    vec![(played, 0.5), (others[0], 0.25), (others[1], 0.25)]
}
