//! Seeded random playouts of all fifteen mode x commitment combinations
//! (issue 5): after every action no side is left in check by its own
//! action, budgets stay within 9 and never grow, a player only moves pieces
//! it may move, regular pieces never take their own colour, the position
//! string reads back to the same state, and every game ends or reaches the
//! ply cap.

use heterodox_env::traitor::{
    Commitment, Mode, SelectionSetting, Traitor, TraitorAction, TraitorRules, BUDGET,
};
use heterodox_env::{Game, Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GAMES_PER_COMBINATION: u64 = 150;
const PLY_CAP: u32 = 300;

fn playout(rules: TraitorRules, seed: u64) -> bool {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Traitor::new(rules).unwrap());
    let mut actions = Vec::new();
    while game.plies() < PLY_CAP {
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            return true;
        }
        let before = game.position().clone();
        let action = actions[rng.random_range(0..actions.len())];
        let mover = before.turn();
        if let TraitorAction::Move(m) = action {
            assert!(
                before.movable(mover).contains(m.from()),
                "{m} not movable in {}",
                before.fen()
            );
            let regular = !before.announced().contains(m.from());
            if let (
                true,
                Move::Normal {
                    to,
                    capture: Some(_),
                    ..
                },
            ) = (regular, m)
            {
                assert_ne!(
                    before.board().color_at(to),
                    before.board().color_at(m.from()),
                    "{m} in {}",
                    before.fen()
                );
            }
        }
        game.play(&action).unwrap();
        let after = game.position();
        if matches!(action, TraitorAction::Move(_)) {
            assert!(
                after.checkers(mover).is_empty(),
                "{action} leaves {mover} in check: {}",
                after.fen()
            );
        }
        for colour in heterodox_env::Color::ALL {
            assert!(after.budget(colour) <= BUDGET);
            assert!(after.budget(colour) <= before.budget(colour));
        }
        assert_eq!(
            &Traitor::from_fen(&after.fen(), rules).unwrap(),
            after,
            "{}",
            after.fen()
        );
    }
    false
}

#[test]
fn fifteen_combinations_play_to_the_end() {
    for mode in Mode::ALL {
        for commitment in Commitment::ALL {
            let mut finished = 0;
            for seed in 0..GAMES_PER_COMBINATION {
                let mut rules = TraitorRules::new(mode, commitment);
                rules.selection = if seed % 2 == 0 {
                    SelectionSetting::Phase
                } else {
                    SelectionSetting::Random { seed }
                };
                finished += u32::from(playout(rules, seed));
            }
            assert!(
                finished > 0,
                "{} {}: no game finished within {PLY_CAP} plies",
                mode.name(),
                commitment.name()
            );
        }
    }
}
