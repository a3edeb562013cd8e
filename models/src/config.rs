//! Network hyper-parameters, stored as JSON beside the weights.
//!
//! The weights file alone does not say how to rebuild the network that reads
//! it (a safetensors file is just named tensors), so every saved model
//! carries its [`NetConfig`] as `config.json`. The config is validated when it
//! is read, so that a typo or a hand-edited file is reported as
//! [`ModelError::InvalidConfig`] / [`ModelError::ConfigParse`] before any
//! tensor is allocated, instead of as a libtorch abort deep in a constructor.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// Upper bounds that a config must respect.
///
/// They are far above anything trained on this project's hardware, and are
/// only there so that a corrupted or mistyped config (say `channels: 10^9`)
/// is rejected with an error rather than by the allocator killing the
/// process.
pub mod limits {
    /// Largest accepted `input_channels`.
    pub const MAX_INPUT_CHANNELS: usize = 4096;
    /// Largest accepted `board_height` and `board_width`.
    pub const MAX_BOARD_SIDE: usize = 64;
    /// Largest accepted number of residual blocks.
    pub const MAX_BLOCKS: usize = 256;
    /// Largest accepted tower width.
    pub const MAX_CHANNELS: usize = 4096;
    /// Largest accepted `policy_planes`.
    pub const MAX_POLICY_PLANES: usize = 4096;
    /// Largest accepted `value_hidden`.
    pub const MAX_VALUE_HIDDEN: usize = 65536;
}

/// Shape of an AlphaZero-style residual network.
///
/// Input: `[N, input_channels, board_height, board_width]` float planes.
/// Output: policy logits `[N, policy_size()]` and a value `[N]` in (-1, 1).
///
/// The policy is laid out as `policy_planes` planes of
/// `board_height * board_width` squares: the logit for plane `p` at square
/// `(row, col)` is at index `p * H * W + row * W + col`
/// (see [`NetConfig::policy_index`]). The move encoder of the rules core must
/// use the same convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Number of input feature planes produced by the board encoder.
    pub input_channels: usize,
    /// Board rows (8 for chess).
    pub board_height: usize,
    /// Board columns (8 for chess).
    pub board_width: usize,
    /// Number of residual blocks in the tower (each: two 3x3 convolutions).
    pub blocks: usize,
    /// Width (feature planes) of the residual tower.
    pub channels: usize,
    /// Action planes per square; the policy has `policy_planes * H * W`
    /// logits (73 for AlphaZero's chess move encoding).
    pub policy_planes: usize,
    /// Width of the hidden fully connected layer of the value head.
    pub value_hidden: usize,
}

impl Default for NetConfig {
    /// A small network that trains and runs quickly on a CPU: 4 blocks of
    /// 64 channels, AlphaZero's 73 move planes, 8x8 board.
    ///
    /// `input_channels` (18 = 12 piece planes + side to move + 4 castling
    /// rights + en passant) is only a default: set it from the board
    /// encoder actually used.
    fn default() -> Self {
        Self {
            input_channels: 18,
            board_height: 8,
            board_width: 8,
            blocks: 4,
            channels: 64,
            policy_planes: 73,
            value_hidden: 128,
        }
    }
}

impl NetConfig {
    /// Checks that the config describes a network that can be built.
    ///
    /// Every size must be at least 1 and at most the bound in [`limits`].
    pub fn validate(&self) -> Result<()> {
        use limits::*;
        let checks: [(&str, usize, usize); 7] = [
            ("input_channels", self.input_channels, MAX_INPUT_CHANNELS),
            ("board_height", self.board_height, MAX_BOARD_SIDE),
            ("board_width", self.board_width, MAX_BOARD_SIDE),
            ("blocks", self.blocks, MAX_BLOCKS),
            ("channels", self.channels, MAX_CHANNELS),
            ("policy_planes", self.policy_planes, MAX_POLICY_PLANES),
            ("value_hidden", self.value_hidden, MAX_VALUE_HIDDEN),
        ];
        for (name, value, max) in checks {
            if value == 0 {
                return Err(ModelError::InvalidConfig(format!(
                    "{name} must be at least 1"
                )));
            }
            if value > max {
                return Err(ModelError::InvalidConfig(format!(
                    "{name} = {value} exceeds the limit {max}"
                )));
            }
        }
        Ok(())
    }

    /// Number of squares, `board_height * board_width`.
    pub fn squares(&self) -> usize {
        self.board_height * self.board_width
    }

    /// Length of the policy vector, `policy_planes * board_height * board_width`.
    pub fn policy_size(&self) -> usize {
        self.policy_planes * self.squares()
    }

    /// Index in the policy vector of action plane `plane` at square
    /// `(row, col)`; `None` if out of range.
    pub fn policy_index(&self, plane: usize, row: usize, col: usize) -> Option<usize> {
        (plane < self.policy_planes && row < self.board_height && col < self.board_width)
            .then(|| (plane * self.board_height + row) * self.board_width + col)
    }

