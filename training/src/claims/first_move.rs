//! `first-move-advantage`: White's score, with a 95% interval, in every
//! variant and in every Traitor mode and commitment (15 rule sets), played
//! by one agent against itself. The hypothesis is the chess player's
//! default, that moving first is an advantage; in each rule set it is
//! tested against "White scores 50%" (two-sided z test on the per-game
//! scores). Supported: White scores above 50% at the 5% level in most rule
//! sets and below it in none; refuted: below 50% in most and above in none.

use std::fmt::Write as _;

use heterodox_data::GameResult;
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use serde_json::json;

use super::games::{append_games_pgn, strength_and_self_play, white_score};
use super::stats::{two_sided_p, Mean};
use super::verdict::noted;
use super::{
    csv_field, direction, majority_verdict, p_text, percent, AgentStrength, Claim, ClaimSettings,
    Findings, Plays, Verdict,
};
use crate::error::TrainError;

pub(crate) const CLAIM: Claim = Claim {
    name: "first-move-advantage",
    title: "White has the first-move advantage in every variant and Traitor rule set",
    hypothesis: "Moving first is an advantage: White scores more than 50% between equal agents, \
                 in FIDE chess, Poison, Hostage and Mad Scientist Chess and in each of the 15 \
                 Traitor mode and commitment rule sets.",
    default_games: 60,
    quick_games: 2,
    default_calibration_games: 10,
    plays: Plays::EveryRuleSet,
};

/// Every rule set of the claim, every registered variant's
/// (`Variant::rule_sets`), in registry order: (variant, options, label).
pub(crate) fn rule_sets() -> Vec<(Variant, RuleOptions, String)> {
    Variant::ALL
        .into_iter()
        .flat_map(|variant| {
            variant.rule_sets().into_iter().map(move |set| {
                let label = if set.label.is_empty() {
                    variant.name().to_owned()
                } else {
                    format!("{variant} {}", set.label)
                };
                (variant, set.options, label)
            })
        })
        .collect()
}

/// One rule set's games and figures.
struct RuleSetResult {
    strength: AgentStrength,
    white: Mean,
    draws: Mean,
    pgn: String,
    csv: String,
}

struct Play<'a> {
    settings: &'a ClaimSettings,
    options: &'a RuleOptions,
    label: &'a str,
    stream: usize,
    progress: &'a mut dyn FnMut(&str),
}

impl VariantVisitor for Play<'_> {
    type Output = Result<RuleSetResult, TrainError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let Play {
            settings,
            options,
            label,
            stream,
            progress,
        } = self;
        let rules = P::parse_rules(options).map_err(|e| TrainError::Rules(e.to_string()))?;
        let agent = settings
            .agents
            .for_rules(P::VARIANT, &P::rule_options(&rules))
            .clone();
        let (calibration, games) =
            strength_and_self_play::<P>(&rules, &agent, settings, stream, label, progress)?;
        let whites: Vec<f64> = games.iter().map(white_score).collect();
        let draws: Vec<f64> = games
            .iter()
            .map(|g| {
                f64::from(u8::from(matches!(
                    g.record.result,
                    GameResult::Draw | GameResult::Truncated
                )))
            })
            .collect();
        let mut csv = String::new();
        for game in &games {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{}",
                csv_field(label),
                game.index + 1,
                game.record.steps.len(),
                game.record.result.pgn(),
                csv_field(&game.record.termination),
                white_score(game)
            );
        }
        Ok(RuleSetResult {
            strength: AgentStrength::new(
                P::VARIANT.name(),
                &if options.is_empty() {
                    "default".to_owned()
                } else {
                    options.to_string()
                },
                &agent,
                calibration,
            ),
            white: Mean::of(&whites, true),
            draws: Mean::of(&draws, true),
            pgn: {
                let mut pgn = String::new();
                append_games_pgn::<P>(
                    &mut pgn,
                    &rules,
                    &games,
                    &agent.to_string(),
                    &format!("heterodox claim first-move-advantage: {label}"),
                )?;
                pgn
            },
            csv,
        })
    }
}

/// The two-sided p-value of "White scores 50%".
fn p_against_half(m: &Mean) -> f64 {
    if m.std_error > 0.0 {
        two_sided_p((m.mean - 0.5) / m.std_error)
    } else if (m.mean - 0.5).abs() < 1e-12 {
        1.0
    } else {
        0.0
    }
}

