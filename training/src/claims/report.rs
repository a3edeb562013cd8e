//! A claim's report directory, written atomically by the one atomic writer
//! (`heterodox_data::atomic::publish_dir`): every file goes into a
//! staging directory beside the target, the plots are drawn there, and the
//! directory is renamed into place, so a killed run leaves the previous
//! report or none, never a mix.
//!
//! ```text
//! REPORT/summary.md   hypothesis, agents and strength, effect sizes, CIs,
//!                     p-values, verdict, the command that reproduces it
//! REPORT/claim.json   the same numbers, and the data of the plots
//! REPORT/games.csv    one row per game (claim-specific columns)
//! REPORT/games.pgn    every game, the variant's notation and Variant tag
//! REPORT/plots/*.png  drawn by python/heterodox/plot.py (matplotlib)
//! ```
//!
//! The plots are drawn by the plotting module the training curves use,
//! which the binary carries (`include_str!`) and hands to a Python with
//! matplotlib on its standard input: `HETERODOX_PYTHON`, else the
//! checkout's `.venv` found above the executable, else `python3`. Without
//! one, the report says so and how to draw them later.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use heterodox_data::atomic::{publish_dir, Replace};
use std::process::{Command, Stdio};

use crate::error::TrainError;

/// The plotting module, carried by the binary.
const PLOT_SCRIPT: &str = include_str!("../../../python/heterodox/plot.py");

/// Files of a report before they are written.
#[derive(Default)]
pub(crate) struct ReportFiles {
    files: Vec<(String, Vec<u8>)>,
}

impl ReportFiles {
    pub fn add(&mut self, name: &str, bytes: impl Into<Vec<u8>>) {
        self.files.push((name.to_owned(), bytes.into()));
    }
}

/// What drawing the plots gave: the files, or why there are none.
pub type PlotOutcome = Result<Vec<String>, String>;

/// Writes `files` into a staging directory, draws the plots from its
/// claim.json, asks `summary` for summary.md given the plot outcome, and
/// publishes the directory as `out` (`heterodox_data::atomic`). An
/// `out` that holds a previous report (a claim.json) is replaced; any
/// other non-empty directory is refused.
pub(crate) fn write_report(
    out: &Path,
    files: ReportFiles,
    summary: impl FnOnce(&PlotOutcome) -> String,
) -> Result<PlotOutcome, TrainError> {
    let published = publish_dir(out, REPLACE, |staging| {
        for (file, bytes) in &files.files {
            let path = staging.join(file);
            fs::write(&path, bytes).map_err(TrainError::io(&path))?;
        }
        let plots = draw_plots(staging);
        let path = staging.join("summary.md");
        fs::write(&path, summary(&plots)).map_err(TrainError::io(&path))?;
        Ok(plots)
    });
    published.map_err(|e| not_a_report(out, e))
}

/// Refuses an `out` that [`write_report`] would refuse (a directory that
/// is not a claim report, a path without a name of its own), before any
/// game is played.
pub(crate) fn check_out(out: &Path) -> Result<(), TrainError> {
    crate::journal::journal_dir(out)?;
    REPLACE
        .check(out)
        .map(|_| ())
        .map_err(|e| not_a_report(out, e.into()))
}

/// The directories a report may replace: earlier reports.
const REPLACE: Replace<'static> = Replace::Marked("claim.json");

/// The atomic writer's refusal of `out`, in a claim's words.
fn not_a_report(out: &Path, error: TrainError) -> TrainError {
    match error {
        TrainError::RunDir { path, .. } if path == out => TrainError::RunDir {
            path,
            message: "exists and is not a claim report; choose another --out".to_owned(),
        },
        other => other,
    }
}

/// The Python that draws the plots.
fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("HETERODOX_PYTHON") {
        return PathBuf::from(path);
    }
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            let candidate = dir.join(".venv/bin/python");
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    PathBuf::from("python3")
}

/// Runs the plotting module on `dir`; the plot files written, or why none.
fn draw_plots(dir: &Path) -> PlotOutcome {
    let python = python();
    let run = || -> std::io::Result<std::process::Output> {
        let mut child = Command::new(&python)
            .arg("-")
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(PLOT_SCRIPT.as_bytes())?;
        child.wait_with_output()
    };
    let output = run().map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no message").to_owned();
        return Err(format!("{} failed: {last}", python.display()));
    }
    let mut plots: Vec<String> = fs::read_dir(dir.join("plots"))
        .map_err(|e| format!("no plots were written: {e}"))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".png"))
        .collect();
    plots.sort();
    Ok(plots)
}
