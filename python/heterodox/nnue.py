"""The engine's learned evaluation (NNUE) in PyTorch, for notebooks.

``heterodox.nnue_data(dir)`` reads a teacher directory (``heterodox teach
--value-only``) into the arrays ``heterodox nnue train`` trains on; this
module holds the same net in PyTorch, its loss, a short training loop and
``save``, which writes the net file the engine reads
(``Engine(variant, evaluation=PATH)``; docs/engine.md, "Learned
evaluation"):

>>> import heterodox, heterodox.nnue as nnue
>>> data = heterodox.nnue_data("runs/teach-chess")           # doctest: +SKIP
>>> net = nnue.Net(data["inputs"], hidden=128)               # doctest: +SKIP
>>> nnue.train(net, data, epochs=2)                          # doctest: +SKIP
>>> nnue.save(net, data, "chess.safetensors")                # doctest: +SKIP
>>> heterodox.Engine("chess", evaluation="chess.safetensors")  # doctest: +SKIP

The architecture is ``inputs -> 2 x hidden -> 1``: one feature
transformer (an embedding bag summing the active features' rows, plus a
bias) for each perspective, the side to act's first, a clipped ReLU (0 to
1), and a linear output whose value times 400 is centipawns. The
prediction is ``sigmoid(2 y)``, the teacher's scale (``tanh(cp / 400)``),
and the target blends the teacher's value with the game's result.
"""

from __future__ import annotations

import os

import numpy as np
import torch
from torch import nn

from heterodox._atomic import write_file

#: Centipawns per unit of the net's output (the file's ``scale``).
SCALE = 400
#: The largest |w| the engine's quantization holds (network.rs).
WEIGHT_LIMIT = 31.0
FORMAT = "heterodox-nnue"
FORMAT_VERSION = 1


class Net(nn.Module):
    """The engine's net: ``Net(inputs, hidden)``; ``forward(us, us_offsets,
    them, them_offsets)`` takes each perspective's flat feature indices and
    their bag offsets (torch.long) and returns the output ``y`` (one per
    position, centipawns / 400)."""

    def __init__(self, inputs: int, hidden: int = 128, seed: int = 0, base: str = "none"):
        super().__init__()
        if base not in ("none", "classical"):
            raise ValueError(f"base must be 'none' or 'classical', not {base!r}")
        #: What the output is added to: nothing, or the classical evaluation
        #: (the data's ``classical`` column; the file's ``base``).
        self.base = base
        generator = torch.Generator().manual_seed(seed)
        self.ft = nn.EmbeddingBag(inputs, hidden, mode="sum")
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        self.out = nn.Linear(2 * hidden, 1)
        with torch.no_grad():
            self.ft.weight.copy_(torch.randn(inputs, hidden, generator=generator) * 0.05)
            self.ft_bias.fill_(0.1)
            self.out.weight.copy_(torch.randn(1, 2 * hidden, generator=generator) * 0.05)
            self.out.bias.zero_()

    def forward(self, us, us_offsets, them, them_offsets):
        a = torch.clamp(self.ft(us, us_offsets) + self.ft_bias, 0.0, 1.0)
        b = torch.clamp(self.ft(them, them_offsets) + self.ft_bias, 0.0, 1.0)
        return self.out(torch.cat([a, b], dim=1)).squeeze(1)

    def clamp_weights(self) -> None:
        """Keeps every weight inside what the engine quantizes."""
        with torch.no_grad():
            for p in self.parameters():
                p.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)


def _bags(features: np.ndarray, starts: np.ndarray, ends: np.ndarray):
    """The features of ``[starts[k], ends[k])`` for every k, flat, and each
    bag's offset in the flat array (EmbeddingBag's inputs)."""
    lengths = (ends - starts).astype(np.int64)
    offsets = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    positions = np.repeat(starts.astype(np.int64) - offsets, lengths) + np.arange(lengths.sum())
    return (
        torch.from_numpy(features[positions].astype(np.int64)),
        torch.from_numpy(offsets),
    )


def batch(data: dict, index: np.ndarray):
    """The net's inputs for positions ``index`` of ``data``
    (``heterodox.nnue_data``): (us, us_offsets, them, them_offsets)."""
    features, offsets = data["features"], data["offsets"]
    index = np.asarray(index, dtype=np.int64)
    us, us_offsets = _bags(features, offsets[2 * index], offsets[2 * index + 1])
    them, them_offsets = _bags(features, offsets[2 * index + 1], offsets[2 * index + 2])
    return us, us_offsets, them, them_offsets


def targets(data: dict, index: np.ndarray, result_weight: float = 0.25) -> torch.Tensor:
    """The training target of positions ``index``: the teacher's value and
    the game's result, each as a probability of winning, blended."""
    value = (data["values"][index] + 1.0) / 2.0
    result = (data["results"][index] + 1.0) / 2.0
    blend = (1.0 - result_weight) * value + result_weight * result
    return torch.from_numpy(blend.astype(np.float32))


def loss(net: Net, data: dict, index: np.ndarray, result_weight: float = 0.25) -> torch.Tensor:
    """Mean squared error of ``sigmoid(2 y)`` against the blended target
    (``y`` plus the classical evaluation / 400 for a net on that base)."""
    y = net(*batch(data, index))
    if net.base == "classical":
        y = y + torch.from_numpy(data["classical"][index].astype(np.float32)) / SCALE
    prediction = torch.sigmoid(2.0 * y)
    return torch.mean((prediction - targets(data, index, result_weight)) ** 2)


def train(
    net: Net,
    data: dict,
    epochs: int = 2,
    batch_size: int = 4096,
    lr: float = 1e-3,
    result_weight: float = 0.25,
    seed: int = 0,
) -> list[float]:
    """Adam over shuffled batches; returns each epoch's mean loss."""
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    n = len(data["values"])
    losses = []
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, batch_size):
            index = order[start : start + batch_size]
            optimizer.zero_grad()
            value = loss(net, data, index, result_weight)
            value.backward()
            optimizer.step()
            net.clamp_weights()
            total += float(value.detach()) * len(index)
        losses.append(total / n)
    return losses


def save(net: Net, data: dict, path: str | os.PathLike, producer: str = "heterodox.nnue") -> None:
    """Writes the net file the engine reads, with the metadata of the data
    it was trained on (variant, rules, feature set and versions)."""
    from safetensors.torch import save_file

    hidden = net.ft_bias.shape[0]
    tensors = {
        "ft.weight": net.ft.weight.detach().float().contiguous(),
        "ft.bias": net.ft_bias.detach().float().contiguous(),
        "out.weight": net.out.weight.detach().float().reshape(-1).contiguous(),
        "out.bias": net.out.bias.detach().float().reshape(1).contiguous(),
    }
    metadata = {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "variant": data["variant"],
        "rules": data["rules"],
        "feature_set": data["feature_set"],
        "feature_version": str(data["feature_version"]),
        "encoding_version": str(data["encoding_version"]),
        "inputs": str(data["inputs"]),
        "hidden": str(hidden),
        "scale": str(SCALE),
        "base": net.base,
        "producer": producer,
    }
    write_file(path, lambda temporary: save_file(tensors, str(temporary), metadata=metadata))
