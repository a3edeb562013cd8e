//! Policy/value networks for Heterodox, on libtorch through `tch`.
//!
//! - [`config`]: [`NetConfig`], the network's hyper-parameters, validated and
//!   stored as JSON.
//! - [`resnet`]: [`ResNet`], the AlphaZero-style residual network
//!   (board planes -> policy logits + value).
//! - [`checkpoint`]: [`Network`], a `ResNet` that owns its variables and is
//!   saved to / loaded from a directory (`config.json` + `model.safetensors`).
//! - [`error`]: [`ModelError`], returned by everything fallible; loading a
//!   missing or corrupted checkpoint is an error, never a panic.
//!
//! This crate knows nothing of chess: the rules core encodes positions into
//! `[N, input_channels, H, W]` planes and moves into policy indices
//! ([`NetConfig::policy_index`]); this crate only maps the former to the
//! latter.
//!
//! Linking: libtorch is found through the `LIBTORCH` variable that the
//! workspace's `.cargo/config.toml` sets to `.libtorch` (a link into the
//! virtual environment's PyTorch, made by `make setup`), and binaries find it
//! at run time through an rpath set there as well.
//!
//! CUDA: the linker drops `libtorch_cuda.so` from binaries (`--as-needed`,
//! no symbol of it is referenced), so `tch::Cuda::is_available()` is false
//! even on a GPU machine unless the binary's package has a `build.rs` that
//! prints `cargo:rustc-link-arg=-Wl,--no-as-needed` and
//! `cargo:rustc-link-arg=-ltorch` (as `tch`'s own build script does for its
//! binaries; link args of a build script reach only its own package's
//! binaries). CPU use needs nothing.
//!
//! ```no_run
//! use heterodox_models::{NetConfig, Network};
//! use tch::{Device, Kind, Tensor};
//!
//! let config = NetConfig { blocks: 2, channels: 32, ..NetConfig::default() };
//! let net = Network::new(&config, Device::Cpu)?;
//! let planes = Tensor::zeros([4, config.input_channels as i64, 8, 8], (Kind::Float, Device::Cpu));
//! let (policy_logits, value) = net.try_forward_t(&planes, false)?;
//! assert_eq!(policy_logits.size(), [4, config.policy_size() as i64]);
//! assert_eq!(value.size(), [4]);
//! net.save("checkpoints/gen-0001")?;
//! let again = Network::load("checkpoints/gen-0001", Device::Cpu)?;
//! # Ok::<(), heterodox_models::ModelError>(())
//! ```

pub mod checkpoint;
pub mod config;
pub mod error;
pub mod resnet;

pub use checkpoint::{Network, CONFIG_FILE, WEIGHTS_FILE};
pub use config::NetConfig;
pub use error::{ModelError, Result};
pub use resnet::ResNet;

/// Re-export of the `tch` version this crate is built against, so that
/// dependents use the same one.
pub use tch;
