//! The Traitor family's registry entry: rule settings from options, start
//! positions from seeds (random selections), rendering, whole-turn text.

use super::rules::{SelectionSetting, TraitorRules};
use super::Traitor;
use crate::render::Diagram;
use crate::variant::GameVariant;
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
        crate::render::traitor(self)
    }

    /// The public state with the viewer's own secret and `hidden` for the
    /// opponent's.
    fn view_diagram(view: &super::TraitorView) -> Diagram {
        crate::render::traitor_view(view)
    }

    fn play_text(game: &mut Game<Traitor>, text: &str) -> Result<(String, String), MoveError> {
        super::play_turn(game, text)
    }
}
