//! An iteration's self-play: the games with the network guiding the
//! search, those cut at the ply cap judged by the engine, written as the
//! iteration's shard and PGN, and added to the replay window.

use heterodox_data::atomic::write_file;
use heterodox_data::pgn;
use heterodox_data::replay::replay;
use heterodox_data::shard::{write_shard, ShardHeader};
use heterodox_data::{GameRecord, GameResult};
use heterodox_engine::{adjudicate, Engine, EngineConfig};
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_selfplay::SelfPlay;

use super::metrics::SelfPlayMetrics;
use super::{Event, Trainer, SELFPLAY_STREAM};
use crate::error::TrainError;

impl<P: GameVariant> Trainer<P> {
    pub(super) fn self_play(
        &mut self,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Result<SelfPlayMetrics, TrainError> {
        let iteration = self.iteration;
        let seed = derive_seed(self.config.seed, iteration as usize, SELFPLAY_STREAM);
        let selfplay = SelfPlay::<P>::new(self.rules.clone(), self.config.selfplay_config(seed))?;
        let total = self.config.selfplay.games;
        let mut records = Vec::with_capacity(total as usize);
        let stats = self.with_evaluator(|evaluator| {
            Ok(selfplay.run(evaluator, |record, stats| {
                records.push(record);
                on_event(Event::SelfPlayGame {
                    iteration,
                    done: stats.games,
                    total,
                });
            }))
        })?;
        // Completion order depends on game lengths only, but sort anyway:
        // the shard is then independent of scheduling.
        records.sort_by_key(|r| r.seed);
        let (adjudicated_wins, adjudicated_draws) = self.adjudicate(&mut records)?;
        let producer = format!(
            "heterodox train iteration {iteration} ({} simulations, {:?})",
            self.config.search.simulations, self.config.search.root_policy
        );
        let header = ShardHeader::new::<P>(&self.rules, producer);
        let shard = self.run.shard_path(iteration);
        write_shard(&shard, &header, &records).map_err(|e| TrainError::Shard(e.to_string()))?;
        let mut text = String::new();
        for (k, record) in records.iter().enumerate() {
            let game = pgn::record_to_pgn::<P>(record, &self.rules, "heterodox train", k)
                .map_err(|e| TrainError::Shard(e.to_string()))?;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&game);
        }
        write_file(&self.run.pgn_path(iteration), text.as_bytes())?;
        // The results as recorded, adjudications included.
        let count = |result| records.iter().filter(|r| r.result == result).count() as u32;
        let (white_wins, draws, black_wins, truncated) = (
            count(GameResult::WhiteWins),
            count(GameResult::Draw),
            count(GameResult::BlackWins),
            count(GameResult::Truncated),
        );
        self.window.push((iteration, records));
        let keep = self.config.training.window_iterations as usize;
        if self.window.len() > keep {
            let excess = self.window.len() - keep;
            self.window.drain(..excess);
        }
        Ok(SelfPlayMetrics {
            games: stats.games,
            positions: stats.positions,
            white_wins,
            draws,
            black_wins,
            truncated,
            adjudicated_wins,
            adjudicated_draws,
            resigned: stats.resigned,
            resign_checks: stats.resign_checks,
            false_resignations: stats.false_resignations,
            average_length: stats.average_length(),
            positions_per_second: stats.positions_per_second(),
            simulations_per_second: stats.simulations as f64 / stats.seconds.max(1e-9),
        })
    }

    /// Judges every game cut at the ply cap by the engine
    /// (`selfplay.adjudicate_cp`; nothing when it is 0), in place; returns
    /// how many it scored won and drawn. The engine forgets everything
    /// before each game's last position is searched, so the result depends
    /// on the game only.
    fn adjudicate(&self, records: &mut [GameRecord]) -> Result<(u32, u32), TrainError> {
        let section = &self.config.selfplay;
        if section.adjudicate_cp == 0 {
            return Ok((0, 0));
        }
        let mut tally = (0, 0);
        let mut engine = Engine::<P>::new(EngineConfig {
            hash_mib: 4,
            ..EngineConfig::default()
        })
        .map_err(|e| TrainError::Evaluator(e.to_string()))?;
        for (k, record) in records.iter_mut().enumerate() {
            if record.result != GameResult::Truncated {
                continue;
            }
            let game = replay::<P>(record, &self.rules, k, |_| {})
                .map_err(|e| TrainError::Shard(e.to_string()))?;
            engine.new_game();
            let judged = adjudicate(
                &mut engine,
                &game,
                section.adjudicate_depth,
                section.adjudicate_cp,
            )
            .map_err(|e| TrainError::Evaluator(e.to_string()))?;
            match judged.result {
                GameResult::Draw => tally.1 += 1,
                _ => tally.0 += 1,
            }
            record.result = judged.result;
            record.termination = judged.termination;
        }
        Ok(tally)
    }
}
