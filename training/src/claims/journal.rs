//! A claim run's journal: every game written as it finishes, so that a run
//! that is stopped (killed, out of time on a lent machine) continues with
//! `--resume` where it stopped instead of starting over. Claims at
//! deciding power take hours; a claim that wrote nothing until its report
//! lost them all.
//!
//! ```text
//! REPORT.journal/run.json           the run's settings and command
//! REPORT.journal/<duel>.jsonl       one finished game per line
//! ```
//!
//! The journal sits beside the report directory, which is published whole
//! at the end (report.rs), and is removed once the report is. Each duel of
//! the run (an agent against itself or a calibration opponent, on one rule
//! set and seed stream) has its own file, appended through the atomic
//! module's [`LineLog`]: every line is a whole game flushed to disk, and a
//! line torn by a kill is cut off when the journal is read. A resumed run
//! must have the same settings (run.json), since its kept games were
//! played under them; the batch size and the device may change, as they
//! change nothing but a network's last bits (`Duel::run_resuming`).

use std::fs;
use std::path::{Path, PathBuf};

use heterodox_selfplay::atomic::{write_file, LineLog};
use heterodox_selfplay::DuelGame;
use serde_json::Value;

use crate::error::TrainError;

/// The journal of one claim run (see the module docs).
#[derive(Clone, Debug)]
pub struct Journal {
    dir: PathBuf,
}

/// Games appended to one duel's file as they finish.
pub(crate) struct DuelLog {
    log: LineLog,
}

impl DuelLog {
    pub fn append(&mut self, game: &DuelGame) -> Result<(), TrainError> {
        let line = serde_json::to_string(game).expect("a game serializes");
        Ok(self.log.append(&line)?)
    }
}

/// `out`'s journal directory: `<out>.journal` beside it.
pub fn journal_dir(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "report".into());
    name.push(".journal");
    out.with_file_name(name)
}

impl Journal {
    /// The journal for a run of the report `out` with `settings` (a JSON
    /// object: what must not change between a run and its resumption)
    /// and `command`. Without `resume`, a journal already there is an
    /// error naming it, never silently continued or deleted; with
    /// `resume`, there must be one, with the same settings.
    pub fn open(
        out: &Path,
        settings: &Value,
        command: &str,
        resume: bool,
    ) -> Result<Journal, TrainError> {
        let dir = journal_dir(out);
        let run_file = dir.join("run.json");
        let refuse = |message: String| TrainError::RunDir {
            path: dir.clone(),
            message,
        };
        let saved = match fs::read_to_string(&run_file) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(TrainError::io(&run_file)(e)),
        };
        match (saved, resume) {
            (None, false) => {
                if dir.exists() {
                    return Err(refuse(
                        "exists without a run.json: not a claim journal; remove it or choose another --out"
                            .to_owned(),
                    ));
                }
                fs::create_dir_all(&dir).map_err(TrainError::io(&dir))?;
                let run = serde_json::json!({ "settings": settings, "command": command });
                let text = serde_json::to_string_pretty(&run).expect("run.json serializes") + "\n";
                write_file(&run_file, text.as_bytes())?;
                Ok(Journal { dir })
            }
            (None, true) => Err(refuse(format!(
                "no interrupted run to resume{}",
                if out.join("claim.json").is_file() {
                    format!(" (the report in {} is complete)", out.display())
                } else {
                    String::new()
                }
            ))),
            (Some(text), false) => {
                let command = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|run| run["command"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| "unknown".to_owned());
                Err(refuse(format!(
                    "holds the games of an interrupted run ({command}): add --resume to \
                     continue it, or remove the directory to start over"
                )))
            }
            (Some(text), true) => {
                let run: Value = serde_json::from_str(&text)
                    .map_err(|e| refuse(format!("run.json does not parse: {e}")))?;
                if let Some(difference) = first_difference(&run["settings"], settings) {
                    let command = run["command"].as_str().unwrap_or("unknown");
                    return Err(refuse(format!(
                        "its run has other settings ({difference}): resume it with its own \
                         command and --resume ({command})"
                    )));
                }
                Ok(Journal { dir })
            }
        }
    }

    /// The games kept for duel `key`, and the log that the duel's next
    /// games are appended to. A line that is not a game is an error
    /// naming the file and line.
    pub(crate) fn duel(&self, key: &str) -> Result<(Vec<DuelGame>, DuelLog), TrainError> {
        let path = self.dir.join(format!("{key}.jsonl"));
        let (log, lines) = LineLog::open(&path)?;
        let games = lines
            .iter()
            .enumerate()
            .map(|(k, line)| {
                serde_json::from_str(line).map_err(|e| TrainError::RunDir {
                    path: path.clone(),
                    message: format!("line {} is not a game: {e}", k + 1),
                })
            })
            .collect::<Result<Vec<DuelGame>, _>>()?;
        Ok((games, DuelLog { log }))
    }

    /// Whether no game has been written yet.
    pub fn is_empty(&self) -> bool {
        fs::read_dir(&self.dir).map_or(true, |entries| {
            !entries.filter_map(Result::ok).any(|entry| {
                entry.path().extension().is_some_and(|e| e == "jsonl")
                    && entry.metadata().is_ok_and(|m| m.len() > 0)
            })
        })
    }

    /// Removes the journal: its report is published.
    pub fn remove(self) -> Result<(), TrainError> {
        fs::remove_dir_all(&self.dir).map_err(TrainError::io(&self.dir))
    }
}

/// The first setting in which `saved` and `now` differ, as `name: saved ->
/// now`; `None` when they are the same.
fn first_difference(saved: &Value, now: &Value) -> Option<String> {
    if saved == now {
        return None;
    }
    let (Some(saved), Some(now)) = (saved.as_object(), now.as_object()) else {
        return Some(format!("{saved} -> {now}"));
    };
    let mut names: Vec<&String> = saved.keys().chain(now.keys()).collect();
    names.sort();
    names.dedup();
    names.into_iter().find_map(|name| {
        let (a, b) = (&saved.get(name), &now.get(name));
        (a != b).then(|| {
            let show = |v: &Option<&Value>| v.map_or("none".to_owned(), |v| v.to_string());
            format!("{name}: {} -> {}", show(a), show(b))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_journal_sits_beside_the_report() {
        assert_eq!(
            journal_dir(Path::new("reports/attacker")),
            Path::new("reports/attacker.journal")
        );
        assert_eq!(journal_dir(Path::new("x")), Path::new("x.journal"));
    }

    #[test]
    fn differences_name_the_setting() {
        let a = json!({"games": 400, "seed": 0, "search": {"simulations": 64}});
        let b = json!({"games": 200, "seed": 0, "search": {"simulations": 64}});
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(
            first_difference(&a, &b).as_deref(),
            Some("games: 400 -> 200")
        );
        let c = json!({"games": 400, "seed": 0});
        assert_eq!(
            first_difference(&a, &c).as_deref(),
            Some("search: {\"simulations\":64} -> none")
        );
    }
}
