//! The Traitor family's registry entry: rule settings from options (the
//! settings themselves are in `rules`), its fifteen mode x commitment rule
//! sets, start positions from seeds (random selections), the diagram,
//! whole-turn text; and its men by kind for the piece-values claim.

use super::rules::{Commitment, Mode, SelectionSetting, TraitorRules};
use super::Traitor;
use crate::features::{board_role_difference, MaterialInventory, FIDE_MATERIAL_ROLES};
use crate::render::Diagram;
use crate::variant::{GameVariant, RuleSet};
use crate::{Color, FenError, Game, MoveError, OptionError, RuleOptions, Variant};

impl GameVariant for Traitor {
    const VARIANT: Variant = Variant::Traitor;
    const DEFAULT_MAX_PLIES: u32 = 600;
    type Rules = TraitorRules;

    fn parse_rules(options: &RuleOptions) -> Result<TraitorRules, OptionError> {
        TraitorRules::from_options(options)
    }

    fn rule_options(rules: &TraitorRules) -> RuleOptions {
        rules.to_options()
    }

    fn rules(&self) -> TraitorRules {
        *Traitor::rules(self)
    }

    /// `selection=random` draws both selections from the rule seed mixed
    /// with the game's seed, so that the games of a batch differ yet replay
    /// from their seeds; `selection=fixed` needs a position string.
    fn start(rules: &TraitorRules, seed: u64) -> Result<Traitor, FenError> {
        match rules.selection {
            SelectionSetting::Random { seed: rule_seed } => Traitor::new(TraitorRules {
                selection: SelectionSetting::Random {
                    seed: rule_seed ^ seed,
                },
                ..*rules
            }),
            SelectionSetting::Phase | SelectionSetting::Fixed => Traitor::new(*rules),
        }
    }

    fn from_position_string(text: &str, rules: &TraitorRules) -> Result<Traitor, FenError> {
        Traitor::from_fen(text, *rules)
    }

    fn diagram(&self) -> Diagram {
        super::diagram::diagram(self)
    }

    /// The fifteen modes x commitments, mode-major (`traitor/standard`
    /// first); the other settings at their defaults.
    fn rule_sets() -> Vec<RuleSet> {
        let mut sets = Vec::with_capacity(Mode::ALL.len() * Commitment::ALL.len());
        for mode in Mode::ALL {
            for commitment in Commitment::ALL {
                let mut options = RuleOptions::new();
                options
                    .set("mode", mode.name())
                    .set("commitment", commitment.name());
                sets.push(RuleSet {
                    label: format!("{}/{}", mode.name(), commitment.name()),
                    options,
                });
            }
        }
        sets
    }

    /// The public state with the viewer's own secret and `hidden` for the
    /// opponent's.
    fn view_diagram(view: &super::TraitorView) -> Diagram {
        super::diagram::view_diagram(view)
    }

    fn play_text(game: &mut Game<Traitor>, text: &str) -> Result<(String, String), MoveError> {
        super::play_turn(game, text)
    }
}

impl MaterialInventory for Traitor {
    /// The roles by the colour a man stands as on the board, then the
    /// announced men (with a status: traitor, double agent, mercenary) by
    /// that colour, each counted in its role too. The true state: the
    /// judge of finished games reads it, no player does.
    const MATERIAL_KINDS: &'static [&'static str] =
        &["pawn", "knight", "bishop", "rook", "queen", "announced man"];

    fn material_difference(&self) -> Vec<i32> {
        let board = self.board();
        let mut counts = board_role_difference(board, &FIDE_MATERIAL_ROLES);
        let announced = |color| (self.announced() & board.by_color(color)).count() as i32;
        counts.push(announced(Color::White) - announced(Color::Black));
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::test_support::assert_inventory;

    #[test]
    fn the_inventory_counts_roles_and_announced_men() {
        let rules = TraitorRules {
            mode: Mode::Traitor,
            commitment: Commitment::Impromptu,
            ..TraitorRules::default()
        };
        // White: King, Rook; Black: King, Rook and the announced Knight
        // on e5 and Bishop on c3.
        let traitor = Traitor::from_fen(
            "7k/r7/8/4n3/8/2b5/8/R6K w - - 0 1 h8=e8,e5=b8,c3=c8,a7=a8,h1=e1 c3,e5 0,9 b8,c8/- -/- open - -",
            rules,
        )
        .unwrap();
        let start = Traitor::new(rules).unwrap();
        assert_inventory(&start, &traitor, &[0, -1, -1, 0, 0, -2]);
    }
}
