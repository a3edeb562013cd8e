//! The training run's settings, read from TOML.
//!
//! Every field has a default (the small CPU run of `make train`); a file
//! names only what it changes. An unknown or ill-typed field is an error
//! naming it (serde's `deny_unknown_fields`), and [`TrainConfig::validate`]
//! bounds every number before anything is allocated. `configs/*.toml`
//! hold the commented defaults per variant.

use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::ops::{Range, RangeBounds, RangeFrom, RangeInclusive};
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use heterodox_engine::{EvalWeights, Evaluation as EngineEvaluation, MAX_DEPTH};
use heterodox_env::RuleOptions;
use heterodox_selfplay::agent::{AgentKind, AgentSpec, EngineBudget};
use heterodox_selfplay::{ResignConfig, SearchConfig, SelfPlayConfig};

use crate::error::TrainError;

/// Everything a training run needs, saved in the run directory as
/// `config.toml` so that `--resume` continues with exactly these settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// The variant's name (`heterodox variants`).
    pub variant: String,
    /// Its rule settings, `KEY = "VALUE"` (as `--option KEY=VALUE`).
    pub options: BTreeMap<String, String>,
    /// Base seed: every random process of the run derives from it and the
    /// iteration number (network initialisation, self-play, sampling,
    /// evaluation openings).
    pub seed: u64,
    /// T: positions stacked in an observation.
    pub history: usize,
    pub run: RunLimits,
    pub selfplay: SelfPlaySection,
    /// The self-play search ([`SearchConfig`]'s fields).
    pub search: SearchConfig,
    pub network: NetworkSection,
    pub optimizer: OptimizerConfig,
    pub training: TrainingSection,
    pub evaluation: EvaluationSection,
    pub checkpoint: CheckpointSection,
    /// A start from the alpha-beta engine: teacher data, a supervised
    /// phase, and teacher positions kept in the replay window.
    pub teacher: TeacherSection,
}

/// When the run stops: whichever limit comes first (0 turns one off; at
/// least one must be on).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunLimits {
    /// Iterations (self-play, then training) in all.
    pub iterations: u32,
    /// Wall-clock minutes for the iterations; the final evaluation runs
    /// after the last one. Counted from the start of this process (a
    /// resumed run gets the limit again).
    pub minutes: f64,
}

/// Self-play per iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlaySection {
    /// Games played per iteration.
    pub games: u32,
    /// Games in progress at once (their leaves share each forward pass).
    pub concurrent: u32,
    /// Forward passes in flight (1 to 8, at most `concurrent`): the games
    /// at once are split into this many groups, and one group's batch is
    /// evaluated on a second thread while the others do their tree work
    /// on the CPU ([`SelfPlayConfig::pipeline`]). For a GPU, whose forward
    /// pass then overlaps the tree work (2 is the usual choice); on a
    /// CPU-only machine the network and the tree work share the cores and
    /// it buys little. 1: one pass per round, as every earlier run; the
    /// games played are the same either way (up to the network's
    /// batch-dependent rounding).
    pub pipeline: u32,
    /// Steps after which a game is cut (no result; its positions still
    /// train the policy, their value target is the search's); 0 takes the
    /// variant's default.
    pub max_plies: u32,
    /// PUCT only: steps played in proportion to the visits before the
    /// most visited is taken.
    pub temperature_plies: u32,
    /// Each game opens with 0 to this many uniformly random plies (not
    /// trained on): varied starts, so that a forced line the search finds
    /// early does not fill the replay window with one game.
    pub opening_plies: u32,
    /// A game cut at `max_plies` is judged by the engine
    /// ([`heterodox_engine::adjudicate`]): a lead of this many centipawns
    /// (or a mate) wins, less draws. 0 leaves it truncated (no result:
    /// its value target is the search's alone).
    pub adjudicate_cp: i32,
    /// Depth of the adjudicating search.
    pub adjudicate_depth: u32,
    /// Playout cap randomization ([`SelfPlayConfig::full_search_share`]):
    /// the share of moves searched with `search.simulations` and trained
    /// on; the others get `cheap_simulations` and are not trained on. 1:
    /// every move.
    pub full_search_share: f32,
    /// A cheap move's simulations (0: a quarter of `search.simulations`).
    pub cheap_simulations: u32,
    /// Resignation ([`heterodox_selfplay::resign`]; threshold 0: never).
    pub resign: ResignConfig,
}

