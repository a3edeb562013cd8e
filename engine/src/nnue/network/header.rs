//! What a net says of itself ([`NetworkHeader`]): the metadata of the net
//! file (format `heterodox-nnue`, version 1).
//!
//! A safetensors file with four float32 tensors, `ft.weight`
//! `[inputs, hidden]`, `ft.bias` `[hidden]`, `out.weight` `[2 hidden]`,
//! `out.bias` `[1]`, and string metadata: `format`, `format_version`,
//! `variant`, `rules` (the rule settings, `key=value` joined by `,`),
//! `feature_set`, `feature_version`, `encoding_version`, `inputs`,
//! `hidden`, `scale`, `base` (`none`, or `classical`: the output is added
//! to the tuned classical evaluation, whose misses the net learned) and a
//! free `producer`. A net is refused, with the
//! field named, for another variant, rule set, feature set or version;
//! PyTorch's `safetensors.torch.save_file` writes the same file
//! (docs/engine.md, "Learned evaluation").

use std::collections::{BTreeMap, HashMap};

use heterodox_env::encoding::Encoding;
use heterodox_env::GameVariant;

use super::error::NnueError;
use crate::nnue::features::FeatureSet;

/// The `format` metadata of every net file.
pub const FORMAT: &str = "heterodox-nnue";
pub const FORMAT_VERSION: u32 = 1;
/// Centipawns per unit of the net's output.
pub const SCALE: i32 = 400;
/// The widest accumulator a net may have (bounds the file before
/// anything is allocated).
pub const MAX_HIDDEN: usize = 512;
/// The most inputs a feature set may have.
pub const MAX_INPUTS: usize = 1 << 15;

/// What a net's output is added to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Base {
    /// Nothing: the net is the evaluation.
    #[default]
    None,
    /// The tuned classical evaluation: the net learns what it misses
    /// (metadata `base = classical`).
    Classical,
}

impl Base {
    /// The metadata's word: `none` or `classical`.
    pub fn name(self) -> &'static str {
        match self {
            Base::None => "none",
            Base::Classical => "classical",
        }
    }
}

impl std::str::FromStr for Base {
    type Err = String;

    fn from_str(word: &str) -> Result<Base, String> {
        match word {
            "none" => Ok(Base::None),
            "classical" => Ok(Base::Classical),
            other => Err(format!("'base' is '{other}', not 'none' or 'classical'")),
        }
    }
}

/// What a net says of itself (the file's metadata).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkHeader {
    pub variant: String,
    /// The rule settings, `key=value` pairs joined by `,` (empty for a
    /// variant without settings).
    pub rules: String,
    pub feature_set: String,
    pub feature_version: u32,
    pub encoding_version: u32,
    pub inputs: usize,
    pub hidden: usize,
    /// What the output is added to (metadata `base`, `none` when absent).
    pub base: Base,
    /// Free text: how the net was made.
    pub producer: String,
}

impl NetworkHeader {
    /// The header of a net for `P` under `rules` with this feature set.
    pub fn for_variant<P: GameVariant>(
        rules: &P::Rules,
        features: FeatureSet,
        hidden: usize,
        producer: impl Into<String>,
    ) -> NetworkHeader {
        NetworkHeader {
            variant: P::VARIANT.name().to_owned(),
            rules: rules_string::<P>(rules),
            feature_set: features.name.to_owned(),
            feature_version: features.version,
            encoding_version: <P as Encoding>::ENCODING_VERSION,
            inputs: features.inputs,
            hidden,
            base: Base::None,
            producer: producer.into(),
        }
    }

