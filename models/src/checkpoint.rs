//! A network that owns its variables, and its on-disk format.
//!
//! A saved network is a directory holding two or three files:
//!
//! ```text
//! <dir>/config.json         the NetConfig, pretty-printed JSON
//! <dir>/model.safetensors   every variable of the VarStore, float32, on CPU
//! <dir>/spec.json           the EncodingSpec the network reads and writes,
//!                           when it was built for one (Network::for_spec)
//! ```
//!
//! Why a directory with the config beside the weights: a safetensors file is
//! a flat list of named tensors and cannot rebuild the network by itself.
//! Why safetensors rather than libtorch's own format: it is parsed in Rust
//! (a corrupted file is an error, never a C++ exception or a crash), it is
//! read directly by Python (`safetensors.torch.load_file`) for analysis, and
//! it holds no code.
//!
//! Why the spec: shapes alone do not tell two encodings apart (a new
//! encoding version may reorder planes without changing their number), and
//! a network fed planes in another order than it was trained on plays
//! nonsense without any error. [`Network::load_for`] compares the stored
//! spec with the one in force and refuses a mismatch with
//! [`ModelError::EncodingMismatch`], naming both versions.
//!
//! Saving is atomic at the level of the directory: the files are written
//! and flushed into a sibling staging directory that is then renamed into
//! place, so a killed process never leaves a half-written checkpoint that
//! looks whole (`heterodox_data::atomic`, the one atomic writer). A checkpoint directory
//! therefore holds only these files; keep other state beside it.
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
use std::path::Path;

use heterodox_env::encoding::EncodingSpec;
use tch::{nn, Device, Tensor};

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::resnet::ResNet;
use heterodox_data::atomic::{publish_dir, Replace};

/// Name of the config file inside a saved network's directory.
pub const CONFIG_FILE: &str = "config.json";
/// Name of the weights file inside a saved network's directory.
pub const WEIGHTS_FILE: &str = "model.safetensors";
/// Name of the encoding-spec file inside a saved network's directory.
pub const SPEC_FILE: &str = "spec.json";

/// Every file a checkpoint directory may hold.
const CHECKPOINT_FILES: [&str; 3] = [CONFIG_FILE, WEIGHTS_FILE, SPEC_FILE];

/// A [`ResNet`] together with the [`nn::VarStore`] that owns its variables.
///
/// This is what training, self-play and evaluation hold: build one with
/// [`Network::for_spec`] (or [`Network::new`] for a bare shape), train
/// through [`Network::var_store`] (e.g. to create an optimizer), and persist
/// it with [`Network::save`] / [`Network::load_for`].
pub struct Network {
    vs: nn::VarStore,
    net: ResNet,
    /// The encoding the network was built for, saved as [`SPEC_FILE`].
    spec: Option<EncodingSpec>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("config", self.net.config())
            .field("spec", &self.spec.as_ref().map(EncodingSpec::summary))
            .field("device", &self.vs.device())
            .finish_non_exhaustive()
    }
}

impl Network {
    /// Builds a freshly initialised network on `device`, for no particular
    /// encoding (its checkpoints have no [`SPEC_FILE`]).
    pub fn new(config: &NetConfig, device: Device) -> Result<Self> {
        let vs = nn::VarStore::new(device);
        let net = ResNet::new(&vs.root(), config)?;
        Ok(Self {
            vs,
            net,
            spec: None,
        })
    }

    /// Builds a freshly initialised network for `spec`'s tensors on
    /// `device`; the spec is kept and saved with the network. `config`
    /// chooses the tower and must have `spec`'s shapes
    /// ([`NetConfig::for_spec`] gives them), else
    /// [`ModelError::ConfigSpecMismatch`].
    pub fn for_spec(spec: &EncodingSpec, config: &NetConfig, device: Device) -> Result<Self> {
        config.check_spec(spec)?;
        let mut network = Self::new(config, device)?;
        network.spec = Some(spec.clone());
        Ok(network)
    }

