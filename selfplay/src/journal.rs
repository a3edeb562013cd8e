//! A run's journal (a claim's, an arena's): every game written as it
//! finishes, so that a run that is stopped (killed, out of time on a lent
//! machine) continues with `--resume` where it stopped instead of starting
//! over, and so that the parts of a run split across machines (`--part
//! K/N`) can be merged into one. Claims at deciding power take hours; a
//! claim that wrote nothing until its report lost them all.
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
//!
//! A journal without games holds nothing to lose: a new run replaces it,
//! whatever its settings. The journal directory is created with
//! `create_dir`, so two runs started at once on one report cannot share
//! it, and removed with run.json last, so a kill during the removal leaves
//! a journal that still resumes.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::DuelGame;
use heterodox_data::atomic::{write_file, LineLog};
use serde_json::Value;

/// Why a journal cannot be used: the directory is not one a run may use
/// as asked (already holding games without `--resume`, another run's
/// settings...), or the file system failed.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("run directory {path}: {message}")]
    RunDir { path: PathBuf, message: String },
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl JournalError {
    fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> JournalError {
        let path = path.into();
        move |source| JournalError::Io { path, source }
    }
}

impl From<heterodox_data::atomic::AtomicError> for JournalError {
    fn from(error: heterodox_data::atomic::AtomicError) -> JournalError {
        use heterodox_data::atomic::AtomicError;
        match error {
            AtomicError::Io { path, source } => JournalError::Io { path, source },
            AtomicError::Refused { path, reason } => JournalError::RunDir {
                path,
                message: reason,
            },
        }
    }
}

/// The journal of one claim run (see the module docs).
#[derive(Clone, Debug)]
pub struct Journal {
    dir: PathBuf,
    /// The duels opened so far: two duels of a run must never share a
    /// file, or the second would take the first one's games as its own.
    opened: Arc<Mutex<HashSet<String>>>,
    /// The first failure to write a game: the run goes on (its games are
    /// in memory) but can no longer be resumed, which the run reports.
    failure: Arc<Mutex<Option<String>>>,
}

/// Games appended to one duel's file as they finish.
pub struct DuelLog {
    log: Option<LineLog>,
    failure: Arc<Mutex<Option<String>>>,
}

impl DuelLog {
    /// Writes `game`. A failure (a full disk) is kept for the run's
    /// warnings and ends this duel's journal, not the run: every game is
    /// still in memory, and the report can be written.
    pub fn append(&mut self, game: &DuelGame) {
        let Some(log) = &mut self.log else { return };
        let line = serde_json::to_string(game).expect("a game serializes");
        if let Err(e) = log.append(&line) {
            self.log = None;
            let mut failure = self.failure.lock().unwrap_or_else(|p| p.into_inner());
            failure.get_or_insert_with(|| {
                format!("the journal stopped recording games ({e}): this run cannot be resumed")
            });
        }
    }
}

/// `out`'s journal directory: `<out>.journal` beside it. `out` must end
/// in a name (not `.`, `..` or `/`): a report is published by renaming a
/// sibling into place.
pub fn journal_dir(out: &Path) -> Result<PathBuf, JournalError> {
    let Some(name) = out.file_name() else {
        return Err(JournalError::RunDir {
            path: out.to_owned(),
            message: "a report directory needs a name of its own (not ., .. or /): \
                      choose another --out"
                .to_owned(),
        });
    };
    let mut name = name.to_os_string();
    name.push(".journal");
    Ok(out.with_file_name(name))
}

/// What is found where a run's journal goes.
enum Found {
    Nothing,
    /// A journal without a game: nothing to lose.
    Empty,
    /// Games of an interrupted run, with its run.json.
    Games {
        run: Value,
        games: usize,
    },
}

