//! Teacher data: the engine plays itself from varied openings and labels
//! every position it plays for a network to learn from, in the shard
//! format self-play writes ([`heterodox_data::shard`]).
//!
//! Each game opens with a random number (0 to `random_plies`) of uniformly
//! random steps, which are recorded without a target (the loader replays
//! them but does not train on them). From then on the engine scores every
//! legal action of the position ([`Engine::score_root_moves`] at `depth`)
//! and the step is recorded with:
//!
//! * the **policy target**, a softmax over those scores at
//!   `policy_temperature` centipawns: every move gets a share by how close
//!   it comes to the best, so the network learns the ranking and the near
//!   ties instead of the engine's tie-breaking (a one-hot target on the
//!   single best move would), and a move that loses material gets almost
//!   nothing;
//!   Scores are exact within six temperatures of the best; an action
//!   further below gets the bound of a null-window search instead (its
//!   weight is below e^-6 = 0.25% of the best's either way), which makes
//!   labelling several times faster. The searches' windows differ, so
//!   alpha-beta's reductions may score a few actions differently: on the
//!   test positions the two targets differ by a total variation below
//!   0.5%, once by 7.5% (engine/tests/integration/teach.rs);
//! * the **root value**, the best score as an expected result
//!   ([`crate::Score::expected_result`], `tanh(cp / 400)`); the loader blends it
//!   with the game's result (its `z_weight`).
//!
//! The step played is drawn from the policy target for the first
//! `sample_plies` labelled steps (variety), the best move after. A game
//! that reaches `max_plies` is adjudicated by a search of its last
//! position: won by the side the engine favours by at least
//! `adjudicate_cp`, else drawn, so that long games still give the value
//! head a result.
//!
//! Determinism: game `g` is seeded by `derive_seed(seed, g, 0)` (its start
//! position, its opening and its samples) and searched by a fresh engine
//! at a fixed depth, so the same settings give the same shards on any
//! number of threads. Games run in parallel (rayon), `games_per_shard` to
//! a shard; shards are written atomically and named by their number, so a
//! stopped run continues where it stopped (`teach.json` holds the settings
//! it was started with, and a run with other settings is refused).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use heterodox_data::atomic::write_file;
use heterodox_data::shard::{read_shard_for, write_shard, ShardHeader};
use heterodox_data::{GameRecord, GameResult, StepRecord};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::{Game, GameVariant};

use crate::nnue::Network;
use crate::search::config::EngineConfig;
use crate::search::driver::RootScore;
use crate::search::engine::Engine;
use crate::search::limits::{Limits, MAX_DEPTH};
use crate::tools::adjudicate::adjudicate;

/// The highest shard number [`teach_shard`] writes (2^20: with 65,536
/// games a shard, game numbers stay far inside a u64).
pub const MAX_SHARD: usize = 1 << 20;
/// The settings file of a teacher directory.
pub const SETTINGS_FILE: &str = "teach.json";
/// Probabilities below this are left out of a policy target (the shard
/// stores probabilities in steps of 1/65535).
const MIN_PROBABILITY: f32 = 1e-4;
/// Scores beyond this many centipawns (mates) are clamped before the
/// softmax, so that a mate outweighs any material but stays finite.
const SOFTMAX_CLAMP_CP: i32 = 3000;
/// Actions more than this many temperatures below the best get an upper
/// bound instead of an exact score ([`Engine::score_root_moves_within`]).
const MARGIN_TEMPERATURES: f32 = 6.0;
/// The most games a shard holds.
pub const MAX_GAMES_PER_SHARD: u32 = 1 << 16;
/// The most positions one call labels.
pub const MAX_POSITIONS: u64 = 1 << 32;

