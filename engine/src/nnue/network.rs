//! The net file and the two forms of a net: [`FloatNetwork`], the trained
//! numbers as the file stores them (safetensors, float32), and
//! [`Network`], the quantized integers the search evaluates with.
//!
//! # Architecture
//!
//! `inputs -> 2 x hidden -> 1`: one feature transformer (a weight row per
//! input plus a bias) applied to each perspective's active features gives
//! two accumulators, the side to act's first; both go through a clipped
//! ReLU (0 to 1) and one linear output layer reads all `2 hidden` of them.
//! The output times [`SCALE`] is centipawns for the side to act. Only the
//! accumulators depend on the position, and they change by a few rows per
//! action (`accumulator.rs`).
//!
//! # Quantization
//!
//! The transformer's weights and biases are stored as `round(w * QA)` in
//! i16 (|w| at most [`WEIGHT_LIMIT`]), the accumulator as i32, the
//! clipped ReLU clamps to `0..=QA`, the output weights are `round(w * QB)`
//! in i16 (the same limit) and the output bias `round(b * QA * QB)`; the
//! output's sum is taken in i64. The integer output divided by `QA * QB`
//! is the float output up to rounding: with both scales at 1024 the
//! difference is a few centipawns (`engine/tests/nnue.rs` bounds it on
//! random nets; the shipped nets' cards give it on held-out positions).
//!
//! # File (format `heterodox-nnue`, version 1)
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
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};

use heterodox_data::atomic::write_file;
use heterodox_env::encoding::Encoding;
use heterodox_env::GameVariant;

use super::features::FeatureSet;

