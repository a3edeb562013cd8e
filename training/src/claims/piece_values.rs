//! `piece-values`: the value of every kind of man in every variant, fitted
//! from games as Tomašev, Paquet, Hassabis and Kramnik did for AlphaZero's
//! chess variants (2020): a logistic regression of the game's result on
//! the material differences (White's men of each kind minus Black's,
//! [`MaterialInventory`]) of positions read at fixed plies, each kind's
//! coefficient divided by the pawn's. The intervals come from a bootstrap
//! over games (the positions of one game share its result, so games, not
//! positions, are the independent units).
//!
//! FIDE chess is the check: the claim is that the fit recovers the
//! classical order pawn < knight, bishop < rook < queen. The other
//! variants' values are measurements with intervals, not predictions.

use std::fmt::Write as _;

use heterodox_data::replay::replay;
use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::{GameVariant, Variant};
use heterodox_selfplay::DuelGame;
use serde::Serialize;
use serde_json::json;

use super::games::{default_rules_games, white_score, VariantGames};
use super::measures::MaterialInventory;
use super::stats::logistic_regression_ridge;
use super::verdict::noted;
use super::{AgentStrength, Claim, ClaimSettings, Findings, Plays, Verdict};
use crate::error::TrainError;

pub(crate) const CLAIM: Claim = Claim {
    name: "piece-values",
    title: "Piece values fitted from games: chess's classical order, and every variant's men",
    hypothesis: "The value of each kind of man can be read from games between equal agents by \
                 a logistic regression of the result on the material differences at fixed plies \
                 (Tomašev, Paquet, Hassabis and Kramnik 2020 found N 3.05, B 3.33, R 5.63, Q 9.5 \
                 in chess, pawn = 1). In FIDE chess the fit recovers the classical order pawn < \
                 knight, bishop < rook < queen; Poison's, Hostage's, Mad Scientist's and \
                 Traitor's men are measured the same way.",
    default_games: 160,
    quick_games: 16,
    default_calibration_games: 20,
    // Every registered variant, as `players` plays them.
    plays: Plays::DefaultRules(&Variant::ALL),
};

/// Bootstrap resamples of the games behind every interval.
pub(crate) const RESAMPLES: usize = 200;

/// Positions are read every this many plies, from ply `--ply` on.
pub(crate) const SAMPLE_EVERY: usize = 8;

/// The regression's ridge (a normal prior of standard deviation
/// `1 / sqrt(RIDGE)` = 2 logits per man): strong agents convert material,
/// so in a few games every lead wins and the plain fit runs off to
/// infinity. The prior is weak next to a real sample's information (a
/// thousand positions give each coefficient a precision of hundreds).
pub(crate) const RIDGE: f64 = 0.25;

/// AlphaZero's chess values (Tomašev et al. 2020, Table 1), pawn first.
const ALPHAZERO_CHESS: [f64; 5] = [1.0, 3.05, 3.33, 5.63, 9.5];

/// One position read from a game: its material differences and the
/// game's result for White.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    /// The game's index among the variant's games (the bootstrap's unit).
    pub game: usize,
    pub ply: usize,
    pub white_score: f64,
    pub differences: Vec<i32>,
}

/// One kind's fitted value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct KindValue {
    pub kind: &'static str,
    /// In pawns; `None` when the kind never differed between the sides
    /// (it is left out of the fit) or the fit failed.
    pub value: Option<f64>,
    /// The bootstrap's 2.5% and 97.5% percentiles of the value.
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The logistic coefficient: the change in the log-odds of White's
    /// score per man of this kind more (the value in win-probability
    /// units, which needs no pawn).
    pub coefficient: Option<f64>,
    /// The bootstrap's 2.5% and 97.5% percentiles of the coefficient.
    pub coefficient_low: Option<f64>,
    pub coefficient_high: Option<f64>,
    /// The share of positions where the sides' counts differed.
    pub differed: f64,
}

