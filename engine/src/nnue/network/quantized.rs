//! [`Network`]: the quantized net the search evaluates with.
//!
//! The transformer's weights and biases are stored as `round(w * QA)` in
//! i16 (|w| at most [`WEIGHT_LIMIT`]), the accumulator as i32, the
//! clipped ReLU clamps to `0..=QA`, the output weights are `round(w * QB)`
//! in i16 (the same limit) and the output bias `round(b * QA * QB)`; the
//! output's sum is taken in i64. The integer output divided by `QA * QB`
//! is the float output up to rounding: with both scales at 1024 the
//! difference is a few centipawns (`engine/tests/integration/nnue.rs` bounds it on
//! random nets; the shipped nets' cards give it on held-out positions).

use std::path::Path;

use heterodox_env::GameVariant;

use super::error::NnueError;
use super::float::FloatNetwork;
use super::header::{NetworkHeader, SCALE};

/// The clipped ReLU's ceiling (the transformer's scale).
pub const QA: i32 = 1024;
/// The output layer's scale.
pub const QB: i32 = 1024;
/// The largest |w| of any weight or bias but the output bias: what an i16
/// holds at these scales (the trainer clamps to it after every step).
pub const WEIGHT_LIMIT: f32 = 31.0;

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
        let features = crate::nnue::features::set_of::<P>()
            .ok_or(NnueError::NoFeatureSet(P::VARIANT.name()))?;
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
