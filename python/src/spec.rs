//! `encoding_spec`: the encoding contract of a variant under its rules
//! (`heterodox_env::encoding::EncodingSpec`), as the JSON a checkpoint's
//! spec.json holds, so that a network made in Python (heterodox.torch) is
//! built from the same shapes and saved with the same spec as one made by
//! the Rust trainer.

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{call_rule_options, history_arg, MAX_HISTORY};
use crate::errors::{value_error, IntoPyErr};

struct SpecOf<'a> {
    options: &'a RuleOptions,
    history: usize,
}

impl VariantVisitor for SpecOf<'_> {
    type Output = PyResult<EncodingSpec>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(self.options).map_err(IntoPyErr::into_py_err)?;
        let start = P::start(&rules, 0).map_err(IntoPyErr::into_py_err)?;
        Ok(EncodingSpec::of(&start, self.history))
    }
}

/// The encoding spec of a variant under its rules and history, as the JSON
/// of a checkpoint's spec.json (variant, options, version, history,
/// channel_names, num_actions, board_action_planes).
#[pyfunction]
#[pyo3(signature = (variant, history = None, rules = None, **options))]
pub fn encoding_spec(
    variant: &str,
    history: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyDict>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
    let history = history_arg(history, MAX_HISTORY)?;
    let all = call_rule_options(rules, options)?;
    let spec = variant.visit(SpecOf {
        options: &all,
        history,
    })?;
    serde_json::to_string_pretty(&spec).map_err(value_error)
}
