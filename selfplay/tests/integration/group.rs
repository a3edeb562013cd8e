//! The multi-game search loop: a round in which every descent of a search
//! ends in a finished game gives no leaves and finishes that search; the
//! group applies only the searches that gathered something, reports a
//! round that gathered nothing only once every search is done, and every
//! search runs exactly its simulations.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::hostage::Hostage;
use heterodox_env::{Game, GameVariant, Outcome, Position};
use heterodox_selfplay::{
    Evaluator, LeafBatch, RootPolicy, SearchConfig, SearchError, SearchGroup, SearchResult,
};

/// Issue 24's position: White has two moves, Kf3 (Black mates in two:
/// P@e4+, the only reply, mate) and Ke5 (Black mates at once).
const INTO_MATE: &str = "r3kbnr/p1p1pp1p/2P5/3p2p1/4K3/7b/3q4/1n6[-/QRRBBNNPPPPPP/P/p] w kq - 0 22";

/// Whether `action` wins the game at once for the player to move.
fn mates<P: GameVariant>(position: &P, action: &P::Action) -> bool {
    let mut next = position.clone();
    next.play_unchecked(action);
    matches!(next.outcome(), Some(Outcome::Decisive { winner, .. }) if winner == position.turn())
}

/// The action that mates at once, else one after which every reply allows
/// a mate: where priors that know the mates send the search.
fn mating_action<P: GameVariant>(position: &P) -> Option<P::Action> {
    let mut actions = Vec::new();
    let mut replies = Vec::new();
    let mut answers = Vec::new();
    position.legal_actions_and_outcome(&mut actions);
    if let Some(mate) = actions.iter().find(|a| mates(position, a)) {
        return Some(*mate);
    }
    actions.into_iter().find(|action| {
        let mut next = position.clone();
        next.play_unchecked(action);
        next.legal_actions_and_outcome(&mut replies).is_none()
            && replies.iter().all(|reply| {
                let mut after = next.clone();
                after.play_unchecked(reply);
                after.legal_actions_and_outcome(&mut answers).is_none()
                    && answers.iter().any(|a| mates(&after, a))
            })
    })
}

/// All the prior on the mating action where there is one (uniform
/// elsewhere), value 0: every descent of a few rounds ends in a mate.
struct IntoMate;

impl<P: GameVariant> Evaluator<P> for IntoMate {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        for (i, value) in values.iter_mut().enumerate() {
            let position = batch.position(i);
            let target = mating_action(position).map(|a| position.action_index(&a) as u32);
            let range = batch.legal_range(i);
            let uniform = 1.0 / range.len() as f32;
            for (p, &index) in priors[range.clone()].iter_mut().zip(batch.legal(i)) {
                *p = target.map_or(uniform, |t| f32::from(u8::from(index == t)));
            }
            *value = 0.0;
        }
    }

    fn needs_observations(&self) -> bool {
        false
    }
}

fn config() -> SearchConfig {
    SearchConfig {
        simulations: 16,
        root_policy: RootPolicy::Gumbel,
        gumbel_noise: false,
        // The rounds below are counted leaf by leaf: the mates are reached
        // by descents, not scored one ply early.
        immediate_wins: false,
        ..SearchConfig::default()
    }
}

/// A group of `count` searches of `INTO_MATE`, started.
fn group(count: usize) -> SearchGroup<Hostage> {
    let position = Hostage::from_position_string(INTO_MATE, &()).unwrap();
    let spec = EncodingSpec::of(&position, 1);
    let mut group = SearchGroup::new(&config(), &spec, count).unwrap();
    let game = Game::new(position);
    for k in 0..count {
        group.search_mut(k).start(&game, &[], 5).unwrap();
    }
    group.set_observations(false);
    group
}

#[test]
fn a_round_of_mates_only_is_empty_and_finishes_the_search() {
    let mut group = group(1);
    // Per round: leaves gathered, simulations run after the round is
    // applied. The root first, then Ke5 and Kf3, then P@e4 after Kf3, then
    // Kf3's only reply; from then on every descent ends in a mate, and the
    // last round runs the remaining simulations without a leaf.
    let mut rounds = Vec::new();
    loop {
        assert!(!group.search(0).is_done());
        let leaves = group.gather(|_| true).unwrap();
        group.evaluate(&IntoMate);
        rounds.push((leaves, group.search(0).simulations()));
        if leaves == 0 {
            break;
        }
    }
    assert_eq!(rounds, [(1, 0), (2, 2), (1, 4), (1, 6), (0, 16)]);
    let search = group.search_mut(0);
    assert!(search.is_done());
    let result = search.result();
    assert_eq!(result.visits.iter().sum::<u32>(), 16);
    // Both moves lose: Kf3 (mate in two) is the longer way. Twelve
    // simulations ended in mate (-1 for White), four were evaluated
    // leaves (value 0).
    let kf3 = result.actions[result.best];
    let start = Hostage::from_position_string(INTO_MATE, &()).unwrap();
    assert_eq!(start.notation(&kf3), "Kf3");
    assert_eq!(result.value, -0.75);
}

#[test]
fn searches_that_gather_nothing_are_not_applied_and_the_others_go_on() {
    // Search 1 joins a round later, so search 0 finishes in a round where
    // search 1 still has a leaf to evaluate.
    let mut group = group(2);
    let alone = alone();
    let mut rounds = Vec::new();
    for round in 0.. {
        let leaves = group.gather(|k| k == 0 || round > 0).unwrap();
        rounds.push((group.leaves_of(0).len(), group.leaves_of(1).len()));
        assert_eq!(leaves, rounds[round].0 + rounds[round].1);
        group.evaluate(&IntoMate);
        if leaves == 0 {
            break;
        }
    }
    assert_eq!(rounds, [(1, 0), (2, 1), (1, 2), (1, 1), (0, 1), (0, 0)]);
    for k in 0..2 {
        let search = group.search_mut(k);
        assert!(search.is_done());
        assert_eq!(search.simulations(), 16);
        assert_eq!(search.result(), alone);
    }
}

/// The result of one search of `INTO_MATE` run alone.
fn alone() -> SearchResult<<Hostage as Position>::Action> {
    let mut group = group(1);
    group.run(&IntoMate, |_| true).unwrap();
    group.search_mut(0).result()
}

#[test]
fn a_round_must_be_applied_before_the_next_and_fit_its_leaves() {
    let mut group = group(2);
    assert_eq!(group.apply(&[], &[]), Err(SearchError::NothingGathered));
    assert_eq!(group.gather(|_| true), Ok(2));
    // Observations change between rounds only: the awaited leaves stay.
    group.set_observations(true);
    assert_eq!(
        (group.batch().len(), group.batch().has_observations()),
        (2, false)
    );
    assert_eq!(
        group.gather(|_| true),
        Err(SearchError::Unapplied { leaves: 2 })
    );
    let priors = vec![0.5; group.batch().total_legal()];
    assert_eq!(
        group.apply(&priors, &[0.0]),
        Err(SearchError::EvaluationShape {
            leaves: 2,
            priors: 4,
            found_values: 1,
            found_priors: 4
        })
    );
    assert!(group.awaiting());
    group.apply(&priors, &[0.0, 0.0]).unwrap();
    assert!(!group.awaiting() && !group.round_open());
    // A round in which nobody takes part is empty, and applying it (with
    // nothing) is accepted.
    assert_eq!(group.gather(|_| false), Ok(0));
    assert!(group.round_open() && !group.awaiting());
    group.apply(&[], &[]).unwrap();
    assert_eq!(group.search(0).simulations(), 0);
}
