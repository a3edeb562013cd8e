//! Verdicts and the agents' measured strength: what a claim concluded,
//! how measures with a predicted sign combine into it, and when agents are
//! too weak for any verdict.

use serde::Serialize;

use crate::arena::agent::AgentSpec;
use crate::arena::rating::ScoreEstimate;

/// What a claim concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Supported,
    Refuted,
    Inconclusive,
    /// The agents do not clearly beat random play: the games say nothing
    /// about the game's strategy.
    AgentsTooWeak,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Refuted => "refuted",
            Verdict::Inconclusive => "inconclusive",
            Verdict::AgentsTooWeak => "no verdict: the agents are too weak",
        }
    }
}

/// An agent's scores against the fixed opponents
/// (`games::CALIBRATION_OPPONENTS`), each with its 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    pub vs_random: ScoreEstimate,
    pub vs_greedy: ScoreEstimate,
    pub vs_rollout: ScoreEstimate,
    /// Against the other family (`games::other_family`), where it has one.
    pub vs_other_family: Option<FamilyScore>,
}

/// A score against a named agent of the other family: the engine for a
/// network, a shipped network for the engine.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyScore {
    /// The opponent's agent string (`ab@1`, `zoo:hostage@64`).
    pub agent: String,
    pub score: ScoreEstimate,
}

/// An agent's measured strength in one rule set.
#[derive(Clone, Debug, Serialize)]
pub struct AgentStrength {
    pub variant: String,
    pub rules: String,
    pub agent: String,
    pub vs_random: ScoreEstimate,
    pub vs_greedy: ScoreEstimate,
    /// Against `rollout@64`.
    pub vs_rollout: ScoreEstimate,
    /// Against the other family; `None` where it has none for these rules
    /// (no network ships for them) or the agent is of neither family.
    pub vs_other_family: Option<FamilyScore>,
}

/// An agent whose score against random play has a lower 95% bound below
/// this is too weak for a verdict: the calibration rule, which every claim
/// applies to the agents its verdict rests on ([`strong_enough`]) and
/// every summary prints ([`calibration_rule`]). The bound is Wilson's
/// (`ScoreEstimate`), so a perfect score over `n` games clears it from
/// `n / (n + z^2) >= 0.6`, 6 games (`settings::QUICK_CALIBRATION_GAMES`).
pub const STRONG_ENOUGH: f64 = 0.6;

/// Whether a score against random play clears the calibration rule.
pub fn strong_enough(vs_random: &ScoreEstimate) -> bool {
    vs_random.score_low >= STRONG_ENOUGH
}

/// The calibration rule in words, as every summary prints it.
pub fn calibration_rule() -> String {
    format!(
        "an agent whose score against random play has a lower 95% bound below {:.0}% is too \
         weak for a verdict",
        100.0 * STRONG_ENOUGH
    )
}

/// What a report of a `--quick` run says of itself (summary.md, claim.json).
pub const QUICK_RUN: &str = "quick run (--quick): an example, not evidence";

/// A claim's `conclusion`, prefixed with [`QUICK_RUN`] when the run was
/// `--quick`.
pub(crate) fn noted(quick: bool, conclusion: String) -> String {
    if quick {
        format!("This is a {QUICK_RUN}. {conclusion}")
    } else {
        conclusion
    }
}

/// The agents that fail the calibration rule, each with its score against
/// random play: `hostage ab@2: 50% [24, 76]`.
pub(crate) fn weak_agents(strengths: &[AgentStrength]) -> Vec<String> {
    strengths
        .iter()
        .filter(|s| !s.strong_enough())
        .map(|s| {
            format!(
                "{} {}: {:.0}% [{:.0}, {:.0}]",
                s.variant,
                s.agent,
                100.0 * s.vs_random.score,
                100.0 * s.vs_random.score_low,
                100.0 * s.vs_random.score_high
            )
        })
        .collect()
}

impl AgentStrength {
    pub fn new(
        variant: &str,
        rules: &str,
        agent: &AgentSpec,
        scores: Calibration,
    ) -> AgentStrength {
        AgentStrength {
            variant: variant.to_owned(),
            rules: rules.to_owned(),
            agent: agent.to_string(),
            vs_random: scores.vs_random,
            vs_greedy: scores.vs_greedy,
            vs_rollout: scores.vs_rollout,
            vs_other_family: scores.vs_other_family,
        }
    }

    /// Whether the agent clearly beats random play (the bar for a
    /// verdict; the other opponents' scores say how far beyond it).
    pub fn strong_enough(&self) -> bool {
        strong_enough(&self.vs_random)
    }
}

