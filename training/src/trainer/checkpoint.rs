//! A checkpoint of the run: the network, the optimizer's state and where
//! the run stands (run.rs lays the files out and keeps the newest few).

use std::time::Instant;

use heterodox_env::GameVariant;

use super::run::{TrainerState, TRAINER_FORMAT};
use super::{Event, Trainer};
use crate::error::TrainError;

impl<P: GameVariant> Trainer<P> {
    /// Saves the run as it stands (older checkpoints beyond
    /// `checkpoint.keep` go) and reports where.
    pub(super) fn checkpoint(
        &mut self,
        started: Instant,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<(), TrainError> {
        let state = TrainerState {
            format: TRAINER_FORMAT,
            project_version: env!("CARGO_PKG_VERSION").to_owned(),
            variant: self.spec.variant.clone(),
            encoding_version: self.spec.version,
            iteration: self.iteration,
            step: self.step,
            elapsed_seconds: self.elapsed(started),
            seed: self.config.seed,
            config: self.config.clone(),
        };
        let path = self.run.save_checkpoint(
            self.network(),
            &self.optimizer,
            &state,
            self.config.checkpoint.keep,
        )?;
        on_event(Event::CheckpointSaved(&path));
        self.last_checkpoint = Some(path);
        Ok(())
    }
}