/// How teacher data is made. Every field but `positions` must match the
/// settings a directory was started with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TeachConfig {
    /// Labelled positions to have in the directory (the last shard may
    /// take it over).
    pub positions: u64,
    /// Depth at which every legal action is scored.
    pub depth: u32,
    /// Uniformly random steps opening a game: each game draws 0 to this.
    pub random_plies: u32,
    /// Labelled steps whose move is drawn from the policy target; later
    /// steps play the best move.
    pub sample_plies: u32,
    /// Softmax temperature of the policy target, in centipawns.
    pub policy_temperature: f32,
    /// Steps after which a game is adjudicated (0: the variant's cap).
    pub max_plies: u32,
    /// Lead (centipawns) at the ply cap that scores a win; less is a draw.
    pub adjudicate_cp: i32,
    pub games_per_shard: u32,
    /// Transposition table per engine, MiB.
    pub hash_mib: u64,
    /// Hidden information: states searched and averaged per position.
    pub determinizations: usize,
    pub seed: u64,
    /// Value targets only (data for a learned evaluation): each labelled
    /// position is searched once, its policy target is the move played
    /// (the best), and it costs one search instead of one per action.
    pub value_only: bool,
    /// The engine evaluates with this net (a learned evaluation's file)
    /// instead of the classical evaluation.
    pub network: Option<PathBuf>,
}

impl Default for TeachConfig {
    fn default() -> TeachConfig {
        TeachConfig {
            positions: 10_000,
            depth: 2,
            random_plies: 8,
            sample_plies: 16,
            policy_temperature: 100.0,
            max_plies: 200,
            adjudicate_cp: 300,
            games_per_shard: 64,
            hash_mib: 4,
            determinizations: 4,
            seed: 0,
            value_only: false,
            network: None,
        }
    }
}

/// Why teacher data could not be made.
#[derive(Debug, thiserror::Error)]
pub enum TeachError {
    #[error("teacher setting {field} = {value} is out of range ({expected})")]
    OutOfRange {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("{path}: {message}")]
    Directory { path: PathBuf, message: String },
    #[error(transparent)]
    Shard(#[from] heterodox_data::shard::ShardError),
    #[error("engine: {0}")]
    Engine(#[from] crate::search::error::EngineError),
    #[error("start position: {0}")]
    Start(#[from] heterodox_env::FenError),
    #[error("teacher net: {0}")]
    Network(#[from] crate::nnue::NnueError),
}

impl TeachConfig {
    /// Refuses values out of range, naming the field.
    pub fn validate(&self) -> Result<(), TeachError> {
        fn bad(field: &'static str, value: impl ToString, expected: &'static str) -> TeachError {
            TeachError::OutOfRange {
                field,
                value: value.to_string(),
                expected,
            }
        }
        if self.positions > MAX_POSITIONS {
            return Err(bad("positions", self.positions, "0 to 2^32"));
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(bad("depth", self.depth, "1 to 64"));
        }
        if self.random_plies > 1000 {
            return Err(bad("random_plies", self.random_plies, "0 to 1000"));
        }
        if !(self.policy_temperature.is_finite() && self.policy_temperature > 0.0) {
            return Err(bad(
                "policy_temperature",
                self.policy_temperature,
                "a finite number > 0",
            ));
        }
        if !(1..=MAX_GAMES_PER_SHARD).contains(&self.games_per_shard) {
            return Err(bad("games_per_shard", self.games_per_shard, "1 to 65536"));
        }
        if self.adjudicate_cp <= 0 {
            return Err(bad("adjudicate_cp", self.adjudicate_cp, "at least 1"));
        }
        self.engine_config()
            .validate()
            .map_err(|e| bad("engine", e, "a valid engine"))?;
        if !(crate::search::config::MIN_HASH_MIB..=crate::search::config::MAX_HASH_MIB)
            .contains(&self.hash_mib)
        {
            return Err(bad("hash_mib", self.hash_mib, "1 to 65536"));
        }
        Ok(())
    }

    fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            hash_mib: self.hash_mib,
            threads: 1,
            determinizations: self.determinizations,
            seed: self.seed,
            ..EngineConfig::default()
        }
    }

    /// The teacher's net, read once for every engine of a run (`None`:
    /// the classical evaluation).
    fn load_network<P: GameVariant>(
        &self,
        rules: &P::Rules,
    ) -> Result<Option<Arc<Network>>, TeachError> {
        match &self.network {
            Some(path) => Ok(Some(Arc::new(Network::load_for::<P>(path, rules)?))),
            None => Ok(None),
        }
    }

    /// How far below the best an action is still scored exactly: beyond
    /// it a weight is below `exp(-6)` = 0.25% of the best's, and an upper
    /// bound serves as well as the exact score.
    pub fn margin_cp(&self) -> i32 {
        (MARGIN_TEMPERATURES * self.policy_temperature).ceil() as i32
    }

    /// The settings that must agree for two runs to share a directory.
    fn without_positions(&self) -> TeachConfig {
        TeachConfig {
            positions: 0,
            ..self.clone()
        }
    }
}

/// Where a teacher run stands (after each game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeachProgress {
    pub positions: u64,
    pub target: u64,
    pub games: u64,
}

/// What a call made and found.
#[derive(Clone, Debug, PartialEq)]
pub struct TeachSummary {
    /// Shards in the directory, oldest first.
    pub shards: Vec<PathBuf>,
    /// Labelled positions and games in the directory.
    pub positions: u64,
    pub games: u64,
    /// Of which made by this call, and its seconds.
    pub new_positions: u64,
    pub new_games: u64,
    pub seconds: f64,
    /// Results of this call's games.
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub adjudicated: u64,
}

impl TeachSummary {
    /// Labelled positions per second of this call.
    pub fn positions_per_second(&self) -> f64 {
        self.new_positions as f64 / self.seconds.max(1e-9)
    }
}

/// The path of shard `k` in `dir`.
pub fn shard_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("teach-{k:05}.hdxshard"))
}