/// The residual tower; the input and output shapes come from the
/// variant's encoding spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkSection {
    pub blocks: usize,
    pub channels: usize,
    pub value_hidden: usize,
    /// The moves-left and material heads (trained, not used in play).
    pub auxiliary_heads: bool,
}

/// How the learning rate moves over the run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// `learning_rate` throughout (after the warm-up).
    Constant,
    /// Cosine decay from `learning_rate` to `learning_rate *
    /// final_fraction` over `decay_steps`, then flat.
    Cosine,
}

/// SGD with momentum (AlphaZero's optimizer), decoupled from libtorch's
/// optimizers so that its state is ours to save (see [`crate::trainer::optimizer`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimizerConfig {
    pub learning_rate: f64,
    pub momentum: f64,
    /// L2 penalty on every weight (added to the gradient: `wd * w`).
    pub weight_decay: f64,
    /// Nesterov momentum.
    pub nesterov: bool,
    /// Steps of linear warm-up from 0.
    pub warmup_steps: u32,
    pub schedule: Schedule,
    /// Cosine: steps over which the rate decays.
    pub decay_steps: u32,
    /// Cosine: the final rate as a fraction of `learning_rate`.
    pub final_fraction: f64,
}

/// Learning from the replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainingSection {
    pub batch_size: usize,
    /// SGD steps per iteration.
    pub steps_per_iteration: u32,
    /// The replay window: games of the last this-many iterations.
    pub window_iterations: u32,
    /// Weight of the game result in the value target (the rest is the
    /// search's root value); 1 is AlphaZero's pure result.
    pub z_weight: f32,
    /// Weight of the value loss against the policy loss.
    pub value_loss_weight: f64,
    /// Weights of the auxiliary heads' losses (with
    /// `network.auxiliary_heads`).
    pub moves_left_loss_weight: f64,
    pub material_loss_weight: f64,
    /// Policy-surprise weighting λ in `[0, 1]` (KataGo): the window's
    /// self-play positions are drawn in proportion to `(1 - λ) + λ s / s̄`,
    /// `s` how far the search's target moved from the network's prior
    /// ([`heterodox_data::loader`]). 0: uniform draws.
    pub surprise_weight: f32,
    /// A bound on how often a position is trained on: an iteration draws
    /// at most this many rows per training position its self-play made
    /// (fewer SGD steps when the iteration made few positions), so each
    /// self-play position is drawn about this many times, times the
    /// self-play share of the window, over its stay in the window. 0: no
    /// bound (`steps_per_iteration` always).
    pub max_sample_reuse: f32,
}

/// Evaluation while training: games against fixed opponents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvaluationSection {
    /// Evaluate every this-many iterations (0: only at the end).
    pub every: u32,
    /// Games against each opponent (whole pairs, colours alternated).
    pub games: u32,
    /// Simulations per move of the agent and of the uniform-evaluator
    /// search (equal budgets); 0 takes `search.simulations`.
    pub simulations: u32,
    /// Random plies that open each pair of games.
    pub opening_plies: u32,
    /// Steps after which an evaluation game is cut and scored a draw (0:
    /// the variant's default).
    pub max_plies: u32,
    /// Also evaluate after the last iteration.
    pub at_end: bool,
    /// Also evaluate once the teacher's supervised phase is done (as
    /// iteration 0), so that the curve starts where the engine's labels
    /// left the network and shows what self-play adds.
    pub after_teacher: bool,
    /// The fixed opponents, in order: `random`, `uniform` (the search at
    /// the same simulations, uniform priors), `greedy` and
    /// `ab@DEPTH/classical` (the engine with its tuned hand-written
    /// evaluation: [`Yardstick`]).
    pub opponents: Vec<String>,
}

