//! `heterodox model` (served by `heterodox-net`): builds the policy/value
//! network for a variant's encoding, runs one forward pass on the variant's
//! start observations and reports the encoding, the sizes and the device. A
//! quick check that libtorch (and CUDA, where there is a GPU) works in this
//! build and that a network fits an encoding.
//!
//! `heterodox model --load DIR --forward IN.safetensors --out OUT.safetensors`
//! instead runs a saved network (evaluation mode, CPU) on the tensor
//! `input` of IN and writes `policy` and `value` to OUT: the Rust side of
//! the test that the PyTorch port (python/heterodox/torch.py) computes the
//! same outputs as tch from the same checkpoint. `--loss IN` likewise
//! gives the trainer's loss on a batch (IN's tensors `input` [N, C, 8, 8],
//! `legal` [N, A] as 0/1, `policy` [N, A], `value` [N]; OUT's scalars
//! `loss`, `policy_loss`, `value_loss`), computed in training mode as an
//! SGD step sees it, so that `heterodox.learn` is held to the same numbers.

use std::path::{Path, PathBuf};

use clap::Args;
use heterodox_env::{make_batch_env, EnvConfig};
use heterodox_models::tch::{self, Device, Tensor};
use heterodox_models::{NetConfig, Network};
use heterodox_training::trainer::loss::{self, LossWeights, Targets};

/// Observations in the forward pass: two, so that the batch dimension shows.
const BATCH: usize = 2;

#[derive(Args, Debug)]
pub struct ModelArgs {
    // The variant whose encoding the network reads and writes.
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// T: positions stacked in an observation.
    #[arg(long, default_value_t = 1)]
    history: usize,
    /// A network configuration (JSON) whose shapes fit the encoding; the
    /// encoding's shapes with the default tower otherwise.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Save the freshly initialised network (with its encoding spec) into
    /// this directory.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Use the GPU when there is one.
    #[arg(long)]
    cuda: bool,
    /// Run the checkpoint in this directory instead of a fresh network
    /// (with --forward or --loss, and --out).
    #[arg(long, requires = "out")]
    load: Option<PathBuf>,
    /// A safetensors file whose tensor `input` [N, C, 8, 8] the loaded
    /// network evaluates.
    #[arg(long, requires = "load", conflicts_with = "loss")]
    forward: Option<PathBuf>,
    /// A safetensors batch (input, legal, policy, value, moves_left,
    /// material): its training loss.
    #[arg(long, requires = "load")]
    loss: Option<PathBuf>,
    /// The value term's weight for --loss.
    #[arg(long, default_value_t = 1.0, requires = "loss", value_name = "W")]
    value_loss_weight: f64,
    /// The moves-left term's weight for --loss (auxiliary heads only).
    #[arg(long, default_value_t = 0.25, requires = "loss", value_name = "W")]
    moves_left_loss_weight: f64,
    /// The material term's weight for --loss (auxiliary heads only).
    #[arg(long, default_value_t = 0.25, requires = "loss", value_name = "W")]
    material_loss_weight: f64,
    /// Where the outputs go (safetensors): policy and value, or the losses.
    #[arg(long, requires = "load")]
    out: Option<PathBuf>,
}

/// Reads the named tensors of a safetensors file, in the order asked.
fn read_tensors<const N: usize>(path: &Path, names: [&str; N]) -> Result<[Tensor; N], String> {
    let mut tensors = Tensor::read_safetensors(path).map_err(|e| e.to_string())?;
    let mut take = |name: &str| {
        let k = tensors
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| format!("{}: no tensor named {name}", path.display()))?;
        Ok::<Tensor, String>(tensors.swap_remove(k).1)
    };
    let mut out = Vec::with_capacity(N);
    for name in names {
        out.push(take(name)?);
    }
    Ok(out.try_into().expect("one tensor per name"))
}

