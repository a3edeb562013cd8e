//! The Traitor family's registry entry: rule settings from options (the
//! settings themselves are in `rules`), its fifteen mode x commitment rule
//! sets, start positions from seeds (random selections), the diagram,
//! whole-turn text.

use super::rules::{Commitment, Mode, SelectionSetting, TraitorRules};
use super::Traitor;
use crate::render::Diagram;
use crate::variant::{GameVariant, RuleSet};
use crate::{FenError, Game, MoveError, OptionError, RuleOptions, Variant};

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
