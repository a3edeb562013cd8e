//! `hostage-favours-the-attacker`: Pritchard's "Hostage Chess tends to
//! favour the attacker", measured between equal agents (one agent playing
//! itself), each measure against FIDE chess with the same agent recipe and
//! budget:
//!
//! - (a) conversion of initiative: White's score against White's lead in
//!   King-zone pressure at a fixed ply, a logistic regression with a
//!   variant interaction (`logit E[score] = b0 + b1 lead + b2 hostage +
//!   b3 lead x hostage`); the claim predicts `b3 > 0`;
//! - (b) sacrifices: the score of the side behind in material at that ply;
//!   the claim predicts a higher score in Hostage;
//! - (c) decisiveness: the draw rate (predicted lower in Hostage), with
//!   White's score beside it.
//!
//! Each measure supports (the predicted sign, p < 0.05), contradicts (the
//! opposite sign, p < 0.05) or neither. Supported: two or three support and
//! none contradicts; refuted: two or three contradict and none supports.

use std::fmt::Write as _;

use heterodox_data::replay::replay;
use heterodox_data::GameResult;
use heterodox_env::{Chess, Color, GameVariant, Hostage, Variant};
use heterodox_selfplay::DuelGame;
use serde_json::json;

use super::games::{default_rules_games, white_score, VariantGames};
use super::measures::PositionFeatures;
use super::stats::{logistic_regression, Difference, Mean};
use super::verdict::{noted, weak_agents};
use super::{
    csv_field, direction, majority_verdict, p_text, percent, points, AgentStrength, Claim,
    ClaimSettings, Findings, Plays, Verdict,
};
use crate::error::TrainError;

pub(crate) const CLAIM: Claim = Claim {
    name: "hostage-favours-the-attacker",
    title: "Hostage Chess favours the attacker",
    hypothesis: "Hostage Chess tends to favour the attacker (D. Pritchard, The Classified \
                 Encyclopedia of Chess Variants): compared with FIDE chess under the same \
                 agents, a lead in pressure on the enemy King converts into a better score, \
                 the side that has given up material scores better, and games are more decisive.",
    default_games: 400,
    quick_games: 40,
    default_calibration_games: 100,
    plays: Plays::DefaultRules(&[Variant::Hostage, Variant::Chess]),
};

/// What a game gives the measures, from White's side.
struct Measured {
    hostage: bool,
    white_score: f64,
    draw: bool,
    /// King-zone pressure and material leads at the fixed ply; `None` when
    /// the game ended before it.
    leads: Option<(i32, i32)>,
}

/// White's leads at ply `ply` of `game`, replayed under `rules`.
fn leads_at<P: GameVariant + PositionFeatures>(
    rules: &P::Rules,
    game: &DuelGame,
    ply: usize,
) -> Result<Option<(i32, i32)>, TrainError> {
    let of = |p: &P| {
        (
            p.king_zone_pressure(Color::White),
            p.material_balance(Color::White),
        )
    };
    let mut leads = None;
    let end = replay::<P>(&game.record, rules, game.index as usize, |step| {
        if step.step == ply {
            leads = Some(of(step.game.position()));
        }
    })
    .map_err(|e| TrainError::Rules(e.to_string()))?;
    if game.record.steps.len() == ply {
        leads = Some(of(end.position()));
    }
    Ok(leads)
}

/// What the games of both variants add up to.
struct Tally {
    measured: Vec<Measured>,
    strengths: Vec<AgentStrength>,
    csv: String,
    pgn: String,
}

