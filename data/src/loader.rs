//! The training loader: game records in, float32 batches out.
//!
//! Records hold action indices, not tensors ([`crate::shard`]), so the
//! loader rebuilds each training position by replaying its game through
//! the rules and encodes it with the shared contract
//! ([`heterodox_env::encoding::encode_stacked`]): the network trains on
//! exactly what it sees at play, for any history length T.
//!
//! Loading replays every game once, checking it ([`crate::replay`]): a
//! corrupted or mismatched record is a [`LoaderError`] naming the game and
//! step, before any batch is made. That pass keeps, per game, the decoded
//! actions, the repetition count of every step and a copy of the position
//! every `checkpoint_interval` steps. A training position is then rebuilt
//! from the checkpoint before it with at most `checkpoint_interval + T - 2`
//! plays and no move generation except its own (for the mask), which is
//! what makes uniform sampling over all positions cheap.
//!
//! A batch row, for the position of step s of a game, seen by the player to
//! act there (observer = `turn()`, hidden information from that player's
//! view):
//! * observation: `encode_stacked` of the position, its T - 1 predecessors
//!   in the game (most recent first) and its repetition count;
//! * mask: true at the indices of the legal actions;
//! * policy: the recorded probabilities at their indices divided by their
//!   sum (so the target is a distribution after quantization), zero
//!   elsewhere;
//! * value: `z * result + (1 - z) * root_value`, both from the observer's
//!   side, with `z = z_weight` (1.0, the default, is the pure game result
//!   of AlphaZero; lower values mix in the search's estimate).
//!
//! * moves left (an auxiliary target): the steps from this one to the end
//!   of the record, divided by [`MOVES_LEFT_SCALE`] (a game cut at the ply
//!   cap, adjudicated or resigned ends where its record ends);
//! * material (an auxiliary target): `tanh(m / MATERIAL_SCALE_CP)`, `m` the
//!   observer's material lead at the end of the record by the
//!   configured [`MaterialMeasure`] (the engine's values; 0 without one).
//!
//! Only steps with a non-empty policy are training positions.
//!
//! **Surprise weighting** (`surprise_weight` λ > 0, KataGo's policy-surprise
//! weighting): positions are drawn with probability proportional to
//! `(1 - λ) + λ s / s̄`, `s` a position's recorded surprise (how far the
//! search's target moved from the network's prior) and `s̄` the mean over
//! the positions that have one (s > 0). Those positions keep a mean weight
//! of exactly 1, so the weighting moves draws among them and none between
//! them and positions without a surprise (teacher positions, version 1
//! shards), which keep weight 1. λ = 0 is uniform sampling, bit for bit
//! the draws of a loader without the setting.
//!
//! Rows are decoded in parallel with rayon, each worker chunk with its own
//! reused buffers, so a warm loader allocates nothing per position.

use std::fmt;

use rayon::prelude::*;

use heterodox_env::encoding::{encode_stacked, ActionSet, EncodingSpec};
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, GameVariant, Variant, VariantVisitor};

use crate::record::{GameRecord, GameResult};
use crate::replay::{replay, start_position, ReplayError};
use crate::shard::{HeaderError, Shard};

/// How positions are turned into training rows.
#[derive(Clone, Debug)]
pub struct LoaderConfig {
    /// T: positions stacked in an observation (at least 1).
    pub history: usize,
    /// Weight of the game result in the value target; the rest is the
    /// root value. In `[0, 1]`; 1.0 is the pure result.
    pub z_weight: f32,
    /// Seed of the position sampler.
    pub seed: u64,
    /// Steps between kept positions: memory (one position per interval)
    /// against replay work per row (up to the interval).
    pub checkpoint_interval: usize,
    /// How a side's material is counted for the material target (`None`:
    /// the target is 0).
    pub material: Option<MaterialMeasure>,
    /// λ of the surprise weighting (module docs), in `[0, 1]`; 0 draws
    /// uniformly.
    pub surprise_weight: f32,
}

/// A side's material lead (its material minus the opponent's, centipawns)
/// in a position of any variant given as `&dyn Any` (the engine's `material_of_any`): this crate cannot name
/// the engine, which depends on it.
pub type MaterialMeasure = fn(&dyn std::any::Any, Color) -> i32;

