//! Helpers shared by the test files of this crate.
#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};

use heterodox_models::tch::{Device, Kind, Tensor};
use heterodox_models::{EncodingSpec, NetConfig, Network};

pub const CPU: Device = Device::Cpu;

/// A tiny network whose parameter count is easy to work out by hand.
pub fn tiny() -> NetConfig {
    NetConfig {
        input_channels: 2,
        board_height: 3,
        board_width: 3,
        blocks: 1,
        channels: 4,
        policy_planes: 3,
        policy_flat: 0,
        value_hidden: 5,
        auxiliary_heads: false,
    }
}

/// The tiny tower every test network of an encoding uses.
pub fn tiny_for(spec: &EncodingSpec) -> NetConfig {
    NetConfig {
        blocks: 1,
        channels: 8,
        value_hidden: 8,
        ..NetConfig::for_spec(spec)
    }
}

/// A fresh [`tiny_for`] network of `spec`, saved at `dir`.
pub fn save_tiny_for(spec: &EncodingSpec, dir: &Path) {
    Network::for_spec(spec, &tiny_for(spec), CPU)
        .unwrap()
        .save(dir)
        .unwrap();
}

/// [`tiny`] with a flat policy head of 4 logits.
pub fn tiny_flat() -> NetConfig {
    NetConfig {
        policy_flat: 4,
        ..tiny()
    }
}

/// A fresh, empty directory for one test under cargo's per-target temp dir.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("heterodox-models")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Names of the entries of `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

pub fn random_input(config: &NetConfig, n: i64) -> Tensor {
    Tensor::randn(
        [
            n,
            config.input_channels as i64,
            config.board_height as i64,
            config.board_width as i64,
        ],
        (Kind::Float, CPU),
    )
}

pub fn tch_seed(seed: i64) {
    heterodox_models::tch::manual_seed(seed);
}
