//! Network hyper-parameters, stored as JSON beside the weights.
//!
//! The weights file alone does not say how to rebuild the network that reads
//! it (a safetensors file is just named tensors), so every saved model
//! carries its [`NetConfig`] as `config.json`. The config is validated when it
//! is read, so that a typo or a hand-edited file is reported as
//! [`ModelError::InvalidConfig`] / [`ModelError::ConfigParse`] before any
//! tensor is allocated, instead of as a libtorch abort deep in a constructor.
//!
//! The input and output shapes come from the rules core's
//! [`EncodingSpec`] ([`NetConfig::for_spec`]); only the tower's size is a
//! free choice. [`NetConfig::check_spec`] tells whether a config (say, one
//! read from a file) fits an encoding.

use std::path::Path;

use heterodox_env::encoding::EncodingSpec;
use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// Feature planes of the flat policy head's 1x1 convolution (AlphaZero's
/// Go policy head uses 2): enough for a linear layer to read which pieces
/// stand where, small enough that the layer stays `2 * H * W * F` weights.
/// A shape of the network, so it lives with the config that sizes it
/// (resnet.rs builds from the config, never the reverse).
pub const FLAT_POLICY_CHANNELS: usize = 2;

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
    /// Largest accepted `policy_flat` (Traitor's largest selection section
    /// has 2204 entries).
    pub const MAX_POLICY_FLAT: usize = 1 << 20;
    /// Largest accepted `value_hidden`.
    pub const MAX_VALUE_HIDDEN: usize = 65536;
}

/// Tower depth of [`NetConfig::for_spec`]: small enough to train and run
/// quickly on a CPU.
pub const DEFAULT_BLOCKS: usize = 4;
/// Tower width of [`NetConfig::for_spec`].
pub const DEFAULT_CHANNELS: usize = 64;
/// Value-head hidden units of [`NetConfig::for_spec`].
pub const DEFAULT_VALUE_HIDDEN: usize = 128;

/// Shape of an AlphaZero-style residual network.
///
/// Input: `[N, input_channels, board_height, board_width]` float planes.
/// Output: policy logits `[N, policy_size()]` and a value `[N]` in (-1, 1).
///
/// The policy is laid out as `policy_planes` planes of
/// `board_height * board_width` squares, then `policy_flat` logits that
/// belong to no square: the logit for plane `p` at square `(row, col)` is at
/// index `p * H * W + row * W + col` (see [`NetConfig::policy_index`]), flat
/// logit `k` at `policy_planes * H * W + k`
/// ([`NetConfig::flat_policy_index`]). This is the rules core's action
/// layout (`plane * 64 + square`, then the variant's other sections), so a
/// legal action's index is directly its logit's index.
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
    /// Square-indexed action planes; the policy starts with
    /// `policy_planes * H * W` logits (73 for AlphaZero's chess move
    /// encoding), computed by a 1x1 convolution.
    pub policy_planes: usize,
    /// Logits after the planes that belong to no square (Traitor's secret
    /// selections, Mad Scientist's discards), computed by a fully connected
    /// head; 0 for none. Absent from configs written before it existed,
    /// which therefore read as 0.
    #[serde(default)]
    pub policy_flat: usize,
    /// Width of the hidden fully connected layer of the value head (and of
    /// the auxiliary heads).
    pub value_hidden: usize,
    /// Two auxiliary heads beside policy and value, trained but not used
    /// in play (KataGo's and lc0's extra targets, which give the tower a
    /// signal early): moves left and final material. Absent from configs
    /// written before they existed (read as false), and left out of a
    /// written config when false, so such files stay as they were.
    #[serde(default, skip_serializing_if = "is_false")]
    pub auxiliary_heads: bool,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

impl Default for NetConfig {
    /// The network of [`NetConfig::for_spec`] for FIDE chess with one
    /// position per observation (T = 1), under the rules core's current
    /// chess encoding. Kept so that `..NetConfig::default()` works; a
    /// network for anything else should start from its own spec.
    fn default() -> Self {
        Self::for_spec(&EncodingSpec::of(&heterodox_env::Chess::new(), 1))
    }
}

