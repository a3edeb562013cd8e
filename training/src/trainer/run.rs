//! The run directory: its layout, its checkpoints, and what `--resume`
//! reads back.
//!
//! ```text
//! RUN/config.toml                  the run's settings (all fields)
//! RUN/metrics.jsonl                one JSON object per iteration / evaluation
//! RUN/games/iter-00012.hdxshard    the self-play games of iteration 12
//! RUN/games/iter-00012.pgn         the same games as PGN
//! RUN/eval/iter-00012.pgn          the evaluation games after iteration 12
//! RUN/checkpoints/ckpt-00012/      a checkpoint after iteration 12:
//!     config.json, model.safetensors, spec.json   the network (models crate)
//!     optimizer.safetensors        the momentum buffers
//!     trainer.json                 iteration, step, seed, config, versions
//! RUN/last -> checkpoints/ckpt-00012   the newest checkpoint
//! ```
//!
//! A checkpoint directory is a network checkpoint with two more files, so
//! `heterodox selfplay --net RUN/last` plays it. It is written atomically
//! (staging directory, fsync, rename; `heterodox_data::atomic`), then `last`
//! is moved to it (a new link renamed over the old one) and checkpoints
//! beyond the newest `keep` are deleted. A process killed at any point
//! leaves every complete checkpoint and never a partial one under a
//! `ckpt-` name: staging directories have another name and are ignored.
//!
//! All randomness of a run is derived from the config's seed and the
//! iteration number, so the trainer state needs no generator state beyond
//! the counters: resuming from a checkpoint replays what follows it.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use heterodox_data::atomic;
use heterodox_models::Network;

use crate::error::TrainError;
use crate::trainer::config::TrainConfig;
use crate::trainer::optimizer::Sgd;

pub const CONFIG_FILE: &str = "config.toml";
pub const METRICS_FILE: &str = "metrics.jsonl";
pub const GAMES_DIR: &str = "games";
pub const EVAL_DIR: &str = "eval";
pub const CHECKPOINTS_DIR: &str = "checkpoints";
pub const LAST_LINK: &str = "last";
pub const OPTIMIZER_FILE: &str = "optimizer.safetensors";
pub const TRAINER_FILE: &str = "trainer.json";
/// Version of `trainer.json`'s layout.
pub const TRAINER_FORMAT: u32 = 1;

/// What a checkpoint records besides the weights and the optimizer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainerState {
    pub format: u32,
    /// The version of Heterodox that wrote it.
    pub project_version: String,
    pub variant: String,
    pub encoding_version: u32,
    /// Iterations completed.
    pub iteration: u32,
    /// SGD steps taken.
    pub step: u64,
    /// Seconds of training (all processes of the run) up to here.
    pub elapsed_seconds: f64,
    /// The generators' state: every random process of iteration `i` is
    /// seeded by `derive_seed(seed, i, stream)`, so the base seed and the
    /// counters above are the whole state.
    pub seed: u64,
    /// The run's settings when the checkpoint was written.
    pub config: TrainConfig,
}

/// The name of iteration `iteration`'s file or directory: `PREFIX-NNNNN`
/// and `extension`, the number zero-padded so that names sort by it.
fn iteration_name(prefix: &str, iteration: u32, extension: &str) -> String {
    format!("{prefix}-{iteration:05}{extension}")
}

/// `ckpt-NNNNN`: the checkpoint directory after iteration `iteration`.
fn checkpoint_name(iteration: u32) -> String {
    iteration_name("ckpt", iteration, "")
}