/// A variant's fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Fit {
    pub values: Vec<KindValue>,
    pub games: usize,
    pub positions: usize,
    /// Resamples whose regression failed (collinear or separated data),
    /// or, for the values in pawns, whose pawn coefficient was not
    /// positive; they are missing from the percentiles.
    pub failed_resamples: usize,
    /// Every resample's values in pawns (in `values`' order, `NaN` for a
    /// kind left out), for tests of the order.
    #[serde(skip)]
    pub resampled: Vec<Vec<f64>>,
    /// Why there are no values at all (the regression failed), when so.
    pub problem: Option<String>,
    /// Why the values are in logits only (no positive pawn coefficient to
    /// divide by), when so: the coefficients still rank the kinds.
    pub no_pawn_scale: Option<String>,
}

/// The positions of `games` at plies `first`, `first + SAMPLE_EVERY`, ...
/// before each game's end, replayed under `rules`.
fn rows_of<P: GameVariant + MaterialInventory>(
    rules: &P::Rules,
    games: &[DuelGame],
    first: usize,
) -> Result<Vec<Row>, TrainError> {
    let mut rows = Vec::new();
    for (k, game) in games.iter().enumerate() {
        let score = white_score(game);
        replay::<P>(&game.record, rules, game.index as usize, |step| {
            if step.step >= first && (step.step - first) % SAMPLE_EVERY == 0 {
                rows.push(Row {
                    game: k,
                    ply: step.step,
                    white_score: score,
                    differences: step.game.position().material_difference(),
                });
            }
        })
        .map_err(|e| TrainError::Rules(e.to_string()))?;
    }
    Ok(rows)
}

/// Regression coefficients of the kinds in `used` (the intercept
/// dropped), over `rows` drawn as `picks` (indices into `rows`), or `None`
/// when the fit fails.
fn coefficients(rows: &[Row], picks: &[usize], used: &[usize]) -> Option<Vec<f64>> {
    let x: Vec<Vec<f64>> = picks
        .iter()
        .map(|&r| {
            std::iter::once(1.0)
                .chain(used.iter().map(|&k| f64::from(rows[r].differences[k])))
                .collect()
        })
        .collect();
    let y: Vec<f64> = picks.iter().map(|&r| rows[r].white_score).collect();
    let fitted = logistic_regression_ridge(&x, &y, RIDGE).ok()?;
    Some(fitted[1..].iter().map(|c| c.estimate).collect())
}

/// Values in pawns (kind `k`'s coefficient over the pawn's), in the order
/// of `kinds`, `NaN` for a kind not in `used`; `None` without a positive
/// pawn coefficient (no scale).
fn values_of(coefficients: &[f64], used: &[usize], kinds: usize) -> Option<Vec<f64>> {
    let pawn = used.iter().position(|&k| k == 0).map(|i| coefficients[i])?;
    if pawn <= 0.0 || !pawn.is_finite() {
        return None;
    }
    let mut values = vec![f64::NAN; kinds];
    for (i, &k) in used.iter().enumerate() {
        values[k] = coefficients[i] / pawn;
    }
    Some(values)
}

/// The `q` quantile of `sorted` (linear between order statistics).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let (below, above) = (position.floor() as usize, position.ceil() as usize);
    let t = position - below as f64;
    sorted[below] * (1.0 - t) + sorted[above] * t
}

/// The 2.5% and 97.5% percentiles of the finite values.
fn percentile_interval(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let mut finite: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    if finite.len() < 2 {
        return None;
    }
    finite.sort_by(f64::total_cmp);
    Some((quantile(&finite, 0.025), quantile(&finite, 0.975)))
}