impl NetConfig {
    /// The network for `spec`'s tensors: its observation planes in, one
    /// logit per action out (`board_action_planes` as convolution planes,
    /// the rest from the flat head), with the default tower
    /// ([`DEFAULT_BLOCKS`] blocks of [`DEFAULT_CHANNELS`] channels). Change
    /// the tower with struct update syntax:
    /// `NetConfig { blocks: 10, channels: 128, ..NetConfig::for_spec(&spec) }`.
    ///
    /// A spec that is inconsistent (fewer actions than its planes cover, as
    /// only a corrupted file could hold) gives a config that
    /// [`NetConfig::check_spec`] rejects, never a panic.
    pub fn for_spec(spec: &EncodingSpec) -> NetConfig {
        let [input_channels, board_height, board_width] = spec.observation_shape();
        let plane_actions = spec
            .board_action_planes
            .saturating_mul(board_height * board_width);
        NetConfig {
            input_channels,
            board_height,
            board_width,
            blocks: DEFAULT_BLOCKS,
            channels: DEFAULT_CHANNELS,
            policy_planes: spec.board_action_planes,
            policy_flat: spec.num_actions.saturating_sub(plane_actions),
            value_hidden: DEFAULT_VALUE_HIDDEN,
            auxiliary_heads: false,
        }
    }