/// Labelled positions of a record (steps with a target).
pub fn labelled_positions(record: &GameRecord) -> u64 {
    record.steps.iter().filter(|s| !s.policy.is_empty()).count() as u64
}

/// Fills `dir` with teacher shards until it holds `config.positions`
/// labelled positions, continuing a run stopped midway. `on_progress` is
/// called after each game (from the worker threads).
pub fn teach<P: GameVariant>(
    rules: &P::Rules,
    config: &TeachConfig,
    dir: &Path,
    on_progress: &(dyn Fn(TeachProgress) + Sync),
) -> Result<TeachSummary, TeachError> {
    config.validate()?;
    let network = config.load_network::<P>(rules)?;
    let started = Instant::now();
    let directory_error = |message: String| TeachError::Directory {
        path: dir.to_owned(),
        message,
    };
    std::fs::create_dir_all(dir).map_err(|e| directory_error(e.to_string()))?;
    check_settings(dir, config)?;
    let spec = EncodingSpec::of(&P::start(rules, 0)?, 1);
    let mut shards = Vec::new();
    let (mut positions, mut games) = (0u64, 0u64);
    while shard_path(dir, shards.len()).is_file() {
        let path = shard_path(dir, shards.len());
        let shard = read_shard_for(&path, &spec)?;
        positions += shard.games.iter().map(labelled_positions).sum::<u64>();
        games += shard.games.len() as u64;
        shards.push(path);
    }
    let mut summary = TeachSummary {
        shards,
        positions,
        games,
        new_positions: 0,
        new_games: 0,
        seconds: 0.0,
        white_wins: 0,
        draws: 0,
        black_wins: 0,
        adjudicated: 0,
    };
    let header = shard_header::<P>(rules, config);
    let tally = Tally {
        positions: AtomicU64::new(positions),
        games: AtomicU64::new(games),
        on_progress,
    };
    let engine_config = config.engine_config();
    while summary.positions < config.positions {
        let k = summary.shards.len();
        let records = play_shard::<P>(rules, config, k, &engine_config, network.as_ref(), &tally)?;
        let path = shard_path(dir, k);
        write_shard(&path, &header, &records)?;
        for record in &records {
            let labelled = labelled_positions(record);
            summary.positions += labelled;
            summary.new_positions += labelled;
            match record.result {
                GameResult::WhiteWins => summary.white_wins += 1,
                GameResult::BlackWins => summary.black_wins += 1,
                _ => summary.draws += 1,
            }
            if record.termination.starts_with("adjudicated") {
                summary.adjudicated += 1;
            }
        }
        summary.games += records.len() as u64;
        summary.new_games += records.len() as u64;
        summary.shards.push(path);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Positions and games labelled so far, counted by the workers for
/// `on_progress`.
struct Tally<'a> {
    positions: AtomicU64,
    games: AtomicU64,
    on_progress: &'a (dyn Fn(TeachProgress) + Sync),
}

/// The games of shard `k`: game `k * games_per_shard + g` for each `g`,
/// in parallel, each seeded by its number alone, so a shard is the same
/// whoever plays it and whatever was played before. `tally` counts for
/// `on_progress`.
fn play_shard<P: GameVariant>(
    rules: &P::Rules,
    config: &TeachConfig,
    k: usize,
    engine_config: &EngineConfig,
    network: Option<&Arc<Network>>,
    tally: &Tally<'_>,
) -> Result<Vec<GameRecord>, TeachError> {
    let first = k as u64 * u64::from(config.games_per_shard);
    (0..u64::from(config.games_per_shard))
        .into_par_iter()
        .map_init(
            || {
                let mut engine =
                    Engine::<P>::new(*engine_config).expect("the settings were checked");
                engine
                    .set_network(network.cloned())
                    .expect("the net was checked when it was read");
                engine
            },
            |engine, g| {
                engine.new_game();
                let seed = derive_seed(config.seed, (first + g) as usize, 0);
                let record = play_game::<P>(rules, config, engine, seed)?;
                let labelled = labelled_positions(&record);
                let positions = tally.positions.fetch_add(labelled, Ordering::Relaxed);
                let games = tally.games.fetch_add(1, Ordering::Relaxed);
                (tally.on_progress)(TeachProgress {
                    positions: positions + labelled,
                    target: config.positions,
                    games: games + 1,
                });
                Ok(record)
            },
        )
        .collect()
}

/// What [`teach_shard`] wrote (or found written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardOutcome {
    pub path: PathBuf,
    /// Labelled positions and games in the shard.
    pub positions: u64,
    pub games: u64,
}

