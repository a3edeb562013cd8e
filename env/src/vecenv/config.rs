//! How a batched environment is set up: size, seed, history, ply cap,
//! auto-reset.

/// Settings of a [`super::VecEnv`]. `EnvConfig::new(n)` gives the defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvConfig {
    /// Number of games stepped together (at least 1).
    pub num_envs: usize,
    /// Base seed; each game's start seed is derived from it, the env index
    /// and the env's reset count ([`super::derive_seed`]).
    pub seed: u64,
    /// T: how many positions are stacked in an observation, most recent
    /// first (at least 1; default 1).
    pub history: usize,
    /// Steps after which a game is truncated; `None` takes the variant's
    /// default ([`crate::GameVariant::DEFAULT_MAX_PLIES`]).
    pub max_plies: Option<u32>,
    /// Reset a finished game in the same step (default true).
    pub auto_reset: bool,
    /// Write observations (default true). Off, the observation buffer stays
    /// zero: for benchmarks and for users who only need masks.
    pub observations: bool,
}

impl EnvConfig {
    /// `num_envs` games with seed 0, T = 1, the variant's ply cap,
    /// auto-reset and observations on.
    pub fn new(num_envs: usize) -> EnvConfig {
        EnvConfig {
            num_envs,
            seed: 0,
            history: 1,
            max_plies: None,
            auto_reset: true,
            observations: true,
        }
    }

    pub fn with_seed(mut self, seed: u64) -> EnvConfig {
        self.seed = seed;
        self
    }

    pub fn with_history(mut self, history: usize) -> EnvConfig {
        self.history = history;
        self
    }

    pub fn with_max_plies(mut self, max_plies: u32) -> EnvConfig {
        self.max_plies = Some(max_plies);
        self
    }

    pub fn with_auto_reset(mut self, auto_reset: bool) -> EnvConfig {
        self.auto_reset = auto_reset;
        self
    }

    pub fn with_observations(mut self, observations: bool) -> EnvConfig {
        self.observations = observations;
        self
    }
}

impl Default for EnvConfig {
    fn default() -> EnvConfig {
        EnvConfig::new(1)
    }
}