pub(crate) fn run(
    settings: &ClaimSettings,
    progress: &mut dyn FnMut(&str),
) -> Result<Findings, TrainError> {
    let mut results = Vec::new();
    for (k, (variant, options, label)) in rule_sets().iter().enumerate() {
        results.push((
            label.clone(),
            variant.visit(Play {
                settings,
                options,
                label,
                stream: k + 1,
                progress: &mut *progress,
            })?,
        ));
    }
    let mut body = format!(
        "{} games per rule set, the agent against itself.\n\n\
         | rule set | White's score [95% CI] | p (vs 50%) | draw rate [95% CI] | agent vs random |\n\
         | --- | --- | --- | --- | --- |\n",
        settings.games
    );
    let mut directions = Vec::new();
    let mut csv = "rule_set,game,plies,result,termination,white_score\n".to_owned();
    let mut pgn = String::new();
    for (label, r) in &results {
        let p = p_against_half(&r.white);
        directions.push(direction(r.white.mean - 0.5, p, true));
        let _ = writeln!(
            body,
            "| {label} | {} | {} | {} | {:.0}% [{:.0}, {:.0}] |",
            percent(&r.white),
            p_text(p),
            percent(&r.draws),
            100.0 * r.strength.vs_random.score,
            100.0 * r.strength.vs_random.score_low,
            100.0 * r.strength.vs_random.score_high
        );
        csv.push_str(&r.csv);
        if !pgn.is_empty() {
            pgn.push('\n');
        }
        pgn.push_str(&r.pgn);
    }
    let above = directions.iter().filter(|&&d| d > 0).count();
    let below = directions.iter().filter(|&&d| d < 0).count();
    let sets = results.len();
    let weak: Vec<&str> = results
        .iter()
        .filter(|(_, r)| !r.strength.strong_enough())
        .map(|(l, _)| l.as_str())
        .collect();
    let counts = format!(
        "White scored above 50% at the 5% level in {above} of the {sets} rule sets, below it in {below}, \
         and neither in {}",
        sets - above - below
    );
    let (verdict, conclusion) = if !weak.is_empty() {
        (
            Verdict::AgentsTooWeak,
            format!(
                "The agents do not clearly beat random play in {} of the {sets} rule sets ({}); for the record, {counts}.",
                weak.len(),
                weak.join(", ")
            ),
        )
    } else {
        // More than half of the rule sets one way, none the other.
        (
            majority_verdict(&directions, sets / 2 + 1),
            format!("{counts}."),
        )
    };
    let plots = json!([{
        "file": "white-score.png",
        "title": "White's score between equal agents (95% CI)",
        "xlabel": "",
        "ylabel": "White's score",
        "categories": results.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>(),
        "series": [{
            "label": "White's score",
            "y": results.iter().map(|(_, r)| r.white.mean).collect::<Vec<_>>(),
            "low": results.iter().map(|(_, r)| r.white.low).collect::<Vec<_>>(),
            "high": results.iter().map(|(_, r)| r.white.high).collect::<Vec<_>>(),
        }],
        "reference": 0.5,
        "horizontal": true,
    }]);
    let json_results = json!(results
        .iter()
        .map(|(label, r)| json!({
            "rule_set": label,
            "white_score": r.white,
            "p_value": p_against_half(&r.white),
            "draw_rate": r.draws,
        }))
        .collect::<Vec<_>>());
    Ok(Findings {
        verdict,
        conclusion: noted(settings.quick, conclusion),
        body,
        strengths: results.iter().map(|(_, r)| r.strength.clone()).collect(),
        games: results.iter().map(|(_, r)| r.white.n).sum(),
        results: json_results,
        plots,
        csv,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_rule_sets_all_parse() {
        let sets = rule_sets();
        assert_eq!(sets.len(), 4 + 15);
        assert_eq!(sets[4].2, "traitor traitor/standard");
        assert_eq!(sets[18].2, "traitor mercenary/impromptu");
        for (variant, options, label) in &sets {
            struct Check<'a>(&'a RuleOptions);
            impl VariantVisitor for Check<'_> {
                type Output = bool;
                fn visit<P: GameVariant>(self) -> bool {
                    P::parse_rules(self.0).is_ok()
                }
            }
            assert!(variant.visit(Check(options)), "{label}");
        }
    }

    #[test]
    fn p_values_against_one_half() {
        let even = Mean::of(&[1.0, 0.0, 1.0, 0.0], true);
        assert!((p_against_half(&even) - 1.0).abs() < 1e-6);
        let all_draws = Mean::of(&[0.5; 6], true);
        assert_eq!(p_against_half(&all_draws), 1.0);
        let all_wins = Mean::of(&[1.0; 6], true);
        assert_eq!(p_against_half(&all_wins), 0.0);
    }
}
