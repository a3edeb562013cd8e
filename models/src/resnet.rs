//! The AlphaZero-style residual policy/value network.
//!
//! ```text
//! input [N, I, H, W]
//!   └─ stem: conv3x3 I->C, BN, ReLU
//!   └─ tower: B x residual block
//!        conv3x3 C->C, BN, ReLU, conv3x3 C->C, BN, (+ skip), ReLU
//!   ├─ policy head
//!   │    planes: conv1x1 C->P (+bias), flatten           -> [N, P*H*W]
//!   │    flat:   conv1x1 C->2, BN, ReLU, flatten,
//!   │            fc 2*H*W->F                              -> [N, F]   (only if F > 0)
//!   │    concat(planes, flat)                             -> logits [N, P*H*W + F]
//!   ├─ value head:  conv1x1 C->1, BN, ReLU, flatten,
//!   │               fc H*W->V, ReLU, fc V->1, tanh        -> value  [N]
//!   └─ auxiliary heads (only with `auxiliary_heads`), each shaped as the
//!      value head: moves left (no final activation)       -> [N]
//!                  material (tanh)                        -> [N]
//! ```
//!
//! Why this shape: it is the AlphaZero / Leela Chess Zero recipe, which is
//! known to learn chess-like games from self-play alone; everything is
//! convolutional up to the heads, so the same code serves any board size
//! given in the [`NetConfig`]. Convolutions followed by batch norm carry no
//! bias, since the norm's shift makes one redundant.
//!
//! The policy head has two parts because the variants' action spaces do.
//! Most actions are indexed by square (`plane * 64 + square`: moves by
//! from-square and move type, drops, poisonings, announcements); their
//! logits come from a 1x1 convolution, so logit `(plane, row, col)` is
//! computed from the tower's features at square `(row, col)`, as in
//! AlphaZero. The remaining actions belong to no square (Traitor's secret
//! selections, Mad Scientist's discards): their `F` logits come from a
//! fully connected layer over a 2-plane summary of the board, the shape
//! AlphaZero's Go head uses for all its moves (pass included). A variant
//! without such actions (`F = 0`) has no flat head at all, so its network
//! is exactly the plain AlphaZero one.
//!
//! The auxiliary heads learn targets that come with every game for free
//! (how many steps were left, who had more material at the end), which
//! KataGo and lc0 found to speed up learning; play reads only policy and
//! value, so [`ResNet::try_forward_t`] does not compute them.
//!
//! Variables are named `stem.*`, `tower.<i>.*`, `policy.conv.*`,
//! `policy.flat.*`, `value.*`, `moves_left.*` and `material.*` under the [`nn::Path`] given to
//! [`ResNet::new`]; these names are the keys of the saved safetensors file.

use tch::nn::{self, ModuleT};
use tch::{Device, Kind, Tensor};

use crate::config::{NetConfig, FLAT_POLICY_CHANNELS};
use crate::error::{ModelError, Result};

/// Batch-norm settings shared by every norm layer. Scale starts at 1 and
/// shift at 0 (PyTorch's convention; tch's default draws the scale
/// uniformly from [0, 1), which needlessly shrinks early activations).
fn bn_config() -> nn::BatchNormConfig {
    nn::BatchNormConfig {
        ws_init: nn::Init::Const(1.0),
        bs_init: nn::Init::Const(0.0),
        ..Default::default()
    }
}

/// Convolution with "same" padding and no bias (a batch norm follows).
fn conv_no_bias(p: nn::Path, in_c: i64, out_c: i64, kernel: i64) -> nn::Conv2D {
    let config = nn::ConvConfig {
        padding: kernel / 2,
        bias: false,
        ..Default::default()
    };
    nn::conv2d(p, in_c, out_c, kernel, config)
}

/// Convolution followed by batch norm; the caller applies the activation.
#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv2D,
    bn: nn::BatchNorm,
}

impl ConvBn {
    fn new(p: nn::Path, in_c: i64, out_c: i64, kernel: i64) -> Self {
        Self {
            conv: conv_no_bias(&p / "conv", in_c, out_c, kernel),
            bn: nn::batch_norm2d(&p / "bn", out_c, bn_config()),
        }
    }

    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.bn.forward_t(&xs.apply(&self.conv), train)
    }

    /// How every head reads the trunk before its linear layers: this
    /// 1x1 convolution and batch norm, ReLU, then each sample's planes
    /// flattened into one feature vector (`[N, out_c * H * W]`).
    fn flat_features(&self, trunk: &Tensor, train: bool) -> Tensor {
        self.forward_t(trunk, train).relu().flatten(1, -1)
    }
}

