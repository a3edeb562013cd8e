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
//! same outputs as tch from the same checkpoint.

use std::path::{Path, PathBuf};

use clap::Args;
use heterodox_env::{make_batch_env, EnvConfig, RuleOptions, Variant};
use heterodox_models::tch::{self, Device, Tensor};
use heterodox_models::{NetConfig, Network};

/// Observations in the forward pass: two, so that the batch dimension shows.
const BATCH: usize = 2;

#[derive(Args, Debug)]
pub struct ModelArgs {
    /// Variant whose encoding the network reads and writes (see
    /// `heterodox variants`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// A rule setting of the variant, KEY=VALUE; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
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
    /// (with --forward and --out).
    #[arg(long, requires_all = ["forward", "out"])]
    load: Option<PathBuf>,
    /// A safetensors file whose tensor `input` [N, C, 8, 8] the loaded
    /// network evaluates.
    #[arg(long, requires = "load")]
    forward: Option<PathBuf>,
    /// Where the outputs go: a safetensors file with `policy` [N, A] and
    /// `value` [N].
    #[arg(long, requires = "load")]
    out: Option<PathBuf>,
}

/// `--load DIR --forward IN --out OUT`: the loaded network's outputs on
/// IN's `input`, written to OUT.
fn forward(dir: &Path, input: &Path, out: &Path) -> Result<(), String> {
    let net = Network::load(dir, Device::Cpu).map_err(|e| e.to_string())?;
    let tensors = Tensor::read_safetensors(input).map_err(|e| e.to_string())?;
    let (_, xs) = tensors
        .into_iter()
        .find(|(name, _)| name == "input")
        .ok_or_else(|| format!("{}: no tensor named input", input.display()))?;
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
    let variant: Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    let options = RuleOptions::parse(&args.options.join(",")).map_err(|e| format!("{e}"))?;
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