/// Moves-left targets are the steps left divided by this (a typical game
/// then gives targets near 1).
pub const MOVES_LEFT_SCALE: f32 = 100.0;
/// Material targets are `tanh(lead / MATERIAL_SCALE_CP)`: a Queen's lead
/// is about 0.7, and the target stays in (-1, 1).
pub const MATERIAL_SCALE_CP: f32 = 1000.0;

impl Default for LoaderConfig {
    fn default() -> LoaderConfig {
        LoaderConfig {
            history: 1,
            z_weight: 1.0,
            seed: 0,
            checkpoint_interval: 16,
            material: None,
            surprise_weight: 0.0,
        }
    }
}

impl LoaderConfig {
    pub fn with_history(mut self, history: usize) -> LoaderConfig {
        self.history = history;
        self
    }

    pub fn with_z_weight(mut self, z_weight: f32) -> LoaderConfig {
        self.z_weight = z_weight;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> LoaderConfig {
        self.seed = seed;
        self
    }

    pub fn with_checkpoint_interval(mut self, interval: usize) -> LoaderConfig {
        self.checkpoint_interval = interval;
        self
    }

    pub fn with_material(mut self, material: MaterialMeasure) -> LoaderConfig {
        self.material = Some(material);
        self
    }

    pub fn with_surprise_weight(mut self, surprise_weight: f32) -> LoaderConfig {
        self.surprise_weight = surprise_weight;
        self
    }
}

/// Why a loader could not be built or could not fill a batch.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LoaderError {
    #[error("invalid loader settings: {0}")]
    Config(String),
    #[error("no games to load")]
    NoGames,
    #[error("no training positions to sample (no step has a policy)")]
    NoPositions,
    #[error(transparent)]
    Header(#[from] HeaderError),
    #[error("shard {index} holds {found}, the first shard {expected}: one loader reads one variant under one rule set")]
    MixedShards {
        index: usize,
        expected: String,
        found: String,
    },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("batch buffers do not fit: {0}")]
    BatchShape(String),
    #[error("position {index} out of range ({count} training positions)")]
    PositionOutOfRange { index: usize, count: usize },
}

/// Preallocated flat buffers for `size` training rows, row-major, ready to
/// be viewed as `[B, C, 8, 8]`, `[B, A]`, `[B, A]` and `[B]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub size: usize,
    /// Floats per observation (`C * 64`).
    pub observation_len: usize,
    pub num_actions: usize,
    /// `size * observation_len` floats.
    pub observations: Vec<f32>,
    /// `size * num_actions`: the legal-action masks.
    pub masks: Vec<bool>,
    /// `size * num_actions`: the policy targets.
    pub policies: Vec<f32>,
    /// `size`: the value targets.
    pub values: Vec<f32>,
    /// `size`: the moves-left targets (auxiliary).
    pub moves_left: Vec<f32>,
    /// `size`: the material targets (auxiliary).
    pub material: Vec<f32>,
}

impl Batch {
    /// Zeroed buffers for `size` rows of `spec`'s tensors.
    pub fn new(size: usize, spec: &EncodingSpec) -> Batch {
        let (observation_len, num_actions) = (spec.observation_len(), spec.num_actions);
        Batch {
            size,
            observation_len,
            num_actions,
            observations: vec![0.0; size * observation_len],
            masks: vec![false; size * num_actions],
            policies: vec![0.0; size * num_actions],
            values: vec![0.0; size],
            moves_left: vec![0.0; size],
            material: vec![0.0; size],
        }
    }

    fn check(&self, spec: &EncodingSpec) -> Result<(), LoaderError> {
        let (l, a, b) = (spec.observation_len(), spec.num_actions, self.size);
        let fits = self.observation_len == l
            && self.num_actions == a
            && self.observations.len() == b * l
            && self.masks.len() == b * a
            && self.policies.len() == b * a
            && self.values.len() == b
            && self.moves_left.len() == b
            && self.material.len() == b;
        if fits {
            Ok(())
        } else {
            Err(LoaderError::BatchShape(format!(
                "{} rows of {} observation floats and {} actions, expected rows of {l} and {a} ({})",
                self.size,
                self.observation_len,
                self.num_actions,
                spec.summary()
            )))
        }
    }
}