/// The teacher: the engine plays itself and labels its positions
/// ([`heterodox_engine::teach`]); the network first learns them (the
/// supervised phase), then the AlphaZero loop goes on from that network
/// with a share of the teacher's positions in every replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TeacherSection {
    /// Labelled positions to make or read (0: no teacher).
    pub positions: u64,
    /// Depth at which the engine scores every legal action.
    pub depth: u32,
    /// Uniformly random steps opening a teacher game (0 to this many).
    pub random_plies: u32,
    /// Labelled steps per game whose move is drawn from the target.
    pub sample_plies: u32,
    /// Softmax temperature of the policy target, centipawns.
    pub policy_temperature: f32,
    /// Steps after which a teacher game is adjudicated (0: the variant's cap).
    pub max_plies: u32,
    /// Lead (centipawns) at the ply cap that scores a win.
    pub adjudicate_cp: i32,
    /// The teacher data's directory: empty for `RUN/teacher`, or one made
    /// by `heterodox teach` with the same settings (filled up to
    /// `positions` if it holds fewer).
    pub dir: String,
    /// SGD steps of the supervised phase.
    pub steps: u32,
    /// Minutes the supervised phase may take at most (0: no limit).
    pub minutes: f64,
    /// Weight of the game result in the supervised value target (the
    /// rest is the engine's score as an expected result).
    pub z_weight: f32,
    /// Share of teacher positions in the replay window of the
    /// self-play iterations (0 to less than 1).
    pub share: f32,
}

/// Checkpoints in `RUN/checkpoints/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CheckpointSection {
    /// Write one every this-many iterations (and after the last).
    pub every: u32,
    /// Keep the last this-many (at least 1).
    pub keep: u32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            variant: "hostage".to_owned(),
            options: BTreeMap::new(),
            seed: 0,
            history: 1,
            run: RunLimits::default(),
            selfplay: SelfPlaySection::default(),
            search: SearchConfig {
                simulations: 16,
                root_policy: heterodox_selfplay::RootPolicy::Gumbel,
                gumbel_actions: 16,
                // A run's config.toml states it; one written before it
                // existed reads the search's own default, off, and replays.
                immediate_wins: true,
                // Quiescence at the leaves, which took the one-hour
                // networks from 29.5% to 57% (Hostage) and from 22% to 41%
                // (Poison) against ab@1/classical (docs/training.md); off
                // in a config.toml that does not state it.
                quiescence_weight: 0.5,
                ..SearchConfig::default()
            },
            network: NetworkSection::default(),
            optimizer: OptimizerConfig::default(),
            training: TrainingSection::default(),
            evaluation: EvaluationSection::default(),
            checkpoint: CheckpointSection::default(),
            teacher: TeacherSection::default(),
        }
    }
}

impl Default for TeacherSection {
    fn default() -> TeacherSection {
        let teach = heterodox_engine::TeachConfig::default();
        TeacherSection {
            positions: 250_000,
            depth: 1,
            random_plies: teach.random_plies,
            sample_plies: teach.sample_plies,
            policy_temperature: teach.policy_temperature,
            max_plies: teach.max_plies,
            adjudicate_cp: teach.adjudicate_cp,
            dir: String::new(),
            steps: 4000,
            minutes: 4.0,
            z_weight: 0.5,
            share: 0.5,
        }
    }
}

impl TeacherSection {
    /// The engine's settings for making this section's data.
    pub fn teach_config(&self, seed: u64) -> heterodox_engine::TeachConfig {
        heterodox_engine::TeachConfig {
            positions: self.positions,
            depth: self.depth,
            random_plies: self.random_plies,
            sample_plies: self.sample_plies,
            policy_temperature: self.policy_temperature,
            max_plies: self.max_plies,
            adjudicate_cp: self.adjudicate_cp,
            seed,
            ..heterodox_engine::TeachConfig::default()
        }
    }
}

impl Default for RunLimits {
    fn default() -> RunLimits {
        RunLimits {
            iterations: 0,
            minutes: 12.0,
        }
    }
}

impl Default for SelfPlaySection {
    fn default() -> SelfPlaySection {
        SelfPlaySection {
            games: 32,
            concurrent: 32,
            pipeline: 1,
            max_plies: 160,
            temperature_plies: 30,
            opening_plies: 0,
            adjudicate_cp: 300,
            adjudicate_depth: 2,
            full_search_share: 1.0,
            cheap_simulations: 0,
            resign: ResignConfig::default(),
        }
    }
}

impl Default for NetworkSection {
    fn default() -> NetworkSection {
        NetworkSection {
            blocks: 2,
            channels: 32,
            value_hidden: 64,
            auxiliary_heads: true,
        }
    }
}

