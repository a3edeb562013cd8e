//! SGD with momentum, and the learning-rate schedule.
//!
//! Why our own optimizer rather than `tch::nn::Optimizer`: libtorch's
//! optimizer state (the momentum buffers) cannot be read out through
//! `tch`, so a resumed run would restart its momentum from zero and not be
//! the run it continues. Here the buffers are ordinary tensors, one per
//! trainable variable, saved by name as safetensors beside the weights.
//! The update is PyTorch's `torch.optim.SGD` (weight decay added to the
//! gradient, optional Nesterov), so a Python trainer reproduces it.

use std::collections::BTreeMap;
use std::path::Path;

use heterodox_models::tch::{nn, no_grad, Device, Tensor};

use crate::error::TrainError;
use crate::trainer::config::{OptimizerConfig, Schedule};

/// SGD with momentum over a [`nn::VarStore`]'s trainable variables.
pub struct Sgd {
    config: OptimizerConfig,
    /// Momentum buffer per trainable variable, by variable name; created
    /// at a variable's first update.
    buffers: BTreeMap<String, Tensor>,
}

impl std::fmt::Debug for Sgd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sgd")
            .field("config", &self.config)
            .field("buffers", &self.buffers.len())
            .finish()
    }
}

impl Sgd {
    pub fn new(config: OptimizerConfig) -> Sgd {
        Sgd {
            config,
            buffers: BTreeMap::new(),
        }
    }

    /// The learning rate at (0-based) `step`: linear warm-up over
    /// `warmup_steps`, then the schedule.
    pub fn learning_rate(&self, step: u64) -> f64 {
        let c = &self.config;
        let warmup = if c.warmup_steps == 0 {
            1.0
        } else {
            ((step + 1) as f64 / f64::from(c.warmup_steps)).min(1.0)
        };
        let decay = match c.schedule {
            Schedule::Constant => 1.0,
            Schedule::Cosine => {
                let t = (step as f64 / f64::from(c.decay_steps.max(1))).min(1.0);
                let cosine = 0.5 * (1.0 + (std::f64::consts::PI * t).cos());
                c.final_fraction + (1.0 - c.final_fraction) * cosine
            }
        };
        c.learning_rate * warmup * decay
    }

    /// Applies one update with the gradients the last `backward()` left on
    /// `vs`'s variables, at learning rate `lr`, and clears the gradients.
    /// Variables without a gradient are left alone.
    pub fn step(&mut self, vs: &nn::VarStore, lr: f64) -> Result<(), TrainError> {
        let momentum = self.config.momentum;
        let decay = self.config.weight_decay;
        let nesterov = self.config.nesterov;
        no_grad(|| -> Result<(), TrainError> {
            for (name, mut var) in vs.variables() {
                if !var.requires_grad() {
                    continue;
                }
                let grad = var.grad();
                if !grad.defined() {
                    continue;
                }
                let mut d = if decay != 0.0 {
                    grad.f_add(&var.f_mul_scalar(decay)?)?
                } else {
                    grad.shallow_clone()
                };
                if momentum != 0.0 {
                    let buffer = match self.buffers.get_mut(&name) {
                        Some(buffer) => {
                            let _ = buffer.f_mul_scalar_(momentum)?.f_add_(&d)?;
                            buffer
                        }
                        None => self.buffers.entry(name).or_insert(d.detach().copy()),
                    };
                    d = if nesterov {
                        d.f_add(&buffer.f_mul_scalar(momentum)?)?
                    } else {
                        buffer.shallow_clone()
                    };
                }
                let _ = var.f_sub_(&d.f_mul_scalar(lr)?)?;
                var.zero_grad();
            }
            Ok(())
        })
    }

    /// Writes the momentum buffers (on CPU, sorted by name) as a
    /// safetensors file.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        let named: Vec<(String, Tensor)> = self
            .buffers
            .iter()
            .map(|(name, t)| (name.clone(), t.to_device(Device::Cpu).contiguous()))
            .collect();
        Tensor::write_safetensors(&named, path).map_err(|e| TrainError::Checkpoint {
            path: path.to_owned(),
            message: format!("cannot write optimizer state: {e}"),
        })
    }

    /// Reads buffers written by [`Sgd::save`] for `vs`'s variables: each
    /// must name a trainable variable and have its shape, else
    /// [`TrainError::Checkpoint`]; nothing is replaced unless all fit.
    pub fn load(&mut self, path: &Path, vs: &nn::VarStore) -> Result<(), TrainError> {
        let bad = |message: String| TrainError::Checkpoint {
            path: path.to_owned(),
            message,
        };
        let named = Tensor::read_safetensors(path)
            .map_err(|e| bad(format!("cannot read optimizer state: {e}")))?;
        let variables = vs.variables();
        let mut buffers = BTreeMap::new();
        for (name, tensor) in named {
            let Some(var) = variables.get(&name).filter(|v| v.requires_grad()) else {
                return Err(bad(format!(
                    "optimizer state has a buffer for {name:?}, which is not a trainable variable of this network"
                )));
            };
            if tensor.size() != var.size() {
                return Err(bad(format!(
                    "optimizer buffer {name:?} has shape {:?}, the variable {:?}",
                    tensor.size(),
                    var.size()
                )));
            }
            buffers.insert(name, tensor.to_device(var.device()).to_kind(var.kind()));
        }
        self.buffers = buffers;
        Ok(())
    }
}
