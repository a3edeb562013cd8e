//! The catalogue of claims: what each claim is (name, hypothesis, the
//! rule sets it plays, its default sizes) and how a name finds it.

use heterodox_env::{RuleOptions, Variant};

use super::{attacker, first_move, harpies, piece_values};
use crate::error::TrainError;

/// A registered claim.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    pub name: &'static str,
    pub title: &'static str,
    /// The hypothesis in plain words, with its source.
    pub hypothesis: &'static str,
    /// Games per variant or rule set when `--games` is not given.
    pub default_games: u32,
    /// Games per variant or rule set with `--quick` (notebooks, CI: at
    /// most about two minutes on 2 cores with the default agent).
    pub quick_games: u32,
    /// Paired games against each calibration opponent when
    /// `--calibration-games` is not given: fewer where a claim plays many
    /// variants or rule sets, so that its default run keeps within half an
    /// hour on 2 cores (docs/claims.md).
    pub default_calibration_games: u32,
    /// The rule sets it plays, against which the agents given are checked
    /// before any game ([`AgentChoice::check_plays`]).
    pub plays: Plays,
}

/// Which rule sets a claim plays.
#[derive(Clone, Copy, Debug)]
pub enum Plays {
    /// The default rules of these variants, in the order played.
    DefaultRules(&'static [Variant]),
    /// Every rule set of every variant ([`Variant::rule_sets`]).
    EveryRuleSet,
}

impl Claim {
    /// The rule sets this claim plays, each as (variant, its settings
    /// written out by [`heterodox_env::GameVariant::rule_options`]), the
    /// form [`AgentChoice::for_rules`] is asked with.
    pub fn rule_sets(&self) -> Result<Vec<(Variant, RuleOptions)>, TrainError> {
        let given: Vec<(Variant, RuleOptions)> = match self.plays {
            Plays::DefaultRules(variants) => variants
                .iter()
                .map(|&variant| (variant, RuleOptions::new()))
                .collect(),
            Plays::EveryRuleSet => first_move::rule_sets()
                .into_iter()
                .map(|(variant, options, _)| (variant, options))
                .collect(),
        };
        given
            .into_iter()
            .map(|(variant, options)| Ok((variant, variant.visit(WrittenOut(&options))?)))
            .collect()
    }
}

/// A variant's rule settings written out in full, as a game under them
/// writes them.
pub(crate) struct WrittenOut<'a>(&'a RuleOptions);

impl heterodox_env::VariantVisitor for WrittenOut<'_> {
    type Output = Result<RuleOptions, TrainError>;

    fn visit<P: heterodox_env::GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(self.0).map_err(|e| TrainError::Rules(e.to_string()))?;
        Ok(P::rule_options(&rules))
    }
}

/// Every claim `heterodox claim` knows.
pub const CLAIMS: [Claim; 4] = [
    attacker::CLAIM,
    harpies::CLAIM,
    first_move::CLAIM,
    piece_values::CLAIM,
];

/// The claim called `name`, or an error listing the names.
pub fn find(name: &str) -> Result<&'static Claim, TrainError> {
    CLAIMS
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| TrainError::Config {
            path: None,
            message: format!(
                "unknown claim '{name}' (claims: {})",
                CLAIMS.map(|c| c.name).join(", ")
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_claims_list_the_known_ones() {
        let e = find("hostage-favours-the-defender")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("claims: hostage-favours-the-attacker, poison-two-harpies-draw, first-move-advantage, piece-values"),
            "{e}"
        );
    }
}