/// Fits the values of `kinds` to `rows` (from `games` games) and their
/// bootstrap intervals over `resamples` resamples of the games, seeded by
/// `seed`.
pub(crate) fn fit(
    kinds: &'static [&'static str],
    rows: &[Row],
    games: usize,
    resamples: usize,
    seed: u64,
) -> Fit {
    let differed: Vec<f64> = (0..kinds.len())
        .map(|k| {
            let n = rows.iter().filter(|r| r.differences[k] != 0).count();
            n as f64 / rows.len().max(1) as f64
        })
        .collect();
    // A kind whose counts never differ has no coefficient to fit.
    let used: Vec<usize> = (0..kinds.len()).filter(|&k| differed[k] > 0.0).collect();
    let mut result = Fit {
        values: Vec::new(),
        games,
        positions: rows.len(),
        failed_resamples: 0,
        resampled: Vec::new(),
        problem: None,
        no_pawn_scale: None,
    };
    let all: Vec<usize> = (0..rows.len()).collect();
    let point = coefficients(rows, &all, &used);
    let point_values = point
        .as_ref()
        .and_then(|c| values_of(c, &used, kinds.len()));
    if point.is_none() {
        result.problem = Some(
            "the regression failed (too few positions, or collinear or separated data)".to_owned(),
        );
    } else if point_values.is_none() {
        result.no_pawn_scale = Some(
            "the pawn's coefficient is not positive (pawns did not decide these games), so the \
             values are given as logit coefficients only"
                .to_owned(),
        );
    }
    // Each resample's coefficients, in kind order (`NaN` for a kind left out).
    let mut resampled_coefficients: Vec<Vec<f64>> = Vec::new();
    if point.is_some() {
        // Resample whole games: a game's positions go together.
        let mut by_game: Vec<Vec<usize>> = vec![Vec::new(); games];
        for (r, row) in rows.iter().enumerate() {
            by_game[row.game].push(r);
        }
        let mut rng = SplitMix64::new(seed);
        for _ in 0..resamples {
            let picks: Vec<usize> = (0..games)
                .flat_map(|_| by_game[rng.below(games)].iter().copied())
                .collect();
            let Some(fitted) = coefficients(rows, &picks, &used) else {
                result.failed_resamples += 1;
                continue;
            };
            let mut by_kind = vec![f64::NAN; kinds.len()];
            for (i, &k) in used.iter().enumerate() {
                by_kind[k] = fitted[i];
            }
            resampled_coefficients.push(by_kind);
            match values_of(&fitted, &used, kinds.len()) {
                Some(values) if point_values.is_some() => result.resampled.push(values),
                _ if point_values.is_some() => result.failed_resamples += 1,
                _ => {}
            }
        }
    }
    for (k, &kind) in kinds.iter().enumerate() {
        let slot = used.iter().position(|&u| u == k);
        let value = point_values
            .as_ref()
            .map(|v| v[k])
            .filter(|v| v.is_finite());
        let interval = value.and(percentile_interval(result.resampled.iter().map(|v| v[k])));
        let coefficient = point.as_ref().zip(slot).map(|(c, i)| c[i]);
        let coefficient_interval = coefficient.and(percentile_interval(
            resampled_coefficients.iter().map(|c| c[k]),
        ));
        result.values.push(KindValue {
            kind,
            value,
            low: interval.map(|i| i.0),
            high: interval.map(|i| i.1),
            coefficient,
            coefficient_low: coefficient_interval.map(|i| i.0),
            coefficient_high: coefficient_interval.map(|i| i.1),
            differed: differed[k],
        });
    }
    result
}

/// One step of chess's order: the higher kind's value minus the lower's,
/// from a resample's values.
type OrderStep = fn(&[f64]) -> f64;