impl Default for OptimizerConfig {
    fn default() -> OptimizerConfig {
        OptimizerConfig {
            learning_rate: 0.02,
            momentum: 0.9,
            weight_decay: 1e-4,
            nesterov: true,
            warmup_steps: 50,
            schedule: Schedule::Constant,
            decay_steps: 10_000,
            final_fraction: 0.1,
        }
    }
}

impl Default for TrainingSection {
    fn default() -> TrainingSection {
        TrainingSection {
            batch_size: 256,
            steps_per_iteration: 30,
            window_iterations: 6,
            z_weight: 0.5,
            value_loss_weight: 1.0,
            moves_left_loss_weight: 0.25,
            material_loss_weight: 0.25,
            surprise_weight: 0.0,
            max_sample_reuse: 0.0,
        }
    }
}

impl Default for EvaluationSection {
    fn default() -> EvaluationSection {
        EvaluationSection {
            every: 25,
            games: 60,
            simulations: 64,
            opening_plies: 4,
            max_plies: 160,
            at_end: true,
            after_teacher: true,
            opponents: ["greedy", "ab@1/classical"].map(String::from).to_vec(),
        }
    }
}

impl EvaluationSection {
    /// The opponents, read; an unknown or repeated one is refused with
    /// the setting named.
    pub fn yardsticks(&self) -> Result<Vec<Yardstick>, TrainError> {
        let mut yardsticks: Vec<Yardstick> = Vec::with_capacity(self.opponents.len());
        for text in &self.opponents {
            let yardstick = text.parse().map_err(|message: String| TrainError::Config {
                path: None,
                message: format!("setting evaluation.opponents: {message}"),
            })?;
            if yardsticks.contains(&yardstick) {
                return Err(out_of_range(
                    "evaluation.opponents",
                    text,
                    "each opponent once",
                ));
            }
            yardsticks.push(yardstick);
        }
        Ok(yardsticks)
    }
}

impl Default for CheckpointSection {
    fn default() -> CheckpointSection {
        CheckpointSection { every: 1, keep: 3 }
    }
}

/// A fixed opponent of the evaluation, named by its agent string.
///
/// Defined with the settings, not in evaluate.rs which plays it: the
/// config reads and checks `evaluation.opponents` into yardsticks and the
/// evaluation reads the config, so beside the games it made the two
/// modules need each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yardstick {
    Random,
    /// The search at the agent's simulations, uniform priors, value 0.
    Uniform,
    Greedy,
    /// The engine at this depth with the tuned classical evaluation
    /// (`ab@DEPTH/classical`): fixed whatever nets ship later.
    Engine(u32),
}

impl FromStr for Yardstick {
    type Err = String;

    fn from_str(text: &str) -> Result<Yardstick, String> {
        let refused = || {
            format!("evaluation opponent '{text}' is none of random, uniform, greedy, ab@DEPTH/classical (DEPTH 1 to {MAX_DEPTH})")
        };
        match text {
            "random" => return Ok(Yardstick::Random),
            "uniform" => return Ok(Yardstick::Uniform),
            "greedy" => return Ok(Yardstick::Greedy),
            _ => {}
        }
        let spec: AgentSpec = text.parse().map_err(|_| refused())?;
        match spec.kind {
            AgentKind::Engine(
                EngineBudget::Depth(depth),
                EngineEvaluation::Classical(EvalWeights::Tuned),
            ) => Ok(Yardstick::Engine(depth)),
            _ => Err(refused()),
        }
    }
}

impl fmt::Display for Yardstick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Yardstick::Random => write!(f, "random"),
            Yardstick::Uniform => write!(f, "uniform"),
            Yardstick::Greedy => write!(f, "greedy"),
            Yardstick::Engine(depth) => write!(f, "ab@{depth}/classical"),
        }
    }
}

/// Upper bounds that keep a typo from asking for more than memory holds.
pub mod limits {
    pub const BATCH_SIZE: usize = 1 << 16;
    pub const STEPS_PER_ITERATION: u32 = 1 << 20;
    pub const WINDOW_ITERATIONS: u32 = 1 << 16;
    pub const GAMES: u32 = 1 << 20;
    pub const BLOCKS: usize = 64;
    pub const CHANNELS: usize = 1024;
}

