//! How an engine is built ([`EngineConfig`]): the ranges of its settings
//! and the error that names them, side by side, so that the error's
//! messages read the constants from the module that defines them and
//! nothing here imports back from the modules that check them (the
//! table's size is checked in tt.rs, the rest here).

use crate::eval::EvalWeights;

/// The smallest table, in MiB.
pub const MIN_HASH_MIB: u64 = 1;
/// The largest table, in MiB (64 GiB): anything larger is a typo.
pub const MAX_HASH_MIB: u64 = 65_536;

/// The most search threads an engine runs.
pub const MAX_THREADS: usize = 256;
/// The most determinizations a hidden-information search averages.
pub const MAX_DETERMINIZATIONS: usize = 1024;

/// How an engine is built.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB (1 to 65536).
    pub hash_mib: u64,
    /// Search threads (Lazy SMP: helpers share the table). One thread
    /// searches deterministically for a depth or node limit; more do not.
    /// Hidden-information searches use one thread.
    pub threads: usize,
    /// Hidden information only: how many states drawn from the searcher's
    /// view are searched and averaged (all of them when fewer exist).
    pub determinizations: usize,
    /// Seed of the determinization draws.
    pub seed: u64,
    /// The evaluation's numbers: tuned (the default) or set by hand
    /// (docs/engine.md, "Tuning").
    pub weights: EvalWeights,
    /// Hidden information only: check every root action against what any
    /// consistent secret lets the opponent do next and set aside those that
    /// lose at once ([`crate::hidden::threats`]). On by default; off is the
    /// plain determinized search (agent option `/naive`).
    pub threat_guard: bool,
    /// Hidden information only: at a secret selection, draw from the
    /// equilibrium shipped for the rule set ([`crate::hidden::selection`])
    /// instead of searching. On by default; `/naive` turns it off.
    pub selection_strategy: bool,
    /// Hidden information only: draw the determinizations from a posterior
    /// over the opponent's secret, updated from its steps through the game
    /// ([`crate::hidden::beliefs`]), instead of uniformly. On by default;
    /// `/naive` turns it off.
    pub beliefs: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            hash_mib: 16,
            threads: 1,
            determinizations: 4,
            seed: 0,
            weights: EvalWeights::Tuned,
            threat_guard: true,
            selection_strategy: true,
            beliefs: true,
        }
    }
}

impl EngineConfig {
    /// Refuses values out of range, naming the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(ConfigError::Threads(self.threads));
        }
        if !(1..=MAX_DETERMINIZATIONS).contains(&self.determinizations) {
            return Err(ConfigError::Determinizations(self.determinizations));
        }
        Ok(())
    }
}

/// A configuration value outside its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("hash {0} MiB is out of range ({MIN_HASH_MIB} to {MAX_HASH_MIB} MiB)")]
    HashSize(u64),
    #[error("could not allocate a {0} MiB transposition table")]
    HashAllocation(u64),
    #[error("threads {0} is out of range (1 to {MAX_THREADS})")]
    Threads(usize),
    #[error("determinizations {0} is out of range (1 to {MAX_DETERMINIZATIONS})")]
    Determinizations(usize),
}