    /// Number of trainable parameters of a [`crate::ResNet`] with this
    /// config (batch-norm running statistics are buffers, not parameters,
    /// and are not counted).
    ///
    /// Convolutions followed by batch norm have no bias (the norm's shift
    /// makes it redundant):
    ///
    /// ```text
    /// stem       9*I*C + 2C                 3x3 conv I->C, BN(C)
    /// tower      B * (2 * (9*C*C + 2C))     two 3x3 conv C->C + BN(C) per block
    /// policy     C*P + P                    1x1 conv C->P with bias
    /// value      C + 2                      1x1 conv C->1, BN(1)
    ///            S*V + V                    fc S->V
    ///            V + 1                      fc V->1
    /// ```
    ///
    /// with I inputs, C channels, B blocks, P policy planes, S squares and
    /// V value-hidden units.
    pub fn parameter_count(&self) -> usize {
        let (i, c, b, p, s, v) = (
            self.input_channels,
            self.channels,
            self.blocks,
            self.policy_planes,
            self.squares(),
            self.value_hidden,
        );
        let stem = 9 * i * c + 2 * c;
        let tower = b * 2 * (9 * c * c + 2 * c);
        let policy = c * p + p;
        let value = (c + 2) + (s * v + v) + (v + 1);
        stem + tower + policy + value
    }

    /// Parses and validates a config from a JSON string.
    ///
    /// The `path` is only used in error messages.
    fn from_json_str(text: &str, path: &Path) -> Result<Self> {
        let config: NetConfig =
            serde_json::from_str(text).map_err(|source| ModelError::ConfigParse {
                path: path.to_owned(),
                source,
            })?;
        config.validate()?;
        Ok(config)
    }

    /// Reads and validates a config from a JSON file.
    pub fn from_json_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_json_str(&text, path)
    }

    /// Validates the config and writes it as pretty-printed JSON.
    ///
    /// An invalid config is refused rather than written, so that a file
    /// written by this function can always be read back.
    pub fn to_json_file(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        self.validate()?;
        let mut text =
            serde_json::to_string_pretty(self).map_err(|source| ModelError::ConfigParse {
                path: path.to_owned(),
                source,
            })?;
        text.push('\n');
        std::fs::write(path, text).map_err(|source| ModelError::Io {
            path: path.to_owned(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        NetConfig::default().validate().unwrap();
        assert_eq!(NetConfig::default().policy_size(), 73 * 64);
    }

    #[test]
    fn policy_index_layout() {
        let c = NetConfig {
            policy_planes: 3,
            board_height: 2,
            board_width: 4,
            ..Default::default()
        };
        assert_eq!(c.policy_size(), 24);
        assert_eq!(c.policy_index(0, 0, 0), Some(0));
        assert_eq!(c.policy_index(0, 1, 0), Some(4));
        assert_eq!(c.policy_index(1, 0, 0), Some(8));
        assert_eq!(c.policy_index(2, 1, 3), Some(23));
        assert_eq!(c.policy_index(3, 0, 0), None);
        assert_eq!(c.policy_index(0, 2, 0), None);
        assert_eq!(c.policy_index(0, 0, 4), None);
    }

    #[test]
    fn zero_and_huge_sizes_rejected() {
        for field in 0..7 {
            let mut c = NetConfig::default();
            let slot = match field {
                0 => &mut c.input_channels,
                1 => &mut c.board_height,
                2 => &mut c.board_width,
                3 => &mut c.blocks,
                4 => &mut c.channels,
                5 => &mut c.policy_planes,
                _ => &mut c.value_hidden,
            };
            *slot = 0;
            assert!(
                matches!(c.validate(), Err(ModelError::InvalidConfig(_))),
                "field {field} = 0"
            );
            let mut c = NetConfig::default();
            match field {
                0 => c.input_channels = usize::MAX,
                1 => c.board_height = usize::MAX,
                2 => c.board_width = usize::MAX,
                3 => c.blocks = usize::MAX,
                4 => c.channels = usize::MAX,
                5 => c.policy_planes = usize::MAX,
                _ => c.value_hidden = usize::MAX,
            }
            assert!(
                matches!(c.validate(), Err(ModelError::InvalidConfig(_))),
                "field {field} huge"
            );
        }
    }

    #[test]
    fn json_round_trip_and_bad_json() {
        let p = Path::new("mem.json");
        let c = NetConfig {
            blocks: 2,
            channels: 16,
            ..Default::default()
        };
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(NetConfig::from_json_str(&text, p).unwrap(), c);

        // Not JSON, a negative size, an unknown field, a missing field.
        for bad in [
            "not json",
            &text.replace("\"blocks\":2", "\"blocks\":-2"),
            &text.replace("\"blocks\":2", "\"blocks\":2,\"blokcs\":3"),
            &text.replace("\"blocks\":2,", ""),
        ] {
            assert!(
                matches!(
                    NetConfig::from_json_str(bad, p),
                    Err(ModelError::ConfigParse { .. })
                ),
                "{bad}"
            );
        }
        // Valid JSON, invalid network.
        let zero = text.replace("\"channels\":16", "\"channels\":0");
        assert!(matches!(
            NetConfig::from_json_str(&zero, p),
            Err(ModelError::InvalidConfig(_))
        ));
    }
}