/// Plays variant `P`'s games and measures them into `tally`.
fn play<P: GameVariant + PositionFeatures>(
    settings: &ClaimSettings,
    stream: usize,
    progress: &mut dyn FnMut(&str),
    tally: &mut Tally,
) -> Result<(), TrainError> {
    let variant = P::VARIANT;
    let event = "heterodox claim hostage-favours-the-attacker";
    let played: VariantGames<P> =
        default_rules_games(settings, stream, progress, event, &mut tally.pgn)?;
    let rules = &played.rules;
    tally.strengths.push(played.strength.clone());
    for game in &played.games {
        let leads = leads_at::<P>(rules, game, settings.ply as usize)?;
        let score = white_score(game);
        let (pressure, material) = leads.map_or((String::new(), String::new()), |(p, m)| {
            (p.to_string(), m.to_string())
        });
        let _ = writeln!(
            tally.csv,
            "{variant},{},{},{},{},{score},{pressure},{material}",
            game.index + 1,
            game.record.steps.len(),
            game.record.result.pgn(),
            csv_field(&game.record.termination),
        );
        tally.measured.push(Measured {
            hostage: variant == Variant::Hostage,
            white_score: score,
            draw: matches!(game.record.result, GameResult::Draw | GameResult::Truncated),
            leads,
        });
    }
    Ok(())
}

/// The score of the side ahead (`ahead`) or behind, per variant, from
/// games whose lead (picked by `lead`) is not 0, optionally only those
/// with `|lead|` in `range`.
fn side_scores(
    measured: &[Measured],
    hostage: bool,
    lead: impl Fn(&(i32, i32)) -> i32,
    ahead: bool,
    range: std::ops::RangeInclusive<i32>,
) -> Mean {
    let values: Vec<f64> = measured
        .iter()
        .filter(|m| m.hostage == hostage)
        .filter_map(|m| m.leads.as_ref().map(&lead).map(|l| (l, m.white_score)))
        .filter(|&(l, _)| l != 0 && range.contains(&l.abs()))
        .map(|(l, white)| if (l > 0) == ahead { white } else { 1.0 - white })
        .collect();
    Mean::of(&values, true)
}

