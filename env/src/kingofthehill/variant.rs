//! King of the Hill as generic code sees it: its registry entry (no rule
//! settings, the chess start, FEN position strings, the diagram) and
//! perfect information.

use super::KingOfTheHill;

crate::variant::variant_without_options!(KingOfTheHill, KingOfTheHill, max_plies = 512);

#[cfg(test)]
mod tests {
    use super::super::{reaches_hill, HILL_REACHED};
    use super::*;
    use crate::variant::GameVariant;
    use crate::{Color, Game, Outcome, Position};

    #[test]
    fn a_king_on_the_hill_wins_and_ends_generation() {
        let mut game = Game::new(KingOfTheHill::from_fen("4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap());
        let step = game.position().parse_action("Ke4").unwrap();
        assert!(reaches_hill(&step));
        assert!(game.position().is_irreversible(&step));
        game.play(&step).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::Decisive {
                winner: Color::White,
                termination: HILL_REACHED
            })
        );
        let mut actions = vec![step];
        game.position().legal_actions(&mut actions);
        assert!(actions.is_empty());
        assert_eq!(game.position().count_legal_actions(), 0);
        assert_eq!(
            game.position().parse_action("Kd7").unwrap_err().to_string(),
            "the game is over: 1-0 (king reached the hill); no move can be played"
        );
        assert_eq!(
            game.position().diagram().below,
            ["black to move", "the hill: d4 e4 d5 e5 (a King there wins)"]
        );
    }

    #[test]
    fn a_king_next_to_the_hill_has_not_won() {
        let position = KingOfTheHill::from_fen("4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap();
        assert_eq!(position.outcome(), None);
        assert_eq!(position.count_legal_actions(), 8);
        let castle = KingOfTheHill::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let step = castle.parse_action("O-O").unwrap();
        assert!(!reaches_hill(&step));
    }
}