/// The `format` metadata of every net file.
pub const FORMAT: &str = "heterodox-nnue";
pub const FORMAT_VERSION: u32 = 1;
/// The clipped ReLU's ceiling (the transformer's scale).
pub const QA: i32 = 1024;
/// The output layer's scale.
pub const QB: i32 = 1024;
/// The largest |w| of any weight or bias but the output bias: what an i16
/// holds at these scales (the trainer clamps to it after every step).
pub const WEIGHT_LIMIT: f32 = 31.0;
/// Centipawns per unit of the net's output.
pub const SCALE: i32 = 400;
/// The widest accumulator a net may have (bounds the file before
/// anything is allocated).
pub const MAX_HIDDEN: usize = 512;
/// The most inputs a feature set may have.
pub const MAX_INPUTS: usize = 1 << 15;
/// The largest net file read (a bound before reading it whole).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Why a net cannot be read, written or used.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("not a heterodox-nnue net: {0}")]
    Format(String),
    #[error("the net is for {field} {found}, not {expected}")]
    Mismatch {
        field: &'static str,
        found: String,
        expected: String,
    },
    #[error("{0} has no learned evaluation (no feature set)")]
    NoFeatureSet(&'static str),
    #[error("the net's {name} has a weight {value} beyond the quantized range (|w| <= {limit})")]
    Range {
        name: &'static str,
        value: f32,
        limit: f32,
    },
}

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

    fn metadata(&self) -> BTreeMap<String, String> {
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

    fn from_metadata(metadata: &HashMap<String, String>) -> Result<NetworkHeader, NnueError> {
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

/// A net's numbers as trained (and as its file stores them).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub header: NetworkHeader,
    /// `inputs` rows of `hidden`: the row of feature `f` starts at
    /// `f * hidden`.
    pub ft_weight: Vec<f32>,
    pub ft_bias: Vec<f32>,
    /// The side to act's `hidden` weights, then the opponent's.
    pub out_weight: Vec<f32>,
    pub out_bias: f32,
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl FloatNetwork {
    /// The file's bytes: the same net always gives the same bytes (the
    /// header's keys in order, which the safetensors crate's writer does
    /// not promise), and the safetensors crate reads them back.
    pub fn to_bytes(&self) -> Result<Vec<u8>, NnueError> {
        let (inputs, hidden) = (self.header.inputs, self.header.hidden);
        let tensors = [
            ("ft.bias", &self.ft_bias[..], vec![hidden]),
            ("ft.weight", &self.ft_weight[..], vec![inputs, hidden]),
            ("out.bias", std::slice::from_ref(&self.out_bias), vec![1]),
            ("out.weight", &self.out_weight[..], vec![2 * hidden]),
        ];
        let mut header = serde_json::Map::new();
        let metadata: serde_json::Map<String, serde_json::Value> = self
            .header
            .metadata()
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect();
        header.insert("__metadata__".to_owned(), metadata.into());
        let mut data = Vec::new();
        for (name, values, shape) in &tensors {
            if values.len() != shape.iter().product::<usize>() {
                return Err(NnueError::Format(format!(
                    "{name} holds {} numbers, not {shape:?}",
                    values.len()
                )));
            }
            let start = data.len();
            data.extend(bytes_of(values));
            let info = serde_json::json!({
                "dtype": "F32",
                "shape": shape,
                "data_offsets": [start, data.len()],
            });
            header.insert((*name).to_owned(), info);
        }
        let mut text = serde_json::to_vec(&header).expect("a JSON map serializes");
        while text.len() % 8 != 0 {
            text.push(b' ');
        }
        let mut bytes = Vec::with_capacity(8 + text.len() + data.len());
        bytes.extend((text.len() as u64).to_le_bytes());
        bytes.extend(text);
        bytes.extend(data);
        Ok(bytes)
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnueError> {
        let bytes = self.to_bytes()?;
        write_file(path, &bytes).map_err(|e| NnueError::File {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// Reads a net file, checking its format and every tensor's shape
    /// against the metadata before copying it.
    pub fn load(path: &Path) -> Result<FloatNetwork, NnueError> {
        let file_error = |message: String| NnueError::File {
            path: path.to_owned(),
            message,
        };
        let size = std::fs::metadata(path)
            .map_err(|e| file_error(e.to_string()))?
            .len();
        if size > MAX_FILE_BYTES {
            return Err(file_error(format!(
                "{size} bytes, more than a net file may have ({MAX_FILE_BYTES})"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| file_error(e.to_string()))?;
        FloatNetwork::from_bytes(&bytes).map_err(|e| file_error(e.to_string()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNetwork, NnueError> {
        let file =
            SafeTensors::deserialize(bytes).map_err(|e| NnueError::Format(format!("{e:?}")))?;
        let (_, metadata) =
            SafeTensors::read_metadata(bytes).map_err(|e| NnueError::Format(format!("{e:?}")))?;
        let header = NetworkHeader::from_metadata(
            metadata
                .metadata()
                .as_ref()
                .ok_or_else(|| NnueError::Format("no metadata".to_owned()))?,
        )?;
        let (inputs, hidden) = (header.inputs, header.hidden);
        let tensor = |name: &str, shape: &[usize]| {
            read_f32_tensor(&file, name, shape).map_err(NnueError::Format)
        };
        Ok(FloatNetwork {
            ft_weight: tensor("ft.weight", &[inputs, hidden])?,
            ft_bias: tensor("ft.bias", &[hidden])?,
            out_weight: tensor("out.weight", &[2 * hidden])?,
            out_bias: tensor("out.bias", &[1])?[0],
            header,
        })
    }

    /// The float output in centipawns for the side to act, from each
    /// perspective's active features (the reference the quantized net is
    /// measured against).
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        let hidden = self.header.hidden;
        let mut sum = self.out_bias;
        for (half, features) in [us, them].into_iter().enumerate() {
            let mut acc = self.ft_bias.clone();
            for &f in features {
                let row = &self.ft_weight[f as usize * hidden..][..hidden];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            let weights = &self.out_weight[half * hidden..][..hidden];
            sum += acc
                .iter()
                .zip(weights)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        sum * SCALE as f32
    }
}

/// The float32 tensor `name` of a safetensors file, checked to have
/// `shape` and finite values; the message says what is wrong. Every
/// reader of the net's tensors (the net file, the trainer's checkpoint)
/// uses it.
pub fn read_f32_tensor(
    file: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
) -> Result<Vec<f32>, String> {
    let view = file
        .tensor(name)
        .map_err(|_| format!("no tensor '{name}'"))?;
    if view.dtype() != Dtype::F32 || view.shape() != shape {
        return Err(format!(
            "tensor '{name}' is {:?} {:?}, not F32 {shape:?}",
            view.dtype(),
            view.shape()
        ));
    }
    let values: Vec<f32> = view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if let Some(bad) = values.iter().find(|v| !v.is_finite()) {
        return Err(format!("tensor '{name}' holds {bad}"));
    }
    Ok(values)
}

/// A net quantized for the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub header: NetworkHeader,
    pub(crate) ft_weight: Vec<i16>,
    pub(crate) ft_bias: Vec<i16>,
    pub(crate) out_weight: Vec<i16>,
    pub(crate) out_bias: i32,
}

fn quantize(
    name: &'static str,
    values: &[f32],
    scale: i32,
    limit: f32,
) -> Result<Vec<i16>, NnueError> {
    values
        .iter()
        .map(|&v| {
            if v.abs() > limit {
                Err(NnueError::Range {
                    name,
                    value: v,
                    limit,
                })
            } else {
                Ok((v * scale as f32).round() as i16)
            }
        })
        .collect()
}

impl Network {
    pub fn quantize(net: &FloatNetwork) -> Result<Network, NnueError> {
        let bias_limit = (i32::MAX / (QA * QB)) as f32;
        if net.out_bias.abs() > bias_limit {
            return Err(NnueError::Range {
                name: "out.bias",
                value: net.out_bias,
                limit: bias_limit,
            });
        }
        Ok(Network {
            header: net.header.clone(),
            ft_weight: quantize("ft.weight", &net.ft_weight, QA, WEIGHT_LIMIT)?,
            ft_bias: quantize("ft.bias", &net.ft_bias, QA, WEIGHT_LIMIT)?,
            out_weight: quantize("out.weight", &net.out_weight, QB, WEIGHT_LIMIT)?,
            out_bias: (net.out_bias * (QA * QB) as f32).round() as i32,
        })
    }

    /// Reads and quantizes a net file.
    pub fn load(path: &Path) -> Result<Network, NnueError> {
        Network::quantize(&FloatNetwork::load(path)?).map_err(|e| NnueError::File {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// Reads a net file for `P` under `rules`, refusing one made for
    /// anything else.
    pub fn load_for<P: GameVariant>(path: &Path, rules: &P::Rules) -> Result<Network, NnueError> {
        let net = Network::load(path)?;
        let features =
            crate::eval::feature_set::<P>().ok_or(NnueError::NoFeatureSet(P::VARIANT.name()))?;
        net.header
            .check::<P>(rules, features)
            .map_err(|e| NnueError::File {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        Ok(net)
    }

    #[inline]
    pub fn hidden(&self) -> usize {
        self.header.hidden
    }

    /// The transformer's row of feature `f`.
    #[inline(always)]
    pub(crate) fn row(&self, f: u16) -> &[i16] {
        let hidden = self.header.hidden;
        &self.ft_weight[f as usize * hidden..][..hidden]
    }

    /// Centipawns for the side to act from the two accumulators (the side
    /// to act's first).
    #[inline(always)]
    pub(crate) fn output(&self, us: &[i32], them: &[i32]) -> i32 {
        let hidden = self.header.hidden;
        // A product is at most QA * 31 * QB (2^25): 64 of them fit an
        // i32, so each run of 64 is summed in i32 (vectorized) and the
        // runs in i64.
        let half = |acc: &[i32], weights: &[i16]| -> i64 {
            acc.chunks(64)
                .zip(weights.chunks(64))
                .map(|(a, w)| {
                    let run: i32 = a
                        .iter()
                        .zip(w)
                        .map(|(&a, &w)| a.clamp(0, QA) * i32::from(w))
                        .sum();
                    i64::from(run)
                })
                .sum()
        };
        let sum = half(us, &self.out_weight[..hidden])
            + half(them, &self.out_weight[hidden..])
            + i64::from(self.out_bias);
        let unit = i64::from(QA * QB);
        (sum * i64::from(SCALE) + unit / 2).div_euclid(unit) as i32
    }
}
