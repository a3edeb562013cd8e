//! The training loss, defined once: the trainer's SGD step and
//! `heterodox model --loss` (which python/tests/test_torch.py holds against
//! `heterodox.learn.loss_of`, equal to 1e-5) both call [`loss`].
//!
//! Per position: `-sum_a pi(a) log p(a)` over the legal actions (the
//! network's logits masked to the legal actions, then a softmax) plus
//! `value_loss_weight * (v - z)^2`, and, for a network with the auxiliary
//! heads, `moves_left_loss_weight * (m - m*)^2 + material_loss_weight *
//! (q - q*)^2` (the loader's moves-left and material targets), averaged
//! over the batch. The L2 term is the optimizer's weight decay, not part
//! of the loss.
//!
//! Illegal actions get the logit [`ILLEGAL_LOGIT`], not minus infinity:
//! `0 * -inf` is NaN where the target is 0, and a large finite number gives
//! them a probability of exactly 0 in float32 all the same.

use heterodox_models::tch::{Kind, Tensor};
use heterodox_models::Outputs;

/// The logit an illegal action is given before the softmax.
pub const ILLEGAL_LOGIT: f64 = -1.0e9;

/// The weights of the loss's terms (the policy term's weight is 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossWeights {
    /// The value term's weight (`training.value_loss_weight`).
    pub value: f64,
    /// The moves-left term's (`training.moves_left_loss_weight`).
    pub moves_left: f64,
    /// The material term's (`training.material_loss_weight`).
    pub material: f64,
}

/// A batch's targets, as tensors on the network's device.
pub struct Targets<'a> {
    /// `[B, A]` booleans: the legal actions of each position.
    pub legal: &'a Tensor,
    /// `[B, A]`: the search's policy over the legal actions (0 elsewhere).
    pub policy: &'a Tensor,
    /// `[B]`: the value target in [-1, 1], from the player to move.
    pub value: &'a Tensor,
    /// `[B]`: steps left / `MOVES_LEFT_SCALE` (used with the auxiliary heads).
    pub moves_left: &'a Tensor,
    /// `[B]`: `tanh(final material lead / MATERIAL_SCALE_CP)` (likewise).
    pub material: &'a Tensor,
}

/// The loss and its terms, each a scalar tensor (the total carries the
/// gradient), with the masked log-policy the figures are read from.
pub struct LossTerms {
    pub total: Tensor,
    pub policy: Tensor,
    pub value: Tensor,
    /// The auxiliary terms, unweighted, when the network has the heads.
    pub moves_left: Option<Tensor>,
    pub material: Option<Tensor>,
    /// `[B, A]`: log-softmax of the masked logits.
    pub log_policy: Tensor,
}

/// The loss of a network's outputs against `targets`.
pub fn loss(outputs: &Outputs, targets: &Targets<'_>, weights: LossWeights) -> LossTerms {
    let masked = outputs
        .policy
        .masked_fill(&targets.legal.logical_not(), ILLEGAL_LOGIT);
    let log_policy = masked.log_softmax(1, Kind::Float);
    let policy = -(targets.policy * &log_policy)
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float);
    let squared_error =
        |output: &Tensor, target: &Tensor| (output - target).square().mean(Kind::Float);
    let value = squared_error(&outputs.value, targets.value);
    let moves_left = outputs
        .moves_left
        .as_ref()
        .map(|m| squared_error(m, targets.moves_left));
    let material = outputs
        .material
        .as_ref()
        .map(|m| squared_error(m, targets.material));
    let mut total = &policy + &value * weights.value;
    if let Some(term) = &moves_left {
        total += term * weights.moves_left;
    }
    if let Some(term) = &material {
        total += term * weights.material;
    }
    LossTerms {
        total,
        policy,
        value,
        moves_left,
        material,
        log_policy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(t: &Tensor) -> f64 {
        f64::try_from(t).unwrap()
    }

    /// The loss of one position: its legal actions, policy target and the
    /// three scalar targets (value, moves left, material).
    fn loss_of_row(
        outputs: &Outputs,
        legal: &[bool],
        policy: &[f32],
        [value, moves_left, material]: [f32; 3],
        weights: LossWeights,
    ) -> LossTerms {
        let width = legal.len() as i64;
        let scalar_target = |x: f32| Tensor::from_slice(&[x]);
        let (value, moves_left, material) = (
            scalar_target(value),
            scalar_target(moves_left),
            scalar_target(material),
        );
        let targets = Targets {
            legal: &Tensor::from_slice(legal).view([1, width]),
            policy: &Tensor::from_slice(policy).view([1, width]),
            value: &value,
            moves_left: &moves_left,
            material: &material,
        };
        loss(outputs, &targets, weights)
    }

    /// Two actions with probabilities 1/4 and 3/4, an illegal third; every
    /// term worked out by hand.
    #[test]
    fn every_term_by_hand() {
        let outputs = Outputs {
            policy: Tensor::from_slice(&[0.0f32, 3.0f32.ln(), 5.0]).view([1, 3]),
            value: Tensor::from_slice(&[0.5f32]),
            moves_left: Some(Tensor::from_slice(&[0.2f32])),
            material: Some(Tensor::from_slice(&[0.1f32])),
        };
        let weights = LossWeights {
            value: 1.0,
            moves_left: 0.5,
            material: 2.0,
        };
        let terms = loss_of_row(
            &outputs,
            &[true, true, false],
            &[0.5, 0.5, 0.0],
            [1.0, 0.5, -0.1],
            weights,
        );
        // -(0.5 ln 1/4 + 0.5 ln 3/4)
        let policy_loss = -(0.5 * 0.25f64.ln() + 0.5 * 0.75f64.ln());
        assert!((scalar(&terms.policy) - policy_loss).abs() < 1e-6);
        assert!((scalar(&terms.value) - 0.25).abs() < 1e-6);
        assert!((scalar(terms.moves_left.as_ref().unwrap()) - 0.09).abs() < 1e-6);
        assert!((scalar(terms.material.as_ref().unwrap()) - 0.04).abs() < 1e-6);
        let total = policy_loss + 0.25 + 0.5 * 0.09 + 2.0 * 0.04;
        assert!((scalar(&terms.total) - total).abs() < 1e-6);
    }

    #[test]
    fn without_the_heads_only_policy_and_value_count() {
        let outputs = Outputs {
            policy: Tensor::from_slice(&[0.0f32, 0.0]).view([1, 2]),
            value: Tensor::from_slice(&[0.0f32]),
            moves_left: None,
            material: None,
        };
        let weights = LossWeights {
            value: 2.0,
            moves_left: 1.0,
            material: 1.0,
        };
        let terms = loss_of_row(
            &outputs,
            &[true, true],
            &[1.0, 0.0],
            [0.5, 0.0, 0.0],
            weights,
        );
        assert!(terms.moves_left.is_none() && terms.material.is_none());
        // ln 2 + 2 * 0.25
        assert!((scalar(&terms.total) - (2.0f64.ln() + 0.5)).abs() < 1e-6);
    }
}