pub(crate) fn run(
    settings: &ClaimSettings,
    progress: &mut dyn FnMut(&str),
) -> Result<Findings, TrainError> {
    let mut tally = Tally {
        measured: Vec::new(),
        strengths: Vec::new(),
        csv: "variant,game,plies,result,termination,white_score,pressure_lead,material_lead\n"
            .to_owned(),
        pgn: String::new(),
    };
    play::<Hostage>(settings, 1, progress, &mut tally)?;
    play::<Chess>(settings, 2, progress, &mut tally)?;
    let Tally {
        measured,
        strengths,
        csv,
        pgn,
    } = tally;
    let ply = settings.ply;
    let reached = |hostage: bool| {
        measured
            .iter()
            .filter(|m| m.hostage == hostage && m.leads.is_some())
            .count()
    };
    let mut body = String::new();

    // (a) Conversion of initiative.
    let (x, y): (Vec<Vec<f64>>, Vec<f64>) = measured
        .iter()
        .filter_map(|m| {
            let (pressure, _) = m.leads?;
            let l = f64::from(pressure);
            let h = f64::from(u8::from(m.hostage));
            Some((vec![1.0, l, h, l * h], m.white_score))
        })
        .unzip();
    let fit = logistic_regression(&x, &y);
    let ahead = |hostage| side_scores(&measured, hostage, |l| l.0, true, 1..=i32::MAX);
    let (ahead_h, ahead_c) = (ahead(true), ahead(false));
    let _ = writeln!(
        body,
        "### (a) Conversion of initiative\n\nKing-zone pressure at ply {ply}: the squares of the \
         enemy King's zone a side attacks minus those of its own zone the enemy attacks \
         (docs/claims.md). Games that reached ply {ply}: Hostage {}, chess {}.\n",
        reached(true),
        reached(false)
    );
    let _ = writeln!(
        body,
        "| variant | score of the side ahead in pressure [95% CI] |\n| --- | --- |\n| hostage | {} (n = {}) |\n| chess | {} (n = {}) |\n",
        percent(&ahead_h), ahead_h.n, percent(&ahead_c), ahead_c.n
    );
    let (a_direction, a_json) = match &fit {
        Ok(c) => {
            let _ = writeln!(
                body,
                "Logistic regression of White's score on White's pressure lead, \
                 `logit E[score] = b0 + b1 lead + b2 hostage + b3 lead x hostage` \
                 (quasi-binomial, sandwich errors), {} games:\n\n\
                 | coefficient | estimate [95% CI] | p |\n| --- | --- | --- |\n\
                 | b1: lead (chess) | {:+.3} [{:+.3}, {:+.3}] | {} |\n\
                 | b3: lead x hostage | {:+.3} [{:+.3}, {:+.3}] | {} |\n\
                 | b2: hostage | {:+.3} [{:+.3}, {:+.3}] | {} |\n\n\
                 The claim predicts b3 > 0 (a pressure lead is worth more in Hostage).\n",
                x.len(),
                c[1].estimate,
                c[1].low,
                c[1].high,
                p_text(c[1].p_value),
                c[3].estimate,
                c[3].low,
                c[3].high,
                p_text(c[3].p_value),
                c[2].estimate,
                c[2].low,
                c[2].high,
                p_text(c[2].p_value),
            );
            (
                direction(c[3].estimate, c[3].p_value, true),
                json!({"coefficients": {"intercept": c[0], "lead": c[1], "hostage": c[2], "lead_x_hostage": c[3]}}),
            )
        }
        Err(e) => {
            let _ = writeln!(body, "The regression has no estimate: {e}.\n");
            (0, json!({"error": e.to_string()}))
        }
    };

    // (b) Sacrifices.
    let behind = |hostage| side_scores(&measured, hostage, |l| l.1, false, 1..=i32::MAX);
    let (behind_h, behind_c) = (behind(true), behind(false));
    let b_diff = Difference::of(&behind_h, &behind_c);
    let b_direction = direction(b_diff.estimate, b_diff.p_value, true);
    let _ =
        writeln!(
        body,
        "### (b) Sacrifices\n\nMaterial at ply {ply}: point values (P 1, N B 3, R 5, Q 9) of a \
         side's men on the board, and in Hostage also of its airfield and of the prisoners it \
         holds (docs/claims.md). Score of the side behind in material:\n\n\
         | variant | score of the side behind [95% CI] |\n| --- | --- |\n\
         | hostage | {} (n = {}) |\n| chess | {} (n = {}) |\n\n\
         Hostage minus chess: {}. The claim predicts a positive difference.\n",
        percent(&behind_h), behind_h.n, percent(&behind_c), behind_c.n, points(&b_diff)
    );

    // (c) Decisiveness and first-move advantage.
    let of = |hostage: bool, value: &dyn Fn(&Measured) -> f64| {
        let values: Vec<f64> = measured
            .iter()
            .filter(|m| m.hostage == hostage)
            .map(value)
            .collect();
        Mean::of(&values, true)
    };
    let draws = |m: &Measured| f64::from(u8::from(m.draw));
    let whites = |m: &Measured| m.white_score;
    let (draws_h, draws_c) = (of(true, &draws), of(false, &draws));
    let (white_h, white_c) = (of(true, &whites), of(false, &whites));
    let draw_diff = Difference::of(&draws_h, &draws_c);
    let white_diff = Difference::of(&white_h, &white_c);
    let c_direction = direction(draw_diff.estimate, draw_diff.p_value, false);
    let _ = writeln!(
        body,
        "### (c) Decisiveness and first-move advantage\n\n\
         | variant | draw rate [95% CI] | White's score [95% CI] |\n| --- | --- | --- |\n\
         | hostage | {} | {} |\n| chess | {} | {} |\n\n\
         Draw rate, Hostage minus chess: {} (the claim predicts fewer draws). \
         White's score, Hostage minus chess: {} (reported, not judged).\n",
        percent(&draws_h),
        percent(&white_h),
        percent(&draws_c),
        percent(&white_c),
        points(&draw_diff),
        points(&white_diff)
    );

    let directions = [a_direction, b_direction, c_direction];
    let word = |d: i32| match d {
        1 => "supports",
        -1 => "contradicts",
        _ => "is inconclusive on",
    };
    let measures = format!(
        "(a) conversion of initiative {} the claim, (b) sacrifices {} it, (c) decisiveness {} it",
        word(a_direction),
        word(b_direction),
        word(c_direction)
    );
    let weak = weak_agents(&strengths);
    let (verdict, conclusion) = if !weak.is_empty() {
        (
            Verdict::AgentsTooWeak,
            format!(
                "The agents do not clearly beat random play ({}), so these games say little about \
                 how the variants play; for the record, {measures}.",
                weak.join("; ")
            ),
        )
    } else {
        match majority_verdict(&directions, 2) {
            Verdict::Inconclusive => (
                Verdict::Inconclusive,
                format!("At the 5% level {measures}; that is not enough either way."),
            ),
            verdict => (verdict, format!("At the 5% level {measures}.")),
        }
    };

    // Plots: score against the size of the lead, and the rates.
    let buckets: [(&str, std::ops::RangeInclusive<i32>); 4] = [
        ("1", 1..=1),
        ("2", 2..=2),
        ("3-4", 3..=4),
        ("5+", 5..=i32::MAX),
    ];
    let material_buckets: [(&str, std::ops::RangeInclusive<i32>); 4] = [
        ("1-2", 1..=2),
        ("3-5", 3..=5),
        ("6-9", 6..=9),
        ("10+", 10..=i32::MAX),
    ];
    // One panel of plots (a) and (b): the score of the side ahead (or
    // behind) by size of its lead, hostage beside chess.
    let lead_panel = |file: &str,
                      title: String,
                      xlabel: &str,
                      ylabel: &str,
                      lead: fn(&(i32, i32)) -> i32,
                      ahead: bool,
                      buckets: &[(&str, std::ops::RangeInclusive<i32>)]| {
        let series = |hostage: bool| {
            let means: Vec<Mean> = buckets
                .iter()
                .map(|(_, r)| side_scores(&measured, hostage, lead, ahead, r.clone()))
                .collect();
            json!({
                "label": if hostage { "hostage" } else { "chess" },
                "y": means.iter().map(|m| m.mean).collect::<Vec<_>>(),
                "low": means.iter().map(|m| m.low).collect::<Vec<_>>(),
                "high": means.iter().map(|m| m.high).collect::<Vec<_>>(),
                "n": means.iter().map(|m| m.n).collect::<Vec<_>>(),
            })
        };
        json!({
            "file": file,
            "title": title,
            "xlabel": xlabel,
            "ylabel": ylabel,
            "categories": buckets.iter().map(|(l, _)| (*l).to_owned()).collect::<Vec<_>>(),
            "series": [series(true), series(false)],
            "reference": 0.5,
        })
    };
    let plots = json!([
        lead_panel(
            "a-initiative.png",
            format!("(a) Score of the side ahead in King-zone pressure at ply {ply}"),
            "pressure lead (squares)",
            "score of the side ahead",
            |l| l.0,
            true,
            &buckets,
        ),
        lead_panel(
            "b-sacrifices.png",
            format!("(b) Score of the side behind in material at ply {ply}"),
            "material deficit (points)",
            "score of the side behind",
            |l| l.1,
            false,
            &material_buckets,
        ),
        {
            "file": "c-decisiveness.png",
            "title": "(c) Draw rate and White's score",
            "xlabel": "",
            "ylabel": "rate",
            "categories": ["draw rate", "White's score"],
            "series": [
                {"label": "hostage", "y": [draws_h.mean, white_h.mean], "low": [draws_h.low, white_h.low], "high": [draws_h.high, white_h.high]},
                {"label": "chess", "y": [draws_c.mean, white_c.mean], "low": [draws_c.low, white_c.low], "high": [draws_c.high, white_c.high]},
            ],
            "reference": 0.5,
        },
    ]);
    let results = json!({
        "ply": ply,
        "a_initiative": {"score_of_side_ahead": {"hostage": ahead_h, "chess": ahead_c}, "regression": a_json, "direction": a_direction},
        "b_sacrifices": {"score_of_side_behind": {"hostage": behind_h, "chess": behind_c}, "difference": b_diff, "direction": b_direction},
        "c_decisiveness": {
            "draw_rate": {"hostage": draws_h, "chess": draws_c}, "draw_rate_difference": draw_diff,
            "white_score": {"hostage": white_h, "chess": white_c}, "white_score_difference": white_diff,
            "direction": c_direction,
        },
    });
    Ok(Findings {
        verdict,
        conclusion: noted(settings.quick, conclusion),
        body,
        strengths,
        games: measured.len(),
        results,
        plots,
        csv,
        pgn,
    })
}