/// Writes shard `k` of the teacher directory `dir` alone: the shard
/// [`teach`] writes as its `k`-th, byte for byte, since its games are
/// seeded by their numbers. A shard already there is read and kept. A
/// task of a teacher run split across machines (`python -m heterodox.ray
/// teach`): the driver asks for shards in order until their labelled
/// positions reach the target, as `teach` would, and removes any written
/// past that point.
pub fn teach_shard<P: GameVariant>(
    rules: &P::Rules,
    config: &TeachConfig,
    dir: &Path,
    k: usize,
    on_progress: &(dyn Fn(TeachProgress) + Sync),
) -> Result<ShardOutcome, TeachError> {
    config.validate()?;
    let network = config.load_network::<P>(rules)?;
    if k > MAX_SHARD {
        return Err(TeachError::OutOfRange {
            field: "shard",
            value: k.to_string(),
            expected: "0 to 1048576",
        });
    }
    std::fs::create_dir_all(dir).map_err(|e| TeachError::Directory {
        path: dir.to_owned(),
        message: e.to_string(),
    })?;
    check_settings(dir, config)?;
    let path = shard_path(dir, k);
    let records = if path.is_file() {
        let spec = EncodingSpec::of(&P::start(rules, 0)?, 1);
        read_shard_for(&path, &spec)?.games
    } else {
        let records = play_shard::<P>(
            rules,
            config,
            k,
            &config.engine_config(),
            network.as_ref(),
            &Tally {
                positions: AtomicU64::new(0),
                games: AtomicU64::new(0),
                on_progress,
            },
        )?;
        write_shard(&path, &shard_header::<P>(rules, config), &records)?;
        records
    };
    Ok(ShardOutcome {
        path,
        positions: records.iter().map(labelled_positions).sum(),
        games: records.len() as u64,
    })
}

/// The header of every shard of a teacher run.
fn shard_header<P: GameVariant>(rules: &P::Rules, config: &TeachConfig) -> ShardHeader {
    let evaluation = match &config.network {
        Some(path) => format!("net {}", path.display()),
        None => "classical".to_owned(),
    };
    let producer = if config.value_only {
        format!(
            "heterodox teach (engine depth {}, {evaluation}, value only)",
            config.depth
        )
    } else {
        format!(
            "heterodox teach (engine depth {}, {evaluation}, softmax {} cp)",
            config.depth, config.policy_temperature
        )
    };
    ShardHeader::new::<P>(rules, producer)
}