impl TrainConfig {
    /// Reads a TOML file: an unknown or ill-typed field is
    /// [`TrainError::Config`] naming it, with its line.
    pub fn from_file(path: &Path) -> Result<TrainConfig, TrainError> {
        let text = std::fs::read_to_string(path).map_err(|source| TrainError::Io {
            path: path.to_owned(),
            source,
        })?;
        TrainConfig::from_toml(&text).map_err(|e| match e {
            TrainError::Config { message, .. } => TrainError::Config {
                path: Some(path.to_owned()),
                message,
            },
            other => other,
        })
    }

    /// Parses TOML text (see [`TrainConfig::from_file`]) and validates it.
    pub fn from_toml(text: &str) -> Result<TrainConfig, TrainError> {
        let config: TrainConfig = toml::from_str(text).map_err(|e| TrainError::Config {
            path: None,
            message: e.to_string().trim_end().to_owned(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// The config as TOML (every field written).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config always serializes")
    }

    /// The rule settings as the rules core takes them.
    pub fn rule_options(&self) -> RuleOptions {
        let mut options = RuleOptions::new();
        for (key, value) in &self.options {
            options.set(key, value);
        }
        options
    }

    /// Simulations per move in evaluation games.
    pub fn evaluation_simulations(&self) -> u32 {
        if self.evaluation.simulations == 0 {
            self.search.simulations
        } else {
            self.evaluation.simulations
        }
    }

    /// The self-play settings of one iteration.
    pub fn selfplay_config(&self, seed: u64) -> SelfPlayConfig {
        SelfPlayConfig {
            games: self.selfplay.games,
            concurrent: self.selfplay.concurrent,
            pipeline: self.selfplay.pipeline,
            max_plies: self.selfplay.max_plies,
            temperature_plies: self.selfplay.temperature_plies,
            opening_plies: self.selfplay.opening_plies,
            full_search_share: self.selfplay.full_search_share,
            cheap_simulations: self.selfplay.cheap_simulations,
            seed,
            history: self.history,
            search: self.search.clone(),
            resign: self.selfplay.resign.clone(),
        }
    }

    /// Checks every field's range; the error names the field.
    pub fn validate(&self) -> Result<(), TrainError> {
        self.evaluation.yardsticks()?;
        let r = &self.run;
        finite_non_negative("run.minutes", r.minutes)?;
        if r.iterations == 0 && r.minutes == 0.0 {
            return Err(out_of_range(
                "run.iterations",
                0,
                "at least 1 when run.minutes is 0: the run must end",
            ));
        }
        self.selfplay_config(0)
            .validate()
            .map_err(|e| bad_nested("selfplay", e))?;
        let sp = &self.selfplay;
        if !(0..=10_000).contains(&sp.adjudicate_cp) {
            return Err(out_of_range(
                "selfplay.adjudicate_cp",
                sp.adjudicate_cp,
                "0 (off) to 10000",
            ));
        }
        let depths = 1..=heterodox_engine::MAX_DEPTH;
        within("selfplay.adjudicate_depth", sp.adjudicate_depth, depths)?;
        let n = &self.network;
        within("network.blocks", n.blocks, 0..=limits::BLOCKS)?;
        within("network.channels", n.channels, 1..=limits::CHANNELS)?;
        within("network.value_hidden", n.value_hidden, 1..=limits::CHANNELS)?;
        let o = &self.optimizer;
        finite_non_negative("optimizer.learning_rate", o.learning_rate)?;
        finite_non_negative("optimizer.weight_decay", o.weight_decay)?;
        within("optimizer.momentum", o.momentum, 0.0..1.0)?;
        within("optimizer.final_fraction", o.final_fraction, 0.0..=1.0)?;
        if o.schedule == Schedule::Cosine && o.decay_steps == 0 {
            return Err(out_of_range(
                "optimizer.decay_steps",
                0,
                "at least 1 with schedule cosine",
            ));
        }
        let t = &self.training;
        within("training.batch_size", t.batch_size, 1..=limits::BATCH_SIZE)?;
        within(
            "training.steps_per_iteration",
            t.steps_per_iteration,
            0..=limits::STEPS_PER_ITERATION,
        )?;
        let windows = 1..=limits::WINDOW_ITERATIONS;
        within("training.window_iterations", t.window_iterations, windows)?;
        within("training.z_weight", t.z_weight, 0.0..=1.0)?;
        within("training.surprise_weight", t.surprise_weight, 0.0..=1.0)?;
        within(
            "training.max_sample_reuse",
            t.max_sample_reuse,
            0.0..=1000.0,
        )?;
        for (field, weight) in [
            ("training.value_loss_weight", t.value_loss_weight),
            ("training.moves_left_loss_weight", t.moves_left_loss_weight),
            ("training.material_loss_weight", t.material_loss_weight),
        ] {
            finite_non_negative(field, weight)?;
        }
        let e = &self.evaluation;
        within("evaluation.games", e.games, 0..=limits::GAMES)?;
        let simulations = 0..=heterodox_selfplay::config::MAX_SIMULATIONS;
        within("evaluation.simulations", e.simulations, simulations)?;
        within("evaluation.opening_plies", e.opening_plies, 0..=1000)?;
        let teacher = &self.teacher;
        teacher
            .teach_config(self.seed)
            .validate()
            .map_err(|e| TrainError::Config {
                path: None,
                message: e
                    .to_string()
                    .replace("teacher setting ", "setting teacher."),
            })?;
        finite_non_negative("teacher.minutes", teacher.minutes)?;
        within("teacher.z_weight", teacher.z_weight, 0.0..=1.0)?;
        within("teacher.share", teacher.share, 0.0..1.0)?;
        let steps = 0..=limits::STEPS_PER_ITERATION;
        within("teacher.steps", teacher.steps, steps)?;
        within("checkpoint.keep", self.checkpoint.keep, 1..)?;
        within("checkpoint.every", self.checkpoint.every, 1..)?;
        Ok(())
    }
}

/// The error of setting `field` = `value`, out of its range `expected`.
fn out_of_range(field: &str, value: impl ToString, expected: &str) -> TrainError {
    TrainError::Config {
        path: None,
        message: format!(
            "setting {field} = {} is out of range ({expected})",
            value.to_string()
        ),
    }
}

/// A setting's valid range that can say itself in an error's words.
trait SettingRange<T>: RangeBounds<T> {
    /// `1 to 64`, `0 to less than 1`, `at least 1`.
    fn words(&self) -> String;
}

impl<T: Display> SettingRange<T> for RangeInclusive<T> {
    fn words(&self) -> String {
        format!("{} to {}", self.start(), self.end())
    }
}

impl<T: Display> SettingRange<T> for Range<T> {
    fn words(&self) -> String {
        format!("{} to less than {}", self.start, self.end)
    }
}

impl<T: Display> SettingRange<T> for RangeFrom<T> {
    fn words(&self) -> String {
        format!("at least {}", self.start)
    }
}

/// `Ok` when setting `field`'s `value` lies in `range`; else the error
/// that names the field, the value and the range.
fn within<T: PartialOrd + Display>(
    field: &str,
    value: T,
    range: impl SettingRange<T>,
) -> Result<(), TrainError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(out_of_range(field, value, &range.words()))
    }
}

/// `Ok` when setting `field`'s `value` is a finite number, at least 0.
fn finite_non_negative(field: &str, value: f64) -> Result<(), TrainError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(out_of_range(field, value, "a finite number >= 0"))
    }
}

/// A self-play or search setting's error, with its section.
fn bad_nested(section: &str, error: heterodox_selfplay::ConfigError) -> TrainError {
    let heterodox_selfplay::ConfigError::OutOfRange {
        field,
        value,
        expected,
    } = error;
    // The search settings live in their own section.
    let section = match field {
        "games" | "concurrent" | "pipeline" | "max_plies" | "temperature_plies"
        | "opening_plies" | "full_search_share" | "cheap_simulations" => section,
        resign if resign.starts_with("resign.") => section,
        "history" => {
            return TrainError::Config {
                path: None,
                message: format!("setting history = {value} is out of range ({expected})"),
            }
        }
        _ => "search",
    };
    TrainError::Config {
        path: None,
        message: format!("setting {section}.{field} = {value} is out of range ({expected})"),
    }
}
