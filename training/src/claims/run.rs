//! Running a claim: plays and judges it, resumes from its journal, and
//! writes the report directory through the one atomic writer.

use std::path::Path;

use super::catalogue::{find, Claim};
use super::report::{self, PlotOutcome};
use super::settings::ClaimSettings;
use super::summary::summary;
use super::verdict::{Findings, Verdict};
use super::{attacker, first_move, harpies, piece_values};
use crate::error::TrainError;
use crate::journal::Journal;

/// What `run_claim` reports back.
#[derive(Clone, Debug)]
pub struct ClaimOutcome {
    pub verdict: Verdict,
    pub conclusion: String,
    pub plots: PlotOutcome,
    /// What went wrong without spoiling the report (a journal that
    /// stopped recording, or was not removed).
    pub warnings: Vec<String>,
}

/// Plays and judges claim `name` and writes its report into `out`;
/// `command` is the command line that reproduces it; `progress` receives
/// a line of what is being played.
pub fn run_claim(
    name: &str,
    settings: &ClaimSettings,
    out: &Path,
    command: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<ClaimOutcome, TrainError> {
    if settings.part.is_some() {
        return Err(TrainError::Config {
            path: None,
            message: "a part of a claim writes no report: run it with play_claim_part".to_owned(),
        });
    }
    let (claim, journal, findings) = play(name, settings, settings.resume, out, command, progress)?;
    let settings = &ClaimSettings {
        journal: Some(journal.clone()),
        ..settings.clone()
    };
    let json = serde_json::json!({
        "claim": claim.name,
        "title": claim.title,
        "hypothesis": claim.hypothesis,
        "verdict": findings.verdict,
        "conclusion": findings.conclusion,
        "command": command,
        "seed": settings.seed,
        "quick": settings.quick,
        "games": findings.games,
        "max_plies": settings.max_plies,
        "opening_plies": settings.opening_plies,
        "agents": findings.strengths,
        "results": findings.results,
        "plots": findings.plots,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let mut files = report::ReportFiles::default();
    files.add(
        "claim.json",
        serde_json::to_string_pretty(&json).expect("claim.json serializes") + "\n",
    );
    files.add("games.csv", findings.csv.clone());
    files.add("games.pgn", findings.pgn.clone());
    let plots = report::write_report(out, files, |plots| {
        summary(claim, settings, &findings, command, plots)
    })
    .map_err(|e| kept_for_resume(&journal, e))?;
    let mut warnings: Vec<String> = journal.failure().into_iter().collect();
    // The report is out: a journal left behind is only untidy.
    if let Err(e) = journal.remove_files() {
        warnings.push(format!(
            "the journal {} was not removed ({e}); remove it before the next run here",
            journal.dir().display()
        ));
    }
    Ok(ClaimOutcome {
        verdict: findings.verdict,
        conclusion: findings.conclusion,
        plots,
        warnings,
    })
}

/// What a part of a claim run did (`--part K/N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartOutcome {
    /// Games of the part in its journal, the kept ones included.
    pub games: usize,
    /// Where they are: `<out>.journal`.
    pub journal: std::path::PathBuf,
}

/// Plays part `settings.part` of claim `name`'s games into the journal
/// beside `out` and writes no report: a task of a run split across
/// machines (`python -m heterodox.ray claim`). A part whose journal holds
/// games continues it (the same settings are required), so a task run
/// again after its worker died plays only the games it lacks. The driver
/// merges the parts' journals into the run's own and writes the report
/// with [`run_claim`] and `resume`, which then plays nothing: the report
/// comes from the code that writes it on one machine.
pub fn play_claim_part(
    name: &str,
    settings: &ClaimSettings,
    out: &Path,
    command: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<PartOutcome, TrainError> {
    if settings.part.is_none() {
        return Err(TrainError::Config {
            path: None,
            message: "play_claim_part needs a part (--part K/N)".to_owned(),
        });
    }
    let resume = settings.resume || Journal::has_games(out)?;
    let (_, journal, findings) = play(name, settings, resume, out, command, progress)?;
    // The part's findings come from a share of the games: only its games
    // count, and they are in the journal, which is kept for the merge.
    drop(findings);
    Ok(PartOutcome {
        games: journal.games()?,
        journal: journal.dir().to_owned(),
    })
}

/// Checks the run, opens its journal (continuing it when `resume`) and
/// plays the claim: the findings of the games played and kept.
fn play(
    name: &str,
    settings: &ClaimSettings,
    resume: bool,
    out: &Path,
    command: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<(&'static Claim, Journal, Findings), TrainError> {
    let claim = find(name)?;
    settings.check()?;
    // Refused now, not after hours of games.
    settings.agents.check_plays(claim)?;
    report::check_out(out)?;
    let journal = Journal::open(out, &journal_settings(claim, settings)?, command, resume)?;
    let settings = &ClaimSettings {
        journal: Some(journal.clone()),
        ..settings.clone()
    };
    let findings = match claim.name {
        "hostage-favours-the-attacker" => attacker::run(settings, progress),
        "poison-two-harpies-draw" => harpies::run(settings, progress),
        "first-move-advantage" => first_move::run(settings, progress),
        "piece-values" => piece_values::run(settings, progress),
        _ => unreachable!("every registered claim has a runner"),
    };
    let findings = findings.map_err(|e| kept_for_resume(&journal, e))?;
    Ok((claim, journal, findings))
}

/// `error`, which ended a run: when games were written, it says they are
/// kept for `--resume`; when none was (an agent that does not load), the
/// journal is removed, since it holds nothing to resume.
pub(crate) fn kept_for_resume(journal: &Journal, error: TrainError) -> TrainError {
    match journal.games() {
        Ok(games) if games > 0 && journal.failure().is_none() => TrainError::Interrupted {
            source: Box::new(error),
            journal: journal.dir().to_owned(),
            games,
        },
        Ok(0) => {
            let _ = journal.remove_files();
            error
        }
        _ => error,
    }
}

/// What a resumed run must share with the run it continues: every
/// setting of the report but the batch size and the device (which only
/// change a network's last bits), and each network agent's weights, named
/// by a checksum, since `RUN/last` moves on as a run trains. A network
/// agent without weights is refused here, before any game: a claim can
/// reach a variant's agent after hours of another's games.
pub(crate) fn journal_settings(
    claim: &Claim,
    settings: &ClaimSettings,
) -> Result<serde_json::Value, TrainError> {
    let mut per_variant: Vec<(String, String)> = settings
        .agents
        .per_variant
        .iter()
        .map(|(variant, spec)| (variant.name().to_owned(), spec.to_string()))
        .collect();
    // By variant, keeping the order within one (it decides which of two
    // agents that can play the same rules plays them).
    per_variant.sort_by(|a, b| a.0.cmp(&b.0));
    let mut networks: Vec<(String, String)> = Vec::new();
    let agents = std::iter::once(&settings.agents.default)
        .chain(settings.agents.per_variant.iter().map(|(_, spec)| spec));
    for spec in agents {
        let dir = spec
            .kind
            .network_dir()
            .map_err(|e| TrainError::Checkpoint {
                path: spec.to_string().into(),
                message: e.to_string(),
            })?;
        let Some(dir) = dir else {
            continue;
        };
        let weights = dir.join("model.safetensors");
        let bytes = std::fs::read(&weights).map_err(|e| TrainError::Checkpoint {
            path: dir.clone(),
            message: format!("agent {spec}: its weights cannot be read ({e})"),
        })?;
        let checksum = heterodox_data::shard::checksum(&bytes);
        networks.push((spec.to_string(), format!("fnv1a64 {checksum:016x}")));
    }
    Ok(serde_json::json!({
        "claim": claim.name,
        "agent": settings.agents.default.to_string(),
        "agents_per_variant": per_variant,
        "network_weights": networks,
        "games": settings.games,
        "calibration_games": settings.calibration_games,
        "max_plies": settings.max_plies,
        "opening_plies": settings.opening_plies,
        "ply": settings.ply,
        "seed": settings.seed,
        "search": settings.search,
    }))
}