/// Writes the settings of a new directory, or checks them against those
/// it was started with.
fn check_settings(dir: &Path, config: &TeachConfig) -> Result<(), TeachError> {
    let path = dir.join(SETTINGS_FILE);
    let error = |message: String| TeachError::Directory {
        path: path.clone(),
        message,
    };
    let wanted = config.without_positions();
    match std::fs::read(&path) {
        Ok(bytes) => {
            let found: TeachConfig = serde_json::from_slice(&bytes)
                .map_err(|e| error(format!("unreadable settings: {e}")))?;
            if found.without_positions() != wanted {
                return Err(error(format!(
                    "holds teacher data made with other settings ({}); choose another directory",
                    serde_json::to_string(&found.without_positions()).unwrap_or_default()
                )));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let text = serde_json::to_string_pretty(&wanted).expect("settings serialize");
            write_file(&path, text.as_bytes()).map_err(|e| error(e.to_string()))
        }
        Err(e) => Err(error(e.to_string())),
    }
}

/// One game of the engine against itself, every engine step labelled.
pub fn play_game<P: GameVariant>(
    rules: &P::Rules,
    config: &TeachConfig,
    engine: &mut Engine<P>,
    seed: u64,
) -> Result<GameRecord, TeachError> {
    let mut rng = SplitMix64::new(derive_seed(seed, 0, 1));
    let mut game = Game::new(P::start(rules, seed)?);
    let cap = if config.max_plies == 0 {
        P::DEFAULT_MAX_PLIES
    } else {
        config.max_plies
    } as usize;
    let opening = rng.below(config.random_plies as usize + 1);
    let mut steps = Vec::new();
    let mut actions = Vec::new();
    let mut weights = Vec::new();
    let mut labelled = 0u32;
    while game.outcome().is_none() && steps.len() < cap {
        let position = game.position();
        if steps.len() < opening {
            game.legal_actions(&mut actions);
            let action = actions[rng.below(actions.len())];
            steps.push(StepRecord {
                action: position.action_index(&action) as u32,
                root_value: 0.0,
                policy: Vec::new(),
                surprise: 0.0,
            });
            game.play_unchecked(&action);
            continue;
        }
        if config.value_only {
            let report = engine.search(&game, &Limits::depth(config.depth), |_| {})?;
            steps.push(StepRecord {
                action: position.action_index(&report.best) as u32,
                root_value: report.score.expected_result(),
                policy: vec![(position.action_index(&report.best) as u32, 1.0)],
                surprise: 0.0,
            });
            game.play_unchecked(&report.best);
            labelled += 1;
            continue;
        }
        let scores = engine.score_root_moves_within(&game, config.depth, config.margin_cp())?;
        softmax_weights(&scores, config.policy_temperature, &mut weights);
        let pick = if labelled < config.sample_plies {
            sample(&weights, &mut rng)
        } else {
            0
        };
        let mut policy: Vec<(u32, f32)> = scores
            .iter()
            .zip(&weights)
            .filter(|(_, &w)| w >= MIN_PROBABILITY)
            .map(|(s, &w)| (position.action_index(&s.action) as u32, w))
            .collect();
        let kept: f32 = policy.iter().map(|(_, w)| w).sum();
        for entry in &mut policy {
            entry.1 /= kept;
        }
        let action = scores[pick].action;
        steps.push(StepRecord {
            action: position.action_index(&action) as u32,
            root_value: scores[0].score.expected_result(),
            policy,
            surprise: 0.0,
        });
        game.play_unchecked(&action);
        labelled += 1;
    }
    let mut record = GameRecord::ended(seed, None, steps, game.outcome());
    if record.result == GameResult::Truncated {
        let judged = adjudicate(engine, &game, config.depth, config.adjudicate_cp)?;
        record.result = judged.result;
        record.termination = judged.termination;
    }
    Ok(record)
}

/// Softmax of the scores (best first) at `temperature` centipawns.
fn softmax_weights<A>(scores: &[RootScore<A>], temperature: f32, out: &mut Vec<f32>) {
    out.clear();
    let clamp = |v: i32| v.clamp(-SOFTMAX_CLAMP_CP, SOFTMAX_CLAMP_CP) as f32;
    let best = scores
        .iter()
        .map(|s| clamp(s.value))
        .fold(f32::MIN, f32::max);
    out.extend(
        scores
            .iter()
            .map(|s| ((clamp(s.value) - best) / temperature).exp()),
    );
    let total: f32 = out.iter().sum();
    for w in out.iter_mut() {
        *w /= total;
    }
}

/// An index drawn in proportion to `weights` (which sum to 1).
fn sample(weights: &[f32], rng: &mut SplitMix64) -> usize {
    let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    let mut acc = 0.0;
    for (k, &w) in weights.iter().enumerate() {
        acc += w;
        if u < acc {
            return k;
        }
    }
    weights.len() - 1
}
