//! `immediate_wins`: a position whose player can win with one action is
//! scored a win without the evaluator, and the root plays such an action.
//! Known answers: with an evaluator that hides every mate (no prior on it)
//! and that steers towards moves allowing one, the check alone finds the
//! mate at the root in four variants and refuses the blunders in chess;
//! `avoid_losses_in_one` finds the safe move when the few actions a Gumbel
//! root considers, or a PUCT root's one simulation, would all blunder.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{
    new_position, Game, GameVariant, Position, RuleOptions, Variant, VariantVisitor,
};
use heterodox_selfplay::evaluator::outcome_value;
use heterodox_selfplay::{Evaluator, LeafBatch, RootPolicy, Search, SearchConfig};

/// True when `action` wins at once for the player to act in `position`.
fn wins<P: Position>(position: &P, action: &P::Action) -> bool {
    let mut after = position.clone();
    after.play_unchecked(action);
    after
        .outcome()
        .is_some_and(|outcome| outcome_value(outcome, position.turn()) > 0.0)
}

/// True when after `action` the opponent can win at once.
fn allows_a_win<P: Position>(position: &P, action: &P::Action) -> bool {
    let mut after = position.clone();
    after.play_unchecked(action);
    let mut replies = Vec::new();
    after.legal_actions_and_outcome(&mut replies).is_none()
        && replies.iter().any(|reply| wins(&after, reply))
}

/// No prior on winning actions; the rest of the prior on the actions that
/// allow the opponent a win (uniform when there are none); value 0.
struct Misleading;

impl<P: GameVariant> Evaluator<P> for Misleading {
    fn evaluate(&self, batch: &LeafBatch<P>, priors: &mut [f32], values: &mut [f32]) {
        let mut actions = Vec::new();
        for (i, value) in values.iter_mut().enumerate() {
            let position = batch.position(i);
            position.legal_actions(&mut actions);
            let weights: Vec<f32> = actions
                .iter()
                .map(|a| {
                    if wins(position, a) {
                        0.0
                    } else if allows_a_win(position, a) {
                        1.0
                    } else {
                        1e-3
                    }
                })
                .collect();
            let total: f32 = weights.iter().sum();
            for (p, w) in priors[batch.legal_range(i)].iter_mut().zip(&weights) {
                *p = w / total;
            }
            *value = 0.0;
        }
    }

    fn needs_observations(&self) -> bool {
        false
    }
}

fn config(immediate_wins: bool, simulations: u32) -> SearchConfig {
    SearchConfig {
        simulations,
        root_policy: RootPolicy::Gumbel,
        gumbel_noise: false,
        immediate_wins,
        determinizations: 1,
        ..SearchConfig::default()
    }
}

/// The searched choice in `fen`, in the variant's notation, whether it
/// wins at once and whether it allows the opponent a win; and the
/// training target's largest probability.
struct Choose<'a> {
    fen: &'a str,
    config: SearchConfig,
}

#[derive(Debug, PartialEq)]
struct Choice {
    notation: String,
    wins: bool,
    allows_a_win: bool,
    top_target: f32,
    proven_win: bool,
    value: f32,
}

impl VariantVisitor for Choose<'_> {
    type Output = Choice;

    fn visit<P: GameVariant>(self) -> Choice {
        let start: P = new_position(Some(self.fen), &RuleOptions::new(), 0).expect("position");
        let spec = EncodingSpec::of(&start, 1);
        let game = Game::new(start);
        let mut search = Search::<P>::new(self.config, &spec).unwrap();
        search.start(&game, &[], 1).unwrap();
        let result = search.run(&Misleading, &mut LeafBatch::new(&spec));
        let action = result.actions[result.best];
        let position = game.position();
        Choice {
            notation: position.notation(&action),
            wins: wins(position, &action),
            allows_a_win: allows_a_win(position, &action),
            top_target: result.policy.iter().copied().fold(0.0, f32::max),
            proven_win: result.proven_win,
            value: result.value,
        }
    }
}

fn choose(variant: Variant, fen: &str, config: SearchConfig) -> Choice {
    variant.visit(Choose { fen, config })
}