/// A run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    pub fn new(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config_path(&self) -> PathBuf {
        self.root.join(CONFIG_FILE)
    }

    pub fn metrics_path(&self) -> PathBuf {
        self.root.join(METRICS_FILE)
    }

    /// `RUN/DIR/NAME` for a file or directory of one iteration.
    fn iteration_path(&self, dir: &str, name: String) -> PathBuf {
        self.root.join(dir).join(name)
    }

    pub fn shard_path(&self, iteration: u32) -> PathBuf {
        self.iteration_path(GAMES_DIR, iteration_name("iter", iteration, ".hdxshard"))
    }

    pub fn pgn_path(&self, iteration: u32) -> PathBuf {
        self.iteration_path(GAMES_DIR, iteration_name("iter", iteration, ".pgn"))
    }

    pub fn eval_pgn_path(&self, iteration: u32) -> PathBuf {
        self.iteration_path(EVAL_DIR, iteration_name("iter", iteration, ".pgn"))
    }

    pub fn checkpoint_path(&self, iteration: u32) -> PathBuf {
        self.iteration_path(CHECKPOINTS_DIR, checkpoint_name(iteration))
    }

    pub fn last_link(&self) -> PathBuf {
        self.root.join(LAST_LINK)
    }

    /// Whether the directory already holds a run (its config).
    pub fn holds_run(&self) -> bool {
        self.config_path().exists()
    }

    /// Creates the directory and its sub-directories and checks that
    /// files can be written there, before anything is computed.
    pub fn prepare(&self) -> Result<(), TrainError> {
        for dir in [
            self.root.clone(),
            self.root.join(GAMES_DIR),
            self.root.join(EVAL_DIR),
            self.root.join(CHECKPOINTS_DIR),
        ] {
            fs::create_dir_all(&dir).map_err(|e| TrainError::RunDir {
                path: self.root.clone(),
                message: format!("cannot create {}: {e}", dir.display()),
            })?;
        }
        let probe = self
            .root
            .join(format!(".write-probe-{}", std::process::id()));
        fs::write(&probe, b"")
            .and_then(|()| fs::remove_file(&probe))
            .map_err(|e| TrainError::RunDir {
                path: self.root.clone(),
                message: format!("cannot write into it: {e}"),
            })
    }

    /// The iterations of the complete checkpoints, ascending.
    pub fn checkpoints(&self) -> Result<Vec<u32>, TrainError> {
        let dir = self.root.join(CHECKPOINTS_DIR);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(TrainError::io(&dir)(e)),
        };
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(TrainError::io(&dir))?;
            let name = entry.file_name();
            let Some(number) = name.to_str().and_then(|n| n.strip_prefix("ckpt-")) else {
                continue;
            };
            // The atomic writer's staging and replaced directories are
            // hidden (`.ckpt-...`), so they never get here.
            if let Ok(iteration) = number.parse::<u32>() {
                found.push(iteration);
            }
        }
        found.sort_unstable();
        Ok(found)
    }

    /// Deletes what a killed process may have left half-made: the atomic
    /// writer's staging and replaced checkpoint directories
    /// (`.ckpt-N.tmp-...`, `.ckpt-N.old-...`) and temporary files (a
    /// half-made `last` link, config or metrics file). Complete
    /// checkpoints are not touched. Called on resume, before anything is
    /// written.
    pub fn remove_leftovers(&self) -> Result<(), TrainError> {
        for dir in [self.root.join(CHECKPOINTS_DIR), self.root.clone()] {
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(TrainError::io(&dir)(e)),
            };
            for entry in entries {
                let entry = entry.map_err(TrainError::io(&dir))?;
                if !atomic::is_leftover(&entry.file_name().to_string_lossy()) {
                    continue;
                }
                let path = entry.path();
                let is_dir = entry.file_type().map_err(TrainError::io(&path))?.is_dir();
                let removed = if is_dir {
                    fs::remove_dir_all(&path)
                } else {
                    fs::remove_file(&path)
                };
                removed.map_err(TrainError::io(&path))?;
            }
        }
        Ok(())
    }

    /// Writes the checkpoint of `iteration` (network, optimizer, state),
    /// points `last` at it and deletes all but the newest `keep`.
    pub fn save_checkpoint(
        &self,
        network: &Network,
        optimizer: &Sgd,
        state: &TrainerState,
        keep: u32,
    ) -> Result<PathBuf, TrainError> {
        let path = self.checkpoint_path(state.iteration);
        let mut state_json = serde_json::to_string_pretty(state).expect("a state serializes");
        state_json.push('\n');
        network
            .save_with(&path, &[OPTIMIZER_FILE, TRAINER_FILE], |staging| {
                optimizer
                    .save(&staging.join(OPTIMIZER_FILE))
                    .map_err(|e| to_model_error(staging, e))?;
                fs::write(staging.join(TRAINER_FILE), &state_json)
                    .map_err(|e| to_model_error(staging, TrainError::io(staging)(e)))
            })
            .map_err(|e| TrainError::Checkpoint {
                path: path.clone(),
                message: format!("cannot write: {e}"),
            })?;
        self.point_last_at(state.iteration)?;
        let all = self.checkpoints()?;
        let excess = all.len().saturating_sub(keep as usize);
        for &old in &all[..excess] {
            let dir = self.checkpoint_path(old);
            fs::remove_dir_all(&dir).map_err(TrainError::io(&dir))?;
        }
        Ok(path)
    }

    /// Moves the `last` link to checkpoint `iteration`: a new link made
    /// beside it and renamed over it, so `last` always resolves.
    fn point_last_at(&self, iteration: u32) -> Result<(), TrainError> {
        let link = self.last_link();
        let target = Path::new(CHECKPOINTS_DIR).join(checkpoint_name(iteration));
        let temp = self
            .root
            .join(format!(".{LAST_LINK}.tmp-{}", std::process::id()));
        let _ = fs::remove_file(&temp);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, &temp).map_err(TrainError::io(&temp))?;
        #[cfg(not(unix))]
        fs::write(&temp, target.to_string_lossy().as_bytes()).map_err(TrainError::io(&temp))?;
        fs::rename(&temp, &link).map_err(TrainError::io(&link))
    }

    /// Reads the trainer state of checkpoint `iteration`.
    pub fn read_state(&self, iteration: u32) -> Result<TrainerState, TrainError> {
        read_state(&self.checkpoint_path(iteration))
    }
}

/// Reads `dir/trainer.json`: absent or unparsable is
/// [`TrainError::Checkpoint`] naming the directory.
pub fn read_state(dir: &Path) -> Result<TrainerState, TrainError> {
    let path = dir.join(TRAINER_FILE);
    let bad = |message: String| TrainError::Checkpoint {
        path: dir.to_owned(),
        message,
    };
    let text =
        fs::read_to_string(&path).map_err(|e| bad(format!("cannot read {TRAINER_FILE}: {e}")))?;
    let state: TrainerState =
        serde_json::from_str(&text).map_err(|e| bad(format!("corrupted {TRAINER_FILE}: {e}")))?;
    if state.format != TRAINER_FORMAT {
        return Err(bad(format!(
            "{TRAINER_FILE} has format {}, this build reads format {TRAINER_FORMAT}",
            state.format
        )));
    }
    Ok(state)
}

fn to_model_error(path: &Path, error: TrainError) -> heterodox_models::ModelError {
    heterodox_models::ModelError::Io {
        path: path.to_owned(),
        source: std::io::Error::other(error.to_string()),
    }
}
