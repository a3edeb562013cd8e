//! Policy/value networks for Heterodox, on libtorch through `tch`.
//!
//! - [`config`]: [`NetConfig`], the network's hyper-parameters, validated and
//!   stored as JSON; [`NetConfig::for_spec`] derives the shapes from the
//!   rules core's [`EncodingSpec`].
//! - [`resnet`]: [`ResNet`], the AlphaZero-style residual network
//!   (board planes -> policy logits + value; square-indexed actions from a
//!   convolution, the others from a flat head).
//! - [`checkpoint`]: [`Network`], a `ResNet` that owns its variables and is
//!   saved to / loaded from a directory (`config.json`, `model.safetensors`
//!   and `spec.json`), atomically.
//! - [`error`]: [`ModelError`], returned by everything fallible; loading a
//!   missing or corrupted checkpoint, or one made for another encoding, is
//!   an error, never a panic.
//! - [`evaluator`]: [`NetEvaluator`], the network as the search's
//!   [`heterodox_selfplay::Evaluator`] (one forward pass per leaf batch,
//!   softmax over the legal actions); [`queue`]: [`QueuedEvaluator`], the
//!   same behind a batching queue that merges several self-play threads'
//!   batches into one forward pass; [`cache`]: the bounded cache of recent
//!   evaluations both can use.
//!
//! This crate knows nothing of chess rules: the rules core encodes positions
//! into `[N, input_channels, H, W]` planes and actions into policy indices,
//! and describes both in an [`EncodingSpec`]; this crate only maps the
//! former to the latter, with one logit per action index.
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
//! use heterodox_env::{make_batch_env, EnvConfig, RuleOptions, Variant};
//! use heterodox_models::{NetConfig, Network};
//! use tch::{Device, Tensor};
//!
//! let env = make_batch_env(Variant::Traitor, &RuleOptions::new(), EnvConfig::new(4)).unwrap();
//! let spec = env.spec();
//! let config = NetConfig { blocks: 2, channels: 32, ..NetConfig::for_spec(spec) };
//! let net = Network::for_spec(spec, &config, Device::Cpu)?;
//! let [c, h, w] = spec.observation_shape().map(|x| x as i64);
//! let planes = Tensor::from_slice(env.observations()).view([4, c, h, w]);
//! let (policy_logits, value) = net.try_forward_t(&planes, false)?;
//! assert_eq!(policy_logits.size(), [4, spec.num_actions as i64]);
//! assert_eq!(value.size(), [4]);
//! net.save("checkpoints/gen-0001")?;
//! let again = Network::load_for("checkpoints/gen-0001", spec, Device::Cpu)?;
//! # Ok::<(), heterodox_models::ModelError>(())
//! ```

pub mod cache;
pub mod checkpoint;
pub mod config;
pub mod error;
pub mod evaluator;
mod json;
pub mod queue;
pub mod resnet;

pub use cache::{leaf_key, EvalCache};
pub use checkpoint::{read_spec, Network, CONFIG_FILE, SPEC_FILE, WEIGHTS_FILE};
pub use config::NetConfig;
pub use error::{ModelError, Result};
pub use evaluator::{EvalError, EvalStats, NetEvaluator};
pub use queue::{QueueConfig, QueuedEvaluator};
pub use resnet::{Outputs, ResNet};

/// The rules core's encoding contract, re-exported because it is part of
/// this crate's API ([`NetConfig::for_spec`], [`Network::load_for`]).
pub use heterodox_env::encoding::{EncodingMismatch, EncodingSpec};

/// Re-export of the `tch` version this crate is built against, so that
/// dependents use the same one.
pub use tch;