/// `--load DIR --loss IN --out OUT`: the training loss of the loaded
/// network on IN's batch, written to OUT.
fn training_loss(dir: &Path, input: &Path, out: &Path, weights: LossWeights) -> Result<(), String> {
    let net = Network::load(dir, Device::Cpu).map_err(|e| e.to_string())?;
    let [xs, legal, policy, value, moves_left, material] = read_tensors(
        input,
        [
            "input",
            "legal",
            "policy",
            "value",
            "moves_left",
            "material",
        ],
    )?;
    let legal = legal.to_kind(tch::Kind::Bool);
    let outputs = net.try_forward_all(&xs, true).map_err(|e| e.to_string())?;
    let targets = Targets {
        legal: &legal,
        policy: &policy,
        value: &value,
        moves_left: &moves_left,
        material: &material,
    };
    let terms = loss::loss(&outputs, &targets, weights);
    let zero = Tensor::from(0.0f32);
    Tensor::write_safetensors(
        &[
            ("loss", &terms.total),
            ("policy_loss", &terms.policy),
            ("value_loss", &terms.value),
            (
                "moves_left_loss",
                terms.moves_left.as_ref().unwrap_or(&zero),
            ),
            ("material_loss", terms.material.as_ref().unwrap_or(&zero)),
        ],
        out,
    )
    .map_err(|e| e.to_string())?;
    crate::common::print_stdout(&format!("wrote {}\n", out.display()));
    Ok(())
}

/// `--load DIR --forward IN --out OUT`: the loaded network's outputs on
/// IN's `input`, written to OUT.
fn forward(dir: &Path, input: &Path, out: &Path) -> Result<(), String> {
    let net = Network::load(dir, Device::Cpu).map_err(|e| e.to_string())?;
    let [xs] = read_tensors(input, ["input"])?;
    let (policy, value) =
        tch::no_grad(|| net.try_forward_t(&xs, false)).map_err(|e| e.to_string())?;
    Tensor::write_safetensors(&[("policy", &policy), ("value", &value)], out)
        .map_err(|e| e.to_string())?;
    crate::common::print_stdout(&format!("wrote {}\n", out.display()));
    Ok(())
}

pub fn run(args: &ModelArgs) -> Result<(), String> {
    if let (Some(dir), Some(input), Some(out)) = (&args.load, &args.forward, &args.out) {
        return forward(dir, input, out);
    }
    if let (Some(dir), Some(batch), Some(out)) = (&args.load, &args.loss, &args.out) {
        let weights = LossWeights {
            value: args.value_loss_weight,
            moves_left: args.moves_left_loss_weight,
            material: args.material_loss_weight,
        };
        return training_loss(dir, batch, out, weights);
    }
    if args.load.is_some() {
        return Err("--load needs --forward or --loss".to_owned());
    }
    let variant = args.rules.variant()?;
    let options = args.rules.options()?;
    let env_config = EnvConfig::new(BATCH).with_history(args.history);
    let env = make_batch_env(variant, &options, env_config).map_err(|e| format!("{e}"))?;
    let spec = env.spec();
    let config = match &args.config {
        Some(path) => NetConfig::from_json_file(path).map_err(|e| e.to_string())?,
        None => NetConfig::for_spec(spec),
    };
    let device = if args.cuda {
        Device::cuda_if_available()
    } else {
        Device::Cpu
    };
    tch::manual_seed(0);
    let net = Network::for_spec(spec, &config, device).map_err(|e| e.to_string())?;
    let [c, h, w] = spec.observation_shape().map(|x| x as i64);
    let input = Tensor::from_slice(env.observations()).view([BATCH as i64, c, h, w]);
    let (policy, value) = net
        .try_forward_t(&input, false)
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    out.push_str(&format!("cuda devices {}\n", tch::Cuda::device_count()));
    out.push_str(&format!("device {device:?}\n"));
    out.push_str(&format!("encoding {}\n", spec.summary()));
    out.push_str(&format!(
        "config {}\n",
        serde_json::to_string(&config).map_err(|e| e.to_string())?
    ));
    out.push_str(&format!("parameters {}\n", net.parameter_count()));
    out.push_str(&format!(
        "policy {:?} value {:?}\n",
        policy.size(),
        value.size()
    ));
    if let Some(dir) = &args.save {
        net.save(dir).map_err(|e| e.to_string())?;
        out.push_str(&format!("saved {}\n", dir.display()));
    }
    crate::common::print_stdout(&out);
    Ok(())
}