/// One game after the loading replay.
struct IndexedGame<P: GameVariant> {
    /// The decoded action of every step.
    actions: Vec<P::Action>,
    /// How often each step's position had occurred (1 = first time).
    repetitions: Vec<u8>,
    /// The position before step `k * checkpoint_interval`.
    checkpoints: Vec<P>,
    result: GameResult,
    /// White's material lead at the end of the record (0 without a
    /// measure).
    final_material: i32,
}

/// A training position: (game, step).
#[derive(Copy, Clone, Debug)]
struct Sample {
    game: u32,
    step: u32,
}

/// Reused buffers of one worker chunk.
struct Scratch<P: GameVariant> {
    legal: ActionSet<P>,
    /// Predecessors of the row's position, oldest first (at most T - 1).
    history: Vec<P>,
}

/// The read-only part of the loader, shared by the workers.
struct Data<P: GameVariant> {
    records: Vec<GameRecord>,
    games: Vec<IndexedGame<P>>,
    samples: Vec<Sample>,
    history: usize,
    z_weight: f32,
    interval: usize,
}

/// Samples training rows from the games of one variant `P` under one rule
/// set. See the module docs.
pub struct Loader<P: GameVariant> {
    rules: P::Rules,
    spec: EncodingSpec,
    data: Data<P>,
    rng: SplitMix64,
    scratch: Vec<Scratch<P>>,
    /// The rows of the next batch, reused.
    picks: Vec<usize>,
    /// With surprise weighting: the running sums of the positions'
    /// weights (position k's draw covers `cumulative[k-1]..cumulative[k]`);
    /// empty for uniform draws.
    cumulative: Vec<f64>,
}

impl<P: GameVariant> fmt::Debug for Loader<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loader")
            .field("spec", &self.spec.summary())
            .field("games", &self.data.games.len())
            .field("positions", &self.data.samples.len())
            .finish()
    }
}

impl<P: GameVariant> Loader<P> {
    /// Replays and checks every record (in parallel) and indexes its
    /// training positions.
    pub fn new(
        rules: P::Rules,
        records: Vec<GameRecord>,
        config: &LoaderConfig,
    ) -> Result<Loader<P>, LoaderError> {
        if config.history == 0 {
            return Err(LoaderError::Config("history must be at least 1".into()));
        }
        if !(0.0..=1.0).contains(&config.z_weight) {
            let z = config.z_weight;
            return Err(LoaderError::Config(format!(
                "z_weight {z} is not in [0, 1]"
            )));
        }
        if config.checkpoint_interval == 0 {
            return Err(LoaderError::Config(
                "checkpoint_interval must be at least 1".into(),
            ));
        }
        if !(0.0..=1.0).contains(&config.surprise_weight) {
            let w = config.surprise_weight;
            return Err(LoaderError::Config(format!(
                "surprise_weight {w} is not in [0, 1]"
            )));
        }
        let first = records.first().ok_or(LoaderError::NoGames)?;
        let start = start_position::<P>(first, &rules).map_err(|e| ReplayError {
            game: 0,
            step: None,
            kind: e.into(),
        })?;
        let spec = EncodingSpec::of(&start, config.history);
        let interval = config.checkpoint_interval;
        let indexed: Vec<Result<IndexedGame<P>, ReplayError>> = records
            .par_iter()
            .enumerate()
            .map(|(g, record)| index_game(record, &rules, g, interval, config.material))
            .collect();
        let mut games = Vec::with_capacity(indexed.len());
        for game in indexed {
            games.push(game?);
        }
        let mut samples = Vec::new();
        for (g, record) in records.iter().enumerate() {
            for (s, step) in record.steps.iter().enumerate() {
                if !step.policy.is_empty() {
                    samples.push(Sample {
                        game: g as u32,
                        step: s as u32,
                    });
                }
            }
        }
        let cumulative = surprise_cumulative(&records, &samples, config.surprise_weight);
        Ok(Loader {
            rules,
            spec,
            data: Data {
                records,
                games,
                samples,
                history: config.history,
                z_weight: config.z_weight,
                interval,
            },
            rng: SplitMix64::new(config.seed),
            scratch: Vec::new(),
            picks: Vec::new(),
            cumulative,
        })
    }

