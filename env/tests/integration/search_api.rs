//! The search API on every variant, along seeded random games: one
//! generation pass gives the legal list and the outcome, action sets map
//! indices back to actions in O(1), and a repetition path pushed and
//! truncated as a search does counts repetitions exactly as the game does.

use heterodox_env::encoding::ActionSet;
use heterodox_env::repetition::RepetitionPath;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{
    new_position, Game, GameVariant, Position, RuleOptions, Variant, VariantVisitor,
};

/// Random games per variant; each checks every position it passes.
const GAMES: u64 = 60;
const MAX_PLIES: u32 = 300;

struct RandomGames {
    options: RuleOptions,
}

impl VariantVisitor for RandomGames {
    type Output = usize;

    fn visit<P: GameVariant>(self) -> usize {
        let mut checked = 0;
        let mut legal = Vec::new();
        let mut combined = Vec::new();
        for seed in 0..GAMES {
            let start: P = new_position(None, &self.options, seed).expect("start position");
            let mut set = ActionSet::<P>::new(start.num_actions());
            let mut game = Game::new(start);
            let mut path = RepetitionPath::of_game(&game);
            let mut rng = SplitMix64::new(seed);
            while game.plies() < MAX_PLIES {
                let position = game.position();
                // One pass == the list, then the outcome, separately.
                let outcome = position.legal_actions_and_outcome(&mut combined);
                assert_eq!(outcome, position.outcome(), "{}", position.fen());
                position.legal_actions(&mut legal);
                if outcome.is_none() {
                    assert_eq!(combined, legal, "{}", position.fen());
                }
                assert_eq!(set.generate(position), outcome);
                // Index -> action, both ways, and nothing else maps.
                assert_eq!(set.len(), if outcome.is_some() { 0 } else { legal.len() });
                for (k, (action, &index)) in set.actions().iter().zip(set.indices()).enumerate() {
                    assert_eq!(position.action_index(action), index as usize);
                    assert_eq!(set.action_of(index as usize), Some(*action));
                    assert_eq!(set.position_of(index as usize), Some(k));
                }
                let mapped = (0..position.num_actions())
                    .filter(|&i| set.action_of(i).is_some())
                    .count();
                assert_eq!(mapped, set.len());
                assert_eq!(set.action_of(position.num_actions()), None);
                // The path's count is the game's.
                assert_eq!(path.repetitions(), game.repetitions());
                checked += 1;
                if game.outcome().is_some() || set.is_empty() {
                    break;
                }
                let action = set.actions()[rng.below(set.len())];
                let irreversible = game.position().is_irreversible(&action);
                game.play_unchecked(&action);
                path.push(game.position().repetition_key(), irreversible);
                // A search backs up and comes down again: same counts.
                if rng.below(4) == 0 {
                    let len = path.len();
                    path.push(0x5eed, false);
                    path.truncate(len);
                }
            }
        }
        checked
    }
}

fn check(variant: Variant, options: &[(&str, &str)]) {
    let mut rule_options = RuleOptions::new();
    for (k, v) in options {
        rule_options.set(k, v);
    }
    let checked = variant.visit(RandomGames {
        options: rule_options,
    });
    assert!(
        checked > GAMES as usize * 10,
        "{variant}: {checked} positions"
    );
}

/// One test per variant and rule set (`name: variant, options;`), so each
/// runs in parallel and a failure names its variant.
macro_rules! random_game_tests {
    ($($name:ident: $variant:expr, $options:expr;)*) => {
        $(
            #[test]
            fn $name() {
                check($variant, $options);
            }
        )*
    };
}

random_game_tests! {
    chess: Variant::Chess, &[];
    poison: Variant::Poison, &[];
    hostage: Variant::Hostage, &[];
    madscientist: Variant::MadScientist, &[];
    traitor_standard: Variant::Traitor, &[];
    traitor_defector_impromptu:
        Variant::Traitor, &[("mode", "defector"), ("commitment", "impromptu")];
}

#[test]
fn repetition_path_counts_within_the_reversible_window() {
    let mut path = RepetitionPath::default();
    assert_eq!(path.repetitions(), 0);
    path.push(1, false);
    path.push(2, false);
    path.push(1, false);
    assert_eq!(path.repetitions(), 2);
    path.push(2, false);
    assert_eq!(path.repetitions(), 2);
    // An irreversible step starts a new window: the old 1s no longer count.
    path.push(1, true);
    assert_eq!(path.repetitions(), 1);
    path.push(1, false);
    assert_eq!(path.repetitions(), 2);
    path.truncate(4);
    assert_eq!(path.len(), 4);
    assert_eq!(path.repetitions(), 2);
}

#[test]
fn repetition_path_starts_from_the_game() {
    let mut game = Game::new(heterodox_env::Chess::new());
    for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        game.play_text(text).unwrap();
    }
    let mut path = RepetitionPath::of_game(&game);
    assert_eq!(path.repetitions(), game.repetitions());
    // Ng8 repeats the start a third time.
    let mut after = game.position().clone();
    let action = after.parse_action("Ng8").unwrap();
    let irreversible = after.is_irreversible(&action);
    after.play_unchecked(&action);
    path.push(after.repetition_key(), irreversible);
    assert_eq!(path.repetitions(), 3);
}
