//! `--device`, shared by every subcommand that runs a network.

use clap::Args;
use heterodox_models::tch::{Cuda, Device};

/// Where the networks run.
#[derive(Args, Debug, Clone)]
pub struct DeviceArgs {
    /// Where a network runs: auto (CUDA when present), cpu or cuda.
    #[arg(long, default_value = "auto")]
    pub device: String,
}

impl DeviceArgs {
    /// The device named, or why it cannot be used.
    pub fn device(&self) -> Result<Device, String> {
        match self.device.as_str() {
            "auto" => Ok(Device::cuda_if_available()),
            "cpu" => Ok(Device::Cpu),
            "cuda" if Cuda::is_available() => Ok(Device::Cuda(0)),
            "cuda" => Err("--device cuda: no CUDA device is available".to_owned()),
            other => Err(format!(
                "unknown device '{other}' (valid devices: auto, cpu, cuda)"
            )),
        }
    }
}