/// What a claim's games and statistics gave, before the report is written.
pub(crate) struct Findings {
    pub verdict: Verdict,
    /// One paragraph: the verdict's reason in plain words.
    pub conclusion: String,
    /// Markdown: the measures with their effect sizes, CIs and p-values.
    pub body: String,
    pub strengths: Vec<AgentStrength>,
    pub games: usize,
    /// claim.json's "results".
    pub results: serde_json::Value,
    /// claim.json's "plots": what python/heterodox/plot.py draws.
    pub plots: serde_json::Value,
    pub csv: String,
    pub pgn: String,
}

/// How a difference with a predicted sign bears on a claim at the 5%
/// level: +1 supports, -1 contradicts, 0 neither.
pub(crate) fn direction(estimate: f64, p_value: f64, predicted_positive: bool) -> i32 {
    if p_value.is_nan() || p_value >= 0.05 || estimate == 0.0 || estimate.is_nan() {
        0
    } else if (estimate > 0.0) == predicted_positive {
        1
    } else {
        -1
    }
}

/// The verdict of measures that each support (+1), contradict (-1) or
/// neither (0): supported when at least `needed` support and none
/// contradicts, refuted when at least `needed` contradict and none
/// supports, inconclusive otherwise. (Weak agents are judged before.)
pub(crate) fn majority_verdict(directions: &[i32], needed: usize) -> Verdict {
    let supports = directions.iter().filter(|&&d| d > 0).count();
    let contradicts = directions.iter().filter(|&&d| d < 0).count();
    if supports >= needed && contradicts == 0 {
        Verdict::Supported
    } else if contradicts >= needed && supports == 0 {
        Verdict::Refuted
    } else {
        Verdict::Inconclusive
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::QUICK_CALIBRATION_GAMES;
    use heterodox_selfplay::DuelTally;

    fn perfect(games: u32) -> ScoreEstimate {
        ScoreEstimate::of(DuelTally {
            wins: games,
            draws: 0,
            losses: 0,
        })
    }

    #[test]
    fn a_quick_run_can_clear_the_calibration_rule() {
        // Whole pairs; a perfect score over them clears the rule, over one
        // game fewer (or the pair fewer) it cannot.
        assert_eq!(QUICK_CALIBRATION_GAMES, 6);
        assert!(strong_enough(&perfect(QUICK_CALIBRATION_GAMES)));
        assert!(!strong_enough(&perfect(QUICK_CALIBRATION_GAMES - 1)));
        assert!(!strong_enough(&perfect(QUICK_CALIBRATION_GAMES - 2)));
        // Wilson's lower bound of n wins in n games is n / (n + z^2):
        // 0.610 for 6, 0.566 for 5, 0.510 for 4.
        assert_eq!(
            format!("{:.3}", perfect(QUICK_CALIBRATION_GAMES).score_low),
            "0.610"
        );
        assert_eq!(format!("{:.3}", perfect(5).score_low), "0.566");
        assert_eq!(format!("{:.3}", perfect(4).score_low), "0.510");
        // One draw in a quick run's games is too weak.
        let drawn = ScoreEstimate::of(DuelTally {
            wins: QUICK_CALIBRATION_GAMES - 1,
            draws: 1,
            losses: 0,
        });
        assert!(!strong_enough(&drawn));
        assert_eq!(
            calibration_rule(),
            "an agent whose score against random play has a lower 95% bound below 60% is too \
             weak for a verdict"
        );
        assert_eq!(noted(false, "Fine.".to_owned()), "Fine.");
        assert_eq!(
            noted(true, "Fine.".to_owned()),
            "This is a quick run (--quick): an example, not evidence. Fine."
        );
    }

    #[test]
    fn measures_combine_into_a_verdict() {
        // hostage-favours-the-attacker: two of three measures, none against.
        assert_eq!(majority_verdict(&[1, 1, 0], 2), Verdict::Supported);
        assert_eq!(majority_verdict(&[1, 1, 1], 2), Verdict::Supported);
        assert_eq!(majority_verdict(&[1, 1, -1], 2), Verdict::Inconclusive);
        assert_eq!(majority_verdict(&[1, 0, 0], 2), Verdict::Inconclusive);
        assert_eq!(majority_verdict(&[-1, 0, -1], 2), Verdict::Refuted);
        assert_eq!(majority_verdict(&[-1, 1, -1], 2), Verdict::Inconclusive);
        // first-move-advantage: more than half of 19 rule sets is 10.
        let mut sets = [0; 19];
        sets[..10].fill(1);
        assert_eq!(majority_verdict(&sets, 10), Verdict::Supported);
        sets[9] = 0;
        assert_eq!(majority_verdict(&sets, 10), Verdict::Inconclusive);
        sets[..10].fill(-1);
        assert_eq!(majority_verdict(&sets, 10), Verdict::Refuted);
    }
}
