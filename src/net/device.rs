//! `--device`, shared by every subcommand that runs a network, and the
//! group of flags of the commands that play many games of agents.

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

/// How a command that plays many games of agents (`arena`, `claim`) plays
/// them: how many at once, from which seed, on which device.
#[derive(Args, Debug, Clone)]
pub struct GameRunArgs {
    /// Games in progress at once.
    #[arg(long, default_value_t = 32)]
    pub concurrent: u32,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub device: DeviceArgs,
}