    /// Checks that this config reads `spec`'s observations and writes one
    /// logit per action of `spec`, in its layout; the tower is free. The
    /// error names the first field that differs and the spec.
    pub fn check_spec(&self, spec: &EncodingSpec) -> Result<()> {
        let [channels, height, width] = spec.observation_shape();
        let mismatch = |field: &'static str, config: usize, needed: usize| {
            Err(ModelError::ConfigSpecMismatch {
                spec: spec.summary(),
                field,
                config,
                needed,
            })
        };
        let fields = [
            ("input_channels", self.input_channels, channels),
            ("board_height", self.board_height, height),
            ("board_width", self.board_width, width),
            (
                "policy_planes",
                self.policy_planes,
                spec.board_action_planes,
            ),
        ];
        for (field, config, needed) in fields {
            if config != needed {
                return mismatch(field, config, needed);
            }
        }
        let plane_actions = self.policy_planes.checked_mul(self.squares());
        match plane_actions.and_then(|planes| spec.num_actions.checked_sub(planes)) {
            Some(flat) if flat == self.policy_flat => Ok(()),
            Some(flat) => mismatch("policy_flat", self.policy_flat, flat),
            None => mismatch("policy_size", self.policy_size(), spec.num_actions),
        }
    }

    /// Checks that the config describes a network that can be built.
    ///
    /// Every size must be at least 1 (`policy_flat` may be 0) and at most
    /// the bound in [`limits`].
    pub fn validate(&self) -> Result<()> {
        use limits::*;
        let checks: [(&str, usize, usize, usize); 8] = [
            ("input_channels", self.input_channels, 1, MAX_INPUT_CHANNELS),
            ("board_height", self.board_height, 1, MAX_BOARD_SIDE),
            ("board_width", self.board_width, 1, MAX_BOARD_SIDE),
            ("blocks", self.blocks, 1, MAX_BLOCKS),
            ("channels", self.channels, 1, MAX_CHANNELS),
            ("policy_planes", self.policy_planes, 1, MAX_POLICY_PLANES),
            ("policy_flat", self.policy_flat, 0, MAX_POLICY_FLAT),
            ("value_hidden", self.value_hidden, 1, MAX_VALUE_HIDDEN),
        ];
        for (name, value, min, max) in checks {
            if value < min {
                return Err(ModelError::InvalidConfig(format!(
                    "{name} must be at least {min}"
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

    /// Number of squares, `board_height * board_width` (saturating).
    pub fn squares(&self) -> usize {
        self.board_height.saturating_mul(self.board_width)
    }

    /// Length of the policy vector,
    /// `policy_planes * board_height * board_width + policy_flat`.
    ///
    /// Saturates instead of overflowing on an unvalidated config (a
    /// validated one is far below `usize::MAX`).
    pub fn policy_size(&self) -> usize {
        self.policy_planes
            .saturating_mul(self.squares())
            .saturating_add(self.policy_flat)
    }

    /// Index in the policy vector of action plane `plane` at square
    /// `(row, col)`; `None` if out of range.
    pub fn policy_index(&self, plane: usize, row: usize, col: usize) -> Option<usize> {
        (plane < self.policy_planes && row < self.board_height && col < self.board_width)
            .then(|| (plane * self.board_height + row) * self.board_width + col)
    }

    /// Index in the policy vector of flat logit `k` (the `k`-th action
    /// after the square-indexed planes); `None` if out of range.
    pub fn flat_policy_index(&self, k: usize) -> Option<usize> {
        (k < self.policy_flat).then(|| self.policy_planes * self.squares() + k)
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
    /// flat       2C + 4                     1x1 conv C->2, BN(2)     (only if F > 0)
    ///            2S*F + F                   fc 2S->F                 (only if F > 0)
    /// value      C + 2                      1x1 conv C->1, BN(1)
    ///            S*V + V                    fc S->V
    ///            V + 1                      fc V->1
    /// auxiliary  twice the value head's     moves left, material (only if
    ///                                       auxiliary_heads)
    /// ```
    ///
    /// with I inputs, C channels, B blocks, P policy planes, F flat policy
    /// logits, S squares and V value-hidden units.
    pub fn parameter_count(&self) -> usize {
        let (i, c, b, p, f, s, v) = (
            self.input_channels,
            self.channels,
            self.blocks,
            self.policy_planes,
            self.policy_flat,
            self.squares(),
            self.value_hidden,
        );
        let stem = 9 * i * c + 2 * c;
        let tower = b * 2 * (9 * c * c + 2 * c);
        let policy = c * p + p;
        let flat = if f == 0 {
            0
        } else {
            let k = FLAT_POLICY_CHANNELS;
            (k * c + 2 * k) + (k * s * f + f)
        };
        let value = (c + 2) + (s * v + v) + (v + 1);
        let auxiliary = if self.auxiliary_heads { 2 * value } else { 0 };
        stem + tower + policy + flat + value + auxiliary
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
        crate::json::write_pretty(self, path, |path, source| ModelError::ConfigParse {
            path,
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_chess_with_one_position() {
        let c = NetConfig::default();
        c.validate().unwrap();
        // 20 chess planes + 2 repetition planes; 73 move planes, no flat head.
        assert_eq!(
            c,
            NetConfig {
                input_channels: 22,
                board_height: 8,
                board_width: 8,
                blocks: 4,
                channels: 64,
                policy_planes: 73,
                policy_flat: 0,
                value_hidden: 128,
                auxiliary_heads: false,
            }
        );
        assert_eq!(c.policy_size(), 73 * 64);
    }

    /// Three move planes on a 2 x 4 board (24 square logits), then
    /// `policy_flat` flat ones: small enough to count every index by hand.
    fn three_planes_on_two_by_four(policy_flat: usize) -> NetConfig {
        NetConfig {
            policy_planes: 3,
            policy_flat,
            board_height: 2,
            board_width: 4,
            ..Default::default()
        }
    }

    #[test]
    fn flat_logits_follow_the_planes() {
        let c = three_planes_on_two_by_four(5);
        assert_eq!(c.policy_size(), 29);
        assert_eq!(c.policy_index(2, 1, 3), Some(23));
        assert_eq!(c.flat_policy_index(0), Some(24));
        assert_eq!(c.flat_policy_index(4), Some(28));
        assert_eq!(c.flat_policy_index(5), None);
        assert_eq!(NetConfig::default().flat_policy_index(0), None);
    }

    #[test]
    fn policy_index_layout() {
        let c = three_planes_on_two_by_four(0);
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
    fn policy_flat_may_be_zero_but_not_huge() {
        let mut c = NetConfig {
            policy_flat: 0,
            ..Default::default()
        };
        c.validate().unwrap();
        c.policy_flat = limits::MAX_POLICY_FLAT;
        c.validate().unwrap();
        c.policy_flat += 1;
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "invalid network config: policy_flat = 1048577 exceeds the limit 1048576"
        );
    }

    #[test]
    fn configs_without_policy_flat_read_as_zero() {
        let text = r#"{"input_channels":18,"board_height":8,"board_width":8,"blocks":4,
            "channels":64,"policy_planes":73,"value_hidden":128}"#;
        let c = NetConfig::from_json_str(text, Path::new("old.json")).unwrap();
        assert_eq!(c.policy_flat, 0);
        assert_eq!(c.input_channels, 18);
        assert_eq!(c.policy_size(), 4672);
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