    /// A loader over the games of several shards, which must all hold
    /// games of `P` under the same rule settings and this build's encoding
    /// version.
    pub fn from_shards(
        shards: Vec<Shard>,
        config: &LoaderConfig,
    ) -> Result<Loader<P>, LoaderError> {
        let first = shards.first().ok_or(LoaderError::NoGames)?;
        let rules = first.header.rules::<P>()?;
        let expected = first.header.summary();
        let mut records = Vec::new();
        for (index, shard) in shards.into_iter().enumerate() {
            if shard.header.rules::<P>()? != rules {
                return Err(LoaderError::MixedShards {
                    index,
                    expected,
                    found: shard.header.summary(),
                });
            }
            records.extend(shard.games);
        }
        Loader::new(rules, records, config)
    }

    pub fn rules(&self) -> &P::Rules {
        &self.rules
    }

    /// The tensors' contract (variant, rules, version, T, shapes).
    pub fn spec(&self) -> &EncodingSpec {
        &self.spec
    }

    pub fn num_games(&self) -> usize {
        self.data.games.len()
    }

    /// Training positions (steps with a policy) over all games.
    pub fn num_positions(&self) -> usize {
        self.data.samples.len()
    }

    /// Buffers for `size` rows.
    pub fn new_batch(&self, size: usize) -> Batch {
        Batch::new(size, &self.spec)
    }

    /// The sampling weight of each training position (numbered as in
    /// [`Loader::fill_batch_at`]): all 1 without surprise weighting.
    pub fn weights(&self) -> Vec<f64> {
        if self.cumulative.is_empty() {
            return vec![1.0; self.data.samples.len()];
        }
        let mut before = 0.0;
        self.cumulative
            .iter()
            .map(|&c| {
                let w = c - before;
                before = c;
                w
            })
            .collect()
    }

    /// Fills `batch` with positions drawn (with replacement) from all
    /// training positions by the loader's seeded generator: uniformly, or
    /// by their surprise weights (module docs). The same seed gives the
    /// same batches, whatever the number of threads.
    pub fn fill_batch(&mut self, batch: &mut Batch) -> Result<(), LoaderError> {
        let count = self.data.samples.len();
        if count == 0 {
            return Err(LoaderError::NoPositions);
        }
        let mut picks = std::mem::take(&mut self.picks);
        picks.clear();
        if self.cumulative.is_empty() {
            picks.extend((0..batch.size).map(|_| self.rng.below(count)));
        } else {
            let total = self.cumulative[count - 1];
            for _ in 0..batch.size {
                let u = self.rng.next_unit() * total;
                let k = self.cumulative.partition_point(|&c| c <= u);
                picks.push(k.min(count - 1));
            }
        }
        let result = self.fill_batch_at(batch, &picks);
        self.picks = picks;
        result
    }

    /// Fills row `k` of `batch` with training position `positions[k]`
    /// (positions numbered game by game, step by step, from 0).
    pub fn fill_batch_at(
        &mut self,
        batch: &mut Batch,
        positions: &[usize],
    ) -> Result<(), LoaderError> {
        batch.check(&self.spec)?;
        if positions.len() != batch.size {
            return Err(LoaderError::BatchShape(format!(
                "{} positions for {} rows",
                positions.len(),
                batch.size
            )));
        }
        let count = self.data.samples.len();
        if let Some(&index) = positions.iter().find(|&&p| p >= count) {
            return Err(LoaderError::PositionOutOfRange { index, count });
        }
        if batch.size == 0 {
            return Ok(());
        }
        // Several chunks per thread even out rows of unequal cost.
        let chunks = (4 * rayon::current_num_threads()).clamp(1, batch.size);
        let rows = batch.size.div_ceil(chunks);
        while self.scratch.len() < chunks {
            self.scratch.push(Scratch {
                legal: ActionSet::new(batch.num_actions),
                history: Vec::with_capacity(self.data.history - 1),
            });
        }
        let (l, a) = (batch.observation_len, batch.num_actions);
        let data = &self.data;
        batch
            .observations
            .par_chunks_mut(rows * l)
            .zip(batch.masks.par_chunks_mut(rows * a))
            .zip(batch.policies.par_chunks_mut(rows * a))
            .zip(batch.values.par_chunks_mut(rows))
            .zip(batch.moves_left.par_chunks_mut(rows))
            .zip(batch.material.par_chunks_mut(rows))
            .zip(positions.par_chunks(rows))
            .zip(self.scratch.par_iter_mut())
            .for_each(
                |(
                    ((((((obs, masks), policies), values), moves_left), material), picks),
                    scratch,
                )| {
                    for (k, &pick) in picks.iter().enumerate() {
                        data.fill_row(
                            pick,
                            scratch,
                            Row {
                                observation: &mut obs[k * l..(k + 1) * l],
                                mask: &mut masks[k * a..(k + 1) * a],
                                policy: &mut policies[k * a..(k + 1) * a],
                                value: &mut values[k],
                                moves_left: &mut moves_left[k],
                                material: &mut material[k],
                            },
                        );
                    }
                },
            );
        Ok(())
    }
}

