//! The trainer's start from the alpha-beta engine (`[teacher]`).
//!
//! 1. The teacher data: the engine's labelled games
//!    ([`heterodox_engine::teach`]), made in `RUN/teacher` (or the
//!    section's `dir`) until it holds `teacher.positions`; a directory
//!    already full is only read. The progress is reported from this
//!    thread while the engine's games run on the rayon pool.
//! 2. On a new run, the supervised phase: `teacher.steps` SGD steps (at
//!    most `teacher.minutes`) on the teacher positions, the value target
//!    blending the game result and the engine's score by
//!    `teacher.z_weight`; then a `"teacher"` metrics line and checkpoint
//!    0, so a resumed run does not repeat it.
//! 3. In every later replay window, teacher games drawn at random until
//!    they make `teacher.share` of the window's positions: the network
//!    keeps what the engine taught while self-play takes over.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use heterodox_data::loader::{Loader, LoaderConfig};
use heterodox_data::shard::read_shard_for;
use heterodox_data::GameRecord;
use heterodox_engine::teach::labelled_positions;
use heterodox_engine::{teach, TeachProgress};
use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::GameVariant;

use super::metrics::{self, EvaluationLine, TeacherLine};
use super::{Event, Trainer, LOADER_STREAM};
use crate::error::TrainError;

/// Seed stream of the teacher games drawn into each replay window.
const MIX_STREAM: u64 = 4;
/// The directory of a run's own teacher data.
pub const TEACHER_DIR: &str = "teacher";

impl<P: GameVariant> Trainer<P> {
    /// The teacher's directory.
    fn teacher_dir(&self) -> PathBuf {
        let dir = &self.config.teacher.dir;
        if dir.is_empty() {
            self.run.root().join(TEACHER_DIR)
        } else {
            PathBuf::from(dir)
        }
    }

    /// Steps 1 and 2 of the module's doc (nothing without a teacher).
    pub(super) fn teacher_phase(
        &mut self,
        started: Instant,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<Option<EvaluationLine>, TrainError> {
        let section = self.config.teacher.clone();
        if section.positions == 0 {
            return Ok(None);
        }
        let clock = Instant::now();
        let dir = self.teacher_dir();
        let config = section.teach_config(self.config.seed);
        let done = AtomicU64::new(0);
        let progress = |p: TeachProgress| {
            done.store(p.positions, Ordering::Relaxed);
        };
        let summary = std::thread::scope(|scope| {
            let worker = scope.spawn(|| teach::<P>(&self.rules, &config, &dir, &progress));
            while !worker.is_finished() {
                on_event(Event::TeacherPositions {
                    done: done.load(Ordering::Relaxed),
                    total: section.positions,
                });
                std::thread::sleep(Duration::from_millis(200));
            }
            worker.join().expect("the teacher does not panic")
        })
        .map_err(|e| TrainError::Teacher(e.to_string()))?;
        let teach_seconds = clock.elapsed().as_secs_f64();
        self.teacher.clear();
        for path in &summary.shards {
            let shard =
                read_shard_for(path, &self.spec).map_err(|e| TrainError::Shard(e.to_string()))?;
            self.teacher.extend(shard.games);
        }
        if self.iteration > 0 || self.step > 0 {
            return Ok(None);
        }
        let clock = Instant::now();
        let loader_config = LoaderConfig::default()
            .with_history(self.config.history)
            .with_z_weight(section.z_weight)
            .with_material(heterodox_engine::material_of_any)
            .with_seed(derive_seed(self.config.seed, 0, LOADER_STREAM));
        let mut loader =
            Loader::<P>::new(self.rules.clone(), self.teacher.clone(), &loader_config)?;
        let training = self.sgd_steps(&mut loader, section.steps, section.minutes, on_event)?;
        let line = TeacherLine {
            kind: "teacher".to_owned(),
            iteration: 0,
            step: self.step,
            elapsed_seconds: self.elapsed(started),
            positions: summary.positions,
            games: summary.games,
            new_positions: summary.new_positions,
            labelled_per_second: summary.positions_per_second(),
            training,
            teach_seconds,
            training_seconds: clock.elapsed().as_secs_f64(),
        };
        metrics::append(&self.run.metrics_path(), &line)?;
        on_event(Event::Supervised(&line));
        self.checkpoint(started, on_event)?;
        let evaluation = &self.config.evaluation;
        if !(evaluation.after_teacher && evaluation.games > 0) {
            return Ok(None);
        }
        // Iteration 0: the curve's first point, the teacher's network.
        self.evaluate(started, on_event).map(Some)
    }

    /// Step 3 of the module's doc: adds teacher games to `records` (the
    /// window's self-play games) until they hold `teacher.share` of the
    /// positions, drawn by the iteration's seed.
    pub(super) fn mix_teacher_games(&self, records: &mut Vec<GameRecord>) {
        let share = f64::from(self.config.teacher.share);
        if self.teacher.is_empty() || share <= 0.0 {
            return;
        }
        let own: u64 = records.iter().map(labelled_positions).sum();
        let wanted = (share / (1.0 - share) * own as f64).round() as u64;
        let mut rng = SplitMix64::new(derive_seed(
            self.config.seed,
            self.iteration as usize,
            MIX_STREAM,
        ));
        let mut taken = 0;
        while taken < wanted {
            let game = &self.teacher[rng.below(self.teacher.len())];
            taken += labelled_positions(game).max(1);
            records.push(game.clone());
        }
    }
}
