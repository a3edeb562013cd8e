//! Adam with its moments as ordinary tensors, so that a checkpoint saves
//! them and a resumed run continues the optimiser where it stopped
//! (libtorch's optimizer state cannot be read out through tch; see
//! trainer/optimizer.rs). The update is PyTorch's `torch.optim.Adam`
//! (betas 0.9 and 0.999, eps 1e-8, no weight decay), so a Python trainer
//! reproduces it.

use heterodox_models::tch::{no_grad, Tensor};

pub const BETA1: f64 = 0.9;
pub const BETA2: f64 = 0.999;
pub const EPS: f64 = 1e-8;

/// The optimiser's state for a fixed list of parameters.
#[derive(Debug)]
pub struct Adam {
    /// Updates applied so far.
    pub step: u64,
    /// The first moments, one per parameter (of its shape).
    pub first: Vec<Tensor>,
    /// The second moments.
    pub second: Vec<Tensor>,
}

impl Adam {
    /// Fresh moments (zeros) for `parameters`.
    pub fn new(parameters: &[&Tensor]) -> Adam {
        let zeros = || parameters.iter().map(|p| p.detach().zeros_like()).collect();
        Adam {
            step: 0,
            first: zeros(),
            second: zeros(),
        }
    }

    /// Applies one update at rate `lr` with the gradients the last
    /// `backward()` left on `parameters` (the list `new` was given), and
    /// clears them. A parameter without a gradient is left alone.
    pub fn update(&mut self, parameters: &[&Tensor], lr: f64) {
        self.step += 1;
        let t = self.step as i32;
        let step_size = lr / (1.0 - BETA1.powi(t));
        let correction2 = (1.0 - BETA2.powi(t)).sqrt();
        no_grad(|| {
            for ((p, m), v) in parameters.iter().zip(&mut self.first).zip(&mut self.second) {
                let mut p = p.shallow_clone();
                let grad = p.grad();
                if !grad.defined() {
                    continue;
                }
                let _ = m.g_mul_scalar_(BETA1);
                let _ = m.g_add_(&(&grad * (1.0 - BETA1)));
                let _ = v.g_mul_scalar_(BETA2);
                let _ = v.g_add_(&(&grad * &grad * (1.0 - BETA2)));
                let denominator = v.sqrt() / correction2 + EPS;
                let _ = p.g_sub_(&(&*m / denominator * step_size));
                p.zero_grad();
            }
        });
    }
}
