//! The engine's UCI options beside the game's: `MultiPV`, `Hash` and
//! `Threads`, as `uci` declares them and `setoption` reads them. They
//! change what the agent's engine does, not the game, so setting one never
//! rebuilds the game (a game rebuilt by another setting gets them again
//! before its next search). A value that is not a number or is out of
//! range is refused with the range, and the option keeps its value.

use heterodox_engine::{EngineConfig, MAX_MULTIPV, MIN_HASH_MIB};

/// The largest `Hash` a session accepts, in MiB: far beyond what the
/// engine's searches of seconds fill, and small enough that a GUI's
/// setting cannot ask this machine for more memory than it has.
pub const MAX_HASH_MIB: u64 = 1024;

/// What the session asks of its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Principal variations reported (`MultiPV`), 1 to
    /// [`heterodox_engine::MAX_MULTIPV`].
    pub multipv: usize,
    /// The engine's transposition table in MiB (`Hash`).
    pub hash_mib: u64,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            multipv: 1,
            hash_mib: EngineConfig::default().hash_mib,
        }
    }
}

impl EngineOptions {
    /// `uci`'s declarations of the options. `Threads` is declared with
    /// its only value: the agents search on one thread, the setting under
    /// which a depth or node limit plays the same move every time (Lazy
    /// SMP helpers showed no gain on the two cores it was measured on,
    /// docs/engine.md), and GUIs that send `Threads` routinely should see
    /// that more is refused rather than silently ignored.
    pub fn declarations(&self) -> [String; 3] {
        [
            format!(
                "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
                self.multipv
            ),
            format!(
                "option name Hash type spin default {} min {MIN_HASH_MIB} max {MAX_HASH_MIB}",
                self.hash_mib
            ),
            "option name Threads type spin default 1 min 1 max 1".to_owned(),
        ]
    }

    /// The options with `name` (case-insensitive, as UCI asks) set to
    /// `value`; `None` when `name` is not one of them; an error naming the
    /// option, the value and its range when the value is refused.
    pub fn with(&self, name: &str, value: &str) -> Option<Result<EngineOptions, String>> {
        let mut options = *self;
        let result = match name.to_ascii_lowercase().as_str() {
            "multipv" => {
                spin("MultiPV", value, 1, MAX_MULTIPV as u64).map(|n| options.multipv = n as usize)
            }
            "hash" => spin("Hash", value, MIN_HASH_MIB, MAX_HASH_MIB).map(|n| options.hash_mib = n),
            "threads" => spin("Threads", value, 1, 1)
                .map(|_| ())
                .map_err(|e| format!("{e}: the engine searches on one thread")),
            _ => return None,
        };
        Some(result.map(|()| options))
    }
}

/// A spin option's value: a whole number from `min` to `max`.
fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    let number: u64 = value
        .parse()
        .map_err(|_| format!("option {name}: '{value}' is not a number"))?;
    if (min..=max).contains(&number) {
        Ok(number)
    } else {
        Err(format!(
            "option {name}: {number} is out of range ({min} to {max})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_case_insensitively_within_their_ranges() {
        let options = EngineOptions::default();
        let set = |name, value| options.with(name, value).unwrap();
        assert_eq!(set("MultiPV", "3").unwrap().multipv, 3);
        assert_eq!(set("multipv", "256").unwrap().multipv, 256);
        assert_eq!(set("Hash", "64").unwrap().hash_mib, 64);
        assert_eq!(set("threads", "1").unwrap(), options);
        assert_eq!(
            set("MultiPV", "0").unwrap_err(),
            "option MultiPV: 0 is out of range (1 to 256)"
        );
        assert_eq!(
            set("MultiPV", "abc").unwrap_err(),
            "option MultiPV: 'abc' is not a number"
        );
        assert_eq!(
            set("Hash", "4096").unwrap_err(),
            "option Hash: 4096 is out of range (1 to 1024)"
        );
        assert_eq!(
            set("Hash", "-1").unwrap_err(),
            "option Hash: '-1' is not a number"
        );
        assert_eq!(
            set("Threads", "4").unwrap_err(),
            "option Threads: 4 is out of range (1 to 1): the engine searches on one thread"
        );
        assert!(options.with("Ponder", "true").is_none());
    }
}
