"""The pieces of a PyTorch AlphaZero learner, shared by the example trainer
(python/examples/alphazero.py) and the Ray learner (heterodox.ray), so both
train on the same loss with the same optimizer as the Rust trainer
(training/src/trainer/).

Needs ``torch`` (``pip install heterodox[torch]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn


#: The logit an illegal action gets before the softmax: the Rust trainer's
#: ``ILLEGAL_LOGIT`` (training/src/trainer/loss.rs). Finite, not -inf, so
#: that ``0 * log p`` stays 0 where the target is 0.
ILLEGAL_LOGIT = -1.0e9


#: The auxiliary terms' default weights: the Rust trainer's
#: ``training.moves_left_loss_weight`` and ``training.material_loss_weight``.
MOVES_LEFT_LOSS_WEIGHT = 0.25
MATERIAL_LOSS_WEIGHT = 0.25


def loss_terms(
    logits: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor,
    target: torch.Tensor,
    z: torch.Tensor,
    value_loss_weight: float = 1.0,
    moves_left: torch.Tensor | None = None,
    moves_left_target: torch.Tensor | None = None,
    material: torch.Tensor | None = None,
    material_target: torch.Tensor | None = None,
    moves_left_loss_weight: float = MOVES_LEFT_LOSS_WEIGHT,
    material_loss_weight: float = MATERIAL_LOSS_WEIGHT,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
    """The Rust trainer's loss (training/src/trainer/loss.rs), term by term:
    policy cross-entropy over the legal actions (``mask``, bool [B, A])
    plus ``value_loss_weight`` times the value's squared error, plus, for a
    network with the auxiliary heads (``moves_left`` and ``material`` given),
    their squared errors times their weights; every term averaged over the
    batch. Returns (loss, policy loss, value loss, moves-left loss,
    material loss) as tensors, the last two None without the heads;
    python/tests/test_torch.py holds them equal to the Rust numbers to
    1e-5."""
    log_p = logits.masked_fill(~mask, ILLEGAL_LOGIT).log_softmax(-1)
    policy_loss = -(target * log_p).sum(-1).mean()
    value_loss = (value - z).pow(2).mean()
    loss = policy_loss + value_loss_weight * value_loss
    moves_left_loss = material_loss = None
    if moves_left is not None:
        moves_left_loss = (moves_left - moves_left_target).pow(2).mean()
        loss = loss + moves_left_loss_weight * moves_left_loss
    if material is not None:
        material_loss = (material - material_target).pow(2).mean()
        loss = loss + material_loss_weight * material_loss
    return loss, policy_loss, value_loss, moves_left_loss, material_loss


def loss_of(
    net: nn.Module,
    batch: dict[str, np.ndarray],
    device: torch.device | str,
    value_loss_weight: float = 1.0,
    moves_left_loss_weight: float = MOVES_LEFT_LOSS_WEIGHT,
    material_loss_weight: float = MATERIAL_LOSS_WEIGHT,
) -> tuple[torch.Tensor, float, float]:
    """The Rust trainer's loss on a ``Loader`` batch; returns (loss, policy
    loss, value loss), the last two as floats for logging. A network with
    ``forward_all`` (heterodox.torch.ResNet) adds its auxiliary heads'
    terms (``aux_losses_of`` gives them)."""
    loss, policy_loss, value_loss, _, _ = _terms_of(
        net, batch, device, value_loss_weight, moves_left_loss_weight, material_loss_weight)
    return loss, policy_loss.item(), value_loss.item()


def aux_losses_of(
    net: nn.Module,
    batch: dict[str, np.ndarray],
    device: torch.device | str,
) -> tuple[float, float] | None:
    """The auxiliary heads' squared errors (moves left, material) on a
    batch, None for a network without them."""
    with torch.no_grad():
        _, _, _, moves_left, material = _terms_of(net, batch, device, 1.0, 0.0, 0.0)
    if moves_left is None:
        return None
    return moves_left.item(), material.item()


def _terms_of(net, batch, device, value_loss_weight, moves_left_loss_weight, material_loss_weight):
    x, mask, target, z = (torch.from_numpy(batch[k]).to(device)
                          for k in ("observations", "masks", "policies", "values"))
    forward_all = getattr(net, "forward_all", None)
    if forward_all is None:
        logits, value = net(x)
        moves_left = material = None
    else:
        logits, value, moves_left, material = forward_all(x)
    moves_left_target = material_target = None
    if moves_left is not None:
        moves_left_target = torch.from_numpy(batch["moves_left"]).to(device)
        material_target = torch.from_numpy(batch["material"]).to(device)
    return loss_terms(logits, value, mask, target, z, value_loss_weight,
                      moves_left, moves_left_target, material, material_target,
                      moves_left_loss_weight, material_loss_weight)


def optimizer_for(
    net: nn.Module,
    lr: float = 0.02,
    momentum: float = 0.9,
    weight_decay: float = 1e-4,
    nesterov: bool = True,
) -> torch.optim.Optimizer:
    """SGD with momentum, L2 as weight decay: the Rust trainer's optimizer
    (its defaults are configs/*.toml's [optimizer])."""
    return torch.optim.SGD(net.parameters(), lr=lr, momentum=momentum, nesterov=nesterov,
                           weight_decay=weight_decay)


def sgd_step(
    net: nn.Module,
    optimizer: torch.optim.Optimizer,
    batch: dict[str, Any],
    device: torch.device | str,
    value_loss_weight: float = 1.0,
    moves_left_loss_weight: float = MOVES_LEFT_LOSS_WEIGHT,
    material_loss_weight: float = MATERIAL_LOSS_WEIGHT,
) -> tuple[float, float, float]:
    """One SGD step on one batch, the network in training mode; returns
    (loss, policy loss, value loss)."""
    net.train()
    loss, policy_loss, value_loss = loss_of(net, batch, device, value_loss_weight,
                                            moves_left_loss_weight, material_loss_weight)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), policy_loss, value_loss