    /// Loads a network saved by [`Network::save`] from `dir` onto `device`,
    /// whatever encoding it was made for (its spec, if it has one, is
    /// [`Network::spec`] and must fit its config). Use [`Network::load_for`]
    /// wherever the network will be fed observations.
    pub fn load(dir: impl AsRef<Path>, device: Device) -> Result<Self> {
        let dir = dir.as_ref();
        let config = NetConfig::from_json_file(dir.join(CONFIG_FILE))?;
        let spec = read_spec(dir)?;
        if let Some(spec) = &spec {
            config.check_spec(spec)?;
        }
        let mut network = Self::new(&config, device)?;
        network.load_weights(dir.join(WEIGHTS_FILE))?;
        network.spec = spec;
        Ok(network)
    }

    /// Loads a network saved by [`Network::save`] that must read and write
    /// `expected`'s tensors: a checkpoint made for another variant, rule
    /// set, encoding version or history length is
    /// [`ModelError::EncodingMismatch`] (naming both specs), one without a
    /// spec is [`ModelError::MissingSpec`], and one whose config does not
    /// fit its spec is [`ModelError::ConfigSpecMismatch`]. The spec is
    /// checked before any weight is read.
    pub fn load_for(
        dir: impl AsRef<Path>,
        expected: &EncodingSpec,
        device: Device,
    ) -> Result<Self> {
        let dir = dir.as_ref();
        let config = NetConfig::from_json_file(dir.join(CONFIG_FILE))?;
        let stored = read_spec(dir)?.ok_or_else(|| ModelError::MissingSpec {
            path: dir.to_owned(),
        })?;
        expected.check(&stored)?;
        config.check_spec(&stored)?;
        let mut network = Self::new(&config, device)?;
        network.load_weights(dir.join(WEIGHTS_FILE))?;
        network.spec = Some(stored);
        Ok(network)
    }

    /// Saves the network as the directory `dir`: [`CONFIG_FILE`],
    /// [`WEIGHTS_FILE`] and, for a network built for a spec, [`SPEC_FILE`].
    ///
    /// The directory is written elsewhere and renamed into place (see the
    /// module documentation), so that a crash during a save never leaves a
    /// half-written checkpoint where a good one was. An existing `dir` is
    /// replaced only if it holds nothing but checkpoint files, else
    /// [`ModelError::ReplaceRefused`]; its parent is created if missing.
    pub fn save(&self, dir: impl AsRef<Path>) -> Result<()> {
        self.save_with(dir, &[], |_| Ok(()))
    }

    /// [`Network::save`] with more files in the same atomic directory:
    /// `write_extra` writes the files named in `extra_files` (a trainer's
    /// optimizer and progress state) into the staging directory it is
    /// given, so that the weights and the state that goes with them appear
    /// together or not at all. [`Network::load`] ignores them.
    pub fn save_with(
        &self,
        dir: impl AsRef<Path>,
        extra_files: &[&str],
        write_extra: impl FnOnce(&Path) -> Result<()>,
    ) -> Result<()> {
        let allowed: Vec<&str> = CHECKPOINT_FILES
            .iter()
            .chain(extra_files)
            .copied()
            .collect();
        let replace = Replace::OnlyFiles {
            files: &allowed,
            kind: "a checkpoint",
        };
        publish_dir(dir.as_ref(), replace, |staging| {
            write_extra(staging)?;
            self.save_weights(staging.join(WEIGHTS_FILE))?;
            self.net.config().to_json_file(staging.join(CONFIG_FILE))?;
            if let Some(spec) = &self.spec {
                crate::json::write_pretty(spec, &staging.join(SPEC_FILE), |path, source| {
                    ModelError::SpecParse { path, source }
                })?;
            }
            Ok(())
        })
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

    /// The encoding the network was built for or loaded with, if any.
    pub fn spec(&self) -> Option<&EncodingSpec> {
        self.spec.as_ref()
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

    /// See [`ResNet::try_forward_all`].
    pub fn try_forward_all(&self, xs: &Tensor, train: bool) -> Result<crate::resnet::Outputs> {
        self.net.try_forward_all(xs, train)
    }
}

/// The spec stored in checkpoint `dir`; `None` when it has no
/// [`SPEC_FILE`] (saved without a spec, or before specs existed).
pub fn read_spec(dir: &Path) -> Result<Option<EncodingSpec>> {
    let path = dir.join(SPEC_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ModelError::Io { path, source }),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| ModelError::SpecParse { path, source })
}
