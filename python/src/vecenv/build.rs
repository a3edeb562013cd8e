//! Building the batch: the variant's start function (a rule seed fixes
//! the set-up) and reset seeds (an int or one per env).

use heterodox_env::vecenv::{derive_seed, BatchEnv, EnvConfig};
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::args::int_in;
use crate::errors::{value_error, IntoPyErr};

/// Builds the batch of a variant chosen at run time. A rule option `seed`
/// fixes the set-up (Traitor's `selection=random`): every game starts
/// from the one `Game(variant, seed=...)` starts from, rather than from
/// one drawn per game from the env's seed.
pub(super) struct BuildBatch<'a> {
    pub options: &'a RuleOptions,
    pub config: EnvConfig,
    pub fixed_setup: bool,
}

impl VariantVisitor for BuildBatch<'_> {
    type Output = PyResult<Box<dyn BatchEnv>>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(self.options).map_err(IntoPyErr::into_py_err)?;
        if !self.fixed_setup {
            let env = heterodox_env::VecEnv::<P>::with_rules(self.config, rules)
                .map_err(IntoPyErr::into_py_err)?;
            return Ok(Box::new(env));
        }
        // Game() starts from game seed 0.
        let start = P::start(&rules, 0).map_err(IntoPyErr::into_py_err)?;
        let env = heterodox_env::VecEnv::<P>::new(self.config, move |_seed| start.clone())
            .map_err(value_error)?;
        Ok(Box::new(env))
    }
}

/// Reads reset's seed: None, an int, or a list of one int (or None) per
/// env, which is mixed into one base seed.
pub(super) fn read_reset_seed(
    seed: Option<&Bound<'_, PyAny>>,
    num_envs: usize,
) -> PyResult<Option<u64>> {
    let Some(seed) = seed.filter(|seed| !seed.is_none()) else {
        return Ok(None);
    };
    let Ok(list) = seed.cast::<PyList>() else {
        return int_in(seed, "seed", 0, u64::MAX).map(Some);
    };
    if list.len() != num_envs {
        return Err(value_error(format!(
            "seed must be an int or a list of one seed per env ({num_envs}), not {} seeds",
            list.len()
        )));
    }
    let mut mixed = 0u64;
    for (env, item) in list.iter().enumerate() {
        let value = if item.is_none() {
            u64::MAX
        } else {
            int_in(&item, "seed", 0, u64::MAX)?
        };
        mixed = derive_seed(mixed ^ value, env, 0);
    }
    Ok(Some(mixed))
}