/// Two 3x3 conv + BN layers with an identity skip connection.
#[derive(Debug)]
struct ResBlock {
    first: ConvBn,
    second: ConvBn,
}

impl ResBlock {
    fn new(p: nn::Path, channels: i64) -> Self {
        Self {
            first: ConvBn::new(&p / "conv1", channels, channels, 3),
            second: ConvBn::new(&p / "conv2", channels, channels, 3),
        }
    }

    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        let ys = self.first.forward_t(xs, train).relu();
        let ys = self.second.forward_t(&ys, train);
        (ys + xs).relu()
    }
}

/// The policy logits that belong to no square: conv1x1 C->2, BN, ReLU,
/// flatten, fc 2*H*W->F.
#[derive(Debug)]
struct FlatPolicy {
    conv: ConvBn,
    fc: nn::Linear,
}

impl FlatPolicy {
    fn new(p: nn::Path, channels: i64, squares: i64, logits: i64) -> Self {
        let k = dim(FLAT_POLICY_CHANNELS);
        let fc = nn::linear(&p / "fc", k * squares, logits, Default::default());
        Self {
            conv: ConvBn::new(p, channels, k, 1),
            fc,
        }
    }

    fn forward_t(&self, trunk: &Tensor, train: bool) -> Tensor {
        self.conv.flat_features(trunk, train).apply(&self.fc)
    }
}

/// A scalar head: conv1x1 C->1, BN, ReLU, flatten, fc S->V, ReLU, fc V->1
/// (the caller applies the final activation).
#[derive(Debug)]
struct ScalarHead {
    conv: ConvBn,
    fc1: nn::Linear,
    fc2: nn::Linear,
}

impl ScalarHead {
    /// Variables `NAME.conv.*`, `NAME.bn.*`, `NAME.fc1.*`, `NAME.fc2.*`.
    fn new(p: &nn::Path, name: &str, channels: i64, squares: i64, hidden: i64) -> Self {
        Self {
            conv: ConvBn::new(p / name, channels, 1, 1),
            fc1: nn::linear(p / name / "fc1", squares, hidden, Default::default()),
            fc2: nn::linear(p / name / "fc2", hidden, 1, Default::default()),
        }
    }

    /// `[N]`, before the final activation.
    fn forward_t(&self, trunk: &Tensor, train: bool) -> Tensor {
        self.conv
            .flat_features(trunk, train)
            .apply(&self.fc1)
            .relu()
            .apply(&self.fc2)
            .squeeze_dim(1)
    }
}

/// Every output of the network, the auxiliary heads' when it has them.
#[derive(Debug)]
pub struct Outputs {
    /// `[N, policy_size]` unnormalised logits.
    pub policy: Tensor,
    /// `[N]` tanh value for the player to act.
    pub value: Tensor,
    /// `[N]` predicted steps left / `MOVES_LEFT_SCALE` (no activation).
    pub moves_left: Option<Tensor>,
    /// `[N]` predicted `tanh(final material lead / MATERIAL_SCALE_CP)`.
    pub material: Option<Tensor>,
}

/// AlphaZero-style residual network: board planes in, policy logits and a
/// scalar value out. See the module documentation for the architecture.
///
/// A `ResNet` only holds handles to variables living in an
/// [`nn::VarStore`]; use [`crate::Network`] for a network that owns its
/// variables and can be saved and loaded.
#[derive(Debug)]
pub struct ResNet {
    config: NetConfig,
    /// Kind and device of the weights; inputs are converted to them.
    kind: Kind,
    device: Device,
    stem: ConvBn,
    tower: Vec<ResBlock>,
    policy: nn::Conv2D,
    /// `None` when the config has no flat logits.
    policy_flat: Option<FlatPolicy>,
    value: ScalarHead,
    /// Moves left and material, with `auxiliary_heads`.
    auxiliary: Option<(ScalarHead, ScalarHead)>,
}

/// Converts a validated config size to the `i64` libtorch wants. Validated
/// sizes are bounded by [`crate::config::limits`], far below `i64::MAX`.
fn dim(x: usize) -> i64 {
    i64::try_from(x).expect("validated config sizes fit in i64")
}

