//! Opening a run: a new one (its directory checked empty, the network
//! initialised from the run's seed, the config written), or one resumed
//! from its newest checkpoint with the replay window it had.

use heterodox_data::atomic::write_file;
use heterodox_data::shard::read_shard_for;
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_models::tch;
use heterodox_models::{NetConfig, Network};
use heterodox_selfplay::SelfPlay;

use super::config::TrainConfig;
use super::metrics;
use super::optimizer::Sgd;
use super::run::RunDir;
use super::{TrainOptions, Trainer, INIT_STREAM};
use crate::error::TrainError;

impl<P: GameVariant> Trainer<P> {
    /// Sets up a new run, or reads back the newest checkpoint of the run
    /// to resume.
    pub(super) fn open(
        config: TrainConfig,
        rules: P::Rules,
        options: &TrainOptions,
        run: RunDir,
    ) -> Result<Trainer<P>, TrainError> {
        let probe = SelfPlay::<P>::new(rules.clone(), config.selfplay_config(0))?;
        let spec = probe.spec().clone();
        let net_config = NetConfig {
            blocks: config.network.blocks,
            channels: config.network.channels,
            value_hidden: config.network.value_hidden,
            auxiliary_heads: config.network.auxiliary_heads,
            ..NetConfig::for_spec(&spec)
        };
        let mut trainer = Trainer {
            optimizer: Sgd::new(config.optimizer.clone()),
            config,
            rules,
            spec,
            run,
            device: options.device,
            network: None,
            iteration: 0,
            step: 0,
            earlier_seconds: 0.0,
            window: Vec::new(),
            teacher: Vec::new(),
            resumed: options.resume,
            last_checkpoint: None,
        };
        if options.resume {
            trainer.run.prepare()?;
            trainer.run.remove_leftovers()?;
            trainer.resume(&net_config)?;
        } else {
            if trainer.run.holds_run() {
                return Err(TrainError::RunDir {
                    path: trainer.run.root().to_owned(),
                    message: format!(
                        "already holds a run ({}); continue it with --resume or choose another --run",
                        crate::trainer::run::CONFIG_FILE
                    ),
                });
            }
            trainer.run.prepare()?;
            tch::manual_seed(derive_seed(trainer.config.seed, 0, INIT_STREAM) as i64);
            trainer.network = Some(Network::for_spec(
                &trainer.spec,
                &net_config,
                trainer.device,
            )?);
            write_file(
                &trainer.run.config_path(),
                trainer.config.to_toml().as_bytes(),
            )?;
        }
        Ok(trainer)
    }

    /// Loads the newest checkpoint (if any), its replay window, and cuts
    /// the metrics and games written after it.
    fn resume(&mut self, net_config: &NetConfig) -> Result<(), TrainError> {
        let checkpoints = self.run.checkpoints()?;
        let Some(&newest) = checkpoints.last() else {
            // Killed before its first checkpoint: start again.
            tch::manual_seed(derive_seed(self.config.seed, 0, INIT_STREAM) as i64);
            self.network = Some(Network::for_spec(&self.spec, net_config, self.device)?);
            metrics::truncate_after(&self.run.metrics_path(), 0)?;
            return Ok(());
        };
        let dir = self.run.checkpoint_path(newest);
        let state = self.run.read_state(newest)?;
        let bad = |message: String| TrainError::Checkpoint {
            path: dir.clone(),
            message,
        };
        if state.variant != self.spec.variant || state.encoding_version != self.spec.version {
            return Err(bad(format!(
                "made for {} encoding version {}, this run is {} encoding version {}",
                state.variant, state.encoding_version, self.spec.variant, self.spec.version
            )));
        }
        let network =
            Network::load_for(&dir, &self.spec, self.device).map_err(|e| bad(e.to_string()))?;
        self.optimizer.load(
            &dir.join(crate::trainer::run::OPTIMIZER_FILE),
            network.var_store(),
        )?;
        self.network = Some(network);
        self.iteration = state.iteration;
        self.step = state.step;
        self.earlier_seconds = state.elapsed_seconds;
        self.last_checkpoint = Some(dir);
        metrics::truncate_after(&self.run.metrics_path(), state.iteration)?;
        let first = state
            .iteration
            .saturating_sub(self.config.training.window_iterations)
            + 1;
        for iteration in first..=state.iteration {
            let path = self.run.shard_path(iteration);
            let shard =
                read_shard_for(&path, &self.spec).map_err(|e| TrainError::Shard(e.to_string()))?;
            self.window.push((iteration, shard.games));
        }
        Ok(())
    }
}
