//! A network that owns its variables, and its on-disk format.
//!
//! A saved network is a directory holding two files:
//!
//! ```text
//! <dir>/config.json         the NetConfig, pretty-printed JSON
//! <dir>/model.safetensors   every variable of the VarStore, float32, on CPU
//! ```
//!
//! Why a directory with the config beside the weights: a safetensors file is
//! a flat list of named tensors and cannot rebuild the network by itself.
//! Why safetensors rather than libtorch's own format: it is parsed in Rust
//! (a corrupted file is an error, never a C++ exception or a crash), it is
//! read directly by Python (`safetensors.torch.load_file`) for analysis, and
//! it holds no code.
//!
//! Tensor names are the [`crate::ResNet`] variable paths (`stem.conv.weight`,
//! `tower.0.conv1.bn.running_mean`, ...); batch-norm running statistics are
//! saved too, so that evaluation-mode outputs survive a round trip exactly.
//!
//! Loading is strict: every variable must be present with exactly its shape
//! and no unknown tensor may be present, and nothing is copied until all of
//! that has been checked, so a failed load leaves the network as it was.
//! Safetensors detects structural damage (bad header, truncation) but has no
//! checksum: flipped bits inside the tensor data go unnoticed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tch::{nn, Device, Tensor};

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::resnet::ResNet;

/// Name of the config file inside a saved network's directory.
pub const CONFIG_FILE: &str = "config.json";
/// Name of the weights file inside a saved network's directory.
pub const WEIGHTS_FILE: &str = "model.safetensors";

/// A [`ResNet`] together with the [`nn::VarStore`] that owns its variables.
///
/// This is what training, self-play and evaluation hold: build one with
/// [`Network::new`], train through [`Network::var_store`] (e.g. to create an
/// optimizer), and persist it with [`Network::save`] / [`Network::load`].
pub struct Network {
    vs: nn::VarStore,
    net: ResNet,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("config", self.net.config())
            .field("device", &self.vs.device())
            .finish_non_exhaustive()
    }
}

impl Network {
    /// Builds a freshly initialised network on `device`.
    pub fn new(config: &NetConfig, device: Device) -> Result<Self> {
        let vs = nn::VarStore::new(device);
        let net = ResNet::new(&vs.root(), config)?;
        Ok(Self { vs, net })
    }

    /// Loads a network saved by [`Network::save`] from `dir` onto `device`.
    pub fn load(dir: impl AsRef<Path>, device: Device) -> Result<Self> {
        let dir = dir.as_ref();
        let config = NetConfig::from_json_file(dir.join(CONFIG_FILE))?;
        let mut network = Self::new(&config, device)?;
        network.load_weights(dir.join(WEIGHTS_FILE))?;
        Ok(network)
    }

    /// Saves the network into `dir` (created if missing) as
    /// [`CONFIG_FILE`] and [`WEIGHTS_FILE`].
    ///
    /// Each file is first written under a temporary name and then renamed
    /// over the old one, so that a crash during a save never leaves a
    /// truncated checkpoint where a good one was.
    pub fn save(&self, dir: impl AsRef<Path>) -> Result<()> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|source| ModelError::Io {
            path: dir.to_owned(),
            source,
        })?;

        let weights = dir.join(WEIGHTS_FILE);
        let tmp = temp_name(&weights);
        self.save_weights(&tmp)?;
        rename(&tmp, &weights)?;

        let config = dir.join(CONFIG_FILE);
        let tmp = temp_name(&config);
        self.net.config().to_json_file(&tmp)?;
        rename(&tmp, &config)
    }

    /// Writes every variable, on CPU and sorted by name, as a safetensors
    /// file at `path` (whatever its extension).
    pub fn save_weights(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let mut named: Vec<(String, Tensor)> = self
            .vs
            .variables()
            .into_iter()
            .map(|(name, t)| (name, t.detach().to_device(Device::Cpu).contiguous()))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        Tensor::write_safetensors(&named, path).map_err(|source| ModelError::Weights {
            path: path.to_owned(),
            source,
        })
    }

    /// Replaces the values of all variables with those of the safetensors
    /// file at `path`, strictly (see the module documentation). On error the
    /// network is unchanged.
    pub fn load_weights(&mut self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        // Tell a missing or unreadable file apart from a corrupted one.
        std::fs::File::open(path).map_err(|source| ModelError::Io {
            path: path.to_owned(),
            source,
        })?;
        let mut loaded: HashMap<String, Tensor> = Tensor::read_safetensors(path)
            .map_err(|source| ModelError::Weights {
                path: path.to_owned(),
                source,
            })?
            .into_iter()
            .collect();

        let mut variables: Vec<(String, Tensor)> = self.vs.variables().into_iter().collect();
        variables.sort_by(|a, b| a.0.cmp(&b.0));
        let mut pairs = Vec::with_capacity(variables.len());
        for (name, var) in variables {
            let Some(src) = loaded.remove(&name) else {
                return Err(ModelError::MissingTensor {
                    path: path.to_owned(),
                    name,
                });
            };
            if src.size() != var.size() {
                return Err(ModelError::ShapeMismatch {
                    name,
                    expected: var.size(),
                    found: src.size(),
                });
            }
            pairs.push((var, src));
        }
        if let Some(name) = loaded.into_keys().min() {
            return Err(ModelError::UnexpectedTensor {
                path: path.to_owned(),
                name,
            });
        }
        tch::no_grad(|| {
            for (mut var, src) in pairs {
                // `variables()` hands out shallow clones: copying into them
                // writes the VarStore's storage. Converts kind and device.
                var.f_copy_(&src)?;
            }
            Ok(())
        })
    }

    /// The network's configuration.
    pub fn config(&self) -> &NetConfig {
        self.net.config()
    }

    /// The network.
    pub fn net(&self) -> &ResNet {
        &self.net
    }

    /// The variables, e.g. to build an optimizer:
    /// `nn::Adam::default().build(network.var_store(), lr)`.
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    /// Mutable access to the variables (freezing, changing kind or device).
    pub fn var_store_mut(&mut self) -> &mut nn::VarStore {
        &mut self.vs
    }

    /// Number of trainable parameters (equals
    /// [`NetConfig::parameter_count`]).
    pub fn parameter_count(&self) -> usize {
        self.vs
            .trainable_variables()
            .iter()
            .map(Tensor::numel)
            .sum()
    }

    /// See [`ResNet::forward_t`].
    pub fn forward_t(&self, xs: &Tensor, train: bool) -> (Tensor, Tensor) {
        self.net.forward_t(xs, train)
    }

    /// See [`ResNet::try_forward_t`].
    pub fn try_forward_t(&self, xs: &Tensor, train: bool) -> Result<(Tensor, Tensor)> {
        self.net.try_forward_t(xs, train)
    }
}

/// `file.ext` -> `file.ext.tmp`, in the same directory so that the final
/// rename is atomic.
fn temp_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|source| ModelError::Io {
        path: to.to_owned(),
        source,
    })
}