impl ResNet {
    /// Builds the network's variables under `p`.
    ///
    /// The config is validated first, so that an invalid one is an error
    /// rather than a libtorch abort.
    pub fn new(p: &nn::Path, config: &NetConfig) -> Result<Self> {
        config.validate()?;
        let (i, c) = (dim(config.input_channels), dim(config.channels));
        let squares = dim(config.squares());
        let hidden = dim(config.value_hidden);
        let stem = ConvBn::new(p / "stem", i, c, 3);
        let tower = (0..config.blocks)
            .map(|b| ResBlock::new(p / "tower" / b, c))
            .collect();
        let policy = nn::conv2d(
            p / "policy" / "conv",
            c,
            dim(config.policy_planes),
            1,
            nn::ConvConfig::default(),
        );
        let policy_flat = (config.policy_flat > 0)
            .then(|| FlatPolicy::new(p / "policy" / "flat", c, squares, dim(config.policy_flat)));
        let value = ScalarHead::new(p, "value", c, squares, hidden);
        let auxiliary = config.auxiliary_heads.then(|| {
            (
                ScalarHead::new(p, "moves_left", c, squares, hidden),
                ScalarHead::new(p, "material", c, squares, hidden),
            )
        });
        Ok(Self {
            config: *config,
            kind: p.kind(),
            device: p.device(),
            stem,
            tower,
            policy,
            policy_flat,
            value,
            auxiliary,
        })
    }

    /// The config this network was built from.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// Runs the network.
    ///
    /// `xs` has shape `[N, input_channels, board_height, board_width]`; it
    /// may be of any numeric kind and on any device (boolean or `u8` planes
    /// from an encoder are fine): it is converted to the weights' kind and
    /// device. `train` selects batch statistics and updates the running
    /// averages (training) versus the stored running averages (evaluation,
    /// deterministic).
    ///
    /// Returns `(policy_logits [N, policy_size], value [N])`. The value is a
    /// tanh, in (-1, 1); in float32 it only rounds to exactly ±1 once the
    /// pre-activation passes about ±9, which a trained head does not reach.
    /// The logits are unnormalised: mask illegal moves, then softmax.
    ///
    /// # Panics
    ///
    /// If `xs` has the wrong shape; [`ResNet::try_forward_t`] returns an
    /// error instead.
    pub fn forward_t(&self, xs: &Tensor, train: bool) -> (Tensor, Tensor) {
        match self.try_forward_t(xs, train) {
            Ok(out) => out,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`ResNet::forward_t`], but reports a wrongly shaped input as
    /// [`ModelError::InputShape`] instead of panicking.
    pub fn try_forward_t(&self, xs: &Tensor, train: bool) -> Result<(Tensor, Tensor)> {
        let trunk = self.trunk(xs, train)?;
        Ok(self.policy_value(&trunk, train))
    }

    /// Every output, the auxiliary heads' included when the network has
    /// them (training); otherwise as [`ResNet::try_forward_t`].
    pub fn try_forward_all(&self, xs: &Tensor, train: bool) -> Result<Outputs> {
        let trunk = self.trunk(xs, train)?;
        let (policy, value) = self.policy_value(&trunk, train);
        let (moves_left, material) = match &self.auxiliary {
            Some((moves_left, material)) => (
                Some(moves_left.forward_t(&trunk, train)),
                Some(material.forward_t(&trunk, train).tanh()),
            ),
            None => (None, None),
        };
        Ok(Outputs {
            policy,
            value,
            moves_left,
            material,
        })
    }

    fn trunk(&self, xs: &Tensor, train: bool) -> Result<Tensor> {
        self.check_input(xs)?;
        let xs = xs.to_device(self.device).to_kind(self.kind);
        let trunk = self.stem.forward_t(&xs, train).relu();
        Ok(self
            .tower
            .iter()
            .fold(trunk, |t, block| block.forward_t(&t, train)))
    }

    fn policy_value(&self, trunk: &Tensor, train: bool) -> (Tensor, Tensor) {
        let planes = trunk.apply(&self.policy).flatten(1, -1);
        let policy = match &self.policy_flat {
            Some(flat) => Tensor::cat(&[planes, flat.forward_t(trunk, train)], 1),
            None => planes,
        };
        let value = self.value.forward_t(trunk, train).tanh();
        (policy, value)
    }

    fn check_input(&self, xs: &Tensor) -> Result<()> {
        let c = &self.config;
        let (channels, height, width) = (
            dim(c.input_channels),
            dim(c.board_height),
            dim(c.board_width),
        );
        let found = xs.size();
        match found.as_slice() {
            &[n, ch, h, w] if n >= 1 && ch == channels && h == height && w == width => Ok(()),
            _ => Err(ModelError::InputShape {
                channels,
                height,
                width,
                found,
            }),
        }
    }
}
