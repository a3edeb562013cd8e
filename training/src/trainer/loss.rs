//! The training loss, defined once: the trainer's SGD step and
//! `heterodox model --loss` (which python/tests/test_torch.py holds against
//! `heterodox.learn.loss_of`, equal to 1e-5) both call [`loss`].
//!
//! Per position: `-sum_a pi(a) log p(a)` over the legal actions (the
//! network's logits masked to the legal actions, then a softmax) plus
//! `value_loss_weight * (v - z)^2`, averaged over the batch. The L2 term is
//! the optimizer's weight decay, not part of the loss.
//!
//! Illegal actions get the logit [`ILLEGAL_LOGIT`], not minus infinity:
//! `0 * -inf` is NaN where the target is 0, and a large finite number gives
//! them a probability of exactly 0 in float32 all the same.

use heterodox_models::tch::{Kind, Tensor};

/// The logit an illegal action is given before the softmax.
pub const ILLEGAL_LOGIT: f64 = -1.0e9;

/// The weights of the loss's terms (the policy term's weight is 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossWeights {
    /// The value term's weight (`training.value_loss_weight`).
    pub value: f64,
}

/// A batch's targets, as tensors on the network's device.
pub struct Targets<'a> {
    /// `[B, A]` booleans: the legal actions of each position.
    pub legal: &'a Tensor,
    /// `[B, A]`: the search's policy over the legal actions (0 elsewhere).
    pub policy: &'a Tensor,
    /// `[B]`: the value target in [-1, 1], from the player to move.
    pub value: &'a Tensor,
}

/// The loss and its terms, each a scalar tensor (the total carries the
/// gradient), with the masked log-policy the figures are read from.
pub struct LossTerms {
    pub total: Tensor,
    pub policy: Tensor,
    pub value: Tensor,
    /// `[B, A]`: log-softmax of the masked logits.
    pub log_policy: Tensor,
}

/// The loss of a network's outputs (`logits` `[B, A]`, `value` `[B]`)
/// against `targets`.
pub fn loss(
    logits: &Tensor,
    value: &Tensor,
    targets: &Targets<'_>,
    weights: LossWeights,
) -> LossTerms {
    let masked = logits.masked_fill(&targets.legal.logical_not(), ILLEGAL_LOGIT);
    let log_policy = masked.log_softmax(1, Kind::Float);
    let policy = -(targets.policy * &log_policy)
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float);
    let value = (value - targets.value).square().mean(Kind::Float);
    let total = &policy + &value * weights.value;
    LossTerms {
        total,
        policy,
        value,
        log_policy,
    }
}
