//! summary.md and the texts every report writes figures with: scores,
//! percentages, differences in points, p-values, CSV fields.

use std::fmt::Write as _;

use super::catalogue::Claim;
use super::report::PlotOutcome;
use super::settings::ClaimSettings;
use super::stats;
use super::verdict::{calibration_rule, Findings, QUICK_RUN};
use crate::arena::rating::ScoreEstimate;

/// summary.md.
pub(crate) fn summary(
    claim: &Claim,
    settings: &ClaimSettings,
    findings: &Findings,
    command: &str,
    plots: &PlotOutcome,
) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "# Claim `{}`: {}\n", claim.name, claim.title);
    if settings.quick {
        let _ = writeln!(
            text,
            "**A {QUICK_RUN}:** {} games per variant or rule set and {} calibration games \
             per opponent.\n",
            settings.games, settings.calibration_games
        );
    }
    let _ = writeln!(text, "**Hypothesis.** {}\n", claim.hypothesis);
    let _ = writeln!(
        text,
        "**Verdict: {}.** {}\n",
        findings.verdict.words(),
        findings.conclusion
    );
    let _ = writeln!(text, "## Agents and their strength\n");
    let _ = writeln!(
        text,
        "Each agent plays itself; its strength is its score against random play, \
         `greedy` (one ply of material), `rollout@64` and the other family: a \
         network against the engine at its teacher's depth (`ab@1`), the engine \
         against the network shipped for the rules, where one ships ({} paired \
         games each, 95% Wilson intervals). The calibration rule: {}; a verdict \
         needs every agent it rests on to clear it.\n",
        settings.calibration_games,
        calibration_rule()
    );
    let _ = writeln!(
        text,
        "| variant | rules | agent | vs random | vs greedy | vs rollout@64 | vs the other family \
         | strong enough |"
    );
    let _ = writeln!(text, "| --- | --- | --- | --- | --- | --- | --- | --- |");
    for s in &findings.strengths {
        let other = match &s.vs_other_family {
            Some(family) => format!("`{}`: {}", family.agent, score_text(&family.score)),
            None => "none for these rules".to_owned(),
        };
        let _ = writeln!(
            text,
            "| {} | {} | `{}` | {} | {} | {} | {} | {} |",
            s.variant,
            s.rules,
            s.agent,
            score_text(&s.vs_random),
            score_text(&s.vs_greedy),
            score_text(&s.vs_rollout),
            other,
            if s.strong_enough() { "yes" } else { "no" }
        );
    }
    let _ = writeln!(
        text,
        "\n## Measures\n\n{} games in all; games cut at {} plies count as draws; \
         {} random opening plies; seed {}.\n",
        findings.games, settings.max_plies, settings.opening_plies, settings.seed
    );
    text.push_str(&findings.body);
    let _ = writeln!(text, "\n## Plots\n");
    match plots {
        Ok(files) => {
            for file in files {
                let _ = writeln!(text, "![{file}](plots/{file})\n");
            }
        }
        Err(reason) => {
            let _ = writeln!(
                text,
                "Not drawn ({reason}). With matplotlib installed: \
                 `python -m heterodox.plot REPORT_DIR`.\n"
            );
        }
    }
    let _ = writeln!(
        text,
        "## Files\n\n`games.pgn` (every game), `games.csv` (the measures, one row per game or position), \
         `claim.json` (every number above).\n\n## Reproduce\n\n```sh\n{command}\n```"
    );
    text
}

/// A score with its interval and the games behind it: `97.5% [91.3, 99.3]
/// (80 games)`.
pub(crate) fn score_text(score: &ScoreEstimate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}] ({} games)",
        100.0 * score.score,
        100.0 * score.score_low,
        100.0 * score.score_high,
        score.games
    )
}

/// `0.0312` as `p = 0.031`, small ones as `p < 0.001`.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else {
        format!("p = {p:.3}")
    }
}

/// A percentage with its interval: `61.5% [52.3, 70.0]`.
pub(crate) fn percent(m: &stats::Mean) -> String {
    if m.n == 0 {
        return "n/a (no games)".to_owned();
    }
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * m.mean,
        100.0 * m.low,
        100.0 * m.high
    )
}

/// A difference of proportions in percentage points.
pub(crate) fn points(d: &stats::Difference) -> String {
    if d.estimate.is_nan() {
        return "n/a".to_owned();
    }
    format!(
        "{:+.1} points [{:+.1}, {:+.1}], {}",
        100.0 * d.estimate,
        100.0 * d.low,
        100.0 * d.high,
        p_text(d.p_value)
    )
}

/// A CSV field, quoted when it needs to be.
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::direction;

    #[test]
    fn directions_and_texts() {
        assert_eq!(direction(0.1, 0.01, true), 1);
        assert_eq!(direction(-0.1, 0.01, true), -1);
        assert_eq!(direction(0.1, 0.2, true), 0);
        assert_eq!(direction(0.1, f64::NAN, true), 0);
        assert_eq!(p_text(0.0004), "p < 0.001");
        assert_eq!(p_text(0.0312), "p = 0.031");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
