//! [`EncodingSpec`]: the encoding contract of one variant under one set of
//! rule settings, as data. The batched environment, the search, game
//! records and checkpoints all carry it, so that what a network reads is
//! what training saw: loading a checkpoint or a data file made with another
//! layout is an [`EncodingMismatch`] naming both sides, never a silent
//! misreading.
//!
//! The spec of a variant's position, [`EncodingSpec::of`], is written with
//! the variants (variant/spec.rs): a variant is an encoding
//! ([`GameVariant`](crate::GameVariant) extends
//! [`Encoding`](super::Encoding)), so this module names no variant.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::SQUARES;

/// Everything that fixes the shape and meaning of a variant's tensors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodingSpec {
    /// The registered variant name (`hostage`, ...).
    pub variant: String,
    /// The rule settings, every key explicit
    /// ([`GameVariant::rule_options`](crate::GameVariant::rule_options)).
    pub options: BTreeMap<String, String>,
    /// The variant's encoding version ([`super::Encoding::ENCODING_VERSION`]):
    /// changes with any change to its observation or action layout.
    pub version: u32,
    /// T: positions stacked in an observation, current first.
    pub history: usize,
    /// One name per observation plane, stacked: the variant's names, then
    /// `t-k:<name>` for k = 1..T, then the repetition planes.
    pub channel_names: Vec<String>,
    /// Size of the action space.
    pub num_actions: usize,
    /// Leading 64-index blocks of the action space that are indexed by
    /// square (`plane * 64 + square`): a network computes their logits with
    /// a convolution; the remaining `num_actions - 64 * board_action_planes`
    /// indices (selections, discards) come from a flat head.
    pub board_action_planes: usize,
}

/// `variant (k=v,...) vN`: how specs, shard headers and checkpoints name an
/// encoding in messages (no parentheses when there are no options).
pub fn variant_summary(variant: &str, options: &BTreeMap<String, String>, version: u32) -> String {
    let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if options.is_empty() {
        format!("{variant} v{version}")
    } else {
        format!("{variant} ({}) v{version}", options.join(","))
    }
}

/// A spec that does not match the one expected (a checkpoint or data file
/// made under another variant, rule set, version or history length).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("encoding mismatch: expected {expected}, found {found} ({reason})")]
pub struct EncodingMismatch {
    /// The spec in force, shortly (`hostage v1 T=1 [44x8x8] 6208 actions`).
    pub expected: String,
    /// The spec that was offered.
    pub found: String,
    /// The first difference.
    pub reason: String,
}

impl EncodingSpec {
    /// Planes of one observation: `T * C + 2`.
    pub fn num_channels(&self) -> usize {
        self.channel_names.len()
    }

    /// `[T * C + 2, 8, 8]`.
    pub fn observation_shape(&self) -> [usize; 3] {
        [self.num_channels(), 8, 8]
    }

    /// Floats in one observation.
    pub fn observation_len(&self) -> usize {
        self.num_channels() * SQUARES
    }

    /// Actions beyond the square-indexed planes.
    pub fn flat_actions(&self) -> usize {
        self.num_actions - self.board_action_planes * SQUARES
    }

    /// A one-line summary: variant, options, version, history, shapes.
    pub fn summary(&self) -> String {
        format!(
            "{} T={} [{}x8x8] {} actions",
            variant_summary(&self.variant, &self.options, self.version),
            self.history,
            self.num_channels(),
            self.num_actions
        )
    }

    /// Ok when `found` describes the same tensors as `self`; otherwise an
    /// error naming both specs and the first difference.
    pub fn check(&self, found: &EncodingSpec) -> Result<(), EncodingMismatch> {
        let reason = if self.variant != found.variant {
            format!("variant {} vs {}", self.variant, found.variant)
        } else if self.version != found.version {
            format!("encoding version {} vs {}", self.version, found.version)
        } else if self.options != found.options {
            "rule settings differ".to_owned()
        } else if self.history != found.history {
            format!("history {} vs {}", self.history, found.history)
        } else if self.channel_names != found.channel_names {
            "channel layout differs".to_owned()
        } else if self.num_actions != found.num_actions
            || self.board_action_planes != found.board_action_planes
        {
            format!("action space {} vs {}", self.num_actions, found.num_actions)
        } else {
            return Ok(());
        };
        Err(EncodingMismatch {
            expected: self.summary(),
            found: found.summary(),
            reason,
        })
    }
}
