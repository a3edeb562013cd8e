//! `heterodox model` (served by `heterodox-net`): builds the policy/value
//! network of a configuration, runs one forward pass and reports sizes and
//! the device. A quick check that libtorch (and CUDA, where there is a GPU)
//! works in this build.

use std::path::PathBuf;

use clap::Args;
use heterodox_models::tch::{self, Device, Kind, Tensor};
use heterodox_models::{NetConfig, Network};

#[derive(Args, Debug)]
pub struct ModelArgs {
    /// A network configuration (JSON); the small default otherwise.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Save the freshly initialised network into this directory.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Use the GPU when there is one.
    #[arg(long)]
    cuda: bool,
}

pub fn run(args: &ModelArgs) -> Result<(), String> {
    let config = match &args.config {
        Some(path) => NetConfig::from_json_file(path).map_err(|e| e.to_string())?,
        None => NetConfig::default(),
    };
    let device = if args.cuda {
        Device::cuda_if_available()
    } else {
        Device::Cpu
    };
    tch::manual_seed(0);
    let net = Network::new(&config, device).map_err(|e| e.to_string())?;
    let input = Tensor::zeros(
        [
            2,
            config.input_channels as i64,
            config.board_height as i64,
            config.board_width as i64,
        ],
        (Kind::Float, device),
    );
    let (policy, value) = net
        .try_forward_t(&input, false)
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    out.push_str(&format!("cuda devices {}\n", tch::Cuda::device_count()));
    out.push_str(&format!("device {device:?}\n"));
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