/// How chess's fit bears on the classical order: for each step (pawn <
/// knight, pawn < bishop, the better minor < rook, rook < queen) +1 when
/// the bootstrap's 95% interval of the difference is above 0, -1 when
/// below, 0 otherwise.
pub(crate) fn chess_order(fit: &Fit) -> Vec<(&'static str, i32)> {
    let steps: [(&'static str, OrderStep); 4] = [
        ("pawn < knight", |v| v[1] - v[0]),
        ("pawn < bishop", |v| v[2] - v[0]),
        ("knight, bishop < rook", |v| v[3] - v[1].max(v[2])),
        ("rook < queen", |v| v[4] - v[3]),
    ];
    steps
        .iter()
        .map(|&(name, difference)| {
            let direction = match percentile_interval(fit.resampled.iter().map(|v| difference(v))) {
                Some((low, _)) if low > 0.0 => 1,
                Some((_, high)) if high < 0.0 => -1,
                _ => 0,
            };
            (name, direction)
        })
        .collect()
}

/// The verdict from chess's order: supported when every step holds at the
/// 5% level, refuted when one is reversed, inconclusive otherwise.
pub(crate) fn order_verdict(order: &[(&'static str, i32)]) -> Verdict {
    if order.iter().any(|&(_, d)| d < 0) {
        Verdict::Refuted
    } else if !order.is_empty() && order.iter().all(|&(_, d)| d > 0) {
        Verdict::Supported
    } else {
        Verdict::Inconclusive
    }
}

/// What one variant's games gave.
struct VariantResult {
    name: &'static str,
    strength: AgentStrength,
    fit: Fit,
}

/// The seed stream of `variant`'s games: its place in the registry
/// ([`Variant::ALL`]), counted from 1. The registry's order (chess,
/// poison, hostage, madscientist, traitor) gives the numbers 1 to 5 these
/// variants were played with when they were listed here by hand, so
/// earlier reports replay game for game.
fn stream_of(variant: Variant) -> usize {
    1 + Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a registered variant")
}

/// One variant's [`play`].
type Player = fn(
    &ClaimSettings,
    &mut dyn FnMut(&str),
    &mut String,
    &mut String,
) -> Result<VariantResult, TrainError>;

/// [`players`]' body, a callback of [`heterodox_env::for_each_variant!`]:
/// `play` of each registered position type, after its line's `#[cfg]`.
macro_rules! players_of {
    ($($(#[$meta:meta])* $arm:ident => $position:ty;)*) => {
        Vec::from([$(
            $(#[$meta])*
            (Variant::$arm, play::<$position> as Player),
        )*])
    };
}

/// Every registered variant with its [`play`], in registry order: the
/// claim plays them all, and a variant without a [`MaterialInventory`]
/// does not compile.
fn players() -> Vec<(Variant, Player)> {
    heterodox_env::for_each_variant!(players_of)
}

/// Plays variant `P`'s games (its default rules, seed stream
/// [`stream_of`]), reads its positions and fits its values; appends its
/// rows to `csv` and games to `pgn`.
fn play<P: GameVariant + MaterialInventory>(
    settings: &ClaimSettings,
    progress: &mut dyn FnMut(&str),
    csv: &mut String,
    pgn: &mut String,
) -> Result<VariantResult, TrainError> {
    let variant = P::VARIANT;
    let stream = stream_of(variant);
    let played: VariantGames<P> = default_rules_games(
        settings,
        stream,
        progress,
        "heterodox claim piece-values",
        pgn,
    )?;
    let (rules, games) = (&played.rules, &played.games);
    progress(&format!(
        "{variant}: fitting the values ({RESAMPLES} resamples)"
    ));
    let rows = rows_of::<P>(rules, games, settings.ply as usize)?;
    for row in &rows {
        let differences: Vec<String> = P::MATERIAL_KINDS
            .iter()
            .zip(&row.differences)
            .filter(|(_, &d)| d != 0)
            .map(|(kind, d)| format!("{kind}:{d}"))
            .collect();
        let _ = writeln!(
            csv,
            "{variant},{},{},{},{}",
            games[row.game].index + 1,
            row.ply,
            row.white_score,
            differences.join(";")
        );
    }
    Ok(VariantResult {
        name: variant.name(),
        strength: played.strength.clone(),
        fit: fit(
            P::MATERIAL_KINDS,
            &rows,
            games.len(),
            RESAMPLES,
            derive_seed(settings.seed, stream, 7),
        ),
    })
}

/// `+0.412 [+0.301, +0.530]`, or why there is none.
fn coefficient_text(value: &KindValue) -> String {
    match (
        value.coefficient,
        value.coefficient_low,
        value.coefficient_high,
    ) {
        (Some(c), Some(low), Some(high)) => format!("{c:+.3} [{low:+.3}, {high:+.3}]"),
        (Some(c), _, _) => format!("{c:+.3}"),
        (None, _, _) if value.differed == 0.0 => "never differed".to_owned(),
        (None, _, _) => "n/a".to_owned(),
    }
}

/// `2.95 [2.41, 3.60]`, or why there is none.
fn value_text(value: &KindValue) -> String {
    match (value.value, value.low, value.high) {
        (Some(v), Some(low), Some(high)) => format!("{v:.2} [{low:.2}, {high:.2}]"),
        (Some(v), _, _) => format!("{v:.2}"),
        (None, _, _) if value.differed == 0.0 => "never differed".to_owned(),
        (None, _, _) => "n/a".to_owned(),
    }
}

pub(crate) fn run(
    settings: &ClaimSettings,
    progress: &mut dyn FnMut(&str),
) -> Result<Findings, TrainError> {
    let mut csv = "variant,game,ply,white_score,differences\n".to_owned();
    let mut pgn = String::new();
    let mut results = Vec::new();
    for (_, play) in players() {
        results.push(play(settings, progress, &mut csv, &mut pgn)?);
    }
    let chess = results
        .iter()
        .find(|r| r.name == Variant::Chess.name())
        .expect("chess is registered");
    let order = chess_order(&chess.fit);
    let (verdict, conclusion) =
        if !chess.strength.strong_enough() {
            (
                Verdict::AgentsTooWeak,
                "The chess agent does not clearly beat random play; its games' material says \
             little about what the men are worth."
                    .to_owned(),
            )
        } else if let Some(problem) = chess
            .fit
            .problem
            .as_ref()
            .or(chess.fit.no_pawn_scale.as_ref())
        {
            (
                Verdict::Inconclusive,
                format!("No chess values in pawns: {problem}."),
            )
        } else {
            let verdict = order_verdict(&order);
            let held: Vec<&str> = order.iter().filter(|o| o.1 > 0).map(|o| o.0).collect();
            let text =
                match verdict {
                    Verdict::Supported => format!(
                        "In chess the fitted values keep the classical order at the 5% level ({}).",
                        held.join(", ")
                    ),
                    Verdict::Refuted => format!(
                        "In chess the fit reverses {} at the 5% level.",
                        order
                            .iter()
                            .filter(|o| o.1 < 0)
                            .map(|o| o.0)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    _ => format!(
                "In chess the fit does not separate every step of the classical order at the \
                 5% level (separated: {}).",
                if held.is_empty() { "none".to_owned() } else { held.join(", ") }
            ),
                };
            (verdict, text)
        };

    let mut body = format!(
        "Each agent plays itself from seeded openings; the material differences (White's men \
         of each kind minus Black's) are read every {SAMPLE_EVERY} plies from ply {} to a game's \
         end, and White's score (1, 1/2, 0) is regressed on them (logistic, with an intercept \
         and a weak ridge, a normal prior of sd 2 logits per man). A value is the \
         kind's coefficient over the pawn's; its 95% interval is the 2.5 and 97.5 percentiles \
         of {RESAMPLES} bootstrap resamples of the games. \"differed\" is the share of positions \
         where the sides' counts of that kind differed: a kind that seldom differs gets a wide \
         interval.\n\n",
        settings.ply
    );
    let _ = writeln!(body, "### The chess check\n");
    let _ = writeln!(body, "| step | at the 5% level |\n| --- | --- |");
    for (step, direction) in &order {
        let words = match direction {
            1 => "holds",
            -1 => "reversed",
            _ => "not separated",
        };
        let _ = writeln!(body, "| {step} | {words} |");
    }
    let _ = writeln!(
        body,
        "\nAlphaZero's values (Tomašev et al. 2020): knight 3.05, bishop 3.33, rook 5.63, \
         queen 9.5.\n"
    );
    for result in &results {
        let fit = &result.fit;
        let _ = writeln!(
            body,
            "### {}\n\n`{}` (strength above); {} games, {} positions{}.\n",
            result.name,
            result.strength.agent,
            fit.games,
            fit.positions,
            if fit.failed_resamples > 0 {
                format!(
                    "; {} of {RESAMPLES} resamples failed to fit",
                    fit.failed_resamples
                )
            } else {
                String::new()
            }
        );
        if let Some(problem) = &fit.problem {
            let _ = writeln!(body, "No values: {problem}.\n");
            continue;
        }
        if let Some(reason) = &fit.no_pawn_scale {
            let _ = writeln!(body, "No values in pawns: {reason}.\n");
        }
        let _ = writeln!(
            body,
            "| kind | value in pawns [95% CI] | logit coefficient [95% CI] | differed |\n| --- | --- | --- | --- |"
        );
        for value in &fit.values {
            let _ = writeln!(
                body,
                "| {} | {} | {} | {:.1}% |",
                value.kind,
                value_text(value),
                coefficient_text(value),
                100.0 * value.differed
            );
        }
        body.push('\n');
    }

    let plots: Vec<serde_json::Value> = results
        .iter()
        .filter(|r| r.fit.problem.is_none())
        .map(|r| {
            let values = &r.fit.values;
            let number = |v: Option<f64>| v.map_or(serde_json::Value::Null, |v| json!(v));
            // Without a pawn scale the plot shows the logit coefficients.
            let in_pawns = r.fit.no_pawn_scale.is_none();
            let pick = |v: &KindValue| {
                if in_pawns {
                    (v.value, v.low, v.high)
                } else {
                    (v.coefficient, v.coefficient_low, v.coefficient_high)
                }
            };
            let mut series = vec![json!({
                "label": format!("fitted ({})", r.strength.agent),
                "y": values.iter().map(|v| number(pick(v).0)).collect::<Vec<_>>(),
                "low": values.iter().map(|v| number(pick(v).1)).collect::<Vec<_>>(),
                "high": values.iter().map(|v| number(pick(v).2)).collect::<Vec<_>>(),
            })];
            if r.name == "chess" {
                series.push(json!({
                    "label": "AlphaZero (Tomašev et al. 2020)",
                    "y": ALPHAZERO_CHESS,
                }));
            }
            let (title, axis, reference) = if in_pawns {
                (
                    "fitted piece values (pawn = 1, 95% CI)",
                    "value in pawns",
                    1.0,
                )
            } else {
                (
                    "logit coefficients per man (no pawn scale, 95% CI)",
                    "change in the log-odds of White's score",
                    0.0,
                )
            };
            json!({
                "file": format!("values-{}.png", r.name),
                "title": format!("{}: {title}", r.name),
                "ylabel": axis,
                "categories": values.iter().map(|v| v.kind).collect::<Vec<_>>(),
                "series": series,
                "reference": reference,
                "horizontal": true,
            })
        })
        .collect();
    let games = results.iter().map(|r| r.fit.games).sum();
    let json_results: Vec<serde_json::Value> = results
        .iter()
        .map(|r| json!({"variant": r.name, "fit": r.fit}))
        .collect();
    Ok(Findings {
        verdict,
        conclusion: noted(settings.quick, conclusion),
        body,
        strengths: results.iter().map(|r| r.strength.clone()).collect(),
        games,
        results: json!({
            "first_ply": settings.ply,
            "sample_every_plies": SAMPLE_EVERY,
            "ridge": RIDGE,
            "resamples": RESAMPLES,
            "chess_order": order.iter().map(|(s, d)| json!({"step": s, "direction": d})).collect::<Vec<_>>(),
            "variants": json_results,
        }),
        plots: json!(plots),
        csv,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games whose results follow known values exactly in expectation:
    /// the log-odds of White's score is 0.8 per pawn and 2.4 per knight,
    /// so the knight is worth 3 pawns.
    fn synthetic_rows(games: usize) -> Vec<Row> {
        let mut rng = SplitMix64::new(11);
        let mut rows = Vec::new();
        for game in 0..games {
            let pawns = rng.below(5) as i32 - 2;
            let knights = rng.below(3) as i32 - 1;
            let p = 1.0 / (1.0 + (-(0.8 * f64::from(pawns) + 2.4 * f64::from(knights))).exp());
            let score = if (rng.next_u64() as f64 / u64::MAX as f64) < p {
                1.0
            } else {
                0.0
            };
            for ply in [24, 48] {
                rows.push(Row {
                    game,
                    ply,
                    white_score: score,
                    differences: vec![pawns, knights, 0],
                });
            }
        }
        rows
    }

    #[test]
    fn the_fit_recovers_planted_values() {
        const KINDS: &[&str] = &["pawn", "knight", "bishop"];
        let fit = fit(KINDS, &synthetic_rows(3000), 3000, 50, 5);
        assert_eq!(fit.problem, None);
        assert_eq!(
            (fit.games, fit.positions, fit.failed_resamples),
            (3000, 6000, 0)
        );
        let pawn = &fit.values[0];
        assert_eq!(pawn.value, Some(1.0));
        assert_eq!(pawn.differed, 1.0 - level_pawns_share());
        let knight = &fit.values[1];
        let value = knight.value.unwrap();
        assert!((value - 3.0).abs() < 0.35, "{value}");
        assert!(knight.low.unwrap() < value && value < knight.high.unwrap());
        assert!(
            knight.low.unwrap() > 2.0 && knight.high.unwrap() < 4.0,
            "{knight:?}"
        );
        // The bishop never differed: no value, and said so.
        assert_eq!(fit.values[2].value, None);
        assert_eq!(value_text(&fit.values[2]), "never differed");
        // The same seed, the same intervals.
        let again = super::fit(KINDS, &synthetic_rows(3000), 3000, 50, 5);
        assert_eq!(again.values, fit.values);
    }

    /// The share of synthetic positions with the pawns level (about 1 in
    /// 5), counted from the rows.
    fn level_pawns_share() -> f64 {
        let rows = synthetic_rows(3000);
        rows.iter().filter(|r| r.differences[0] == 0).count() as f64 / rows.len() as f64
    }

    #[test]
    fn without_a_positive_pawn_coefficient_the_logits_remain() {
        const KINDS: &[&str] = &["pawn", "knight", "bishop"];
        // The planted pawn coefficient is -0.8: pawns hurt, no scale.
        let rows: Vec<Row> = synthetic_rows(3000)
            .into_iter()
            .map(|mut row| {
                row.differences[0] = -row.differences[0];
                row
            })
            .collect();
        let fit = fit(KINDS, &rows, 3000, 50, 5);
        assert_eq!(fit.problem, None);
        assert!(fit
            .no_pawn_scale
            .as_deref()
            .unwrap()
            .contains("not positive"));
        assert!(fit.resampled.is_empty());
        assert_eq!(fit.failed_resamples, 0);
        let (pawn, knight) = (&fit.values[0], &fit.values[1]);
        assert_eq!((pawn.value, knight.value), (None, None));
        let c = knight.coefficient.unwrap();
        assert!((c - 2.4).abs() < 0.3, "{knight:?}");
        assert!(knight.coefficient_low.unwrap() < c && c < knight.coefficient_high.unwrap());
        assert!(pawn.coefficient_high.unwrap() < 0.0, "{pawn:?}");
        assert_eq!(coefficient_text(&fit.values[2]), "never differed");
    }

    #[test]
    fn too_few_positions_give_a_reason_not_values() {
        const KINDS: &[&str] = &["pawn", "knight"];
        let rows = vec![Row {
            game: 0,
            ply: 24,
            white_score: 1.0,
            differences: vec![1, 0],
        }];
        let fit = fit(KINDS, &rows, 1, 10, 0);
        assert!(
            fit.problem
                .as_deref()
                .unwrap()
                .contains("regression failed"),
            "{fit:?}"
        );
        assert_eq!(fit.values[0].value, None);
        assert_eq!(fit.values[1].value, None);
        assert_eq!(value_text(&fit.values[1]), "never differed");
    }

    #[test]
    fn chess_order_and_its_verdict() {
        let fit_of = |resampled: Vec<Vec<f64>>| Fit {
            values: Vec::new(),
            games: 0,
            positions: 0,
            failed_resamples: 0,
            resampled,
            problem: None,
            no_pawn_scale: None,
        };
        let classical = fit_of(vec![vec![1.0, 3.0, 3.2, 5.0, 9.0]; 10]);
        let order = chess_order(&classical);
        assert_eq!(order.iter().map(|o| o.1).collect::<Vec<_>>(), [1, 1, 1, 1]);
        assert_eq!(order_verdict(&order), Verdict::Supported);
        // A queen worth less than a rook in every resample: refuted.
        let reversed = fit_of(vec![vec![1.0, 3.0, 3.2, 5.0, 4.0]; 10]);
        let order = chess_order(&reversed);
        assert_eq!(order[3], ("rook < queen", -1));
        assert_eq!(order_verdict(&order), Verdict::Refuted);
        // A rook no better than the minors in half the resamples: not
        // separated, so inconclusive.
        let mut mixed = vec![vec![1.0, 3.0, 3.2, 5.0, 9.0]; 5];
        mixed.extend(vec![vec![1.0, 3.0, 3.2, 2.0, 9.0]; 5]);
        let order = chess_order(&fit_of(mixed));
        assert_eq!(order[2], ("knight, bishop < rook", 0));
        assert_eq!(order_verdict(&order), Verdict::Inconclusive);
    }

    #[test]
    fn every_registered_variant_is_played_on_its_old_seed_stream() {
        let played: Vec<Variant> = players().into_iter().map(|(variant, _)| variant).collect();
        assert_eq!(played, Variant::ALL);
        let Plays::DefaultRules(plays) = CLAIM.plays else {
            panic!("the piece-values claim plays default rules");
        };
        assert_eq!(plays, Variant::ALL);
        // The numbers the variants were played with when listed by hand:
        // the reports written then replay byte for byte.
        let streams: Vec<(Variant, usize)> = Variant::ALL
            .into_iter()
            .map(|variant| (variant, stream_of(variant)))
            .collect();
        assert_eq!(
            streams[..5],
            [
                (Variant::Chess, 1),
                (Variant::Poison, 2),
                (Variant::Hostage, 3),
                (Variant::MadScientist, 4),
                (Variant::Traitor, 5),
            ]
        );
    }

    /// The test-only variant joins the claim by its registry line and its
    /// one-line inventory (`measures/kingofthehill.rs`).
    #[cfg(feature = "test-variant")]
    #[test]
    fn king_of_the_hill_is_played_by_the_piece_values_claim() {
        use heterodox_env::kingofthehill::KingOfTheHill;
        let variant = KingOfTheHill::VARIANT;
        assert!(players().iter().any(|&(v, _)| v == variant));
        assert!(CLAIM
            .rule_sets()
            .unwrap()
            .iter()
            .any(|(v, _)| *v == variant));
        assert_eq!(stream_of(variant), Variant::ALL.len());
    }

    #[test]
    fn quantiles_interpolate() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&sorted, 0.0), 1.0);
        assert_eq!(quantile(&sorted, 0.5), 3.0);
        assert_eq!(quantile(&sorted, 0.125), 1.5);
        assert_eq!(percentile_interval([f64::NAN, 2.0].into_iter()), None);
    }
}