/// Variant, position, its only winning action (the cases of
/// tests/search.rs).
const MATES: [(Variant, &str, &str); 4] = [
    (
        Variant::Chess,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "Ra8#",
    ),
    (
        Variant::Poison,
        "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -",
        "xHe5#[f5,5]",
    ),
    (
        Variant::Hostage,
        "7k/8/5K2/8/8/8/8/8[-/RRBBNNPPPPPPPP/Q/qrrbbnnpppppppp] w - - 0 1",
        "Q*g7#",
    ),
    (
        Variant::MadScientist,
        "4k3/8/8/8/8/8/8/K3R3 w - - - 0 1",
        "Rxe8",
    ),
];

#[test]
fn the_root_plays_a_win_its_evaluator_hides() {
    for (variant, fen, mate) in MATES {
        let found = choose(variant, fen, config(true, 1));
        assert_eq!(found.notation, mate, "{variant}");
        assert!(found.wins, "{variant}");
        // The target is the win alone, the root won, and self-play's
        // opening temperature is told to take it.
        assert_eq!(found.top_target, 1.0, "{variant}");
        assert_eq!(found.value, 1.0, "{variant}");
        assert!(found.proven_win, "{variant}");
        // Without the check the search never tries an action of prior 0.
        let missed = choose(variant, fen, config(false, 1));
        assert_ne!(missed.notation, mate, "{variant}");
        assert!(!missed.wins, "{variant}");
        assert!(!missed.proven_win, "{variant}");
    }
}

/// Chess: White's rook guards the back rank against Black's; moving it up
/// the a-file (Ra2 to Ra7) allows Rb1#, which the evaluator steers to and
/// never shows at the reply.
const BACK_RANK: &str = "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

#[test]
fn a_move_that_allows_a_win_in_one_is_refused() {
    // Each of the 16 considered root actions is visited before the
    // halving, so every blunder's reply is probed.
    let refused = choose(Variant::Chess, BACK_RANK, config(true, 64));
    assert!(!refused.allows_a_win, "{refused:?}");
    let blunder = choose(Variant::Chess, BACK_RANK, config(false, 64));
    assert!(blunder.allows_a_win, "{blunder:?}");
}

/// [`config`] with the root's check for losses in one, `k` actions
/// considered by a Gumbel root (or a PUCT root).
fn avoiding(avoid: bool, root_policy: RootPolicy, k: u32, simulations: u32) -> SearchConfig {
    SearchConfig {
        avoid_losses_in_one: avoid,
        root_policy,
        gumbel_actions: k,
        ..config(true, simulations)
    }
}

#[test]
fn a_root_that_would_consider_only_blunders_finds_the_safe_move() {
    // The evaluator puts its prior on the rook moves that allow Rb1# or
    // Rxb1# (Ra2 to Ra7, Rb1; Ra8 pins the rook): a Gumbel root considering 4 actions sees
    // only them (the win probe values each -1, but nothing better is on
    // the table), as does a PUCT root with one simulation.
    for (root_policy, k, simulations) in [(RootPolicy::Gumbel, 4, 16), (RootPolicy::Puct, 16, 1)] {
        let blunder = choose(
            Variant::Chess,
            BACK_RANK,
            avoiding(false, root_policy, k, simulations),
        );
        assert!(blunder.allows_a_win, "{root_policy:?}: {blunder:?}");
        let safe = choose(
            Variant::Chess,
            BACK_RANK,
            avoiding(true, root_policy, k, simulations),
        );
        assert!(!safe.allows_a_win, "{root_policy:?}: {safe:?}");
    }
}

/// Chess: Black's queen and rook on the second rank mate whatever White
/// does (g3, g4, h3, h4 or Kg1): every action loses at once.
const LOST: &str = "k7/8/8/8/8/8/rq4PP/7K w - - 0 1";

#[test]
fn a_lost_root_is_searched_as_it_is() {
    let position: heterodox_env::Chess =
        new_position(Some(LOST), &RuleOptions::new(), 0).expect("position");
    let mut actions = Vec::new();
    position.legal_actions(&mut actions);
    assert_eq!(actions.len(), 5);
    assert!(actions.iter().all(|a| allows_a_win(&position, a)));
    for root_policy in [RootPolicy::Gumbel, RootPolicy::Puct] {
        let with = choose(Variant::Chess, LOST, avoiding(true, root_policy, 4, 16));
        let without = choose(Variant::Chess, LOST, avoiding(false, root_policy, 4, 16));
        assert_eq!(with, without, "{root_policy:?}");
    }
}
