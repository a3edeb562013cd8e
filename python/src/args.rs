//! Integer arguments, size limits and the per-game `fens` list, checked
//! before anything is allocated or converted, so that a negative, huge or
//! mistyped number is a `ValueError` (or `TypeError`) that names the
//! argument and its range, never an `OverflowError` from the conversion or
//! an abort from an allocation that cannot succeed. Also the rule options
//! of a call (`rules=` and keyword options), which every class that builds
//! games reads the same way: here rather than in game.rs, because `Game`
//! draws its frames with the batched env's code (vecenv/), so the batched
//! env reading its options from game.rs made the two need each other.

use heterodox_env::RuleOptions;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::errors::value_error;

/// The most envs one `VecEnv` steps: far above what a machine's cores can
/// keep busy, and low enough that the per-env bookkeeping stays small.
pub(crate) const MAX_ENVS: u64 = 1 << 20;

/// The most positions an observation stacks (`history`): AlphaZero used 8.
pub(crate) const MAX_HISTORY: u64 = 256;

/// The most memory the buffers of one `VecEnv` may take (observations,
/// masks and the final observations of auto-reset): 8 GiB, more than a
/// thousand chess envs with a history of 64 take.
pub(crate) const MAX_BUFFER_BYTES: u64 = 8 << 30;

/// Reads `value` as an int in `min..=max`; `name` is the argument's name in
/// the error. `bool` is refused (True is not a count).
pub(crate) fn int_in(value: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        // numpy integers are not PyInt subclasses but convert through
        // __index__; anything else is a type error.
        if value.hasattr("__index__")? && !value.is_instance_of::<PyBool>() {
            let index = value.call_method0("__index__")?;
            return int_in(&index, name, min, max);
        }
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    let out_of_range = || {
        value_error(format!(
            "{name} must be an int from {min} to {max}, not {}",
            value
                .str()
                .map_or_else(|_| "?".to_owned(), |text| text.to_string())
        ))
    };
    let number: i128 = value.extract().map_err(|error: PyErr| {
        if error.is_instance_of::<PyOverflowError>(value.py()) {
            out_of_range()
        } else {
            error
        }
    })?;
    u64::try_from(number)
        .ok()
        .filter(|number| (min..=max).contains(number))
        .ok_or_else(out_of_range)
}

/// The optional `seed` argument: any u64, 0 when absent.
pub(crate) fn seed_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), |s| int_in(s, "seed", 0, u64::MAX))
}

/// The optional `history` argument: 1 to `max` positions, 1 when absent.
pub(crate) fn history_arg(history: Option<&Bound<'_, PyAny>>, max: u64) -> PyResult<usize> {
    history.map_or(Ok(1), |h| int_in(h, "history", 1, max).map(|h| h as usize))
}

/// The optional `max_plies` argument: at least 1; `None` when absent
/// (the variant's default cap).
pub(crate) fn max_plies_arg(max_plies: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u32>> {
    max_plies
        .map(|m| int_in(m, "max_plies", 1, u64::from(u32::MAX)).map(|m| m as u32))
        .transpose()
}

/// The `fens` argument as one position string per game of `n`: one
/// string stands for every game, else there must be one per game. `each`
/// names a game in the error ("game", "env").
pub(crate) fn fens_per<T: Clone>(fens: Vec<T>, n: usize, each: &str) -> PyResult<Vec<T>> {
    match fens.len() {
        1 => Ok(vec![fens[0].clone(); n]),
        len if len == n => Ok(fens),
        len => Err(value_error(format!(
            "fens must hold one position string or one per {each} ({n}), not {len}"
        ))),
    }
}

/// `bytes` as people read it: `1.5 GiB`.
pub(crate) fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Refuses a batch whose buffers would exceed [`MAX_BUFFER_BYTES`], with
/// the memory it would take: `num_envs` envs of `observation_len` floats
/// (twice: the observations and the final observations of auto-reset) and
/// `num_actions` mask bytes each.
pub(crate) fn check_batch_memory(
    num_envs: u64,
    observation_len: usize,
    num_actions: usize,
) -> PyResult<()> {
    let per_env = 2 * 4 * observation_len as u128 + num_actions as u128;
    let bytes = u128::from(num_envs) * per_env;
    if bytes > u128::from(MAX_BUFFER_BYTES) {
        return Err(value_error(format!(
            "num_envs={num_envs} with these settings would need {} of buffers \
             ({} per env); the limit is {}: use fewer envs or a shorter history",
            human_bytes(bytes),
            human_bytes(per_env),
            human_bytes(u128::from(MAX_BUFFER_BYTES))
        )));
    }
    Ok(())
}

/// The rule options of a call: the `rules` dict, then the keyword
/// options, which win over it.
pub(crate) fn call_rule_options(
    rules: Option<&Bound<'_, PyDict>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<RuleOptions> {
    let mut all = rule_options(rules)?;
    for (key, value) in rule_options(options)?.iter() {
        all.set(key, value);
    }
    Ok(all)
}

/// Reads keyword rule options: str values as they are, bool as 'true' /
/// 'false', int in decimal; any other type is a TypeError.
pub(crate) fn rule_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<RuleOptions> {
    let mut out = RuleOptions::new();
    for (key, value) in options.into_iter().flat_map(|dict| dict.iter()) {
        let key: String = key.extract()?;
        let text = if let Ok(text) = value.cast::<PyString>() {
            text.to_str()?.to_owned()
        } else if let Ok(flag) = value.cast::<PyBool>() {
            flag.is_true().to_string()
        } else if value.is_instance_of::<PyInt>() {
            value.str()?.to_str()?.to_owned()
        } else {
            return Err(PyTypeError::new_err(format!(
                "rule option '{key}' must be a str, int or bool, not {}",
                value.get_type().name()?
            )));
        };
        out.set(&key, &text);
    }
    Ok(out)
}