/// The running sums of the sampling weights of `samples` under surprise
/// weighting λ = `lambda` (module docs); empty when λ = 0 or no position
/// has a surprise (uniform draws).
fn surprise_cumulative(records: &[GameRecord], samples: &[Sample], lambda: f32) -> Vec<f64> {
    let surprise = |s: &Sample| f64::from(records[s.game as usize].steps[s.step as usize].surprise);
    let (sum, known) = samples
        .iter()
        .map(surprise)
        .filter(|&s| s > 0.0)
        .fold((0.0, 0usize), |(sum, n), s| (sum + s, n + 1));
    if lambda == 0.0 || known == 0 {
        return Vec::new();
    }
    let (lambda, mean) = (f64::from(lambda), sum / known as f64);
    let mut total = 0.0;
    samples
        .iter()
        .map(|sample| {
            let s = surprise(sample);
            total += if s > 0.0 {
                (1.0 - lambda) + lambda * s / mean
            } else {
                1.0
            };
            total
        })
        .collect()
}

/// One row of a batch.
struct Row<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [bool],
    policy: &'a mut [f32],
    value: &'a mut f32,
    moves_left: &'a mut f32,
    material: &'a mut f32,
}

impl<P: GameVariant> Data<P> {
    /// Rebuilds training position `pick` from its checkpoint and writes
    /// its row. Cannot fail: the loading replay checked every action and
    /// policy index. No allocation: positions are plain values, buffers
    /// are the scratch's.
    fn fill_row(&self, pick: usize, scratch: &mut Scratch<P>, row: Row<'_>) {
        let Sample { game: g, step: s } = self.samples[pick];
        let (g, s) = (g as usize, s as usize);
        let game = &self.games[g];
        let step = &self.records[g].steps[s];
        // Positions s - T + 1 .. s are needed; start at the checkpoint at
        // or before the first of them.
        let first = s.saturating_sub(self.history - 1);
        let checkpoint = first / self.interval;
        let mut position = game.checkpoints[checkpoint].clone();
        scratch.history.clear();
        for j in checkpoint * self.interval..s {
            if j >= first {
                scratch.history.push(position.clone());
            }
            position.play_unchecked(&game.actions[j]);
        }
        let observer = position.turn();
        encode_stacked(
            &position,
            scratch.history.iter().rev(),
            usize::from(game.repetitions[s]),
            self.history,
            observer,
            row.observation,
        );
        row.mask.fill(false);
        scratch.legal.generate(&position);
        for &index in scratch.legal.indices() {
            row.mask[index as usize] = true;
        }
        row.policy.fill(0.0);
        let sum: f32 = step.policy.iter().map(|&(_, p)| p).sum();
        for &(index, p) in &step.policy {
            // Checked legal (so in range) by the loading replay.
            row.policy[index as usize] = p / sum;
        }
        let z = self.z_weight;
        *row.value = z * game.result.value_for(observer) + (1.0 - z) * step.root_value;
        let left = self.records[g].steps.len() - s;
        *row.moves_left = left as f32 / MOVES_LEFT_SCALE;
        let lead = match observer {
            Color::White => game.final_material,
            Color::Black => -game.final_material,
        };
        *row.material = (lead as f32 / MATERIAL_SCALE_CP).tanh();
    }
}