impl Journal {
    /// The journal for a run of the report `out` with `settings` (a JSON
    /// object: what must not change between a run and its resumption)
    /// and `command`. Without `resume`, a journal with games is an error
    /// naming it, never silently continued or deleted; with `resume`,
    /// there must be one, with the same settings.
    pub fn open(
        out: &Path,
        settings: &Value,
        command: &str,
        resume: bool,
    ) -> Result<Journal, JournalError> {
        let dir = journal_dir(out)?;
        let refuse = |message: String| JournalError::RunDir {
            path: dir.clone(),
            message,
        };
        let journal = Journal {
            dir: dir.clone(),
            opened: Arc::default(),
            failure: Arc::default(),
        };
        match (journal.found()?, resume) {
            (Found::Nothing | Found::Empty, false) => {
                journal.remove_files()?;
                journal.create(settings, command)?;
                Ok(journal)
            }
            (Found::Nothing | Found::Empty, true) => Err(refuse(format!(
                "no interrupted run to resume: no game was written{}",
                if out.join("claim.json").is_file() {
                    format!(" since the report in {} was completed", out.display())
                } else {
                    String::new()
                }
            ))),
            (Found::Games { run, games }, false) => {
                let complete = if out.join("claim.json").is_file() {
                    format!(" (the report in {} may be complete)", out.display())
                } else {
                    String::new()
                };
                Err(refuse(format!(
                    "holds {games} games of an interrupted run ({}){complete}: add --resume \
                     to continue it, or remove the directory to start over",
                    run["command"].as_str().unwrap_or("its command is unknown")
                )))
            }
            (Found::Games { run, .. }, true) => {
                if let Some(difference) = first_difference(&run["settings"], settings) {
                    let command = run["command"].as_str().unwrap_or("unknown");
                    return Err(refuse(format!(
                        "its run has other settings ({difference}): resume it with its own \
                         command and --resume ({command})"
                    )));
                }
                Ok(journal)
            }
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What the journal directory holds.
    fn found(&self) -> Result<Found, JournalError> {
        if !self.dir.exists() {
            return Ok(Found::Nothing);
        }
        let games = self.games()?;
        let run_file = self.dir.join("run.json");
        if games == 0 {
            return Ok(Found::Empty);
        }
        let run = fs::read_to_string(&run_file)
            .map_err(JournalError::io(&run_file))
            .and_then(|text| {
                serde_json::from_str(&text).map_err(|e| JournalError::RunDir {
                    path: run_file.clone(),
                    message: format!("does not parse: {e}"),
                })
            })?;
        Ok(Found::Games { run, games })
    }

    /// Makes the journal directory with its run.json. `create_dir`, not
    /// `create_dir_all`: a second run started at the same time fails here.
    fn create(&self, settings: &Value, command: &str) -> Result<(), JournalError> {
        if let Some(parent) = self.dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(JournalError::io(parent))?;
        }
        fs::create_dir(&self.dir).map_err(JournalError::io(&self.dir))?;
        let run = serde_json::json!({ "settings": settings, "command": command });
        let text = serde_json::to_string_pretty(&run).expect("run.json serializes") + "\n";
        write_file(&self.dir.join("run.json"), text.as_bytes())?;
        Ok(())
    }

    /// The games of duel `key`, kept from an interrupted run, and the log
    /// that its next games are appended to. A line that is not a game is
    /// an error naming the file and line; a key opened twice in one run
    /// is a bug, refused.
    pub fn duel(&self, key: &str) -> Result<(Vec<DuelGame>, DuelLog), JournalError> {
        let path = self.duel_file(key);
        let fresh = self
            .opened
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key.to_owned());
        if !fresh {
            return Err(JournalError::RunDir {
                path,
                message: "two duels of one run share this journal file".to_owned(),
            });
        }
        let (log, lines) = LineLog::open(&path)?;
        let games = lines
            .iter()
            .enumerate()
            .map(|(k, line)| {
                serde_json::from_str(line).map_err(|e| JournalError::RunDir {
                    path: path.clone(),
                    message: format!("line {} is not a game: {e}", k + 1),
                })
            })
            .collect::<Result<Vec<DuelGame>, _>>()?;
        let log = DuelLog {
            log: Some(log),
            failure: Arc::clone(&self.failure),
        };
        Ok((games, log))
    }

    /// The file of duel `key`.
    pub fn duel_file(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.jsonl"))
    }

    /// Whether the journal beside the report `out` holds a game (a run
    /// there to continue).
    pub fn has_games(out: &Path) -> Result<bool, JournalError> {
        let journal = Journal {
            dir: journal_dir(out)?,
            opened: Arc::default(),
            failure: Arc::default(),
        };
        Ok(journal.games()? > 0)
    }

    /// Games written so far, in every duel's file (whole lines).
    pub fn games(&self) -> Result<usize, JournalError> {
        let mut games = 0;
        for path in self.duel_files()? {
            let bytes = fs::read(&path).map_err(JournalError::io(&path))?;
            games += bytes.iter().filter(|&&b| b == b'\n').count();
        }
        Ok(games)
    }

    /// The duel files in the journal directory (none when it is absent).
    fn duel_files(&self) -> Result<Vec<PathBuf>, JournalError> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(JournalError::io(&self.dir)(e)),
        };
        let mut files = Vec::new();
        for entry in entries {
            let path = entry.map_err(JournalError::io(&self.dir))?.path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                files.push(path);
            }
        }
        Ok(files)
    }

    /// Why the journal stopped recording, if it did.
    pub fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Removes the journal (its report is published, or it holds no
    /// game): the duel files first, run.json last, then the directory.
    pub fn remove_files(&self) -> Result<(), JournalError> {
        if !self.dir.exists() {
            return Ok(());
        }
        for entry in fs::read_dir(&self.dir).map_err(JournalError::io(&self.dir))? {
            let path = entry.map_err(JournalError::io(&self.dir))?.path();
            if path.file_name().is_some_and(|n| n != "run.json") {
                if path.is_dir() {
                    fs::remove_dir_all(&path).map_err(JournalError::io(&path))?;
                } else {
                    fs::remove_file(&path).map_err(JournalError::io(&path))?;
                }
            }
        }
        let run_file = self.dir.join("run.json");
        match fs::remove_file(&run_file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(JournalError::io(&run_file)(e))
            }
            _ => {}
        }
        fs::remove_dir(&self.dir).map_err(JournalError::io(&self.dir))
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
            journal_dir(Path::new("reports/attacker")).unwrap(),
            Path::new("reports/attacker.journal")
        );
        assert_eq!(journal_dir(Path::new("x")).unwrap(), Path::new("x.journal"));
        for nameless in [".", "..", "/", "reports/.."] {
            let e = journal_dir(Path::new(nameless)).unwrap_err().to_string();
            assert!(e.contains("needs a name of its own"), "{nameless}: {e}");
        }
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