    /// Refuses a net made for anything but `P` under `rules` with
    /// `features`, naming the first field that differs.
    pub fn check<P: GameVariant>(
        &self,
        rules: &P::Rules,
        features: FeatureSet,
    ) -> Result<(), NnueError> {
        let expected = NetworkHeader::for_variant::<P>(rules, features, self.hidden, "");
        let mismatch = |field, found: String, expected: String| {
            Err(NnueError::Mismatch {
                field,
                found,
                expected,
            })
        };
        if self.variant != expected.variant {
            return mismatch("variant", self.variant.clone(), expected.variant);
        }
        if self.rules != expected.rules {
            return mismatch("rules", quote(&self.rules), quote(&expected.rules));
        }
        if self.feature_set != expected.feature_set || self.feature_version != features.version {
            return mismatch(
                "feature set",
                format!("{} v{}", self.feature_set, self.feature_version),
                format!("{} v{}", features.name, features.version),
            );
        }
        if self.encoding_version != expected.encoding_version {
            return mismatch(
                "encoding version",
                self.encoding_version.to_string(),
                expected.encoding_version.to_string(),
            );
        }
        if self.inputs != features.inputs {
            return mismatch(
                "inputs",
                self.inputs.to_string(),
                features.inputs.to_string(),
            );
        }
        Ok(())
    }

    pub(super) fn metadata(&self) -> BTreeMap<String, String> {
        let pairs = [
            ("format", FORMAT.to_owned()),
            ("format_version", FORMAT_VERSION.to_string()),
            ("variant", self.variant.clone()),
            ("rules", self.rules.clone()),
            ("feature_set", self.feature_set.clone()),
            ("feature_version", self.feature_version.to_string()),
            ("encoding_version", self.encoding_version.to_string()),
            ("inputs", self.inputs.to_string()),
            ("hidden", self.hidden.to_string()),
            ("scale", SCALE.to_string()),
            ("base", self.base.name().to_owned()),
            ("producer", self.producer.clone()),
        ];
        pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
    }

    pub(super) fn from_metadata(
        metadata: &HashMap<String, String>,
    ) -> Result<NetworkHeader, NnueError> {
        let field = |name: &str| {
            metadata
                .get(name)
                .cloned()
                .ok_or_else(|| NnueError::Format(format!("no '{name}' in the metadata")))
        };
        let number = |name: &str, max: usize| -> Result<usize, NnueError> {
            let text = field(name)?;
            match text.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(NnueError::Format(format!(
                    "'{name}' is '{text}', not a number from 1 to {max}"
                ))),
            }
        };
        if field("format")? != FORMAT {
            return Err(NnueError::Format(format!(
                "'format' is '{}', not '{FORMAT}'",
                field("format")?
            )));
        }
        if number("format_version", u32::MAX as usize)? != FORMAT_VERSION as usize {
            return Err(NnueError::Format(format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                field("format_version")?
            )));
        }
        if number("scale", u32::MAX as usize)? != SCALE as usize {
            return Err(NnueError::Format(format!(
                "scale {} (this build reads {SCALE})",
                field("scale")?
            )));
        }
        Ok(NetworkHeader {
            variant: field("variant")?,
            rules: field("rules")?,
            feature_set: field("feature_set")?,
            feature_version: number("feature_version", u32::MAX as usize)? as u32,
            encoding_version: number("encoding_version", u32::MAX as usize)? as u32,
            inputs: number("inputs", MAX_INPUTS)?,
            hidden: number("hidden", MAX_HIDDEN)?,
            base: match metadata.get("base") {
                None => Base::None,
                Some(word) => word.parse().map_err(NnueError::Format)?,
            },
            producer: metadata.get("producer").cloned().unwrap_or_default(),
        })
    }
}

fn quote(text: &str) -> String {
    format!("'{text}'")
}

/// A rule set as a net file names it: its settings, `key=value` by key,
/// joined by `,`.
pub fn rules_string<P: GameVariant>(rules: &P::Rules) -> String {
    rules_text(P::rule_options(rules).iter())
}

/// Rule settings as a net file names them, from `(key, value)` pairs in
/// key order (an [`heterodox_env::encoding::EncodingSpec`]'s options).
pub fn rules_text<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    pairs
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}