/// The loading replay of one game.
fn index_game<P: GameVariant>(
    record: &GameRecord,
    rules: &P::Rules,
    g: usize,
    interval: usize,
    material: Option<MaterialMeasure>,
) -> Result<IndexedGame<P>, ReplayError> {
    let steps = record.steps.len();
    let mut actions = Vec::with_capacity(steps);
    let mut repetitions = Vec::with_capacity(steps);
    let mut checkpoints = Vec::with_capacity(steps.div_ceil(interval).max(1));
    let end = replay::<P>(record, rules, g, |step| {
        if step.step % interval == 0 {
            checkpoints.push(step.game.position().clone());
        }
        actions.push(step.action);
        repetitions.push(step.game.repetitions().min(255) as u8);
    })?;
    if checkpoints.is_empty() {
        checkpoints.push(end.position().clone());
    }
    let final_material = material.map_or(0, |measure| {
        let position: &dyn std::any::Any = end.position();
        measure(position, Color::White)
    });
    Ok(IndexedGame {
        actions,
        repetitions,
        checkpoints,
        result: record.result,
        final_material,
    })
}

/// A loader for a variant chosen at run time (from a shard header), for
/// the command line and Python. Dispatches once per batch.
pub struct AnyLoader(Box<dyn DynLoader>);

trait DynLoader: Send {
    fn variant(&self) -> Variant;
    fn spec(&self) -> &EncodingSpec;
    fn num_games(&self) -> usize;
    fn num_positions(&self) -> usize;
    fn fill_batch(&mut self, batch: &mut Batch) -> Result<(), LoaderError>;
    fn fill_batch_at(&mut self, batch: &mut Batch, positions: &[usize]) -> Result<(), LoaderError>;
}

impl<P: GameVariant> DynLoader for Loader<P> {
    fn variant(&self) -> Variant {
        P::VARIANT
    }

    fn spec(&self) -> &EncodingSpec {
        Loader::spec(self)
    }

    fn num_games(&self) -> usize {
        Loader::num_games(self)
    }

    fn num_positions(&self) -> usize {
        Loader::num_positions(self)
    }

    fn fill_batch(&mut self, batch: &mut Batch) -> Result<(), LoaderError> {
        Loader::fill_batch(self, batch)
    }

    fn fill_batch_at(&mut self, batch: &mut Batch, positions: &[usize]) -> Result<(), LoaderError> {
        Loader::fill_batch_at(self, batch, positions)
    }
}

struct FromShards<'a> {
    shards: Vec<Shard>,
    config: &'a LoaderConfig,
}

impl VariantVisitor for FromShards<'_> {
    type Output = Result<AnyLoader, LoaderError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let loader = Loader::<P>::from_shards(self.shards, self.config)?;
        Ok(AnyLoader(Box::new(loader)))
    }
}

impl AnyLoader {
    /// A loader of the variant named by the first shard's header; every
    /// shard must agree with it.
    pub fn from_shards(
        shards: Vec<Shard>,
        config: &LoaderConfig,
    ) -> Result<AnyLoader, LoaderError> {
        let first = shards.first().ok_or(LoaderError::NoGames)?;
        let variant = first.header.variant()?;
        variant.visit(FromShards { shards, config })
    }

    pub fn variant(&self) -> Variant {
        self.0.variant()
    }

    pub fn spec(&self) -> &EncodingSpec {
        self.0.spec()
    }

    pub fn num_games(&self) -> usize {
        self.0.num_games()
    }

    pub fn num_positions(&self) -> usize {
        self.0.num_positions()
    }

    pub fn new_batch(&self, size: usize) -> Batch {
        Batch::new(size, self.spec())
    }

    pub fn fill_batch(&mut self, batch: &mut Batch) -> Result<(), LoaderError> {
        self.0.fill_batch(batch)
    }

    pub fn fill_batch_at(
        &mut self,
        batch: &mut Batch,
        positions: &[usize],
    ) -> Result<(), LoaderError> {
        self.0.fill_batch_at(batch, positions)
    }
}

impl fmt::Debug for AnyLoader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyLoader")
            .field("spec", &self.spec().summary())
            .field("games", &self.num_games())
            .field("positions", &self.num_positions())
            .finish()
    }
}
