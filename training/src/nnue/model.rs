//! The net in tch: the feature transformer as a sparse sum of rows
//! (`embedding_bag`, mode sum) for each perspective, the clipped ReLU and
//! the output layer, exactly as `FloatNetwork::evaluate` computes it (in
//! units of the output, before `SCALE`), plus the classical evaluation for
//! a net on that base, as the engine adds it.

use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use heterodox_engine::nnue::network::WEIGHT_LIMIT;
use heterodox_engine::nnue::{Base, FloatNetwork, NetworkHeader};
use heterodox_models::tch::{no_grad, TchError, Tensor};

use super::batch::Batch;

/// Every weight and bias but the output bias is kept within the
/// quantized range of network.rs.
const LIMIT: f64 = WEIGHT_LIMIT as f64;

/// The parameters' names, in the order of [`NnueModel::parameters`] (the
/// tensor names of the net file).
pub const PARAMETER_NAMES: [&str; 4] = ["ft.weight", "ft.bias", "out.weight", "out.bias"];

/// `inputs -> 2 x hidden -> 1`, trainable.
#[derive(Debug)]
pub struct NnueModel {
    pub inputs: usize,
    pub hidden: usize,
    /// `[inputs, hidden]`: feature `f`'s row is `ft_weight[f]`.
    pub ft_weight: Tensor,
    /// `[hidden]`.
    pub ft_bias: Tensor,
    /// `[2 hidden]`: the side to act's half, then the opponent's.
    pub out_weight: Tensor,
    /// `[1]`.
    pub out_bias: Tensor,
    /// What the output is added to ([`NnueModel::forward`]).
    pub base: Base,
}

fn parameter(values: &[f32], shape: &[i64]) -> Tensor {
    Tensor::from_slice(values)
        .reshape(shape)
        .set_requires_grad(true)
}

fn uniform(rng: &mut ChaCha8Rng, n: usize, bound: f32) -> Vec<f32> {
    (0..n).map(|_| rng.random_range(-bound..bound)).collect()
}

impl NnueModel {
    /// A new net, drawn from `seed` in Rust (the same numbers on every
    /// machine and thread count): PyTorch's `nn.Linear` initialisation,
    /// weights and biases uniform in `±1/sqrt(fan_in)` with fan-in `inputs`
    /// for the transformer and `2 hidden` for the output layer, whose bias
    /// starts at 0. On the classical base the output weights start at 0
    /// too, so that the untrained net is the classical evaluation exactly
    /// and training moves it only as far as the data asks.
    pub fn new(inputs: usize, hidden: usize, base: Base, seed: u64) -> NnueModel {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let ft = 1.0 / (inputs as f32).sqrt();
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        let ft_weight = uniform(&mut rng, inputs * hidden, ft);
        let ft_bias = uniform(&mut rng, hidden, ft);
        let out_weight = match base {
            Base::None => uniform(&mut rng, 2 * hidden, out),
            Base::Classical => vec![0.0; 2 * hidden],
        };
        NnueModel::from_values(inputs, hidden, [&ft_weight, &ft_bias, &out_weight, &[0.0]])
            .on_base(base)
    }

    /// The same net with its output added to `base`.
    pub fn on_base(self, base: Base) -> NnueModel {
        NnueModel { base, ..self }
    }

    /// A net of these numbers, in the order of [`PARAMETER_NAMES`], on no
    /// base.
    pub fn from_values(inputs: usize, hidden: usize, values: [&[f32]; 4]) -> NnueModel {
        let (i, h) = (inputs as i64, hidden as i64);
        NnueModel {
            inputs,
            hidden,
            ft_weight: parameter(values[0], &[i, h]),
            ft_bias: parameter(values[1], &[h]),
            out_weight: parameter(values[2], &[2 * h]),
            out_bias: parameter(values[3], &[1]),
            base: Base::None,
        }
    }

    /// The net a net file holds.
    pub fn from_network(net: &FloatNetwork) -> NnueModel {
        NnueModel::from_values(
            net.header.inputs,
            net.header.hidden,
            [
                &net.ft_weight,
                &net.ft_bias,
                &net.out_weight,
                &[net.out_bias],
            ],
        )
        .on_base(net.header.base)
    }

    /// The trainable tensors, in the order of [`PARAMETER_NAMES`].
    pub fn parameters(&self) -> [&Tensor; 4] {
        [
            &self.ft_weight,
            &self.ft_bias,
            &self.out_weight,
            &self.out_bias,
        ]
    }

    /// Each parameter's numbers, flat, in the order of [`PARAMETER_NAMES`].
    pub fn values(&self) -> Result<[Vec<f32>; 4], TchError> {
        let flat = |t: &Tensor| Vec::<f32>::try_from(&t.detach().reshape([-1]));
        Ok([
            flat(&self.ft_weight)?,
            flat(&self.ft_bias)?,
            flat(&self.out_weight)?,
            flat(&self.out_bias)?,
        ])
    }

    /// The net as its file stores it, with `header` (whose `inputs` and
    /// `hidden` and `base` must be this net's).
    pub fn to_network(&self, header: NetworkHeader) -> Result<FloatNetwork, TchError> {
        assert_eq!(
            (header.inputs, header.hidden, header.base),
            (self.inputs, self.hidden, self.base)
        );
        let [ft_weight, ft_bias, out_weight, out_bias] = self.values()?;
        Ok(FloatNetwork {
            header,
            ft_weight,
            ft_bias,
            out_weight,
            out_bias: out_bias[0],
        })
    }

    /// The output `y` of each position of `batch`, `[n]` (centipawns for
    /// the side to act are `400 y`; the expected result is
    /// `sigmoid(2 y)`), the classical evaluation included on that base.
    pub fn forward(&self, batch: &Batch) -> Tensor {
        let accumulator = |features: &Tensor, offsets: &Tensor| {
            let (sums, _, _, _) = Tensor::embedding_bag(
                &self.ft_weight,
                features,
                offsets,
                false,
                0, // mode sum
                false,
                None::<Tensor>,
                false,
            );
            (sums + &self.ft_bias).clamp(0.0, 1.0)
        };
        let us = accumulator(&batch.us, &batch.us_offsets);
        let them = accumulator(&batch.them, &batch.them_offsets);
        let learned = Tensor::cat(&[us, them], 1).mv(&self.out_weight) + &self.out_bias;
        match self.base {
            Base::None => learned,
            Base::Classical => learned + &batch.classical,
        }
    }

    /// Keeps every weight inside the quantized range (after each
    /// optimiser step).
    pub fn clamp_to_limits(&self) {
        no_grad(|| {
            for (tensor, limit) in [
                (&self.ft_weight, LIMIT),
                (&self.ft_bias, LIMIT),
                (&self.out_weight, LIMIT),
            ] {
                let _ = tensor.shallow_clone().clamp_(-limit, limit);
            }
        });
    }

    /// How many numbers the net has.
    pub fn parameter_count(&self) -> usize {
        self.inputs * self.hidden + self.hidden + 2 * self.hidden + 1
    }
}
